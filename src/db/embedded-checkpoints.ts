// Checkpoints for the embedded database. PGlite runs PostgreSQL as one standalone backend, and a standalone backend
// never checkpoints by itself: only a checkpointer process starts one when the log reaches max_wal_size. So under
// steady writes the write-ahead log grew by a 16 MB segment every few seconds for as long as the process ran
// (bench:soak, with PGlite in memory: +167 MB of RSS in 50 s with 10 writers; on a data directory, as much disk). A
// checkpoint lets PostgreSQL reuse or remove the segments before it.
import type { PGlite } from '@electric-sql/pglite'

/** The log written since the last checkpoint that makes a checkpoint worth it: one segment. */
export const CHECKPOINT_AFTER_BYTES = 16 * 1024 * 1024

/** Checkpoints when the log has grown by CHECKPOINT_AFTER_BYTES since the last one; true when it did. */
export async function checkpointIfLogGrew(client: PGlite): Promise<boolean> {
  const { rows } = await client.query<{ written: string }>(
    'select pg_wal_lsn_diff(pg_current_wal_insert_lsn(), (pg_control_checkpoint()).redo_lsn)::text as written',
  )
  if (Number(rows[0]?.written ?? 0) < CHECKPOINT_AFTER_BYTES) return false
  await client.exec('CHECKPOINT')
  return true
}
