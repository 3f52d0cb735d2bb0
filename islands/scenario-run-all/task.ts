// The run-all task as /api/advicescenario/test answers it (src/services/scenarios/run-all-task.ts RunAllTaskView).
import { callApi } from '../shared/api.ts'
import { isRecord } from '../shared/guards.ts'

export type TaskState = 'running' | 'done' | 'cancelled' | 'failed'

export interface RunAllTask {
  id: string
  state: TaskState
  done: number
  total: number
  counts: { pass: number; fail: number; error: number }
  error: string | null
}

const STATES: readonly TaskState[] = ['running', 'done', 'cancelled', 'failed']
const count = (value: unknown): number => typeof value === 'number' ? value : 0

function taskOf(response: unknown): RunAllTask {
  const data = isRecord(response) && isRecord(response.data) ? response.data : {}
  const counts = isRecord(data.counts) ? data.counts : {}
  return {
    id: typeof data.id === 'string' ? data.id : '',
    state: STATES.includes(data.state as TaskState) ? data.state as TaskState : 'failed',
    done: count(data.done), total: count(data.total),
    counts: { pass: count(counts.pass), fail: count(counts.fail), error: count(counts.error) },
    error: typeof data.error === 'string' ? data.error : null,
  }
}

export async function startTask(adviceSetId: number, source: string): Promise<RunAllTask> {
  return taskOf(await callApi('/api/advicescenario/test', { json: { adviceSetId, source, background: true } }))
}

export async function readTask(id: string): Promise<RunAllTask> {
  return taskOf(await callApi(`/api/advicescenario/test/${encodeURIComponent(id)}`))
}

export async function cancelTask(id: string): Promise<RunAllTask> {
  return taskOf(await callApi(`/api/advicescenario/test/${encodeURIComponent(id)}/cancel`, { method: 'POST' }))
}

/**
 * The list as the server now renders it: the page is fetched again and its list and counts replace the ones shown,
 * so every row's status, last run and differences are the server's own markup.
 */
export async function refreshList(): Promise<void> {
  const response = await fetch(window.location.href, { headers: { accept: 'text/html' }, credentials: 'same-origin' })
  if (!response.ok) throw new Error(`The list could not be reloaded (status ${response.status}).`)
  const page = new DOMParser().parseFromString(await response.text(), 'text/html')
  for (const selector of ['[data-fragment="scenario-list"]', '.scenario-counts', '.scenario-filter']) {
    const fresh = page.querySelector(selector)
    const shown = document.querySelector(selector)
    if (fresh && shown) shown.replaceWith(fresh)
  }
}
