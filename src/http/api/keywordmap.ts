// /api/keywordmap (SPEC §7): index, adviceset/{ruleSetId}, scenario/{adviceScenarioId}, {id}, {id}/restore; a new map
// is POST /. The owner's users read its maps; its admins (and provider admins) create, change, delete and restore.
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import {
  createKeywordMap, deleteKeywordMap, getKeywordMap, keywordMapsOfScenario, keywordMapsOfSet, listKeywordMapsFor, restoreKeywordMap,
  updateKeywordMapFor,
} from '../../services/library/keyword-maps.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { AnyId, IdParams, IdString } from '../schemas.ts'
import { itemId } from './ids.ts'

/** Checked by the service, which names the field at fault (phrases, adviceSetId, scenarioId …). */
const mapFields = {
  name: Type.Optional(Type.String()), phrases: Type.Optional(Type.Unknown()), adviceSetId: Type.Optional(AnyId), scenarioId: Type.Optional(AnyId),
}
const IndexQuery = Type.Object({ q: Type.Optional(Type.String({ maxLength: 512 })), adviceSetId: Type.Optional(IdString) }, { additionalProperties: false })

export const keywordMapApi: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('preHandler', requireUser)
  const deps = app.deps

  app.get('/index', { schema: { querystring: IndexQuery } }, async (request) => {
    const query = request.query
    return {
      data: await listKeywordMapsFor(deps, actorOf(request), {
        text: query.q, ...(query.adviceSetId !== undefined ? { adviceSetId: itemId(query.adviceSetId, 'adviceSetId') } : {}),
      }),
    }
  })
  app.get('/adviceset/:ruleSetId', { schema: { params: Type.Object({ ruleSetId: IdString }) } }, async (request) =>
    ({ data: await keywordMapsOfSet(deps, actorOf(request), itemId(request.params.ruleSetId, 'ruleSetId')) }))
  app.get('/scenario/:adviceScenarioId', { schema: { params: Type.Object({ adviceScenarioId: IdString }) } }, async (request) =>
    ({ data: await keywordMapsOfScenario(deps, actorOf(request), itemId(request.params.adviceScenarioId, 'adviceScenarioId')) }))

  app.post('/', { schema: { body: Type.Object(mapFields, { additionalProperties: false }) } }, async (request, reply) => {
    reply.code(201)
    return { data: await createKeywordMap(deps, actorOf(request), request.body) }
  })
  app.get('/:id', { schema: { params: IdParams } }, async (request) => ({ data: await getKeywordMap(deps, actorOf(request), itemId(request.params.id)) }))
  app.patch('/:id', { schema: { params: IdParams, body: Type.Object(mapFields, { additionalProperties: false }) } }, async (request) =>
    ({ data: await updateKeywordMapFor(deps, actorOf(request), itemId(request.params.id), request.body) }))
  app.delete('/:id', { schema: { params: IdParams } }, async (request) => {
    await deleteKeywordMap(deps, actorOf(request), itemId(request.params.id))
    return { data: { deleted: true } }
  })
  app.post('/:id/restore', { schema: { params: IdParams } }, async (request) => ({ data: await restoreKeywordMap(deps, actorOf(request), itemId(request.params.id)) }))
}
