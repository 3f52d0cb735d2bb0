// Profile, team and invitation pages (SPEC §2 User row) and the provider-wide user admin.
import type { FastifyReply, FastifyRequest } from 'fastify'
import { PageCursorParam, pageCursor } from '../page-cursor.ts'
import { Type, type FastifyPluginAsyncTypebox, type Static } from '@fastify/type-provider-typebox'
import {
  canEditProfile, editableProfile, getProfile, LINK_TOKEN_TTL_MS, listEveryUser, listOwnersForAdmin, listTeam, ownerName, rolePhrase, timeZoneNames, updateProfile,
} from '../../services/accounts/users.ts'
import { cancelInvitation, inviteUser, resendInvitation } from '../../services/accounts/invitations.ts'
import { changeMemberRole, deactivateMember, reactivateMember } from '../../services/accounts/members.ts'
import { ACCESS_TOKEN_SCOPES, createAccessToken, listAccessTokens, MAX_EXPIRY_DAYS, revokeAccessTokenOf } from '../../services/accounts/access-tokens.ts'
import { seal, unseal } from '../../services/integrations/secrets.ts'
import type { PublicUser } from '../../services/accounts/users.ts'
import { canAdministerOwned } from '../../services/accounts/visibility.ts'
import { isProviderAdmin, type Actor, type Deps } from '../../services/context.ts'
import { ConflictError, ValidationError } from '../../services/errors.ts'
import { readApprovalPolicy, setSelfApproval } from '../../services/publishing/approval-policy.ts'
import { DECISION_MODE_LABELS, MAX_RETENTION_DAYS, MIN_RETENTION_DAYS, readDecisionRecordSettings, setDecisionRecordSettings } from '../../services/decisions/owner-settings.ts'
import { dateFormatter } from '../format.ts'
import { actorOf, requireProviderAdmin, requireRole, requireUser } from '../plugins/auth.ts'
import { itemId } from '../api/ids.ts'
import { FormBody, IdParams, IdString } from '../schemas.ts'
import { keptValues, renderFormError } from './forms.ts'
import { redirectWithin } from '../header-values.ts'

declare module 'fastify' {
  interface Session {
    /** The secret of a personal access token just made, sealed, until the profile page has shown it once. */
    accessTokenReveal?: { tokenId: number; sealed: string; until: number }
  }
}

/** As for API keys (pages/api-keys.ts): the secret crosses the redirect sealed with a key the database does not have. */
const TOKEN_REVEAL_PURPOSE = 'access-token-reveal'
const TOKEN_REVEAL_MS = 10 * 60 * 1000
const TOKENS_ANCHOR = '/profile#personal-access-tokens'
const TokenParams = Type.Object({ tokenId: IdString })
/** The team page's keyset: the member (or invitation) after which the list goes on. */
const TeamQuery = Type.Object({ after: PageCursorParam, invitedAfter: PageCursorParam })

/** Whose profile: `?id=`, or the signed-in user's own. */
const ProfileQuery = Type.Object({ id: Type.Optional(Type.Integer({ minimum: 1 })) })

/** How a member's status reads in the team lists. */
const STATUS_LABELS = { active: 'Active', invited: 'Invited', deactivated: 'Deactivated', cancelled: 'Invitation cancelled' }

type FormFields = Record<string, unknown>

/** The member actions of the team pages, by path: what each does and what the flash then says. */
const MEMBER_ACTIONS: Record<string, { run: (deps: Deps, actor: Actor, id: number, body: FormFields) => Promise<PublicUser>; done: (m: PublicUser) => string }> = {
  role: { run: (deps, actor, id, body) => changeMemberRole(deps, actor, id, body.role), done: (m) => `${m.name} is now ${rolePhrase(m.role)}.` },
  deactivate: { run: deactivateMember, done: (m) => `${m.name} is deactivated and signed out everywhere. Everything they made stays; reactivate them to let them back in.` },
  reactivate: { run: reactivateMember, done: (m) => `${m.name} is active again and can sign in.` },
  'resend-invitation': { run: resendInvitation, done: (m) => `A new invitation is on its way to ${m.email}. The links sent before no longer work.` },
  'cancel-invitation': { run: cancelInvitation, done: (m) => `The invitation to ${m.email} is cancelled. You can invite the address again.` },
}

function profileIdOf(request: FastifyRequest, query: Static<typeof ProfileQuery>): number {
  return query.id ?? request.user!.id
}

