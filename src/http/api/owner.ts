// /api/owner (SPEC §7 owner {id}, {id}/audience, {id}/audience/{audienceId}): an owner and its audiences.
import type { FastifyInstance } from 'fastify'
import { createAudience, deleteAudience, getAudience, getOwner, listAudiences, updateAudience } from '../../services/publishing/audiences.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { itemId } from './ids.ts'

const ownerParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', minLength: 1, maxLength: 64 } } } as const
const audienceParams = {
  type: 'object', required: ['id', 'audienceId'],
  properties: { id: { type: 'string', minLength: 1, maxLength: 64 }, audienceId: { type: 'string', maxLength: 20 } },
} as const
const audienceBody = { type: 'object', additionalProperties: false, properties: { name: { type: 'string' }, description: { type: 'string' } } } as const

export async function ownerApi(app: FastifyInstance) {
  app.addHook('preHandler', requireUser)
  const deps = app.deps
  const params = (request: { params: unknown }) => request.params as { id: string; audienceId?: string }
  const audienceId = (request: { params: unknown }) => itemId(params(request).audienceId, 'audienceId')

  app.get('/:id', { schema: { params: ownerParams } }, async (request) => ({ data: await getOwner(deps, actorOf(request), params(request).id) }))
  app.get('/:id/audience', { schema: { params: ownerParams } }, async (request) => ({ data: await listAudiences(deps, actorOf(request), params(request).id) }))
  app.post('/:id/audience', { schema: { params: ownerParams, body: { ...audienceBody, required: ['name'] } } }, async (request, reply) => {
    reply.code(201)
    return { data: await createAudience(deps, actorOf(request), params(request).id, request.body as { name: string }) }
  })
  app.get('/:id/audience/:audienceId', { schema: { params: audienceParams } }, async (request) => {
    return { data: await getAudience(deps, actorOf(request), params(request).id, audienceId(request)) }
  })
  app.patch('/:id/audience/:audienceId', { schema: { params: audienceParams, body: audienceBody } }, async (request) => {
    return { data: await updateAudience(deps, actorOf(request), params(request).id, audienceId(request), request.body as Record<string, unknown>) }
  })
  app.delete('/:id/audience/:audienceId', { schema: { params: audienceParams } }, async (request) => {
    await deleteAudience(deps, actorOf(request), params(request).id, audienceId(request))
    return { data: { deleted: true } }
  })
}
