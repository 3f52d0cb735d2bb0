// /api/user: preferences (SPEC §7 stated method), profile read/update, invitations.
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { getProfile, inviteUser, updatePreferences, updateProfile } from '../../services/accounts/users.ts'
import { ValidationError } from '../../services/errors.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { IdParams } from '../schemas.ts'

/** SPEC §8: a user id that is not a positive whole number gets "Valid User ID required." */
function userIdOf(raw: string): number {
  const id = Number(raw)
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(id) || id < 1) throw new ValidationError('id', 'Valid User ID required.')
  return id
}

const InviteBody = Type.Object({
  email: Type.String(), name: Type.String(), role: Type.String(), ownerId: Type.Optional(Type.String()),
}, { additionalProperties: false })
const ProfileBody = Type.Object({ name: Type.Optional(Type.String()), title: Type.Optional(Type.String()) }, { additionalProperties: false })

export const userApi: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('preHandler', requireUser)

  app.post('/preferences', { schema: { body: Type.Object({ newPreferences: Type.Unknown() }) } }, async (request) => {
    const preferences = await updatePreferences(app.deps, actorOf(request), request.body.newPreferences)
    return { data: { preferences } }
  })

  app.post('/create', { schema: { body: InviteBody } }, async (request, reply) => {
    const user = await inviteUser(app.deps, actorOf(request), request.body)
    reply.code(201)
    return { data: { user } }
  })

  app.get('/:id', { schema: { params: IdParams } }, async (request) => {
    return { data: { user: await getProfile(app.deps, actorOf(request), userIdOf(request.params.id)) } }
  })

  app.patch('/:id', { schema: { params: IdParams, body: ProfileBody } }, async (request) => {
    const user = await updateProfile(app.deps, actorOf(request), userIdOf(request.params.id), request.body)
    return { data: { user } }
  })
}
