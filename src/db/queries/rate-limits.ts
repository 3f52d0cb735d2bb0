// The shared request counters (schema/rate-limits.ts): one statement per counted request, the database's clock.
import { sql } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { rowsOf } from './rule-nodes.ts'

export interface CountedRequest {
  /** Requests in the bucket's current window, this one included. */
  count: number
  /** Whole seconds until that window ends (at least 1). */
  secondsLeft: number
}

/**
 * Counts one request of `bucket`: a window that ended (or none) is restarted at 1, else its count goes up by one.
 * Concurrent requests of a bucket queue on its row, so no count is lost between instances.
 */
export async function countRequest(db: Db, bucket: string, windowSeconds: number): Promise<CountedRequest> {
  const window = sql`make_interval(secs => ${windowSeconds})`
  const result = await db.execute(sql`
    insert into rate_windows as w (bucket, started_at, count) values (${bucket}, now(), 1)
    on conflict (bucket) do update set
      started_at = case when w.started_at <= now() - ${window} then now() else w.started_at end,
      count = case when w.started_at <= now() - ${window} then 1 else w.count + 1 end
    returning count, greatest(1, ceil(extract(epoch from w.started_at + ${window} - now())))::int as seconds_left`)
  const row = rowsOf(result)[0]!
  return { count: Number(row.count), secondsLeft: Number(row.seconds_left) }
}

/** Drops the rows of windows that ended before `windowSeconds` ago (a bucket's next request starts a new one anyway). */
export async function deleteEndedRateWindows(db: Db, windowSeconds: number): Promise<void> {
  await db.execute(sql`delete from rate_windows where started_at < now() - make_interval(secs => ${windowSeconds})`)
}
