// /api/user: preferences (SPEC §7 stated method), profile read/update, invitations, and managing team members (role,
// deactivate and reactivate, resend or cancel a pending invitation), and one's own personal access tokens (issue 28).
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { getProfile, updatePreferences, updateProfile } from '../../services/accounts/users.ts'
import { cancelInvitation, inviteUser, resendInvitation } from '../../services/accounts/invitations.ts'
import { changeMemberRole, deactivateMember, reactivateMember } from '../../services/accounts/members.ts'
import { createAccessToken, listAccessTokens, revokeAccessTokenOf } from '../../services/accounts/access-tokens.ts'
import { ValidationError } from '../../services/errors.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { IdParams, OrNull } from '../schemas.ts'
import { itemId } from './ids.ts'

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
const TokenBody = Type.Object({
  name: Type.String(),
  scopes: Type.Array(Type.String({ description: 'export or import' }), { maxItems: 10 }),
  expiresInDays: Type.Optional(OrNull(Type.Integer({ description: 'Days until the token stops working; null or left out: it does not expire' }))),
}, { additionalProperties: false })
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

  // One's own personal access tokens: the secret is in the answer to the POST only, never again.
  app.get('/tokens', async (request) => ({ data: await listAccessTokens(app.deps, actorOf(request)) }))
  app.post('/tokens', { schema: { body: TokenBody } }, async (request, reply) => {
    const { token, secret } = await createAccessToken(app.deps, actorOf(request), request.body)
    reply.code(201).header('cache-control', 'no-store')
    return { data: { token, secret } }
  })
  app.delete('/tokens/:id', { schema: { params: IdParams } }, async (request) => {
    return { data: await revokeAccessTokenOf(app.deps, actorOf(request), itemId(request.params.id)) }
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
