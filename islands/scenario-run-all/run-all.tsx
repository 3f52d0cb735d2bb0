// "Run all" on the scenario list: starts the run-all job without leaving the page and hands it to the page's jobs
// panel (`jobs:track`), which shows its progress bar and Cancel; when a job of the panel ends (`jobs:finished`) the
// list is reloaded so every status is current. Without JavaScript the same form posts to the page route, which
// starts the job and comes back to the list with the panel.
import { useEffect, useState } from 'react'
import type { FormEvent } from 'react'
import { isRecord } from '../shared/guards.ts'
import { notify } from '../shared/notify.ts'
import type { ScenarioRunAllProps } from './props.ts'
import { refreshList, startRunAll } from './task.ts'

type State = 'idle' | 'starting' | 'running' | 'refreshing' | 'done'

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

export function ScenarioRunAll(props: ScenarioRunAllProps) {
  const [state, setState] = useState<State>('idle')
  const [outcome, setOutcome] = useState('')

  useEffect(() => {
    const finished = (event: Event) => {
      const job = (event as CustomEvent<unknown>).detail
      const line = isRecord(job) ? String(job.error ?? job.progressText ?? '') : ''
      setState('refreshing')
      refreshList()
        .catch((error: unknown) => notify({ type: 'error', heading: 'The list is not current', text: messageOf(error) }))
        .finally(() => {
          setOutcome(line)
          setState('done')
        })
    }
    document.addEventListener('jobs:finished', finished)
    return () => document.removeEventListener('jobs:finished', finished)
  }, [])

  async function start(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const source = new FormData(event.currentTarget).get('source')
    setState('starting')
    try {
      const job = await startRunAll(props.adviceSetId, typeof source === 'string' ? source : 'draft')
      document.dispatchEvent(new CustomEvent('jobs:track', { detail: job }))
      setState('running')
    } catch (error) {
      notify({ type: 'error', heading: 'The scenarios did not run', text: messageOf(error) })
      setState('idle')
    }
  }

  const busy = state === 'starting' || state === 'running' || state === 'refreshing'
  return (
    <div className="scenario-run-all-island">
      <form method="post" action={`${props.base}/test`} className="scenario-run-all" onSubmit={(event) => void start(event)}>
        <label htmlFor="run-all-source">Run against</label>
        <select id="run-all-source" name="source" disabled={busy}>
          {props.sources.map((s) => <option key={s.value} value={s.value}>{s.label}</option>)}
        </select>
        <button type="submit" className="primary" disabled={busy || props.total === 0}>{state === 'starting' ? 'Starting…' : 'Run all'}</button>
      </form>
      <p className="scenario-run-all__status hint" data-state={state} role="status">
        {state === 'running' ? 'Running: the progress is shown below.' : state === 'refreshing' ? 'Reloading the list…' : state === 'done' ? `Finished: ${outcome}. The list shows the results.` : ''}
      </p>
    </div>
  )
}
