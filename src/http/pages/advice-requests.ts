// The forms of the set page's "Requests for advice" section: record one, change its status and answering rule,
// delete it. Each goes back to the section; a refused change comes back as an error message there.
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply } from 'fastify'
import { changeAdviceRequest, deleteAdviceRequest, recordAdviceRequest } from '../../services/library/advice-requests.ts'
import { ConflictError, ValidationError } from '../../services/errors.ts'
import { itemId } from '../api/ids.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { FormBody, IdString } from '../schemas.ts'

const SetParams = Type.Object({ id: IdString })
const RequestParams = Type.Object({ id: IdString, requestId: IdString })

async function backToSection(reply: FastifyReply, setId: number, action: () => Promise<unknown>, done: string) {
  try {
    await action()
    reply.flash({ type: 'info', text: done })
  } catch (error) {
    if (!(error instanceof ValidationError || error instanceof ConflictError)) throw error
    reply.flash({ type: 'error', text: error.message })
  }
  return reply.redirect(`/adviceset/${setId}/show#requests`, 303)
}

export const adviceRequestPages: FastifyPluginAsyncTypebox = async (app) => {
  const deps = app.deps
  app.post('/adviceset/:id/ai-user-request', { preHandler: requireUser, schema: { params: SetParams, body: FormBody } }, async (request, reply) => {
    const setId = itemId(request.params.id)
    return backToSection(reply, setId, () => recordAdviceRequest(deps, actorOf(request), setId, { text: request.body?.text }), 'Request recorded.')
  })
  app.post('/adviceset/:id/ai-user-request/:requestId', { preHandler: requireUser, schema: { params: RequestParams, body: FormBody } }, async (request, reply) => {
    const setId = itemId(request.params.id)
    const body = request.body ?? {}
    return backToSection(reply, setId, () => changeAdviceRequest(deps, actorOf(request), setId, itemId(request.params.requestId, 'requestId'), {
      status: body.status, answeredByRuleId: body.answeredByRuleId ?? null,
    }), 'Request updated.')
  })
  app.post('/adviceset/:id/ai-user-request/:requestId/delete', { preHandler: requireUser, schema: { params: RequestParams } }, async (request, reply) => {
    const setId = itemId(request.params.id)
    return backToSection(reply, setId, () => deleteAdviceRequest(deps, actorOf(request), setId, itemId(request.params.requestId, 'requestId')), 'Request deleted.')
  })
}
