// Who is asking: loads the signed-in user from the session; guards for pages and /api routes.
import fp from 'fastify-plugin'
import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify'
import { actorForUser, canSignIn, getCurrentUser, rolePhrase, type UserRow } from '../../services/accounts/users.ts'
import { isProviderAdmin, type Actor, type Deps, type UserRole } from '../../services/context.ts'
import { ForbiddenError, UnauthorizedError } from '../../services/errors.ts'
import { redirectWithin } from '../header-values.ts'

declare module 'fastify' {
  interface FastifyRequest {
    user: UserRow | null
    /** Under impersonation: the provider admin behind the session (the banner names both). */
    impersonator: UserRow | null
    /** Set whenever `user` is; what services receive as the acting party. */
    actor: Actor | null
  }
}

const SESSION_REFRESH_MS = 24 * 60 * 60 * 1000

export function isApiRequest(request: FastifyRequest): boolean {
  return request.url.startsWith('/api/') || request.url === '/api'
}

export default fp(async function authPlugin(app, opts: { deps: Deps }) {
  app.decorateRequest('user', null)
  app.decorateRequest('actor', null)
  app.decorateRequest('impersonator', null)
  app.addHook('onRequest', async (request) => {
    const userId = request.session?.userId
    if (typeof userId !== 'number') return
    // Read with the session when it was last saved for this user (plugins/session.ts); else on its own.
    const user = request.sessionUser?.id === userId ? request.sessionUser : await getCurrentUser(opts.deps, userId)
    // Deactivating a member deletes their sessions; this also ends one that was being written at that moment.
    if (!user || !canSignIn(user)) { delete request.session.userId; delete request.session.impersonatorId; return }
    request.user = user
    if (Date.now() - (request.session.refreshedAt ?? 0) > SESSION_REFRESH_MS) {
      request.session.refreshedAt = Date.now()
      request.session.touch()
    }
    const impersonatorId = request.session.impersonatorId ?? null
    if (impersonatorId !== null) {
      const impersonator = await getCurrentUser(opts.deps, impersonatorId)
      if (!impersonator || !canSignIn(impersonator) || !isProviderAdmin(actorForUser(impersonator))) {
        // The admin behind it is gone or no longer a provider admin: the impersonation ends, and so does the session.
        delete request.session.userId
        delete request.session.impersonatorId
        request.user = null
        return
      }
      request.impersonator = impersonator
    }
    request.actor = actorForUser(user, impersonatorId)
  })
}, { name: 'auth', dependencies: ['session'] })

/** Pages redirect to the sign-in form; /api answers 401. */
export const requireUser: preHandlerAsyncHookHandler = async function (request: FastifyRequest, reply: FastifyReply) {
  if (request.user) return
  if (isApiRequest(request) || request.method !== 'GET') throw new UnauthorizedError()
  return redirectWithin(reply, `/login?next=${encodeURIComponent(request.url)}`, '/login')
}

const ROLE_PLURALS: Record<UserRole, string> = { admin: 'admins', author: 'authors', viewer: 'viewers' }

/** A refusal says why and what to do: which role the page needs, which one the person has, and whom to ask. */
export function requireRole(...roles: UserRole[]): preHandlerAsyncHookHandler {
  return async function (request, reply) {
    await requireUser.call(this, request, reply)
    if (reply.sent) return
    const role = request.user!.role
    if (!roles.includes(role)) {
      throw new ForbiddenError(`This is for ${roles.map((r) => ROLE_PLURALS[r]).join(' and ')} of the team, and you are ${rolePhrase(role)}. Ask an admin of your team if you need it.`)
    }
  }
}

/**
 * The provider-wide admin area (all users, support, export). Under impersonation the session is the impersonated
 * person's, so the way back is named.
 */
export const requireProviderAdmin: preHandlerAsyncHookHandler = async function (request, reply) {
  await requireUser.call(this, request, reply)
  if (reply.sent) return
  if (isProviderAdmin(request.actor!)) return
  if (request.impersonator) throw new ForbiddenError(`You are impersonating ${request.user!.name}. Stop impersonating to open support and the other pages of the provider’s admin area.`)
  throw new ForbiddenError('This is the admin area of Advice Studio’s provider team: only its admins can open it.')
}

/** For handlers behind requireUser: the actor, typed as present. */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw new UnauthorizedError()
  return request.actor
}
