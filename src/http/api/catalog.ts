// /api/catalog (SPEC §7 catalog): published advice sets the signed-in user may read, their versions and advice.
// Session routes, so untagged: they stay out of the partner OpenAPI document.
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { catalogAdvice, catalogAdviceVersions, catalogIndex, catalogVersion, catalogVersions } from '../../services/publishing/catalog.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { IdString } from '../schemas.ts'
import { itemId } from './ids.ts'

const VersionParams = Type.Object({ versionId: IdString })
const SetParams = Type.Object({ ruleSetId: IdString })

export const catalogApi: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('preHandler', requireUser)
  const deps = app.deps

  app.get('/index', { schema: { summary: 'Published advice sets you may read, by name' } },
    async (request) => ({ data: await catalogIndex(deps, actorOf(request)) }))
  app.get('/version', { schema: { summary: 'The published version of every advice set you may read' } },
    async (request) => ({ data: await catalogVersions(deps, actorOf(request)) }))
  app.get('/version/:versionId', { schema: { summary: 'One version and what it holds', params: VersionParams } },
    async (request) => ({ data: await catalogVersion(deps, actorOf(request), itemId(request.params.versionId, 'versionId')) }))
  app.get('/advice/:ruleSetId', { schema: { summary: 'The advice items of an advice set’s published version', params: SetParams } },
    async (request) => ({ data: await catalogAdvice(deps, actorOf(request), itemId(request.params.ruleSetId, 'ruleSetId')) }))
  app.get('/advice/:ruleSetId/versions', {
    schema: { summary: 'An advice set’s versions', description: 'Every version for the set’s own team; versions that were published for other readers.', params: SetParams },
  }, async (request) => ({ data: await catalogAdviceVersions(deps, actorOf(request), itemId(request.params.ruleSetId, 'ruleSetId')) }))
}
