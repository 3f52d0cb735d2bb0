// The task-progress island's props, rendered by the gen-branches and compare pages (src/http/pages/branches.ts
// taskProps): where to read a background task's status, how to stop it, and where its results are (an HTML fragment).
import { InvalidPropsError } from '../shared/invalid-props.ts'
import { isRecord } from '../shared/guards.ts'

export type TaskState = 'running' | 'done' | 'cancelled' | 'failed'

export interface TaskProgressProps {
  statusUrl: string
  cancelUrl: string
  resultsUrl: string
  state: TaskState
  done: number
  total: number
  /** "paths" or "steps". */
  unit: string
}

const STATES: readonly TaskState[] = ['running', 'done', 'cancelled', 'failed']

export function isTaskState(value: unknown): value is TaskState {
  return typeof value === 'string' && (STATES as readonly string[]).includes(value)
}

export function parseTaskProgressProps(raw: unknown): TaskProgressProps {
  if (!isRecord(raw) || typeof raw.statusUrl !== 'string' || typeof raw.cancelUrl !== 'string' || typeof raw.resultsUrl !== 'string' || !isTaskState(raw.state)) {
    throw new InvalidPropsError('task-progress needs status, cancel and results URLs and a state')
  }
  return {
    statusUrl: raw.statusUrl, cancelUrl: raw.cancelUrl, resultsUrl: raw.resultsUrl, state: raw.state,
    done: typeof raw.done === 'number' ? raw.done : 0, total: typeof raw.total === 'number' ? raw.total : 0,
    unit: typeof raw.unit === 'string' ? raw.unit : 'paths',
  }
}
