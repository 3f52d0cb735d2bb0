// The background tasks of branch generation and compare, read and stopped through one id whatever their kind (the
// /api task routes and the progress island do not need to know which kind they follow).
import type { Actor, Deps } from '../context.ts'
import { ConflictError, NotFoundError } from '../errors.ts'
import type { TaskStatus } from './branch-task.ts'
import { compareTasks, type CompareView } from './branch-compare.ts'
import { generateTasks, type BranchesView } from './branches.ts'

async function registryOf(deps: Deps, actor: Actor, id: string) {
  if (await generateTasks.has(deps, actor, id)) return generateTasks
  if (await compareTasks.has(deps, actor, id)) return compareTasks
  throw new NotFoundError('No branch task with this id.')
}

export async function branchTaskStatus(deps: Deps, actor: Actor, id: string): Promise<TaskStatus> {
  return (await (await registryOf(deps, actor, id)).read(deps, actor, id)).status
}

export async function cancelBranchTask(deps: Deps, actor: Actor, id: string): Promise<TaskStatus> {
  return (await registryOf(deps, actor, id)).cancel(deps, actor, id)
}

export type TaskResult = { kind: 'generate'; view: BranchesView } | { kind: 'compare'; view: CompareView }

/** A finished task's result; 409 while it runs or when it was stopped. */
export async function branchTaskResult(deps: Deps, actor: Actor, id: string): Promise<TaskResult> {
  if (await generateTasks.has(deps, actor, id)) {
    const { status, result } = await generateTasks.read(deps, actor, id)
    return { kind: 'generate', view: finished(status, result) }
  }
  if (await compareTasks.has(deps, actor, id)) {
    const { status, result } = await compareTasks.read(deps, actor, id)
    return { kind: 'compare', view: finished(status, result) }
  }
  throw new NotFoundError('No branch task with this id.')
}

function finished<T>(status: TaskStatus, result: T | undefined): T {
  if (status.state === 'done' && result !== undefined) return result
  const why = status.state === 'running' ? `it is still running (${status.text})` : status.state === 'failed' ? `it failed: ${status.error ?? ''}` : 'it was cancelled'
  throw new ConflictError('taskId', `This task has no result: ${why}.`)
}
