// Defence in depth beside the CSRF token (issue 22): a state-changing request to the browser app that a browser says
// came from another site is refused, token or not, as the Fetch Metadata guidance recommends. Current browsers say it
// in `Sec-Fetch-Site`; `Origin` names the page's origin on requests that are not a GET or HEAD, except that it is
// `null` when the page's referrer policy is no-referrer (the app's own pages send that: helmet's default), from
// sandboxed frames and after cross-site redirects, so a `null` Origin names nothing and Sec-Fetch-Site decides.
// Requests without either (tools, tests, older browsers) are left to the CSRF check.
// Partner routes (the Advice API, the embed's events and requests for advice, the dictionary) are called from other
// sites by design with an API key and no cookie; they are registered outside the browser app (src/app.ts) and never
// see this check. A browser-app route that also takes a key (config.keyAuth) lets a request carrying one through, and
// so does a route taking a personal access token (config.tokenScope) once the token has authenticated the request.
import fp from 'fastify-plugin'
import type { FastifyRequest } from 'fastify'
import { ForbiddenError } from '../../services/errors.ts'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A request carrying `Authorization` is authenticated by its API key alone (never the cookie), from any site. */
    keyAuth?: boolean
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

class CrossSiteRequestError extends ForbiddenError {
  constructor(why: string) {
    super(`This change was sent from another site (${why}). Advice Studio accepts changes only from its own pages: open the page in Advice Studio and try again.`)
  }
}

function originOf(text: string): string | null {
  try {
    return new URL(text).origin
  } catch {
    return null
  }
}

/** The origins a page of the app itself is served from: BASE_URL's, and the one this request was addressed to. */
function ownOrigins(request: FastifyRequest, baseUrl: string): Array<string | null> {
  return [originOf(baseUrl), originOf(`${request.protocol}://${request.host}`)]
}

/** Why the request is refused as another site's, or null. */
function crossSiteReason(request: FastifyRequest, baseUrl: string): string | null {
  if (request.headers['sec-fetch-site'] === 'cross-site') return 'Sec-Fetch-Site: cross-site'
  const origin = request.headers.origin
  if (origin === undefined || origin === 'null') return null
  const named = originOf(origin)
  return named !== null && ownOrigins(request, baseUrl).includes(named) ? null : `Origin: ${origin.slice(0, 100)}`
}

export default fp(async function originGuardPlugin(app) {
  app.addHook('onRequest', (request, _reply, done) => {
    if (SAFE_METHODS.has(request.method)) return done()
    if (request.routeOptions.config.keyAuth && request.headers.authorization !== undefined) return done()
    // Authenticated by a personal access token alone (plugins/access-tokens.ts, which runs first): no cookie is used.
    if (request.accessToken) return done()
    const reason = crossSiteReason(request, app.deps.config.baseUrl)
    done(reason === null ? undefined : new CrossSiteRequestError(reason))
  })
}, { name: 'origin-guard' })
