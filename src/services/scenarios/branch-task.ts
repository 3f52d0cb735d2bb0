// Large branch generations and compares run as jobs on the durable queue (src/jobs), so they survive a restart, run
// on whichever app instance claims them, and are read by id from any instance. Each kind registers a job handler
// that rebuilds the walk from the request (an engine step generator: walkBranches, walkComparison) and pulls it in
// slices of SLICE_MS, reporting progress and letting the event loop turn between slices so the server keeps
// answering; cancel (the job's) stops it before its next slice. The job's row is the task: its state, progress and,
// once done, its result.
import { findJob, listJobs, type JobRow } from '../../db/queries/jobs.ts'
import { findUserById } from '../../db/queries/users.ts'
import type { BranchProgress } from '../../engine/index.ts'
import { JobAbortedError } from '../../jobs/types.ts'
import { actorForUser } from '../accounts/users.ts'
import type { Actor, Deps } from '../context.ts'
import { ConflictError, NotFoundError } from '../errors.ts'
import { cancelJob } from '../operations/jobs.ts'
import { yieldToEventLoop } from '../operations/event-loop.ts'

const SLICE_MS = 20
/** Running tasks one person may have at once: each holds a worker's slices while it runs. */
export const MAX_RUNNING_PER_USER = 3

export type TaskState = 'running' | 'done' | 'cancelled' | 'failed'
export type TaskKind = 'generate' | 'compare'

export interface TaskStatus {
  id: string
  kind: TaskKind
  adviceSetId: number
  state: TaskState
  /** Steps done of `total` (paths, or a compare's steps); `text` says the same in words. */
  done: number
  total: number
  text: string
  startedAt: string
  finishedAt: string | null
  error: string | null
}

/** What a job of a branch task carries: the request to walk again, and what the page shows of it. */
interface TaskPayload<Req, C> { adviceSetId: number; request: Req; context: C; total: number; unit: string }

/** A walk rebuilt from its request in the worker, and how its value becomes the stored result. */
export interface TaskWalk<R, T> { steps: Generator<BranchProgress, R, undefined>; finish: (value: R) => T }

/**
 * Pulls `steps` to the end in slices of SLICE_MS; after each slice `report` is awaited (progress, which throws once
 * the job is cancelled) and the event loop turns. Stops with JobAbortedError when `signal` is aborted.
 */
export async function runInSlices<R>(steps: Generator<BranchProgress, R, undefined>, report: (step: BranchProgress) => Promise<void>, signal: AbortSignal): Promise<R> {
  let step = steps.next()
  for (;;) {
    const until = performance.now() + SLICE_MS
    while (!step.done && performance.now() < until) step = steps.next()
    if (step.done) return step.value
    await report(step.value)
    await yieldToEventLoop()
    if (signal.aborted) throw new JobAbortedError('The task was stopped.')
  }
}

const ACTIVE: ReadonlySet<string> = new Set(['queued', 'running'])

/** One kind of branch task: Req is its request, C what its page shows of it, T its result. */
export class BranchTasks<Req, C, T> {
  constructor(readonly kind: TaskKind, readonly jobKind: string, private readonly unit: string) {}

  /** Registers the job handler (at start-up): `walk` rebuilds the walk from the request, as the person who started it. */
  register<R>(deps: Deps, walk: (deps: Deps, actor: Actor, request: Req) => Promise<TaskWalk<R, T>>): void {
    deps.jobs.register<TaskPayload<Req, C>>(this.jobKind, async (payload, { progress, signal, job }) => {
      const user = job.userId === null ? undefined : await findUserById(deps.db, job.userId)
      if (!user) throw new Error('The person who started this task no longer has an account.')
      const { steps, finish } = await walk(deps, actorForUser(user), payload.request)
      const value = await runInSlices(steps, (step) => progress(step.total === 0 ? 100 : Math.min(99, (step.done / step.total) * 100), this.progressText(step.done, step.total)), signal)
      return finish(value)
    }, { attempts: 2 })
  }

