// "Run all" on the scenario list: starts the run-all task, shows a progress bar that follows it (polled every
// 250 ms), offers Cancel, and when it ends reloads the list so every status is current. Without JavaScript the same
// form posts to the page route, which runs the scenarios and comes back with the outcome.
import { useEffect, useState } from 'react'
import type { FormEvent } from 'react'
import { notify } from '../shared/notify.ts'
import type { ScenarioRunAllProps } from './props.ts'
import { cancelTask, readTask, refreshList, startTask, type RunAllTask } from './task.ts'

const POLL_MS = 250

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

function outcome(task: RunAllTask): string {
  const { pass, fail, error } = task.counts
  const ran = `${pass} passed, ${fail} failed, ${error} could not run`
  if (task.state === 'cancelled') return `Cancelled after ${task.done} of ${task.total}: ${ran}.`
  if (task.state === 'failed') return task.error ?? 'The run stopped.'
  return `Done: ${ran}.`
}

export function ScenarioRunAll(props: ScenarioRunAllProps) {
  const [task, setTask] = useState<RunAllTask | null>(null)
  /** The list has been reloaded after the task ended: only then is the bar's state "done" for the page. */
  const [settled, setSettled] = useState(false)
  const [starting, setStarting] = useState(false)

  useEffect(() => {
    if (!task || task.state !== 'running') return
    const timer = setTimeout(() => {
      readTask(task.id).then(setTask, (error: unknown) => {
        notify({ type: 'error', heading: 'Progress unknown', text: messageOf(error) })
        setTask({ ...task, state: 'failed', error: messageOf(error) })
      })
    }, POLL_MS)
    return () => clearTimeout(timer)
  }, [task])

  useEffect(() => {
    if (!task || task.state === 'running' || settled) return
    refreshList().catch((error: unknown) => notify({ type: 'error', heading: 'The list is not current', text: messageOf(error) }))
      .finally(() => setSettled(true))
  }, [task, settled])

  async function start(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const source = new FormData(event.currentTarget).get('source')
    setStarting(true)
    setSettled(false)
    try {
      const started = await startTask(props.adviceSetId, typeof source === 'string' ? source : 'draft')
      setTask(started)
    } catch (error) {
      notify({ type: 'error', heading: 'The scenarios did not run', text: messageOf(error) })
    } finally {
      setStarting(false)
    }
  }

  async function cancel() {
    if (!task) return
    try {
      setTask(await cancelTask(task.id))
    } catch (error) {
      notify({ type: 'error', heading: 'Not cancelled', text: messageOf(error) })
    }
  }

  const running = task?.state === 'running'
  const barState = !task ? null : running || !settled ? 'running' : task.state
  return (
    <div className="scenario-run-all-island">
      <form method="post" action={`${props.base}/test`} className="scenario-run-all" onSubmit={(event) => void start(event)}>
        <label htmlFor="run-all-source">Run against</label>
        <select id="run-all-source" name="source" disabled={running}>
          {props.sources.map((s) => <option key={s.value} value={s.value}>{s.label}</option>)}
        </select>
        <button type="submit" className="primary" disabled={running || starting || props.total === 0}>{starting ? 'Starting…' : 'Run all'}</button>
      </form>
      {task && barState && (
        <div className="scenario-progress" data-state={barState} role="status" aria-live="polite">
          <progress value={task.done} max={Math.max(task.total, 1)} aria-label="Scenarios run" />
          <span className="scenario-progress-text">
            {barState === 'running' ? `${task.done} of ${task.total} scenarios run` : outcome(task)}
          </span>
          {running && <button type="button" onClick={() => void cancel()}>Cancel</button>}
        </div>
      )}
    </div>
  )
}
