// /api/adviceset/{ruleSetId}/ai-user-request[/{id}] (SPEC §7): a set's requests for advice for its team — list
// (optionally by status), record one, read, change status / answering rule / text, delete.
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import {
  ADVICE_REQUEST_STATUSES, changeAdviceRequest, deleteAdviceRequest, getAdviceRequest, listRequestsForSet, recordAdviceRequest,
} from '../../services/library/advice-requests.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { IdString, OrNull, StringEnum } from '../schemas.ts'
import { itemId } from './ids.ts'

const SetParams = Type.Object({ ruleSetId: IdString })
const RequestParams = Type.Object({ ruleSetId: IdString, id: IdString })
const ListQuery = Type.Object({ status: Type.Optional(StringEnum(ADVICE_REQUEST_STATUSES)) }, { additionalProperties: false })
const CreateBody = Type.Object({ text: Type.String() }, { additionalProperties: false })
const ChangeBody = Type.Object({
  status: Type.Optional(Type.String()),
  answeredByRuleId: Type.Optional(OrNull(Type.String({ maxLength: 20 }))),
  text: Type.Optional(Type.String()),
}, { additionalProperties: false })

export const adviceRequestsApi: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('preHandler', requireUser)
  const deps = app.deps

  app.get('/:ruleSetId/ai-user-request', { schema: { params: SetParams, querystring: ListQuery } }, async (request) => ({
    data: await listRequestsForSet(deps, actorOf(request), itemId(request.params.ruleSetId, 'ruleSetId'), request.query.status),
  }))
  app.post('/:ruleSetId/ai-user-request', { schema: { params: SetParams, body: CreateBody } }, async (request, reply) => {
    reply.code(201)
    return { data: await recordAdviceRequest(deps, actorOf(request), itemId(request.params.ruleSetId, 'ruleSetId'), request.body) }
  })
  app.get('/:ruleSetId/ai-user-request/:id', { schema: { params: RequestParams } }, async (request) => ({
    data: await getAdviceRequest(deps, actorOf(request), itemId(request.params.ruleSetId, 'ruleSetId'), itemId(request.params.id)),
  }))
  app.patch('/:ruleSetId/ai-user-request/:id', { schema: { params: RequestParams, body: ChangeBody } }, async (request) => ({
    data: await changeAdviceRequest(deps, actorOf(request), itemId(request.params.ruleSetId, 'ruleSetId'), itemId(request.params.id), request.body),
  }))
  app.delete('/:ruleSetId/ai-user-request/:id', { schema: { params: RequestParams } }, async (request) => {
    await deleteAdviceRequest(deps, actorOf(request), itemId(request.params.ruleSetId, 'ruleSetId'), itemId(request.params.id))
    return { data: { deleted: true } }
  })
}
