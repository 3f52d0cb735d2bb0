// The embedded database's upkeep (embedded-checkpoints.ts, embedded-vacuum.ts) on a timer: what a server's background
// processes (checkpointer, autovacuum) do, which PGlite's one standalone backend does not have.
import type { PGlite } from '@electric-sql/pglite'
import { checkpointIfLogGrew } from './embedded-checkpoints.ts'
import { vacuumIfDue } from './embedded-vacuum.ts'

const CHECK_EVERY_MS = 10_000

/** Runs a piece of upkeep when PGlite may take it; behind the wire protocol, only between transactions. */
export type UpkeepRunner = <T>(task: () => Promise<T>) => Promise<T>

/** Where the upkeep runs: between the app's work, and how busy that work keeps the database. */
export interface UpkeepHost {
  runWhenIdle: UpkeepRunner
  /** Milliseconds PGlite has spent on the app's work so far: runWhenIdle's tasks are not counted. */
  busyMs: () => number
}

/** Vacuum looks once in this many checkpoint looks (a minute): tables do not fill with dead rows in seconds. */
const VACUUM_EVERY_LOOKS = 6

/**
 * Above this share of the last 10 s spent on the app's work, a vacuum or analysis waits for a quieter look. It holds
 * PGlite's one backend for its whole run: an analysis of a month's decision records read cold pages for 175-693 ms,
 * and each time every durable answer waiting for its commit waited that long (bench:decisions' paced p99).
 */
export const BUSY_SHARE_FOR_VACUUM = 0.05

/** A vacuum put off this long runs however busy the database is: a table due does not wait for good. */
export const VACUUM_PUT_OFF_MAX_MS = 10 * 60_000

/**
 * Decides at each 10 s look whether the minute's vacuum look runs: once a minute it falls due, and it waits while the
 * app kept the database busy since the look before, for at most VACUUM_PUT_OFF_MAX_MS.
 */
export class VacuumPacer {
  private looks = 0
  private dueSince: number | null = null
  private lastLookAt: number
  private lastBusyMs: number

  constructor(now: number, busyMs: number) {
    this.lastLookAt = now
    this.lastBusyMs = busyMs
  }

  /** At `now`, with the time PGlite has spent on the app's work so far (`busyMs`). */
  look(now: number, busyMs: number): boolean {
    const busyShare = (busyMs - this.lastBusyMs) / Math.max(1, now - this.lastLookAt)
    this.lastLookAt = now
    this.lastBusyMs = busyMs
    if (++this.looks % VACUUM_EVERY_LOOKS === 0) this.dueSince ??= now
    if (this.dueSince === null) return false
    if (busyShare >= BUSY_SHARE_FOR_VACUUM && now - this.dueSince < VACUUM_PUT_OFF_MAX_MS) return false
    this.dueSince = null
    return true
  }
}

/** In the app's own process PGlite has no connections to wait for, and nothing measures its work: never put off. */
const IN_PROCESS: UpkeepHost = { runWhenIdle: (task) => task(), busyMs: () => 0 }

/**
 * The embedded database's upkeep until stopped: every 10 s a look at the log (a checkpoint when it grew), and every
 * minute a table vacuumed or analysed if one is due (embedded-vacuum.ts), put off while the app keeps the database busy
 * (VacuumPacer). A failed look (the database closing) waits for the next one. `runWhenIdle` keeps each step out of a
 * connection's transaction when PGlite serves one (embedded-server/bridge.ts): statements of its own sent in the middle
 * of that transaction would run inside it.
 */
export function startEmbeddedUpkeep(client: PGlite, host: UpkeepHost = IN_PROCESS): () => void {
  let running = false
  const pacer = new VacuumPacer(performance.now(), host.busyMs())
  const timer = setInterval(() => {
    if (running || client.closed) return
    running = true
    const vacuumNow = pacer.look(performance.now(), host.busyMs())
    host.runWhenIdle(() => checkpointIfLogGrew(client))
      .then(() => (vacuumNow ? host.runWhenIdle(() => vacuumIfDue(client)) : null))
      .catch(() => null)
      .finally(() => { running = false })
  }, CHECK_EVERY_MS)
  timer.unref()
  return () => clearInterval(timer)
}