export const userPages: FastifyPluginAsyncTypebox = async (app) => {
  /**
   * The profile page's data. On one's own profile: the personal access tokens, and a token just made, its secret taken
   * out of the session before rendering (a reload, a second tab or the back button finds nothing).
   */
  const profilePage = async (request: FastifyRequest, reply: FastifyReply, query: Static<typeof ProfileQuery>, extra: Record<string, unknown> = {}) => {
    const actor = actorOf(request)
    const profile = await getProfile(app.deps, actor, profileIdOf(request, query))
    const canEdit = canEditProfile(actor, profile)
    const editorProps = {
      action: `/api/user/${profile.id}`, method: 'PATCH',
      fields: [
        { name: 'name', label: 'Name', value: profile.name, editor: 'input', required: true, maxLength: 120 },
        { name: 'title', label: 'About', value: profile.title, editor: 'textarea', maxLength: 2000 },
      ],
    }
    const own = profile.id === actor.userId
    let newToken: { id: number; secret: string } | null = null
    const revealed = request.session.accessTokenReveal
    if (own && revealed) {
      delete request.session.accessTokenReveal
      if (revealed.until > Date.now()) newToken = { id: revealed.tokenId, secret: unseal(revealed.sealed, app.deps.config.sessionSecret, TOKEN_REVEAL_PURPOSE) }
      reply.header('cache-control', 'no-store')
    }
    return {
      title: 'Profile', profile, canEdit, editorProps, ownerName: await ownerName(app.deps, profile.ownerId),
      tokens: own ? await listAccessTokens(app.deps, actor) : null, newToken, tokenScopes: ACCESS_TOKEN_SCOPES, maxExpiryDays: MAX_EXPIRY_DAYS,
      impersonating: actor.impersonatorId !== null, values: {}, errors: {}, ...extra,
    }
  }

  app.get('/profile', { preHandler: requireUser, schema: { querystring: ProfileQuery } }, async (request, reply) => {
    return reply.page('user/profile', await profilePage(request, reply, request.query))
  })

  /** A new personal access token: its secret is shown once, on the profile page the form returns to. */
  app.post('/profile/tokens', { preHandler: requireUser, schema: { body: FormBody } }, async (request, reply) => {
    const body = request.body ?? {}
    try {
      const { token, secret } = await createAccessToken(app.deps, actorOf(request), { name: body.name, scopes: body.scopes, expiresInDays: body.expiresInDays })
      request.session.accessTokenReveal = { tokenId: token.id, sealed: seal(secret, app.deps.config.sessionSecret, TOKEN_REVEAL_PURPOSE), until: Date.now() + TOKEN_REVEAL_MS }
      return reply.redirect(TOKENS_ANCHOR, 303)
    } catch (error) {
      return renderFormError(reply, error, 'user/profile', await profilePage(request, reply, {}, { values: keptValues(body) }))
    }
  })

  app.post('/profile/tokens/:tokenId/revoke', { preHandler: requireUser, schema: { params: TokenParams } }, async (request, reply) => {
    const token = await revokeAccessTokenOf(app.deps, actorOf(request), itemId(request.params.tokenId, 'tokenId'))
    reply.flash({ type: 'info', text: `The personal access token “${token.name}” is revoked. Requests with it are refused from now on.` })
    return reply.redirect(TOKENS_ANCHOR, 303)
  })

  app.get('/profile/edit', { preHandler: requireUser, schema: { querystring: ProfileQuery } }, async (request, reply) => {
    const profile = await editableProfile(app.deps, actorOf(request), profileIdOf(request, request.query))
    return reply.page('user/profile-edit', { title: 'Edit profile', profileId: profile.id, timeZones: timeZoneNames(),
      values: { name: profile.name, title: profile.title, tz: profile.preferences.tz ?? '' } })
  })

  app.post('/profile/edit', { preHandler: requireUser, schema: { querystring: ProfileQuery, body: FormBody } }, async (request, reply) => {
    const body = request.body ?? {}
    const profileId = profileIdOf(request, request.query)
    // The time zone is on one's own form only (an admin editing a colleague sees Name and About).
    const own = profileId === request.user!.id
    try {
      await updateProfile(app.deps, actorOf(request), profileId, { name: body.name, title: body.title ?? '', ...(own ? { tz: body.tz ?? '' } : {}) })
      reply.flash({ type: 'info', text: 'Profile saved.' })
      return reply.redirect(profileId === request.user!.id ? '/profile' : `/profile?id=${profileId}`, 303)
    } catch (error) {
      return renderFormError(reply, error, 'user/profile-edit', { title: 'Edit profile', profileId, timeZones: timeZoneNames(), values: keptValues(body) })
    }
  })

  const teamPage = async (request: FastifyRequest, extra: Record<string, unknown> = {}, after: { members?: number; pending?: number } = {}) => {
    const actor = actorOf(request)
    const decisions = await readDecisionRecordSettings(app.deps, actor, actor.ownerId)
    return {
      title: 'Team', team: await listTeam(app.deps, actor, after), ownerName: await ownerName(app.deps, actor.ownerId),
      policy: await readApprovalPolicy(app.deps, actor, actor.ownerId), canAdminister: canAdministerOwned(actor, actor.ownerId),
      formatDate: dateFormatter(request.user!.preferences.tz), statusLabels: STATUS_LABELS, linkTtlMs: LINK_TOKEN_TTL_MS,
      decisions, decisionModes: DECISION_MODE_LABELS, retentionBounds: { min: MIN_RETENTION_DAYS, max: MAX_RETENTION_DAYS },
      values: { decisionMode: decisions.decisionMode, decisionRetentionDays: decisions.decisionRetentionDays }, ...extra,
    }
  }

  app.get('/user/team', { preHandler: requireUser, schema: { querystring: TeamQuery } }, async (request, reply) => {
    const { after, invitedAfter } = request.query
    return reply.page('user/team', await teamPage(request, {}, { members: pageCursor(after, 'after'), pending: pageCursor(invitedAfter, 'invitedAfter') }))
  })

  /**
   * A member action from the team page or /admin/users (`next`): done, it says so; refused for the member's state (the
   * last admin, an invitation already accepted), it says why on the page it came from. Rights are the service's.
   */
  for (const [path, action] of Object.entries(MEMBER_ACTIONS)) {
    app.post(`/user/team/:id/${path}`, { preHandler: requireUser, schema: { params: IdParams, body: FormBody } }, async (request, reply) => {
      const body = request.body ?? {}
      try {
        const member = await action.run(app.deps, actorOf(request), itemId(request.params.id), body)
        reply.flash({ type: 'info', text: action.done(member) })
      } catch (error) {
        if (!(error instanceof ConflictError || error instanceof ValidationError)) throw error
        reply.flash({ type: 'error', heading: 'Nothing changed.', text: error.message })
      }
      return redirectWithin(reply, body.next, '/user/team', { code: 303 })
    })
  }

  /** The team's settings (its admins): whether an admin may approve a version they submitted. */
  app.post('/user/team/settings', { preHandler: requireUser, schema: { body: FormBody } }, async (request, reply) => {
    const actor = actorOf(request)
    const allowed = request.body?.selfApprovalAllowed === 'true'
    const policy = await setSelfApproval(app.deps, actor, actor.ownerId, allowed)
    reply.flash({ type: 'info', text: policy.selfApprovalAllowed ? 'Self-approval allowed: an admin may approve a version they submitted.' : 'Self-approval is off: approving needs a second admin.' })
    return reply.redirect('/user/team#publishing', 303)
  })

  /** The team's decision records (its admins): off, best effort or durable, and how many days records are kept. */
  app.post('/user/team/decisions', { preHandler: requireUser, schema: { body: FormBody } }, async (request, reply) => {
    const actor = actorOf(request)
    const body = request.body ?? {}
    try {
      const saved = await setDecisionRecordSettings(app.deps, actor, actor.ownerId, { decisionMode: body.decisionMode, decisionRetentionDays: body.decisionRetentionDays })
      app.partner.recorder.settings.forgetOwner(actor.ownerId)
      reply.flash({ type: 'info', text: `Decision records: ${DECISION_MODE_LABELS[saved.decisionMode]}, kept for ${saved.decisionRetentionDays === 1 ? '1 day' : `${saved.decisionRetentionDays} days`}.` })
      return reply.redirect('/user/team#decision-records', 303)
    } catch (error) {
      return renderFormError(reply, error, 'user/team', await teamPage(request, { values: keptValues(body) }))
    }
  })

  const invitePage = { pageName: 'user-page', heading: 'Invite a team member', action: '/user/new', cancel: '/user/team' }
  app.get('/user/new', { preHandler: requireRole('admin') }, async (_request, reply) =>
    reply.page('user/invite', { title: 'Invite', ...invitePage }))

  app.post('/user/new', { preHandler: requireRole('admin'), schema: { body: FormBody } }, async (request, reply) => {
    const body = request.body ?? {}
    try {
      const invited = await inviteUser(app.deps, actorOf(request), { email: body.email, name: body.name, role: body.role })
      reply.flash({ type: 'info', text: `Invitation sent to ${invited.email}.` })
      return reply.redirect('/user/team', 303)
    } catch (error) {
      return renderFormError(reply, error, 'user/invite', { title: 'Invite', ...invitePage, values: keptValues(body) })
    }
  })

  app.get('/admin/users', { preHandler: requireProviderAdmin }, async (request, reply) => {
    const users = await listEveryUser(app.deps, actorOf(request))
    return reply.page('admin/users', { title: 'Users', users, formatDate: dateFormatter(request.user!.preferences.tz), statusLabels: STATUS_LABELS, linkTtlMs: LINK_TOKEN_TTL_MS })
  })

  const adminNewPage = async (request: FastifyRequest) => ({
    pageName: 'admin-users-new', heading: 'Add a user', action: '/admin/users/new', cancel: '/admin/users',
    owners: await listOwnersForAdmin(app.deps, actorOf(request)),
  })
  app.get('/admin/users/new', { preHandler: requireProviderAdmin }, async (request, reply) =>
    reply.page('user/invite', { title: 'Add a user', ...(await adminNewPage(request)) }))

  app.post('/admin/users/new', { preHandler: requireProviderAdmin, schema: { body: FormBody } }, async (request, reply) => {
    const body = request.body ?? {}
    try {
      const invited = await inviteUser(app.deps, actorOf(request), { email: body.email, name: body.name, role: body.role, ownerId: body.ownerId })
      reply.flash({ type: 'info', text: `Invitation sent to ${invited.email}.` })
      return reply.redirect('/admin/users', 303)
    } catch (error) {
      return renderFormError(reply, error, 'user/invite', { title: 'Add a user', ...(await adminNewPage(request)), values: keptValues(body) })
    }
  })
}
