// Usage metering per API key: counted in memory on the request path, written in one batched statement every few
// seconds (and when the app closes), read back for the usage page.
import type { Db } from '../../db/client.ts'
import { addUsage, usageRowsSince, type UsageCounts } from '../../db/queries/api-keys.ts'
import { oneAtATime } from '../one-at-a-time.ts'

/** Upper bounds (ms) of the latency buckets; one more bucket counts everything slower than the last bound. */
export const LATENCY_BOUNDS_MS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000] as const
const BUCKET_COUNT = LATENCY_BOUNDS_MS.length + 1

export interface UsageEntry { keyId: number; adviceSetId: number; status: number; durationMs: number }

export function latencyBucketIndex(durationMs: number): number {
  const i = LATENCY_BOUNDS_MS.findIndex((bound) => durationMs <= bound)
  return i === -1 ? LATENCY_BOUNDS_MS.length : i
}

export interface UsageMeter {
  record(entry: UsageEntry): void
  /** Writes and clears what was counted so far; the counts of a failed write are dropped, never retried twice. */
  flush(db: Db): Promise<number>
}

const DAY_MS = 24 * 60 * 60 * 1000

/** Counts in memory: the day and last use kept as numbers, made into text only when written. */
interface LiveCounts extends Omit<UsageCounts, 'day' | 'lastUsedAt'> {
  dayNumber: number
  lastUsedMs: number
}

export function createUsageMeter(now: () => Date = () => new Date()): UsageMeter {
  let counters = new Map<string, LiveCounts>()
  return {
    record({ keyId, adviceSetId, status, durationMs }) {
      const ms = now().getTime()
      const dayNumber = Math.floor(ms / DAY_MS)
      const id = `${keyId}|${dayNumber}|${adviceSetId}`
      let c = counters.get(id)
      if (!c) counters.set(id, c = { keyId, dayNumber, adviceSetId, requests: 0, errors: 0, latencyBuckets: new Array<number>(BUCKET_COUNT).fill(0), lastUsedMs: 0 })
      c.requests++
      if (status >= 400) c.errors++
      c.latencyBuckets[latencyBucketIndex(durationMs)]!++
      c.lastUsedMs = ms
    },
    // One at a time: a flush called while the timer's write is under way settles after it.
    flush: oneAtATime(async (db: Db) => {
      if (counters.size === 0) return 0
      const batch = [...counters.values()].map(({ dayNumber, lastUsedMs, ...counts }): UsageCounts => ({
        ...counts, day: new Date(dayNumber * DAY_MS).toISOString().slice(0, 10), lastUsedAt: new Date(lastUsedMs).toISOString(),
      }))
      counters = new Map()
      await addUsage(db, batch)
      return batch.length
    }),
  }
}

const meter = createUsageMeter()

/** Counts one Advice API request. Synchronous and in memory: nothing touches the database on the request path. */
export function recordApiUsage(entry: UsageEntry): void {
  meter.record(entry)
}

/** Writes the counts gathered by recordApiUsage (the api-usage plugin calls it on a timer and on close). */
export function flushApiUsage(db: Db): Promise<number> {
  return meter.flush(db)
}

/**
 * The latency under which a share `q` of the requests fell, read as the upper bound of the bucket holding that
 * request (so "p99 ≤ 20 ms" is exact to the bucket, not to the millisecond). Infinity: beyond the last bound;
 * null: no requests.
 */
export function percentileBound(buckets: number[], q: number): number | null {
  const total = buckets.reduce((a, b) => a + b, 0)
  if (total === 0) return null
  const rank = Math.max(1, Math.ceil(q * total))
  let seen = 0
  for (let i = 0; i < buckets.length; i++) {
    seen += buckets[i]!
    if (seen >= rank) return LATENCY_BOUNDS_MS[i] ?? Number.POSITIVE_INFINITY
  }
  return Number.POSITIVE_INFINITY
}

export const USAGE_DAYS = 30

export interface UsageFigures { requests: number; errors: number; p50Ms: number | null; p99Ms: number | null }
export interface UsageReport {
  /** The last USAGE_DAYS UTC days, newest first, days without requests included. */
  days: Array<{ day: string; requests: number; errors: number }>
  /** Per advice set over those days, busiest first; adviceSetId 0 gathers requests that named no valid set. */
  adviceSets: Array<UsageFigures & { adviceSetId: number; name: string | null; ownerId: string | null }>
  total: UsageFigures
}

function addBuckets(into: number[], more: number[]): void {
  more.forEach((n, i) => { into[i] = (into[i] ?? 0) + n })
}

function figures(requests: number, errors: number, buckets: number[]): UsageFigures {
  return { requests, errors, p50Ms: percentileBound(buckets, 0.5), p99Ms: percentileBound(buckets, 0.99) }
}

export async function usageReport(db: Db, keyId: number, now = new Date()): Promise<UsageReport> {
  // UTC days are always 24 hours long, so stepping back in milliseconds lands on each previous day.
  const days = Array.from({ length: USAGE_DAYS }, (_, i) => ({ day: new Date(now.getTime() - i * DAY_MS).toISOString().slice(0, 10), requests: 0, errors: 0 }))
  const byDay = new Map(days.map((d) => [d.day, d]))
  const bySet = new Map<number, { name: string | null; ownerId: string | null; requests: number; errors: number; buckets: number[] }>()
  const all = { requests: 0, errors: 0, buckets: [] as number[] }
  for (const row of await usageRowsSince(db, keyId, days[USAGE_DAYS - 1]!.day)) {
    const day = byDay.get(row.day)
    if (!day) continue
    day.requests += row.requests
    day.errors += row.errors
    let set = bySet.get(row.adviceSetId)
    if (!set) bySet.set(row.adviceSetId, set = { name: row.adviceSetName, ownerId: row.adviceSetOwnerId, requests: 0, errors: 0, buckets: [] })
    for (const into of [set, all]) {
      into.requests += row.requests
      into.errors += row.errors
      addBuckets(into.buckets, row.latencyBuckets)
    }
  }
  return {
    days,
    adviceSets: [...bySet].map(([adviceSetId, s]) => ({ adviceSetId, name: s.name, ownerId: s.ownerId, ...figures(s.requests, s.errors, s.buckets) }))
      .sort((a, b) => b.requests - a.requests || a.adviceSetId - b.adviceSetId),
    total: figures(all.requests, all.errors, all.buckets),
  }
}
