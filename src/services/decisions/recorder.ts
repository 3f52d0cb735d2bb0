// The decision records' write path (issue 26). Best effort (the default): records wait in a bounded buffer and are
// written in batches at least every second; what the buffer cannot hold is dropped, counted per owner, logged and
// shown to the owner's admins. Durable: the answer waits until its record is committed; every record waiting at that
// moment goes in one insert (group commit). On the request path: the record built, encoded as one string, and pushed.
import { isSharedDatabase, type Db } from '../../db/client.ts'
import { addDroppedDecisions, encodeDecisionRecord, writeDecisionRecords, type EncodedDecisionRecord } from '../../db/queries/decisions.ts'
import { DomainError } from '../errors.ts'
import { buildDecisionRecord, type DecisionRun } from './build.ts'
import { DecisionSettingsCache } from './settings.ts'
import { yieldToEventLoop } from '../operations/event-loop.ts'
import { oneAtATime } from '../one-at-a-time.ts'

export interface RecorderOptions {
  secret: string
  /** Best effort: how often the buffer is written. */
  flushEveryMs?: number
  /** Best effort: records held at most; more are dropped (and counted). */
  maxBuffered?: number
  /** Durable: answers waiting for their commit at most; more are refused (503) rather than held. */
  maxWaiting?: number
  onError?: (err: unknown, message: string) => void
}

/** Rows per insert statement: 17 columns stay well under PostgreSQL's 65,535 parameters. */
const ROWS_PER_INSERT = 1_000
/**
 * Best effort writes a second's buffer in statements of this many rows, each its own commit, and serves the requests
 * waiting between them. On PGlite in-process (tests, scripts) a statement runs on the thread that serves requests, about
 * 50 µs a record (on its worker thread, as `npm start` runs it, it does not): one
 * statement for a whole second's records at 3,000 answers a second held that thread ~150 ms, and put 100 ms on the
 * p99 of answers paced at 1,000 a second.
 */
const FLUSH_ROWS_PER_STATEMENT = 100
/**
 * Best effort promises a write at least every second; the timer runs ten times as often. Under load it fires late and
 * a write takes time, so at every second records waited a second and more, and a crash lost more than a second of
 * answers (31 against 30 in `test:crash`). And records held half a second outlive the young generation: at 500 ms the
 * thread serving HTTP spent 20 µs more an answer than in durable mode (bench:decisions with the database on its own
 * thread), at 100 ms 10.
 */
const FLUSH_EVERY_MS = 100
/**
 * Durable group commits under way at once on a PostgreSQL server (each holds one of the pool's connections). The
 * embedded database runs one statement at a time whatever is sent, so there one commit is under way and the answers
 * arriving meanwhile make the next group: several in flight had made groups of two records (partner requests come two
 * a turn), each a COPY and a commit of its own.
 */
const MAX_COMMITS_IN_FLIGHT_SHARED = 4

export class DecisionNotRecordedError extends DomainError {
  constructor() {
    super('NOT_RECORDED', 'The answer could not be recorded, so it was not given. Try again in a moment.', 503)
  }
}

/** A recorded answer: its id for the Decision-Id header, and in durable mode the commit the answer waits for. */
export interface Recorded { id: string; committed: Promise<void> | null }

interface Waiting { record: EncodedDecisionRecord; resolve: () => void; reject: (err: unknown) => void }

export class DecisionRecorder {
  readonly settings: DecisionSettingsCache
  private buffer: EncodedDecisionRecord[] = []
  private waiting: Waiting[] = []
  private dropped = new Map<string, number>()
  /** The group commits under way (durable), each settling its answers. */
  private readonly commits = new Set<Promise<void>>()
  private commitScheduled = false
  private readonly timer: NodeJS.Timeout
  private readonly maxBuffered: number
  private readonly maxWaiting: number
  private readonly maxCommitsInFlight: number

  constructor(private readonly db: Db, private readonly options: RecorderOptions) {
    this.settings = new DecisionSettingsCache(db)
    this.maxBuffered = options.maxBuffered ?? 20_000
    this.maxWaiting = options.maxWaiting ?? 20_000
    this.maxCommitsInFlight = isSharedDatabase(db) ? MAX_COMMITS_IN_FLIGHT_SHARED : 1
    this.timer = setInterval(() => { void this.flush() }, options.flushEveryMs ?? FLUSH_EVERY_MS)
    this.timer.unref()
  }

  /** Records one answer, unless its owner records none (null). A promise only when settings had to be read. */
  record(run: DecisionRun): Recorded | null | Promise<Recorded | null> {
    const mode = this.settings.mode(run.version.ownerId)
    const personal = this.settings.personalNames(run.version.ownerId, run.version.adviceSetId)
    if (mode instanceof Promise || personal instanceof Promise) {
      return Promise.all([mode, personal]).then(([m, p]) => this.take(run, m, p))
    }
    return this.take(run, mode, personal)
  }

