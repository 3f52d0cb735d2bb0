// The background tasks of branch generation and compare, read and stopped through one id whatever their kind (the
// /api task routes and the progress island do not need to know which kind they follow).
import type { Actor } from '../context.ts'
import { ConflictError, NotFoundError } from '../errors.ts'
import type { TaskStatus } from './branch-task.ts'
import { compareTasks, type CompareView } from './branch-compare.ts'
import { generateTasks, type BranchesView } from './branches.ts'

function registryOf(actor: Actor, id: string) {
  if (generateTasks.has(actor, id)) return generateTasks
  if (compareTasks.has(actor, id)) return compareTasks
  throw new NotFoundError('No branch task with this id (finished tasks are kept for 30 minutes).')
}

export function branchTaskStatus(actor: Actor, id: string): TaskStatus {
  return registryOf(actor, id).status(actor, id)
}

export function cancelBranchTask(actor: Actor, id: string): TaskStatus {
  return registryOf(actor, id).cancel(actor, id)
}

export type TaskResult = { kind: 'generate'; view: BranchesView } | { kind: 'compare'; view: CompareView }

/** A finished task's result; 409 while it runs or when it was stopped. */
export function branchTaskResult(actor: Actor, id: string): TaskResult {
  const registry = registryOf(actor, id)
  const status = registry.status(actor, id)
  if (status.state !== 'done') {
    const why = status.state === 'running' ? `it is still running (${status.done} of ${status.total})` : status.state === 'failed' ? `it failed: ${status.error ?? ''}` : 'it was cancelled'
    throw new ConflictError('taskId', `This task has no result: ${why}.`)
  }
  if (registry === generateTasks) return { kind: 'generate', view: generateTasks.read(actor, id).result! }
  return { kind: 'compare', view: compareTasks.read(actor, id).result! }
}
