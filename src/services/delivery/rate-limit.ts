// Requests per minute per bucket (an API key's id, a visitor of an embed), in fixed one-minute windows that start at
// a bucket's first request. Two counters behind one interface:
// - in memory (KeyRateLimiter): synchronous, for the embedded database, which only one process can open;
// - in PostgreSQL (SharedRateLimiter): when several app instances share the database, each request is one upsert on
//   the bucket's row, so a key's limit holds across all of them (no new server needed: the database they share
//   already orders the counts). A bucket refused in this window is refused again without asking the database until
//   the window ends; if the database cannot be reached, this instance's own count decides.
import type { Db } from '../../db/client.ts'
import { isSharedDatabase } from '../../db/client.ts'
import { countRequest, deleteEndedRateWindows } from '../../db/queries/rate-limits.ts'

const WINDOW_MS = 60_000
/** Past this many buckets, those whose window has ended are swept out. */
const SWEEP_AT = 10_000

interface Window {
  startedAt: number
  count: number
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number }

export interface RateLimiter {
  /** Counts one request of the bucket; refused when it is over `perMinute` in the bucket's current window. */
  take(bucket: number | string, perMinute: number): RateDecision | Promise<RateDecision>
}

/** Counts in this process alone. Synchronous on purpose: it sits on every partner request. */
export class KeyRateLimiter implements RateLimiter {
  private readonly windows = new Map<number | string, Window>()

  constructor(private readonly now: () => number = Date.now) {}

  take(bucket: number | string, perMinute: number): RateDecision {
    const now = this.now()
    let window = this.windows.get(bucket)
    if (window === undefined || now - window.startedAt >= WINDOW_MS) {
      if (window === undefined && this.windows.size >= SWEEP_AT) this.sweep(now)
      window = { startedAt: now, count: 0 }
      this.windows.set(bucket, window)
    }
    window.count++
    if (window.count <= perMinute) return { allowed: true }
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((window.startedAt + WINDOW_MS - now) / 1000)) }
  }

  private sweep(now: number): void {
    for (const [bucket, window] of this.windows) if (now - window.startedAt >= WINDOW_MS) this.windows.delete(bucket)
  }
}

interface Refusal { until: number; perMinute: number }

export interface SharedRateLimiterOptions {
  /** Names this limiter's buckets apart from other limiters' in the shared table. */
  scope: string
  now?: () => number
  /** Told when the database could not count (this instance's own count decided). */
  onError?: (err: unknown) => void
}

/** Counts in PostgreSQL, shared by every instance on the database. */
export class SharedRateLimiter implements RateLimiter {
  private readonly refused = new Map<string, Refusal>()
  private readonly local: KeyRateLimiter
  private readonly now: () => number
  private nextSweep = 0

  constructor(private readonly db: Db, private readonly opts: SharedRateLimiterOptions) {
    this.now = opts.now ?? Date.now
    this.local = new KeyRateLimiter(this.now)
  }

  take(bucket: number | string, perMinute: number): RateDecision | Promise<RateDecision> {
    const now = this.now()
    const name = `${this.opts.scope}:${bucket}`
    const refusal = this.refused.get(name)
    // Counts only grow within a window: a refusal stands until the window ends (or the key's limit changes).
    if (refusal !== undefined) {
      if (refusal.until > now && refusal.perMinute === perMinute) return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((refusal.until - now) / 1000)) }
      this.refused.delete(name)
    }
    if (now >= this.nextSweep) this.sweep(now)
    return countRequest(this.db, name, WINDOW_MS / 1000).then(({ count, secondsLeft }): RateDecision => {
      if (count <= perMinute) return { allowed: true }
      this.refused.set(name, { until: this.now() + secondsLeft * 1000, perMinute })
      return { allowed: false, retryAfterSeconds: secondsLeft }
    }, (err: unknown) => {
      this.opts.onError?.(err)
      return this.local.take(name, perMinute)
    })
  }

  /** Once a minute per instance: ended windows leave the table, and ended refusals this map. */
  private sweep(now: number): void {
    this.nextSweep = now + WINDOW_MS
    for (const [name, refusal] of this.refused) if (refusal.until <= now) this.refused.delete(name)
    deleteEndedRateWindows(this.db, WINDOW_MS / 1000).catch((err: unknown) => this.opts.onError?.(err))
  }
}

/** The limiter for this database: shared through PostgreSQL when other instances may use it too, else in memory. */
export function createRateLimiter(db: Db, opts: SharedRateLimiterOptions): RateLimiter {
  return isSharedDatabase(db) ? new SharedRateLimiter(db, opts) : new KeyRateLimiter(opts.now)
}
