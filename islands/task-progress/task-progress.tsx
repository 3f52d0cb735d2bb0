// A background task's progress bar (branch generation, compare): polls its status every POLL_MS while it runs, offers
// Cancel, and when it is done fetches the results fragment into the page's [data-task-results] slot, so the results
// appear without a reload. The bar's element carries data-task-state (running, done, cancelled, failed) for tests.
import { useEffect, useState } from 'react'
import { callApi } from '../shared/api.ts'
import { isRecord } from '../shared/guards.ts'
import { notify } from '../shared/notify.ts'
import { isTaskState, type TaskProgressProps, type TaskState } from './props.ts'

/** The page asks for progress at least every 250 ms (issue 14). */
const POLL_MS = 250
const LABELS: Record<TaskState, string> = { running: 'Running', done: 'Done', cancelled: 'Cancelled', failed: 'Failed' }

interface Status { state: TaskState; done: number; total: number; error: string | null }

function statusOf(body: unknown): Status | null {
  const data = isRecord(body) ? body.data : undefined
  if (!isRecord(data) || !isTaskState(data.state) || typeof data.done !== 'number' || typeof data.total !== 'number') return null
  return { state: data.state, done: data.done, total: data.total, error: typeof data.error === 'string' ? data.error : null }
}

async function showResults(url: string): Promise<void> {
  const response = await fetch(url, { credentials: 'same-origin', headers: { accept: 'text/html' } })
  if (!response.ok) throw new Error(`The results could not be loaded (${response.status}).`)
  const slot = document.querySelector<HTMLElement>('[data-task-results]')
  // Our own server-rendered, escaped fragment from the same origin.
  if (slot) slot.innerHTML = await response.text()
}

export function TaskProgress(props: TaskProgressProps) {
  const [status, setStatus] = useState<Status>({ state: props.state, done: props.done, total: props.total, error: null })
  const [cancelling, setCancelling] = useState(false)

  useEffect(() => {
    if (status.state !== 'running') return
    let stopped = false
    const timer = setTimeout(async () => {
      try {
        const next = statusOf(await callApi(props.statusUrl))
        if (next === null) throw new Error('The task\'s status could not be read.')
        if (stopped) return
        if (next.state === 'done') await showResults(props.resultsUrl)
        if (!stopped) setStatus(next)
      } catch (error) {
        if (!stopped) setStatus((current) => ({ ...current, state: 'failed', error: error instanceof Error ? error.message : String(error) }))
      }
    }, POLL_MS)
    return () => {
      stopped = true
      clearTimeout(timer)
    }
  }, [status, props.statusUrl, props.resultsUrl])

  async function cancel() {
    setCancelling(true)
    try {
      const next = statusOf(await callApi(props.cancelUrl, { method: 'POST' }))
      if (next) setStatus(next)
    } catch (error) {
      notify({ type: 'error', text: error instanceof Error ? error.message : String(error) })
    } finally {
      setCancelling(false)
    }
  }

  const count = (n: number) => n.toLocaleString('en-US')
  return (
    <div className="task-progress" data-task-state={status.state}>
      <progress max={Math.max(status.total, 1)} value={status.state === 'done' ? Math.max(status.total, 1) : status.done} aria-label="Progress" />
      <p className="task-line" role="status">
        <strong>{LABELS[status.state]}</strong> · {count(status.done)} of {count(status.total)} {props.unit}
        {status.error ? ` · ${status.error}` : ''}
      </p>
      {status.state === 'running' && (
        <div className="task-actions">
          <button type="button" onClick={() => void cancel()} disabled={cancelling}>Cancel</button>
        </div>
      )}
    </div>
  )
}
