// /api/user: preferences (SPEC §7 stated method), profile read/update, invitations.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { getProfile, inviteUser, updatePreferences, updateProfile } from '../../services/accounts/users.ts'
import { ValidationError } from '../../services/errors.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'

const idParams = { type: 'object', properties: { id: { type: 'string', maxLength: 20 } }, required: ['id'] } as const

/** SPEC §8: a user id that is not a positive whole number gets "Valid User ID required." */
function userIdOf(request: FastifyRequest): number {
  const raw = (request.params as { id: string }).id
  const id = Number(raw)
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(id) || id < 1) throw new ValidationError('id', 'Valid User ID required.')
  return id
}

export async function userApi(app: FastifyInstance) {
  app.addHook('preHandler', requireUser)

  app.post('/preferences', {
    schema: { body: { type: 'object', properties: { newPreferences: {} }, required: ['newPreferences'] } },
  }, async (request) => {
    const preferences = await updatePreferences(app.deps, actorOf(request), (request.body as { newPreferences: unknown }).newPreferences)
    return { data: { preferences } }
  })

  app.post('/create', {
    schema: {
      body: {
        type: 'object', additionalProperties: false, required: ['email', 'name', 'role'],
        properties: { email: { type: 'string' }, name: { type: 'string' }, role: { type: 'string' }, ownerId: { type: 'string' } },
      },
    },
  }, async (request, reply) => {
    const body = request.body as { email: string; name: string; role: string; ownerId?: string }
    const user = await inviteUser(app.deps, actorOf(request), body)
    reply.code(201)
    return { data: { user } }
  })

  app.get('/:id', { schema: { params: idParams } }, async (request) => {
    return { data: { user: await getProfile(app.deps, actorOf(request), userIdOf(request)) } }
  })

  app.patch('/:id', {
    schema: {
      params: idParams,
      body: { type: 'object', properties: { name: { type: 'string' }, title: { type: 'string' } }, additionalProperties: false },
    },
  }, async (request) => {
    const user = await updateProfile(app.deps, actorOf(request), userIdOf(request), request.body as { name?: string; title?: string })
    return { data: { user } }
  })
}
