// Who is asking: loads the signed-in user from the session; guards for pages and /api routes.
import fp from 'fastify-plugin'
import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify'
import { actorForUser, getCurrentUser, type UserRow } from '../../services/accounts/users.ts'
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
    const user = await getCurrentUser(opts.deps, userId)
    if (!user) { delete request.session.userId; return }
    request.user = user
    if (Date.now() - (request.session.refreshedAt ?? 0) > SESSION_REFRESH_MS) {
      request.session.refreshedAt = Date.now()
      request.session.touch()
    }
    const impersonatorId = request.session.impersonatorId ?? null
    if (impersonatorId !== null) {
      const impersonator = await getCurrentUser(opts.deps, impersonatorId)
      if (!impersonator || !isProviderAdmin(actorForUser(impersonator))) {
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

export function requireRole(...roles: UserRole[]): preHandlerAsyncHookHandler {
  return async function (request, reply) {
    await requireUser.call(this, request, reply)
    if (reply.sent) return
    if (!roles.includes(request.user!.role)) throw new ForbiddenError()
  }
}

/** The provider-wide admin area (all users, support, export). */
export const requireProviderAdmin: preHandlerAsyncHookHandler = async function (request, reply) {
  await requireUser.call(this, request, reply)
  if (reply.sent) return
  if (!isProviderAdmin(request.actor!)) throw new ForbiddenError()
}

/** For handlers behind requireUser: the actor, typed as present. */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw new UnauthorizedError()
  return request.actor
}
