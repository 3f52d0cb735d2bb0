// Security headers with a CSP, and the rate limiter (applied per route, not globally).
import fp from 'fastify-plugin'
import helmet from '@fastify/helmet'
import rateLimit from '@fastify/rate-limit'
import { DomainError } from '../../services/errors.ts'

export class RateLimitedError extends DomainError {
  constructor(seconds: number) {
    super('RATE_LIMITED', `Too many attempts. Try again in ${seconds} seconds.`, 429)
  }
}

export default fp(async function securityPlugin(app) {
  await app.register(helmet, {
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
  })
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_req, ctx) => new RateLimitedError(Math.max(1, Math.ceil(ctx.ttl / 1000))),
  })
}, { name: 'security' })
