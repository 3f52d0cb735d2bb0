// Cookies, server-side sessions and CSRF protection on every state-changing request.
import fp from 'fastify-plugin'
import cookie from '@fastify/cookie'
import session from '@fastify/session'
import csrf from '@fastify/csrf-protection'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Db } from '../../db/client.ts'
import { createSessionStore, SessionUsers } from '../../services/accounts/session-store.ts'
import type { UserRow } from '../../services/accounts/users.ts'

export interface Flash {
  type: 'info' | 'success' | 'warning' | 'error'
  heading?: string
  text: string
}

declare module 'fastify' {
  interface Session {
    userId?: number
    /** The provider admin behind an impersonated session. */
    impersonatorId?: number
    flash?: Flash[]
    /** When the expiry was last pushed forward (see authPlugin): a day's grain keeps reads from writing. */
    refreshedAt?: number
  }
  interface FastifyContextConfig {
    /** False on routes authenticated by API key rather than the session cookie (no CSRF there). */
    csrf?: boolean
  }
  interface FastifyReply {
    flash(message: Flash): void
  }
  interface FastifyRequest {
    /** The user the session was read with (one statement); the auth hook checks it is the session's user. */
    sessionUser: UserRow | null
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])
const SESSION_TTL_MS = 14 * 24 * 60 * 60 * 1000

export default fp(async function sessionPlugin(app, opts: { db: Db; secret: string; secure: boolean }) {
  await app.register(cookie)
  const sessionUsers = new SessionUsers()
  await app.register(session, {
    secret: opts.secret,
    cookieName: 'sid',
    store: createSessionStore(opts.db, sessionUsers),
    saveUninitialized: false,
    // Not rolling: a rolling session writes to the store on every request. The auth plugin extends it daily instead.
    rolling: false,
    cookie: { httpOnly: true, sameSite: 'lax', secure: opts.secure, path: '/', maxAge: SESSION_TTL_MS },
  })
  await app.register(csrf, { sessionPlugin: '@fastify/session' })

  // Right after the session's own hook, which read the session (and its user) from the store.
  app.decorateRequest('sessionUser', null)
  app.addHook('onRequest', (request: FastifyRequest, _reply: FastifyReply, done) => {
    const sid = request.session?.sessionId
    if (sid !== undefined) request.sessionUser = sessionUsers.take(sid) ?? null
    done()
  })

  // In preHandler, not onRequest: form bodies carry the token and are parsed only by then.
  app.addHook('preHandler', (request: FastifyRequest, reply: FastifyReply, done) => {
    // A request authenticated by a personal access token carries no cookie to forge (plugins/access-tokens.ts).
    if (SAFE_METHODS.has(request.method) || request.routeOptions.config?.csrf === false || request.accessToken) return done()
    app.csrfProtection(request, reply, done)
  })

  app.decorateReply('flash', function flash(this: FastifyReply, message: Flash) {
    const list = this.request.session.flash ?? []
    list.push(message)
    this.request.session.flash = list
  })
}, { name: 'session', dependencies: [] })
