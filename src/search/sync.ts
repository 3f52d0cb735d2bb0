// Keeps the index in step with the database. Writes leave outbox rows (search_index_tasks) with their own change;
// this applies them after commit — woken by PostgreSQL's NOTIFY, which is delivered only once the write commits —
// and deletes a row only once its change is in the index. Failures wait with exponential backoff; whatever is left
// when the process dies is applied by repair() at the next start.
import { setTimeout as delay } from 'node:timers/promises'
import type { Db } from '../db/client.ts'
import { listenOn, type Unlisten } from '../db/notifications.ts'
import {
  deleteIndexTasks, dueIndexTasks, INDEX_TASK_CHANNEL, lockIndexedEntities, nextIndexTaskDue, postponeIndexTasks, type IndexTaskRow,
} from '../db/queries/search.ts'
import { mapperFor, mergedChanges } from './documents.ts'
import type { SearchIndex } from './types.ts'

const TASK_BATCH = 200
const NOTIFIED_PASS_DELAY_MS = 25

export interface IndexerLog {
  warn(obj: object, msg: string): void
}

/** How long a search waits for the index to take in pending writes before it answers from the index as it stands. */
export const SEARCH_WAITS_FOR_INDEX_MS = 5_000

export class SearchIndexer {
  private tail: Promise<unknown> = Promise.resolve()
  private queued: Promise<number> | null = null
  private queuedIncludesPostponed = false
  private retryTimer: NodeJS.Timeout | null = null
  private soonTimer: NodeJS.Timeout | null = null
  private unlisten: Unlisten | null = null
  private stopped = false
  /** When the pass running now began (performance.now()), or null. */
  private passStartedAt: number | null = null
  /** The start's pass over what was left from before; resolves with how many tasks it applied. */
  caughtUp: Promise<number> = Promise.resolve(0)

  constructor(private readonly db: Db, private readonly index: SearchIndex, private log: IndexerLog) {}

  /**
   * Listens for new tasks, then applies everything left over from before (a crash between commit and indexing, or a
   * rename that touched every set) in the background: such a backlog can take minutes, and the app's readiness does
   * not wait for it (455,442 tasks made the start time out). `caughtUp` settles when it is done.
   */
  async start(log?: IndexerLog): Promise<void> {
    if (log) this.log = log
    this.stopped = false
    this.unlisten = await listenOn(this.db, INDEX_TASK_CHANNEL, () => this.soon())
    this.caughtUp = this.repair()
    this.caughtUp.catch((err: unknown) => this.log.warn({ err }, 'search index catch-up failed; its tasks wait for the next pass'))
  }

  async stop(): Promise<void> {
    this.stopped = true
    if (this.retryTimer) clearTimeout(this.retryTimer)
    if (this.soonTimer) clearTimeout(this.soonTimer)
    this.soonTimer = null
    await this.unlisten?.()
    this.unlisten = null
    await this.tail
  }

  /**
   * A pass a moment after a write's NOTIFY, shared by the writes of that moment: a pass costs the same few round trips
   * for one task or many, and every writer of the embedded database waits while one holds it (bench:soak).
   */
  private soon(): void {
    if (this.soonTimer || this.stopped) return
    this.soonTimer = setTimeout(() => {
      this.soonTimer = null
      void this.flush().catch(() => undefined)
    }, NOTIFIED_PASS_DELAY_MS)
  }

  /** Applies every task present, including those waiting out a retry delay. Returns how many tasks were applied. */
  repair(): Promise<number> {
    return this.run(true)
  }

  /** Applies the tasks that are due, after any pass already running. */
  flush(): Promise<number> {
    return this.run(false)
  }

  /**
   * flush(), waited for at most `ms`: a search reads its own writes, but behind a backlog of minutes it answers from the
   * index as it stands (the pass goes on). A pass already running for longer than that is such a backlog (the catch-up
   * at start, a rename's hundreds of thousands of tasks): then the search does not wait at all, rather than wait out
   * its bound each time. `wait` is how the time is waited (tests see it).
   */
  async flushWithin(ms: number, wait: (ms: number) => Promise<void> = (left) => delay(left, undefined, { ref: false })): Promise<void> {
    const flushed = this.flush().catch(() => undefined)
    const busyFor = this.passStartedAt === null ? 0 : performance.now() - this.passStartedAt
    if (busyFor >= ms) return
    await Promise.race([flushed, wait(ms - busyFor)])
  }

