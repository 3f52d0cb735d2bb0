// Profile, team and invitation pages (SPEC §2 User row) and the provider-wide user admin.
import type { FastifyRequest } from 'fastify'
import { Type, type FastifyPluginAsyncTypebox, type Static } from '@fastify/type-provider-typebox'
import {
  getProfile, inviteUser, listEveryUser, listOwnersForAdmin, listTeam, ownerName, updateProfile,
} from '../../services/accounts/users.ts'
import { canAdministerOwned } from '../../services/accounts/visibility.ts'
import { isProviderAdmin } from '../../services/context.ts'
import { readApprovalPolicy, setSelfApproval } from '../../services/publishing/approval-policy.ts'
import { dateFormatter } from '../format.ts'
import { actorOf, requireProviderAdmin, requireRole, requireUser } from '../plugins/auth.ts'
import { FormBody } from '../schemas.ts'
import { keptValues, renderFormError } from './forms.ts'

/** Whose profile: `?id=`, or the signed-in user's own. */
const ProfileQuery = Type.Object({ id: Type.Optional(Type.Integer({ minimum: 1 })) })

function profileIdOf(request: FastifyRequest, query: Static<typeof ProfileQuery>): number {
  return query.id ?? request.user!.id
}

export const userPages: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/profile', { preHandler: requireUser, schema: { querystring: ProfileQuery } }, async (request, reply) => {
    const actor = actorOf(request)
    const profile = await getProfile(app.deps, actor, profileIdOf(request, request.query))
    const canEdit = profile.id === actor.userId || (actor.role === 'admin' && profile.ownerId === actor.ownerId) || isProviderAdmin(actor)
    const editorProps = {
      action: `/api/user/${profile.id}`, method: 'PATCH',
      fields: [
        { name: 'name', label: 'Name', value: profile.name, editor: 'input', required: true, maxLength: 120 },
        { name: 'title', label: 'About', value: profile.title, editor: 'textarea', maxLength: 2000 },
      ],
    }
    return reply.page('user/profile', { title: 'Profile', profile, canEdit, editorProps, ownerName: await ownerName(app.deps, profile.ownerId) })
  })

  app.get('/profile/edit', { preHandler: requireUser, schema: { querystring: ProfileQuery } }, async (request, reply) => {
    const profile = await getProfile(app.deps, actorOf(request), profileIdOf(request, request.query))
    return reply.page('user/profile-edit', { title: 'Edit profile', profileId: profile.id, values: { name: profile.name, title: profile.title } })
  })

  app.post('/profile/edit', { preHandler: requireUser, schema: { querystring: ProfileQuery, body: FormBody } }, async (request, reply) => {
    const body = request.body ?? {}
    const profileId = profileIdOf(request, request.query)
    try {
      await updateProfile(app.deps, actorOf(request), profileId, { name: body.name, title: body.title ?? '' })
      reply.flash({ type: 'info', text: 'Profile saved.' })
      return reply.redirect(profileId === request.user!.id ? '/profile' : `/profile?id=${profileId}`, 303)
    } catch (error) {
      return renderFormError(reply, error, 'user/profile-edit', { title: 'Edit profile', profileId, values: keptValues(body) })
    }
  })

  app.get('/user/team', { preHandler: requireUser }, async (request, reply) => {
    const actor = actorOf(request)
    return reply.page('user/team', {
      title: 'Team', team: await listTeam(app.deps, actor), ownerName: await ownerName(app.deps, actor.ownerId),
      policy: await readApprovalPolicy(app.deps, actor, actor.ownerId), canAdminister: canAdministerOwned(actor, actor.ownerId),
      formatDate: dateFormatter(request.user!.preferences.tz),
    })
  })

  /** The team's settings (its admins): whether an admin may approve a version they submitted. */
  app.post('/user/team/settings', { preHandler: requireUser, schema: { body: FormBody } }, async (request, reply) => {
    const actor = actorOf(request)
    const allowed = request.body?.selfApprovalAllowed === 'true'
    const policy = await setSelfApproval(app.deps, actor, actor.ownerId, allowed)
    reply.flash({ type: 'info', text: policy.selfApprovalAllowed ? 'Self-approval allowed: an admin may approve a version they submitted.' : 'Self-approval is off: approving needs a second admin.' })
    return reply.redirect('/user/team#publishing', 303)
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
    return reply.page('admin/users', { title: 'Users', users, formatDate: dateFormatter(request.user!.preferences.tz) })
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
