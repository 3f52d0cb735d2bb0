// Requests per minute per bucket (an API key's id, a visitor of an embed), in fixed one-minute windows that start at
// a bucket's first request. Two counters behind one interface:
// - in memory (KeyRateLimiter): synchronous, for the embedded database, which only one process can open;
// - in PostgreSQL (SharedRateLimiter): when several app instances share the database, they lease requests from the
//   bucket's row in the database (one upsert per lease), so a key's limit holds across all of them (no new server
//   needed: the database they share already orders the counts). A bucket whose window is spent is refused without
//   asking the database until the window ends; if the database cannot be reached, this instance's own count decides.
import type { Db } from '../../db/client.ts'
import { isSharedDatabase } from '../../db/client.ts'
import { countRequest, deleteEndedRateWindows, leaseRequests } from '../../db/queries/rate-limits.ts'

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

/** What this instance holds of a bucket's current window. */
interface Held {
  /** Requests leased and not yet used. */
  tokens: number
  /** When the window ends (this clock): leased tokens go with it. */
  until: number
  /** The window's limit is spent: refused until `until`, unless the limit changes. */
  spentAt: number | null
  /** A lease in flight: requests arriving meanwhile wait for it rather than asking again. */
  pending: Promise<void> | null
}

export interface SharedRateLimiterOptions {
  /** Names this limiter's buckets apart from other limiters' in the shared table. */
  scope: string
  now?: () => number
  /** Told when the database could not count (this instance's own count decided). */
  onError?: (err: unknown) => void
}

/** Requests leased at a time: one for small limits (exact), a fiftieth of larger ones, at most 1,000. */
export function leaseSize(perMinute: number): number {
  return Math.max(1, Math.min(1000, Math.floor(perMinute / 50)))
}

/**
 * Counts in PostgreSQL, shared by every instance on the database. Instances lease requests from a bucket's window a
 * few at a time (leaseSize) and admit them from memory, so a busy key costs one statement per lease, not per request;
 * the window's count never passes the limit. The price: requests leased by one instance and not used before the
 * window ends are not available to another (at most a lease per instance, 2% of the limit).
 */
export class SharedRateLimiter implements RateLimiter {
  private readonly held = new Map<string, Held>()
  private readonly local: KeyRateLimiter
  private readonly now: () => number
  private nextSweep = 0

  constructor(private readonly db: Db, private readonly opts: SharedRateLimiterOptions) {
    this.now = opts.now ?? Date.now
    this.local = new KeyRateLimiter(this.now)
  }

  take(bucket: number | string, perMinute: number): RateDecision | Promise<RateDecision> {
    const now = this.now()
    if (now >= this.nextSweep) this.sweep(now)
    const name = `${this.opts.scope}:${bucket}`
    let held = this.held.get(name)
    if (held === undefined) this.held.set(name, held = { tokens: 0, until: 0, spentAt: null, pending: null })
    return this.admit(name, held, perMinute, now)
  }

  private admit(name: string, held: Held, perMinute: number, now: number): RateDecision | Promise<RateDecision> {
    if (held.until <= now) {
      held.tokens = 0
      held.spentAt = null
    }
    if (held.tokens > 0) {
      held.tokens--
      return { allowed: true }
    }
    // A lower limit needs no new lease to refuse; a higher one may have room again.
    if (held.spentAt !== null && held.spentAt >= perMinute) return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((held.until - now) / 1000)) }
    held.pending ??= this.lease(name, held, perMinute)
    return held.pending.then(() => this.admit(name, held, perMinute, this.now()), (err: unknown) => {
      this.opts.onError?.(err)
      return this.local.take(name, perMinute)
    })
  }

  private lease(name: string, held: Held, perMinute: number): Promise<void> {
    const asked = this.now()
    return leaseRequests(this.db, name, WINDOW_MS / 1000, leaseSize(perMinute), perMinute).then(({ granted, msLeft }) => {
      held.tokens += granted
      held.until = asked + msLeft
      held.spentAt = granted === 0 ? perMinute : null
    }).finally(() => { held.pending = null })
  }

  /** Once a minute per instance: ended windows leave the table, and buckets with nothing held leave this map. */
  private sweep(now: number): void {
    this.nextSweep = now + WINDOW_MS
    for (const [name, held] of this.held) if (held.until <= now && held.pending === null) this.held.delete(name)
    deleteEndedRateWindows(this.db, WINDOW_MS / 1000).catch((err: unknown) => this.opts.onError?.(err))
  }
}

/** The limiter for this database: shared through PostgreSQL when other instances may use it too, else in memory. */
export function createRateLimiter(db: Db, opts: SharedRateLimiterOptions): RateLimiter {
  return isSharedDatabase(db) ? new SharedRateLimiter(db, opts) : new KeyRateLimiter(opts.now)
}

/** Counts one request of a bucket in a window of `windowMs`: the count so far (this one included) and the ms left. */
export type SharedRequestCounter = (bucket: string, windowMs: number) => Promise<{ count: number; msLeft: number }>

/** The shared counter for stores other than these limiters (@fastify/rate-limit's per-address limits); null on the embedded database. */
export function sharedRequestCounter(db: Db): SharedRequestCounter | null {
  if (!isSharedDatabase(db)) return null
  return async (bucket, windowMs) => {
    return countRequest(db, bucket, Math.max(1, Math.round(windowMs / 1000)))
  }
}
