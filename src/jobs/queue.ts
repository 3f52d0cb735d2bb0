// The durable job queue: other domains register a kind with its handler and enqueue jobs for an owner/user;
// pg-boss claims them (FOR UPDATE SKIP LOCKED, so two workers never take one job), retries failures with
// exponential backoff, and gives a job whose worker died (no heartbeat for 10 s) to a worker again — in this
// process after a restart, or in another instance. The `jobs` row is what users see, and its `attempt` column
// fences every write, so only the attempt that holds the job can report progress or finish it: a job completes
// exactly once even when an attempt was cut off midway.
import { writeJobFile } from './job-files.ts'
import { sql } from 'drizzle-orm'
import { fromDrizzle, type DrizzleTransactionLike, type JobWithMetadata, type PgBoss } from 'pg-boss'
import type { Db } from '../db/client.ts'
import {
  beginJobAttempt, cancelRequestedJobIds, finishJob, insertJob, runningBossJobIds, setBossJobId, settleCancelledJob, updateJobProgress,
  type JobRow,
} from '../db/queries/jobs.ts'
import { createBoss, isEmbedded } from './boss.ts'
import { JobAbortedError, type EnqueueRequest, type JobContext, type JobHandler, type JobKindOptions } from './types.ts'

/** One pg-boss queue carries every kind (one poll for all); the kind travels with the job. */
const BOSS_QUEUE = 'app-jobs'
/** A worker that stops sending heartbeats for this long is taken for dead and its job handed out again. */
const HEARTBEAT_SECONDS = 10
const POLL_SECONDS = 0.5
/** How often pg-boss looks for jobs whose heartbeat ran out. */
const SUPERVISE_SECONDS = 2
/** How often running jobs look for a cancel request (cancel stops a job within a second). */
const CANCEL_CHECK_MS = 300
/** Progress is written at most this often (its text too), unless it reaches 100. */
const PROGRESS_WRITE_MS = 250
const DEFAULT_ATTEMPTS = 3
const DEFAULT_RETRY_DELAY_SECONDS = 2
/** Jobs of one instance running at once. */
const CONCURRENCY = 2

interface RegisteredKind { handler: JobHandler<never>; attempts: number; retryDelaySeconds: number }
interface BossPayload { jobId: number; kind: string }

export interface JobQueueLog {
  info(obj: object, msg: string): void
  warn(obj: object, msg: string): void
  error(obj: object, msg: string): void
}

type StopReason = 'cancelled' | 'shutdown' | 'lost'

export class JobQueue {
  private readonly kinds = new Map<string, RegisteredKind>()
  private readonly running = new Map<number, AbortController>()
  private boss: PgBoss | null = null
  private cancelTimer: NodeJS.Timeout | null = null
  private checkingCancels = false

  constructor(private readonly db: Db, private readonly log: JobQueueLog) {}

  /** Registers a kind; its handler runs on whichever instance claims the job. Register before start(). */
  register<P>(kind: string, handler: JobHandler<P>, options: JobKindOptions = {}): void {
    if (this.kinds.has(kind)) throw new Error(`Job kind ${kind} is registered twice`)
    this.kinds.set(kind, {
      handler: handler as JobHandler<never>,
      attempts: Math.max(1, options.attempts ?? DEFAULT_ATTEMPTS),
      retryDelaySeconds: options.retryDelaySeconds ?? DEFAULT_RETRY_DELAY_SECONDS,
    })
  }

  isRegistered(kind: string): boolean {
    return this.kinds.has(kind)
  }

  /**
   * Records the job and hands it to pg-boss in one transaction (inside the caller's, when `db` is one), so a job
   * exists for users exactly when it will run.
   */
  async enqueue<P>(db: Db, request: EnqueueRequest<P>): Promise<JobRow> {
    const kind = this.kinds.get(request.kind)
    if (!kind) throw new Error(`Unknown job kind ${request.kind}`)
    const boss = this.requireBoss()
    return db.transaction(async (tx) => {
      const job = await insertJob(tx, {
        kind: request.kind, ownerId: request.ownerId, userId: request.userId, subject: request.subject ?? null,
        title: request.title, payload: request.payload ?? {}, maxAttempts: kind.attempts,
      })
      const data: BossPayload = { jobId: job.id, kind: request.kind }
      // One delivery more than the attempts allowed: if the last attempt's worker dies, that delivery marks the
      // job failed instead of leaving it shown as running for ever.
      // The cast: pg-boss types execute() by its result shape; our Db is generic over both drivers' shapes.
      const bossJobId = await boss.send(BOSS_QUEUE, data, {
        db: fromDrizzle(tx as unknown as DrizzleTransactionLike, sql), retryLimit: kind.attempts, retryBackoff: true, retryDelay: kind.retryDelaySeconds,
        heartbeatSeconds: HEARTBEAT_SECONDS,
      })
      if (bossJobId) await setBossJobId(tx, job.id, bossJobId)
      return { ...job, bossJobId }
    })
  }

  async start(): Promise<void> {
    if (this.boss) return
    const boss = createBoss(this.db, { superviseIntervalSeconds: SUPERVISE_SECONDS, monitorIntervalSeconds: SUPERVISE_SECONDS })
    boss.on('error', (err) => this.log.warn({ err }, 'job queue: pg-boss reported an error'))
    await boss.start()
    await boss.createQueue(BOSS_QUEUE, { heartbeatSeconds: HEARTBEAT_SECONDS })
    if (isEmbedded(this.db)) {
      // One process owns an embedded database, so whatever is still running now was cut off when the last one
      // died: hand it out again at once rather than after the heartbeat runs out.
      const orphans = await runningBossJobIds(this.db)
      if (orphans.length > 0) {
        await boss.fail(BOSS_QUEUE, orphans, { message: 'The process running this job stopped.' })
        this.log.info({ jobs: orphans.length }, 'job queue: resuming jobs interrupted by the last shutdown')
      }
    }
    await boss.work<BossPayload, unknown, { pollingIntervalSeconds: number; includeMetadata: true; batchSize: 1; localConcurrency: number }>(BOSS_QUEUE, {
      pollingIntervalSeconds: POLL_SECONDS, includeMetadata: true, batchSize: 1, localConcurrency: CONCURRENCY,
    }, async ([job]) => { if (job) await this.runAttempt(job) })
    this.boss = boss
    this.cancelTimer = setInterval(() => void this.checkCancels(), CANCEL_CHECK_MS)
    this.cancelTimer.unref()
  }

