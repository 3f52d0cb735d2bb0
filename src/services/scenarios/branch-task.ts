// Background tasks for large branch generations and compares, in this process, until the durable job queue
// (issue 16, src/jobs) takes them over: start() returns at once with a task id; the work is one of the engine's
// step generators (walkBranches, walkComparison), pulled in slices of SLICE_MS with the event loop turning between
// slices, so the server keeps answering; progress (done of total) is updated after every slice; cancel() stops it
// before the next slice. Finished tasks are kept for KEEP_MS so their page and result can be read.
//
// Moving to the queue: the job's handler does what `run` does here (pull the generator in slices, report progress,
// check for cancel); status(), cancel() and result() become reads and writes of the job row. Known limits until
// then: tasks live in this process's memory, so they are lost on restart and, with several app instances, only the
// instance that started a task can report on it.
import { randomUUID } from 'node:crypto'
import type { BranchProgress } from '../../engine/index.ts'
import type { Actor } from '../context.ts'
import { ConflictError, NotFoundError } from '../errors.ts'

const SLICE_MS = 20
const KEEP_MS = 30 * 60_000
/** Running tasks one person may have at once: each holds a core's slices while it runs. */
export const MAX_RUNNING_PER_USER = 3

export type TaskState = 'running' | 'done' | 'cancelled' | 'failed'
export type TaskKind = 'generate' | 'compare'

export interface TaskStatus {
  id: string
  kind: TaskKind
  adviceSetId: number
  state: TaskState
  done: number
  total: number
  startedAt: string
  finishedAt: string | null
  error: string | null
}

interface Task<C, T> {
  status: TaskStatus
  userId: number
  /** What the page and the API need to show the result again (the request, the sources' labels). */
  context: C
  result: T | undefined
  cancelled: boolean
}

/** Every registry, for the per-person limit and for closing. */
const registries: Array<{ runningFor(userId: number): number; cancelAll(): void }> = []

function runningFor(userId: number): number {
  return registries.reduce((sum, registry) => sum + registry.runningFor(userId), 0)
}

/** The tasks of one kind; C is what a task remembers of its request, T its result. */
export class TaskRegistry<C, T> {
  private readonly tasks = new Map<string, Task<C, T>>()

  constructor(private readonly kind: TaskKind) {
    registries.push(this)
  }

  runningFor(userId: number): number {
    let count = 0
    for (const task of this.tasks.values()) if (task.userId === userId && task.status.state === 'running') count++
    return count
  }

  /**
   * Starts `steps` in the background for `actor`; `finish` turns the generator's return value into the stored
   * result. Refused (409) while the actor already has MAX_RUNNING_PER_USER tasks running.
   */
  start<R>(actor: Actor, adviceSetId: number, context: C, steps: Generator<BranchProgress, R, undefined>, finish: (value: R) => T): TaskStatus {
    this.sweep(Date.now())
    const running = runningFor(actor.userId)
    if (running >= MAX_RUNNING_PER_USER) {
      throw new ConflictError('task', `You already have ${running} branch generations running: wait for one to finish or cancel it.`)
    }
    const task: Task<C, T> = {
      status: {
        id: randomUUID(), kind: this.kind, adviceSetId, state: 'running', done: 0, total: 0,
        startedAt: new Date().toISOString(), finishedAt: null, error: null,
      },
      userId: actor.userId, context, result: undefined, cancelled: false,
    }
    this.tasks.set(task.status.id, task)
    setImmediate(() => runSlice(task, steps, finish))
    return { ...task.status }
  }

  /** Whether the task is this registry's and the actor's. */
  has(actor: Actor, id: string): boolean {
    return this.tasks.get(id)?.userId === actor.userId
  }

  status(actor: Actor, id: string): TaskStatus {
    return { ...this.own(actor, id).status }
  }

  /** Stops a running task before its next slice; a finished one is left as it is. */
  cancel(actor: Actor, id: string): TaskStatus {
    const task = this.own(actor, id)
    if (task.status.state === 'running') {
      // Shown as cancelled at once; the generator is closed when its next slice would have run.
      task.cancelled = true
      settle(task.status, 'cancelled')
    }
    return { ...task.status }
  }

  /** A task with what it remembers of its request and, once done, its result. */
  read(actor: Actor, id: string): { status: TaskStatus; context: C; result: T | undefined } {
    const task = this.own(actor, id)
    return { status: { ...task.status }, context: task.context, result: task.result }
  }

  cancelAll(): void {
    for (const task of this.tasks.values()) {
      if (task.status.state !== 'running') continue
      task.cancelled = true
      settle(task.status, 'cancelled')
    }
  }

  private own(actor: Actor, id: string): Task<C, T> {
    const task = this.tasks.get(id)
    // Another person's task is not theirs to see: the same answer as a task that never existed.
    if (!task || task.userId !== actor.userId) throw new NotFoundError('No branch task with this id (finished tasks are kept for 30 minutes).')
    return task
  }

  private sweep(now: number): void {
    for (const [id, task] of this.tasks) {
      if (task.status.finishedAt !== null && now - Date.parse(task.status.finishedAt) > KEEP_MS) this.tasks.delete(id)
    }
  }
}

function settle(status: TaskStatus, state: TaskState, error: string | null = null): void {
  status.state = state
  status.error = error
  status.finishedAt = new Date().toISOString()
}

/** One slice of SLICE_MS, then the event loop turns before the next. */
function runSlice<C, R, T>(task: Task<C, T>, steps: Generator<BranchProgress, R, undefined>, finish: (value: R) => T): void {
  // A cancelled task's generator is simply dropped: the engine's walks hold nothing that needs closing.
  if (task.cancelled) return
  try {
    const until = performance.now() + SLICE_MS
    let step = steps.next()
    while (!step.done) {
      task.status.done = step.value.done
      task.status.total = step.value.total
      if (performance.now() >= until) break
      step = steps.next()
    }
    if (step.done) {
      task.result = finish(step.value)
      task.status.done = task.status.total
      settle(task.status, 'done')
      return
    }
  } catch (error) {
    settle(task.status, 'failed', error instanceof Error ? error.message : String(error))
    return
  }
  setImmediate(() => runSlice(task, steps, finish))
}

/** Stops every running task (the app is closing). */
export function cancelAllTasks(): void {
  for (const registry of registries) registry.cancelAll()
}
