// "Run all" in the background: the batch of runs.ts (slices that yield to the event loop, rows stored per slice) as
// an in-process task whose progress the page polls and which can be cancelled between slices. It lives in this
// process's memory until the durable job queue (DESIGN "Jobs") takes it over: then startRunAllTask enqueues a job
// whose worker calls planRun + executePlan exactly as here, and the progress and cancel calls read the job's row.
import { randomBytes } from 'node:crypto'
import type { Actor, Deps } from '../context.ts'
import { NotFoundError } from '../errors.ts'
import { executePlan, planRun, type RunCounts, type RunRequest } from './runs.ts'

export type RunAllState = 'running' | 'done' | 'cancelled' | 'failed'

export interface RunAllTaskView {
  id: string
  adviceSetId: number
  source: string
  state: RunAllState
  done: number
  total: number
  counts: RunCounts
  /** Why a failed task stopped. */
  error: string | null
  startedAt: Date
  finishedAt: Date | null
}

interface Task extends RunAllTaskView {
  userId: number
  cancelRequested: boolean
}

/** Finished tasks stay readable this long, so a page polling a little late still sees the outcome. */
const KEEP_FINISHED_MS = 15 * 60_000
const tasks = new Map<string, Task>()

function view(task: Task): RunAllTaskView {
  const { userId: _user, cancelRequested: _cancel, ...rest } = task
  return { ...rest, counts: { ...task.counts } }
}

function prune(now: number): void {
  for (const [id, task] of tasks) if (task.finishedAt && now - task.finishedAt.getTime() > KEEP_FINISHED_MS) tasks.delete(id)
}

/** The task if `actor` started it; anyone else is told there is none. */
function ownTask(actor: Actor, taskId: string): Task {
  const task = tasks.get(taskId)
  if (!task || task.userId !== actor.userId) throw new NotFoundError('No scenario run with this id')
  return task
}

/**
 * Starts running the scenarios (rights, the scenario list and the compiled source are checked before this returns,
 * so a bad request fails at once) and returns the task. The same person starting the same set again while it runs
 * gets the running task back.
 */
export async function startRunAllTask(deps: Deps, actor: Actor, request: RunRequest): Promise<RunAllTaskView> {
  prune(Date.now())
  const plan = await planRun(deps, actor, request)
  for (const task of tasks.values()) {
    if (task.state === 'running' && task.userId === actor.userId && task.adviceSetId === plan.set.id && task.source === plan.source.label) return view(task)
  }
  const task: Task = {
    id: randomBytes(12).toString('hex'), adviceSetId: plan.set.id, source: plan.source.label, state: 'running',
    done: 0, total: plan.scenarios.length, counts: { pass: 0, fail: 0, error: 0 }, error: null, startedAt: new Date(), finishedAt: null,
    userId: actor.userId, cancelRequested: false,
  }
  tasks.set(task.id, task)
  executePlan(deps, actor, plan, {
    onProgress: (done, _total, counts) => { task.done = done; task.counts = { ...counts } },
    isCancelled: () => task.cancelRequested,
  }).then(
    (batch) => { task.state = batch.cancelled ? 'cancelled' : 'done' },
    (error: unknown) => { task.state = 'failed'; task.error = `The run stopped: ${error instanceof Error ? error.message : String(error)}` },
  ).finally(() => { task.finishedAt = new Date() })
  return view(task)
}

export function runAllTaskProgress(actor: Actor, taskId: string): RunAllTaskView {
  return view(ownTask(actor, taskId))
}

/** Stops the task before its next slice; what already ran stays stored. Cancelling a finished task changes nothing. */
export function cancelRunAllTask(actor: Actor, taskId: string): RunAllTaskView {
  const task = ownTask(actor, taskId)
  if (task.state === 'running') task.cancelRequested = true
  return view(task)
}