  private take(run: DecisionRun, mode: string, personal: ReadonlySet<string>): Recorded | null {
    if (mode === 'off') return null
    const row = buildDecisionRecord(run, personal, this.options.secret)
    if (mode === 'durable') return { id: row.id!, committed: this.commit(encodeDecisionRecord(row)) }
    if (this.buffer.length >= this.maxBuffered) {
      this.dropped.set(row.ownerId, (this.dropped.get(row.ownerId) ?? 0) + 1)
      // The answer still goes out; its record is the one counted as dropped, so no id is given for it.
      return null
    }
    this.buffer.push(encodeDecisionRecord(row))
    return { id: row.id!, committed: null }
  }

  /**
   * Durable: joins the next group commit, which starts at the end of this turn of the event loop, unless
   * maxCommitsInFlight are under way: then at the end of the first of them. Several commits in flight keep answers
   * flowing while one waits on the database (on PostgreSQL a commit of 8 records took 4.4 ms under load, nearly all of
   * it waiting, and one at a time held durable answers to 1,800 a second).
   */
  private commit(record: EncodedDecisionRecord): Promise<void> {
    if (this.waiting.length >= this.maxWaiting) return Promise.reject(new DecisionNotRecordedError())
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ record, resolve, reject })
      this.scheduleCommit()
    })
  }

  private scheduleCommit(): void {
    if (this.commitScheduled || this.waiting.length === 0 || this.commits.size >= this.maxCommitsInFlight) return
    this.commitScheduled = true
    setImmediate(() => {
      this.commitScheduled = false
      this.commitGroup()
    })
  }

  /** One group commit of every answer waiting now; when it settles, the next may start. */
  private commitGroup(): void {
    if (this.waiting.length === 0) return
    const group = this.waiting
    this.waiting = []
    const committed = this.insertAll(group.map((w) => w.record)).then(
      () => { for (const w of group) w.resolve() },
      (err: unknown) => {
        this.options.onError?.(err, `decision records: a group commit of ${group.length} failed; those answers were refused`)
        for (const w of group) w.reject(new DecisionNotRecordedError())
      },
    ).finally(() => {
      this.commits.delete(committed)
      this.scheduleCommit()
    })
    this.commits.add(committed)
  }

  private async insertAll(records: EncodedDecisionRecord[]): Promise<void> {
    if (records.length <= ROWS_PER_INSERT) return writeDecisionRecords(this.db, records)
    await this.db.transaction(async (tx) => {
      for (let i = 0; i < records.length; i += ROWS_PER_INSERT) await writeDecisionRecords(tx as unknown as Db, records.slice(i, i + ROWS_PER_INSERT))
    })
  }

  /** Writes the buffer (and the drop counts); flushes queue behind each other. */
  readonly flush: () => Promise<void> = oneAtATime(() => this.writeBuffer())

  private async writeBuffer(): Promise<void> {
    const records = this.buffer
    this.buffer = []
    for (let i = 0; i < records.length; i += FLUSH_ROWS_PER_STATEMENT) {
      const chunk = records.slice(i, i + FLUSH_ROWS_PER_STATEMENT)
      try {
        await writeDecisionRecords(this.db, chunk)
      } catch (err) {
        for (const record of chunk) this.dropped.set(record.ownerId, (this.dropped.get(record.ownerId) ?? 0) + 1)
        this.options.onError?.(err, `decision records: a batch of ${chunk.length} could not be written and is counted as dropped`)
      }
      // Let the requests waiting meanwhile be served before the next statement (see FLUSH_ROWS_PER_STATEMENT).
      await yieldToEventLoop()
    }
    if (this.dropped.size > 0) {
      const counts = this.dropped
      this.dropped = new Map()
      const total = [...counts.values()].reduce((a, b) => a + b, 0)
      this.options.onError?.(new Error(`${total} decision records dropped`), `decision records: ${total} dropped (buffer full or write failed)`)
      try {
        await addDroppedDecisions(this.db, counts, new Date())
      } catch (err) {
        this.options.onError?.(err, 'decision records: the dropped count could not be written')
      }
    }
  }

  /** Buffered records waiting, for the bench and tests. */
  get buffered(): number {
    return this.buffer.length
  }

  async close(): Promise<void> {
    clearInterval(this.timer)
    await this.flush()
    // Answers still waiting are committed before the database closes; a commit settling may start the next.
    while (this.commits.size > 0 || this.waiting.length > 0) {
      if (this.commits.size === 0) this.commitGroup()
      await Promise.all(this.commits)
    }
  }
}
