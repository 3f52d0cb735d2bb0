// Requests per minute per API key, counted in fixed one-minute windows in memory. Synchronous on purpose: it sits
// on every partner request, where @fastify/rate-limit's promise chain (key, limit and store lookups each awaited)
// cost more than the check itself. Per instance: behind a load balancer each instance allows the key's limit.

const WINDOW_MS = 60_000
/** Past this many keys, those whose window has ended are swept out. */
const SWEEP_AT = 10_000

interface Window {
  startedAt: number
  count: number
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number }

export class KeyRateLimiter {
  private readonly windows = new Map<number | string, Window>()

  constructor(private readonly now: () => number = Date.now) {}

  /** Counts one request of the key (an API key's id, or any other token); refused when it is over `perMinute` in the current window. */
  take(keyId: number | string, perMinute: number): RateDecision {
    const now = this.now()
    let window = this.windows.get(keyId)
    if (window === undefined || now - window.startedAt >= WINDOW_MS) {
      if (window === undefined && this.windows.size >= SWEEP_AT) this.sweep(now)
      window = { startedAt: now, count: 0 }
      this.windows.set(keyId, window)
    }
    window.count++
    if (window.count <= perMinute) return { allowed: true }
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((window.startedAt + WINDOW_MS - now) / 1000)) }
  }

  private sweep(now: number): void {
    for (const [keyId, window] of this.windows) if (now - window.startedAt >= WINDOW_MS) this.windows.delete(keyId)
  }
}
