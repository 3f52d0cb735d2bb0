// Personal access tokens on the browser app's routes (issue 28). A route lets a token in by declaring the scope it
// needs: `config: { tokenScope: 'export' }`, or spread `acceptsToken('import')` into its options. On such a route a
// request carrying `Authorization` is authenticated by that token alone: a valid token with the scope makes the
// request its user's, with the same user, actor and rights a session of that user gives (so `requireUser`,
// `actorOf` and every service check apply unchanged); a token without the scope is a 403 naming it; anything else in
// the header (unknown, revoked, expired, malformed, an account no longer active) is a 401 saying which. Token requests
// carry no cookie, so they need no CSRF token and pass the origin guard (session.ts, origin-guard.ts).
// Routes that declare no scope refuse a personal access token with a 401 rather than ignore it (a tool that sent one
// learns why at once); other Authorization values there are left alone (an API key on /api/advice/markdown/preview).
import fp from 'fastify-plugin'
import type { FastifyContextConfig } from 'fastify'
import {
  authenticateAccessToken, carriesAccessToken, type AccessToken, type AccessTokenScope,
} from '../../services/accounts/access-tokens.ts'
import { actorForUser } from '../../services/accounts/users.ts'
import { UnauthorizedError } from '../../services/errors.ts'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The personal access token scope this route accepts (`Authorization: Bearer ast_…`); unset: no token gets in. */
    tokenScope?: AccessTokenScope
  }
  interface FastifyRequest {
    /** The personal access token this request was authenticated by, if any (then `user` and `actor` are its user's). */
    accessToken: AccessToken | null
  }
}

/**
 * Route options that let a personal access token with `scope` in, for spreading into a route's options:
 * `app.get('/:id/export', { ...acceptsToken('export'), schema }, handler)`. Other config keys go in `config`.
 */
export function acceptsToken(scope: AccessTokenScope, config: FastifyContextConfig = {}): { config: FastifyContextConfig } {
  return { config: { ...config, tokenScope: scope } }
}

export default fp(async function accessTokensPlugin(app) {
  app.decorateRequest('accessToken', null)
  app.addHook('onRequest', async (request) => {
    const authorization = request.headers.authorization
    if (authorization === undefined) return
    const scope = request.routeOptions.config?.tokenScope
    if (scope === undefined) {
      if (!carriesAccessToken(authorization)) return
      throw new UnauthorizedError(`Personal access tokens are accepted only where the command-line tool needs them (routes to find, export and import advice sets); ${request.method} ${request.url.split('?')[0]!.slice(0, 200)} is not one of them. Sign in to use it.`)
    }
    const { user, token } = await authenticateAccessToken(app.deps, authorization, scope, { method: request.method, path: request.url })
    request.user = user
    request.impersonator = null
    request.actor = actorForUser(user)
    request.accessToken = token
  })
}, { name: 'access-tokens', dependencies: ['auth'] })
