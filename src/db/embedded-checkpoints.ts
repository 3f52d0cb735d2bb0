// Checkpoints for the embedded database, and the timer of its upkeep (checkpoints and vacuum). PGlite runs PostgreSQL as one standalone backend, and a standalone backend
// never checkpoints by itself: only a checkpointer process starts one when the log reaches max_wal_size. PGlite also
// keeps the data directory in memory, so under steady writes the write-ahead log grew by a 16 MB segment every few
// seconds for as long as the process ran (bench:soak: +167 MB in 50 s with 10 writers). A checkpoint lets PostgreSQL
// reuse or remove the segments before it.
import type { PGlite } from '@electric-sql/pglite'
import { vacuumIfDue } from './embedded-vacuum.ts'

/** The log written since the last checkpoint that makes a checkpoint worth it: one segment. */
export const CHECKPOINT_AFTER_BYTES = 16 * 1024 * 1024
const CHECK_EVERY_MS = 10_000

/** Checkpoints when the log has grown by CHECKPOINT_AFTER_BYTES since the last one; true when it did. */
export async function checkpointIfLogGrew(client: PGlite): Promise<boolean> {
  const { rows } = await client.query<{ written: string }>(
    'select pg_wal_lsn_diff(pg_current_wal_insert_lsn(), (pg_control_checkpoint()).redo_lsn)::text as written',
  )
  if (Number(rows[0]?.written ?? 0) < CHECKPOINT_AFTER_BYTES) return false
  await client.exec('CHECKPOINT')
  return true
}

/** Runs a piece of upkeep when PGlite may take it; behind the wire protocol, only between transactions. */
export type UpkeepRunner = <T>(task: () => Promise<T>) => Promise<T>

/** Vacuum looks once in this many checkpoint looks (a minute): tables do not fill with dead rows in seconds. */
const VACUUM_EVERY_LOOKS = 6

/**
 * The embedded database's upkeep until stopped: every 10 s a look at the log (a checkpoint when it grew), and every
 * minute a table vacuumed or analysed if one is due (embedded-vacuum.ts). A failed look (the database closing) waits
 * for the next one. `runWhenIdle` keeps each step out of a connection's transaction when PGlite serves one
 * (embedded-server/bridge.ts): statements of its own sent in the middle of that transaction would run inside it.
 */
export function startEmbeddedUpkeep(client: PGlite, runWhenIdle: UpkeepRunner = (task) => task()): () => void {
  let running = false
  let looks = 0
  const timer = setInterval(() => {
    if (running || client.closed) return
    running = true
    const vacuumToo = ++looks % VACUUM_EVERY_LOOKS === 0
    runWhenIdle(() => checkpointIfLogGrew(client))
      .then(() => (vacuumToo ? runWhenIdle(() => vacuumIfDue(client)) : null))
      .catch(() => null)
      .finally(() => { running = false })
  }, CHECK_EVERY_MS)
  timer.unref()
  return () => clearInterval(timer)
}
