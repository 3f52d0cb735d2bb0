// The shared request counters (schema/rate-limits.ts): one statement per count or lease, by the database's clock.
// Concurrent statements of a bucket queue on its row, so no count is lost between instances.
import { sql } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { rowsOf } from './rule-nodes.ts'

/** A window that ended (or none) restarts now; the statements below share these expressions. */
const expired = (windowSeconds: number) => sql`w.started_at <= now() - make_interval(secs => ${windowSeconds})`
const msLeft = (windowSeconds: number) =>
  sql`greatest(1, ceil(extract(epoch from w.started_at + make_interval(secs => ${windowSeconds}) - now()) * 1000))::int as ms_left`

export interface CountedRequest {
  /** Requests in the bucket's current window, this one included. */
  count: number
  /** Milliseconds until that window ends (at least 1). */
  msLeft: number
}

/** Counts one request of `bucket`: a window that ended (or none) restarts at 1, else its count goes up by one. */
export async function countRequest(db: Db, bucket: string, windowSeconds: number): Promise<CountedRequest> {
  const result = await db.execute(sql`
    insert into rate_windows as w (bucket, started_at, count) values (${bucket}, now(), 1)
    on conflict (bucket) do update set
      started_at = case when ${expired(windowSeconds)} then now() else w.started_at end,
      count = case when ${expired(windowSeconds)} then 1 else w.count + 1 end
    returning count, ${msLeft(windowSeconds)}`)
  const row = rowsOf(result)[0]!
  return { count: Number(row.count), msLeft: Number(row.ms_left) }
}

export interface Lease {
  /** Requests this caller may admit (0: the window's limit is spent). */
  granted: number
  msLeft: number
}

/**
 * Takes up to `wanted` requests of `bucket`'s window, never letting the window's count pass `limit`: a window that
 * ended (or none) restarts with this lease.
 */
export async function leaseRequests(db: Db, bucket: string, windowSeconds: number, wanted: number, limit: number): Promise<Lease> {
  const first = sql`least(${wanted}::int, ${limit}::int)`
  const more = sql`least(${wanted}::int, greatest(0, ${limit}::int - w.count))`
  const result = await db.execute(sql`
    insert into rate_windows as w (bucket, started_at, count, granted) values (${bucket}, now(), ${first}, ${first})
    on conflict (bucket) do update set
      started_at = case when ${expired(windowSeconds)} then now() else w.started_at end,
      granted = case when ${expired(windowSeconds)} then ${first} else ${more} end,
      count = case when ${expired(windowSeconds)} then ${first} else w.count + ${more} end
    returning granted, ${msLeft(windowSeconds)}`)
  const row = rowsOf(result)[0]!
  return { granted: Number(row.granted), msLeft: Number(row.ms_left) }
}

/** Drops the rows of windows that ended (a bucket's next request starts a new one anyway). */
export async function deleteEndedRateWindows(db: Db, windowSeconds: number): Promise<void> {
  await db.execute(sql`delete from rate_windows where started_at < now() - make_interval(secs => ${windowSeconds})`)
}
