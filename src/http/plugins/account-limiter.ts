// Per-account attempt limit for sign-in, sign-up and forgot. @fastify/rate-limit runs one limiter per request
// (it marks the request once its per-IP limiter ran), so the per-account window is counted here, in one-minute
// windows by the delivery rate limiter: shared through PostgreSQL when several instances use the database, so a
// second instance does not double an account's attempts; in memory on the embedded database.
import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify'
import type { RateLimiter } from '../../services/delivery/rate-limit.ts'
import { RateLimitedError } from './security.ts'

export function accountLimiter(opts: { limiter: RateLimiter; max: number; keyOf: (request: FastifyRequest) => string | undefined }): preHandlerAsyncHookHandler {
  return async function limitPerAccount(request, reply) {
    const key = opts.keyOf(request)
    if (!key) return
    const decision = await opts.limiter.take(key, opts.max)
    if (!decision.allowed) {
      reply.header('retry-after', String(decision.retryAfterSeconds))
      throw new RateLimitedError(decision.retryAfterSeconds)
    }
  }
}
