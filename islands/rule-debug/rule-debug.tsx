// The debug page's island: the same form as without JavaScript, but a run goes through /api/rule/debug and the
// debug/tree fragment, and the results and the painted tree are swapped in without a reload. The address bar gets
// the run's permalink, so reloading shows the same run.
import { useRef, useState } from 'react'
import type { FormEvent } from 'react'
import type { RunView } from '../../src/services/authoring/rule-debug-page.ts'
import { callApi } from '../shared/api.ts'
import { notify } from '../shared/notify.ts'
import { DebugField } from './field.tsx'
import { fetchFragment } from './fragment.ts'
import { presentResult } from './present.ts'
import type { RuleDebugProps } from './props.ts'
import { apiBody, formState, runQuery, saveScenarioHref, type DebugFormState } from './request.ts'
import type { NotGivenLinks } from '../../src/services/authoring/not-given-view.ts'
import { DebugResults } from './results.tsx'
import { NotGiven } from './not-given.tsx'

/**
 * The painted tree the server rendered as this island's fallback. It is read from the page rather than sent again in
 * the props (a 2,000-node tree is most of a megabyte of markup); React replaces the fallback only when it commits,
 * after the first render has read it.
 */
function serverTreeHtml(): string {
  return document.querySelector('[data-island="rule-debug"] [data-fragment="rule-debug-tree"]')?.outerHTML ?? ''
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

export function RuleDebug(props: RuleDebugProps) {
  const { adviceSetId, ruleId, base, fields } = props
  /** Links of "Advice not given": the run with a node's nearest answers, or asking for them. */
  const links = (state: DebugFormState): NotGivenLinks => ({
    run: (answers) => `${base}?${runQuery(ruleId, { ...state, values: answers }, fields)}`,
    ask: (nodeId) => `${base}?${runQuery(ruleId, state, fields)}&why=${encodeURIComponent(nodeId)}#not-given-${nodeId}`,
  })
  const initialState = { values: props.values, contentType: props.contentType, now: props.now }
  const [run, setRun] = useState<RunView | null>(() => props.result === null ? null
    : presentResult(props.result, props.contentType, props.formulas, { entries: props.notGiven, links: links(initialState) }))
  const [treeHtml, setTreeHtml] = useState(serverTreeHtml)
  const [permalink, setPermalink] = useState<string | null>(() => props.result === null ? null : `${base}?${runQuery(ruleId, initialState, fields)}`)
  const [saveScenario, setSaveScenario] = useState<string | null>(() =>
    props.result === null || props.newScenario === null ? null : saveScenarioHref(props.newScenario, initialState, fields))
  const [running, setRunning] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const results = useRef<HTMLDivElement>(null)

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const state = formState(new FormData(event.currentTarget), fields)
    const query = runQuery(ruleId, state, fields)
    setRunning(true)
    setError(null)
    try {
      const [response, tree] = await Promise.all([
        callApi('/api/rule/debug', { json: apiBody(adviceSetId, ruleId, state, fields) }),
        fetchFragment(`${base}/tree?${query}`),
      ])
      const data = (response as { data?: { result?: unknown; formulas?: unknown; notGiven?: unknown } } | null)?.data
      setRun(presentResult(data?.result, state.contentType, data?.formulas, { entries: data?.notGiven, links: links(state) }))
      setTreeHtml(tree)
      setPermalink(`${base}?${query}`)
      if (props.newScenario !== null) setSaveScenario(saveScenarioHref(props.newScenario, state, fields))
      window.history.replaceState(null, '', `${base}?${query}`)
      results.current?.querySelector<HTMLElement>('.debug-results')?.focus()
    } catch (failure) {
      setError(errorMessage(failure))
      notify({ type: 'error', heading: 'The run failed', text: errorMessage(failure) })
    } finally {
      setRunning(false)
    }
  }

  return (
    <>
      <form className="card debug-form" method="post" action={base} onSubmit={(event) => void submit(event)}>
        <h2>Inputs</h2>
        {fields.length === 0 && <p className="empty">Nothing here asks a question.</p>}
        {fields.map((field) => <DebugField key={field.variable} field={field} value={props.values[field.variable] ?? ''} />)}
        <div className="field">
          <label htmlFor="debug-now">Run as of</label>
          <input id="debug-now" name="now" type="date" defaultValue={props.now} />
          <p className="hint">Leave empty to run as of today.</p>
        </div>
        <div className="field">
          <label htmlFor="debug-content-type">Content type</label>
          <select id="debug-content-type" name="contentType" defaultValue={props.contentType}>
            {props.contentTypes.map((type) => <option key={type} value={type}>{type}</option>)}
          </select>
        </div>
        {error && <p className="field-error" role="alert">{error}</p>}
        <button type="submit" className="primary" disabled={running}>{running ? 'Running…' : 'Run'}</button>
        {permalink && (
          <p className="hint">
            <a href={permalink}>Link to this run</a>
            {saveScenario && <> · <a href={saveScenario} className="debug-save-scenario">Save as scenario</a></>}
          </p>
        )}
      </form>
      <div className="debug-output" ref={results} aria-busy={running}>
        {run && <DebugResults run={run} />}
        {run && <NotGiven entries={run.notGiven} />}
        <div className="debug-tree-slot" dangerouslySetInnerHTML={{ __html: treeHtml }} />
      </div>
    </>
  )
}