  /** Running handlers are told to stop; their jobs go back to the queue for the next start (or another instance). */
  async stop(): Promise<void> {
    const boss = this.boss
    if (!boss) return
    this.boss = null
    if (this.cancelTimer) clearInterval(this.cancelTimer)
    for (const controller of this.running.values()) controller.abort('shutdown' satisfies StopReason)
    await boss.stop({ graceful: true, timeout: 5_000, close: true })
  }

  private requireBoss(): PgBoss {
    if (!this.boss) throw new Error('The job queue is not started')
    return this.boss
  }

  private async checkCancels(): Promise<void> {
    if (this.checkingCancels || this.running.size === 0) return
    this.checkingCancels = true
    try {
      for (const id of await cancelRequestedJobIds(this.db, [...this.running.keys()])) {
        this.running.get(id)?.abort('cancelled' satisfies StopReason)
      }
    } catch (err) {
      this.log.warn({ err }, 'job queue: checking for cancel requests failed')
    } finally {
      this.checkingCancels = false
    }
  }

  private async runAttempt(bossJob: JobWithMetadata<BossPayload>): Promise<void> {
    const { jobId } = bossJob.data
    const attempt = bossJob.retryCount + 1
    const kind = this.kinds.get(bossJob.data.kind)
    if (!kind) {
      // Another instance (a newer version) knows this kind: this one leaves it to that one.
      throw new Error(`Job kind ${bossJob.data.kind} is not registered in this instance`)
    }
    const row = await beginJobAttempt(this.db, jobId, attempt)
    if (!row) {
      // Finished or cancelled: nothing to run. A cancel asked for while no worker held the job ends it here.
      await settleCancelledJob(this.db, jobId)
      return
    }
    if (attempt > row.maxAttempts) {
      await finishJob(this.db, jobId, attempt, { state: 'failed', error: row.error ?? 'The job was interrupted too many times.', progressText: 'Failed' })
      return
    }
    const controller = new AbortController()
    bossJob.signal.addEventListener('abort', () => controller.abort('lost' satisfies StopReason), { once: true })
    this.running.set(jobId, controller)
    try {
      const result = await kind.handler(row.payload as never, this.contextFor(row, attempt, controller.signal))
      if (controller.signal.aborted) throw new JobAbortedError('stopped')
      await finishJob(this.db, jobId, attempt, { state: 'completed', result: result ?? null, error: null, progress: 100 })
    } catch (err) {
      await this.attemptFailed(row, attempt, controller.signal, err)
    } finally {
      this.running.delete(jobId)
    }
  }

  /** Decides what a failed or stopped attempt means; rethrows when pg-boss should deliver the job again. */
  private async attemptFailed(row: JobRow, attempt: number, signal: AbortSignal, err: unknown): Promise<void> {
    const reason = signal.aborted ? (signal.reason as StopReason) : null
    if (reason === 'lost') return // another worker holds the job now; this attempt writes nothing more
    if (reason === 'cancelled') {
      await finishJob(this.db, row.id, attempt, { state: 'cancelled', progressText: 'Cancelled' })
      return
    }
    if (reason === 'shutdown') {
      await finishJob(this.db, row.id, attempt, { state: 'queued', progressText: 'Interrupted; it resumes shortly' })
      throw err
    }
    const message = err instanceof Error ? err.message : String(err)
    const last = attempt >= row.maxAttempts
    this.log.warn({ err, jobId: row.id, kind: row.kind, attempt }, last ? 'job failed' : 'job attempt failed; retrying')
    await finishJob(this.db, row.id, attempt, last
      ? { state: 'failed', error: message, progressText: 'Failed' }
      : { state: 'queued', error: message, progressText: `Attempt ${attempt} failed; trying again` })
    if (!last) throw err
  }

  private contextFor(row: JobRow, attempt: number, signal: AbortSignal): JobContext {
    let lastWrite = 0
    let lastText = ''
    const stopIfAborted = () => { if (signal.aborted) throw new JobAbortedError(`Job ${row.id} was stopped`) }
    return {
      signal,
      job: { id: row.id, ownerId: row.ownerId, userId: row.userId, attempt, maxAttempts: row.maxAttempts },
      progress: async (percent, text = lastText) => {
        stopIfAborted()
        const now = Date.now()
        const value = Math.max(0, Math.min(100, Math.round(percent)))
        // A line that counts what is done changes at every call: it waits its turn like the percentage, or a job of
        // 100,000 records wrote its progress 100,000 times (the write probe: a decision export spent most of 69 s so).
        if (now - lastWrite < PROGRESS_WRITE_MS && value < 100) return
        lastWrite = now
        lastText = text
        if (!(await updateJobProgress(this.db, row.id, attempt, value, text))) {
          throw new JobAbortedError(`Job ${row.id} is no longer held by this attempt`)
        }
      },
      saveFile: async (file) => {
        stopIfAborted()
        await writeJobFile(this.db, row.id, file)
        return { downloadUrl: `/api/job/${row.id}/download` }
      },
    }
  }
}
