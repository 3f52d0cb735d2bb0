// Usage metering per API key: counted in memory on the request path, written in one batched statement every few
// seconds (and when the app closes), read back for the usage page.
import { sql } from 'drizzle-orm'
import type { Db } from '../db/client.ts'

/** Upper bounds (ms) of the latency buckets; one more bucket counts everything slower than the last bound. */
export const LATENCY_BOUNDS_MS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000] as const
const BUCKET_COUNT = LATENCY_BOUNDS_MS.length + 1

export interface UsageEntry { keyId: number; adviceSetId: number; status: number; durationMs: number }

interface Counter {
  keyId: number
  day: string
  adviceSetId: number
  requests: number
  errors: number
  latencyBuckets: number[]
  lastUsedAt: string
}

export function latencyBucketIndex(durationMs: number): number {
  const i = LATENCY_BOUNDS_MS.findIndex((bound) => durationMs <= bound)
  return i === -1 ? LATENCY_BOUNDS_MS.length : i
}

export interface UsageMeter {
  record(entry: UsageEntry): void
  /** Writes and clears what was counted so far; the counts of a failed write are dropped, never retried twice. */
  flush(db: Db): Promise<number>
}

export function createUsageMeter(now: () => Date = () => new Date()): UsageMeter {
  let counters = new Map<string, Counter>()
  return {
    record({ keyId, adviceSetId, status, durationMs }) {
      const at = now()
      const day = at.toISOString().slice(0, 10)
      const id = `${keyId}|${day}|${adviceSetId}`
      let c = counters.get(id)
      if (!c) counters.set(id, c = { keyId, day, adviceSetId, requests: 0, errors: 0, latencyBuckets: new Array<number>(BUCKET_COUNT).fill(0), lastUsedAt: '' })
      c.requests++
      if (status >= 400) c.errors++
      c.latencyBuckets[latencyBucketIndex(durationMs)]!++
      c.lastUsedAt = at.toISOString()
    },
    async flush(db) {
      if (counters.size === 0) return 0
      const batch = [...counters.values()]
      counters = new Map()
      await writeUsage(db, batch)
      return batch.length
    },
  }
}

/**
 * One statement for the whole batch: the rows travel as one JSON parameter (no parameter-count limit), counts and
 * latency buckets are added element-wise to the day's row, and each key's last use moves forward. Rows of keys
 * that no longer exist are skipped rather than failing the batch.
 */
async function writeUsage(db: Db, batch: Counter[]): Promise<void> {
  const rows = batch.map((c) => ({
    key_id: c.keyId, day: c.day, advice_set_id: c.adviceSetId, requests: c.requests, errors: c.errors,
    latency_buckets: c.latencyBuckets, last_used_at: c.lastUsedAt,
  }))
  await db.execute(sql`
    with batch as (
      select v.* from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        as v(key_id int, day date, advice_set_id int, requests bigint, errors bigint, latency_buckets int[], last_used_at timestamptz)
      join api_keys k on k.id = v.key_id
    ), counted as (
      insert into api_key_usage (key_id, day, advice_set_id, requests, errors, latency_buckets)
      select key_id, day, advice_set_id, requests, errors, latency_buckets from batch
      on conflict (key_id, day, advice_set_id) do update set
        requests = api_key_usage.requests + excluded.requests,
        errors = api_key_usage.errors + excluded.errors,
        latency_buckets = array(
          select coalesce(a, 0) + coalesce(b, 0)
          from unnest(api_key_usage.latency_buckets, excluded.latency_buckets) with ordinality as u(a, b, i)
          order by i)
      returning 1
    )
    update api_keys k set last_used_at = greatest(k.last_used_at, used.at)
    from (select key_id, max(last_used_at) as at from batch group by key_id) used
    where k.id = used.key_id`)
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
