// /api/user: preferences (SPEC §7 stated method), profile read/update, invitations, and managing team members (role,
// deactivate and reactivate, resend or cancel a pending invitation).
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { getProfile, updatePreferences, updateProfile } from '../../services/accounts/users.ts'
import { cancelInvitation, inviteUser, resendInvitation } from '../../services/accounts/invitations.ts'
import { changeMemberRole, deactivateMember, reactivateMember } from '../../services/accounts/members.ts'
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
const RoleBody = Type.Object({ role: Type.String({ description: 'admin, author or viewer' }) }, { additionalProperties: false })

/** The member actions without input, by path: each answers the member as they are afterwards. */
const MEMBER_ACTIONS = {
  deactivate: deactivateMember, reactivate: reactivateMember, 'resend-invitation': resendInvitation, 'cancel-invitation': cancelInvitation,
} as const

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

  app.put('/:id/role', { schema: { params: IdParams, body: RoleBody } }, async (request) => {
    const user = await changeMemberRole(app.deps, actorOf(request), userIdOf(request.params.id), request.body.role)
    return { data: { user } }
  })

  for (const [path, run] of Object.entries(MEMBER_ACTIONS)) {
    app.post(`/:id/${path}`, { schema: { params: IdParams } }, async (request) => {
      return { data: { user: await run(app.deps, actorOf(request), userIdOf(request.params.id)) } }
    })
  }
}
