// The embedded database's upkeep (embedded-checkpoints.ts, embedded-vacuum.ts) on a timer: what a server's background
// processes (checkpointer, autovacuum) do, which PGlite's one standalone backend does not have.
import type { PGlite } from '@electric-sql/pglite'
import { checkpointIfLogGrew } from './embedded-checkpoints.ts'
import { vacuumIfDue } from './embedded-vacuum.ts'

const CHECK_EVERY_MS = 10_000

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