  /** Starts a task for `actor`; refused (409) while the actor already has MAX_RUNNING_PER_USER branch tasks running. */
  async start(deps: Deps, actor: Actor, ownerId: string, task: { adviceSetId: number; request: Req; context: C; total: number; title: string }): Promise<TaskStatus> {
    const running = (await listJobs(deps.db, { userId: actor.userId, states: ['queued', 'running'], limit: 50 }))
      .filter((row) => row.job.kind.startsWith(BRANCH_JOB_PREFIX) && row.job.cancelRequestedAt === null).length
    if (running >= MAX_RUNNING_PER_USER) {
      throw new ConflictError('task', `You already have ${running} branch generations running: wait for one to finish or cancel it.`)
    }
    const payload: TaskPayload<Req, C> = { adviceSetId: task.adviceSetId, request: task.request, context: task.context, total: task.total, unit: this.unit }
    const job = await deps.jobs.enqueue(deps.db, {
      kind: this.jobKind, ownerId, userId: actor.userId, subject: `adviceset:${task.adviceSetId}:branches`, title: task.title, payload,
    })
    return this.statusOf(job)
  }

  /** The task when it is this kind's and the actor started it; anyone else gets the answer of a task that never was. */
  async read(deps: Deps, actor: Actor, id: string): Promise<{ status: TaskStatus; context: C; result: T | undefined }> {
    const job = await this.own(deps, actor, id)
    const payload = job.payload as TaskPayload<Req, C>
    return { status: this.statusOf(job), context: payload.context, result: job.state === 'completed' ? job.result as T : undefined }
  }

  async has(deps: Deps, actor: Actor, id: string): Promise<boolean> {
    const job = await jobOf(deps, id)
    return job !== undefined && job.kind === this.jobKind && job.userId === actor.userId
  }

  /** Stops a running task (shown as cancelled at once); a finished one is left as it is. */
  async cancel(deps: Deps, actor: Actor, id: string): Promise<TaskStatus> {
    const job = await this.own(deps, actor, id)
    if (!ACTIVE.has(job.state) || job.cancelRequestedAt !== null) return this.statusOf(job)
    await cancelJob(deps, actor, job.id)
    return this.statusOf((await findJob(deps.db, job.id))!)
  }

  private async own(deps: Deps, actor: Actor, id: string): Promise<JobRow> {
    const job = await jobOf(deps, id)
    if (!job || job.kind !== this.jobKind || job.userId !== actor.userId) throw new NotFoundError('No branch task with this id.')
    return job
  }

  private progressText(done: number, total: number): string {
    return `${done.toLocaleString('en')} of ${total.toLocaleString('en')} ${this.unit}`
  }

  private statusOf(job: JobRow): TaskStatus {
    const payload = job.payload as TaskPayload<Req, C>
    const state: TaskState = job.state === 'completed' ? 'done' : job.state === 'failed' ? 'failed'
      : job.state === 'cancelled' || job.cancelRequestedAt !== null ? 'cancelled' : 'running'
    const total = payload.total
    const done = state === 'done' ? total : Math.round((job.progress / 100) * total)
    return {
      id: String(job.id), kind: this.kind, adviceSetId: payload.adviceSetId, state, done, total,
      text: state === 'done' ? this.progressText(total, total) : job.progressText || 'Waiting for a worker…',
      startedAt: (job.startedAt ?? job.createdAt).toISOString(), finishedAt: job.finishedAt?.toISOString() ?? null, error: job.error,
    }
  }
}

/** Every branch task's job kind starts with it (the per-person limit counts them together). */
export const BRANCH_JOB_PREFIX = 'branches.'

async function jobOf(deps: Deps, id: string): Promise<JobRow | undefined> {
  if (!/^\d{1,15}$/.test(id)) return undefined
  return findJob(deps.db, Number(id))
}
