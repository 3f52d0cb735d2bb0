// /api/catalog (SPEC §7 catalog): published advice sets the signed-in user may read, their versions and advice.
// Session routes, so untagged: they stay out of the partner OpenAPI document.
import type { FastifyInstance } from 'fastify'
import { catalogAdvice, catalogAdviceVersions, catalogIndex, catalogVersion, catalogVersions } from '../../services/publishing/catalog.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { itemId } from './ids.ts'

const param = (name: string) => ({ type: 'object', required: [name], properties: { [name]: { type: 'string', maxLength: 20 } } })

export async function catalogApi(app: FastifyInstance) {
  app.addHook('preHandler', requireUser)
  const deps = app.deps
  const paramId = (request: { params: unknown }, name: string) => itemId((request.params as Record<string, string>)[name], name)

  app.get('/index', { schema: { summary: 'Published advice sets you may read, by name' } },
    async (request) => ({ data: await catalogIndex(deps, actorOf(request)) }))
  app.get('/version', { schema: { summary: 'The published version of every advice set you may read' } },
    async (request) => ({ data: await catalogVersions(deps, actorOf(request)) }))
  app.get('/version/:versionId', { schema: { summary: 'One version and what it holds', params: param('versionId') } },
    async (request) => ({ data: await catalogVersion(deps, actorOf(request), paramId(request, 'versionId')) }))
  app.get('/advice/:ruleSetId', { schema: { summary: 'The advice items of an advice set’s published version', params: param('ruleSetId') } },
    async (request) => ({ data: await catalogAdvice(deps, actorOf(request), paramId(request, 'ruleSetId')) }))
  app.get('/advice/:ruleSetId/versions', {
    schema: { summary: 'An advice set’s versions', description: 'Every version for the set’s own team; versions that were published for other readers.', params: param('ruleSetId') },
  }, async (request) => ({ data: await catalogAdviceVersions(deps, actorOf(request), paramId(request, 'ruleSetId')) }))
}
