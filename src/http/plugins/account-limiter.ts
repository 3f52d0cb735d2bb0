// Per-account attempt limit for sign-in, sign-up and forgot. @fastify/rate-limit runs one limiter per request
// (it marks the request once its per-IP limiter ran), so the per-account window is counted here.
// Fixed windows in process memory: a restart or a second instance only makes the limit looser, never stricter.
import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify'
import { RateLimitedError } from './security.ts'

interface Window { count: number; resetAt: number }

export function accountLimiter(opts: { max: number; windowMs: number; keyOf: (request: FastifyRequest) => string | undefined }): preHandlerAsyncHookHandler {
  const windows = new Map<string, Window>()
  let nextSweep = Date.now() + opts.windowMs
  return async function limitPerAccount(request, reply) {
    const key = opts.keyOf(request)
    if (!key) return
    const now = Date.now()
    if (now >= nextSweep) {
      for (const [k, w] of windows) if (w.resetAt <= now) windows.delete(k)
      nextSweep = now + opts.windowMs
    }
    let window = windows.get(key)
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + opts.windowMs }
      windows.set(key, window)
    }
    window.count += 1
    if (window.count > opts.max) {
      const seconds = Math.max(1, Math.ceil((window.resetAt - now) / 1000))
      reply.header('retry-after', String(seconds))
      throw new RateLimitedError(seconds)
    }
  }
}
