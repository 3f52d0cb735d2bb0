// Security headers with a CSP, and the rate limiter (applied per route, not globally).
// The headers come from helmet's middleware, built once per configuration when routes are registered: building it
// per request (as @fastify/helmet does) parsed the CSP directives again on every request, about a tenth of the CPU
// a small request costs.
import fp from 'fastify-plugin'
import helmet, { type HelmetOptions } from 'helmet'
import type { IncomingMessage, ServerResponse } from 'node:http'
import rateLimit from '@fastify/rate-limit'
import { DomainError } from '../../services/errors.ts'
import { sharedRequestCounter } from '../../services/delivery/rate-limit.ts'
import { sharedRateLimitStore } from './shared-rate-limit-store.ts'

type SecurityHeaders = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void

declare module 'fastify' {
  interface RouteShorthandOptions {
    /** This route's changes to the app-wide security headers, or false for none at all. */
    helmet?: HelmetOptions | false
  }
  interface FastifyContextConfig {
    securityHeaders?: SecurityHeaders | null
  }
}

export class RateLimitedError extends DomainError {
  constructor(seconds: number) {
    super('RATE_LIMITED', `Too many attempts. Try again in ${seconds} seconds.`, 429)
  }
}

const APP_HEADERS: HelmetOptions = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      connectSrc: ["'self'"],
      frameAncestors: ["'self'"],
      formAction: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      upgradeInsecureRequests: null,
    },
  },
  crossOriginEmbedderPolicy: false,
  // Sent only on https (below): over http a browser ignores it, and a proxy's plain-http health checks need none.
  strictTransportSecurity: false,
}

/** Two years, subdomains included: what browsers' preload lists ask for. */
const HSTS = 'max-age=63072000; includeSubDomains'

export default fp(async function securityPlugin(app) {
  const appHeaders: SecurityHeaders = helmet(APP_HEADERS)
  app.addHook('onRoute', (route) => {
    const own = (route as { helmet?: HelmetOptions | false }).helmet
    if (own === undefined) return
    route.config = { ...route.config, securityHeaders: own === false ? null : helmet({ ...APP_HEADERS, ...own } as HelmetOptions) }
  })
  app.addHook('onRequest', (request, reply, done) => {
    // request.protocol honours X-Forwarded-Proto only when TRUST_PROXY says the proxy is ours.
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS)
    const own = request.routeOptions.config.securityHeaders
    const headers = own === undefined ? appHeaders : own
    if (headers === null) return done()
    headers(request.raw, reply.raw, (error) => done(error as Error | undefined))
  })
  // Counted in PostgreSQL when several instances share it (else each would allow the limit), in memory otherwise.
  const shared = sharedRequestCounter(app.deps.db)
  await app.register(rateLimit, {
    global: false,
    ...(shared ? { store: sharedRateLimitStore(shared), skipOnError: true } : {}),
    errorResponseBuilder: (_req, ctx) => new RateLimitedError(Math.max(1, Math.ceil(ctx.ttl / 1000))),
  })
}, { name: 'security' })