  /** Passes never overlap; requests arriving while one waits to start share it. */
  private run(includePostponed: boolean): Promise<number> {
    this.queuedIncludesPostponed ||= includePostponed
    if (this.queued) return this.queued
    const queued = this.tail.then(() => {
      this.queued = null
      const all = this.queuedIncludesPostponed
      this.queuedIncludesPostponed = false
      this.passStartedAt = performance.now()
      return this.pass(all).finally(() => { this.passStartedAt = null })
    })
    this.queued = queued
    this.tail = queued.catch(() => undefined)
    return queued
  }

  /**
   * One walk over the outbox in id order; failed tasks are not retried here. It ends at the first batch that is not
   * full, without reading again: a task committed since then sends its own NOTIFY, which queues the next pass (one read
   * less per write, on a database that every writer waits for).
   */
  private async pass(includePostponed: boolean): Promise<number> {
    let applied = 0
    let failed = false
    let after = 0
    for (;;) {
      const tasks = (await dueIndexTasks(this.db, TASK_BATCH, includePostponed, after))
      after = tasks.at(-1)?.id ?? after
      const groups = groupByEntity(tasks)
      // All together when they can be; when that fails, each on its own, so that only the failing entity waits.
      if (groups.length > 1 && await this.apply(groups, false)) applied += tasks.length
      else {
        for (const group of groups) {
          if (await this.apply([group], true)) applied += group.length
          else failed = true
        }
      }
      // A stopping app does not wait for the rest of a backlog: it stays in the outbox for the next start.
      if (tasks.length < TASK_BATCH || this.stopped) break
    }
    if (failed) await this.scheduleRetry()
    return applied
  }

  /**
   * Applies the tasks of some entities in one transaction, in a fixed number of round trips and statements however
   * many there are: each type's locks with its reads, then all the documents with the tasks' deletion. Writes arriving
   * while a pass runs share the next one, so under a stream of writes each pays a part of it (bench:soak).
   * `postponeOnFailure`: a failure postpones the tasks (for a single entity); otherwise the caller tries again.
   */
  private async apply(groups: IndexTaskRow[][], postponeOnFailure: boolean): Promise<boolean> {
    const ids = groups.flatMap((group) => group.map((t) => t.id))
    const byType = new Map<string, string[]>()
    for (const { entityType, entityId } of groups.map((group) => group[0]!)) byType.set(entityType, [...(byType.get(entityType) ?? []), entityId])
    // Locks taken in one order (type, then id) in every pass: two instances never wait on each other in a cycle.
    const types = [...byType.keys()].sort().map((entityType) => ({ entityType, entityIds: byType.get(entityType)!.sort() }))
    try {
      await this.db.transaction(async (tx) => {
        // The reads are sent with the locks: a connection runs its statements in order, so each entity is still read
        // as it is once its lock is held, and the transaction holds the database for fewer round trips.
        const changes = await Promise.all(types.map(async ({ entityType, entityIds }) => {
          const mapper = mapperFor(entityType)
          const [, change] = await Promise.all([
            lockIndexedEntities(tx, entityType, entityIds),
            mapper ? mapper.changeFor(tx, entityIds) : { remove: [], upsert: [] },
          ])
          return change
        }))
        const { remove, upsert } = mergedChanges(changes)
        const target = this.index.inTransaction?.(tx) ?? this.index
        // Removed and kept documents are disjoint, and the tasks go with them: sent together, one round trip.
        await Promise.all([target.delete(remove), target.upsert(upsert), deleteIndexTasks(tx, ids)])
      })
      return true
    } catch (err) {
      if (!postponeOnFailure) return false
      const { entityType, entityId } = groups[0]![0]!
      this.log.warn({ err, entityType, entityId }, 'search index update failed; retrying later')
      await postponeIndexTasks(this.db, ids, err instanceof Error ? err.message : String(err))
      return false
    }
  }

  private async scheduleRetry(): Promise<void> {
    if (this.stopped) return
    const due = await nextIndexTaskDue(this.db)
    if (!due) return
    if (this.retryTimer) clearTimeout(this.retryTimer)
    this.retryTimer = setTimeout(() => { void this.flush().catch(() => undefined) }, Math.max(0, due.getTime() - Date.now()))
    this.retryTimer.unref()
  }
}

function groupByEntity(tasks: IndexTaskRow[]): IndexTaskRow[][] {
  const groups = new Map<string, IndexTaskRow[]>()
  for (const task of tasks) {
    const key = `${task.entityType}\u0000${task.entityId}`
    groups.set(key, [...(groups.get(key) ?? []), task])
  }
  return [...groups.values()]
}
