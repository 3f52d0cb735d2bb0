// The tree builder's fork panel with JavaScript: "Fork…" on a scenario of the tree opens it here without a reload, the
// question is picked from the scenario's path, and every change of the answer shows (after a short pause) what the
// working draft advises then; "Save as scenario" saves it and comes back to the tree with the new leaf marked. The
// server does the work (POST /api/advicescenario/{id}/fork); without JavaScript the same panel is a form
// (views/advicescenario/_fork.eta).
import { useEffect, useRef, useState } from 'react'
import type { FormEvent, SyntheticEvent } from 'react'
import { DebugField } from '../rule-debug/field.tsx'
import { ApiError } from '../shared/api.ts'
import type { ForkPanel, ScenarioForkProps } from './props.ts'
import { loadFork, saveFork } from './request.ts'

/** Pause after typing before the preview runs. */
const PREVIEW_DELAY_MS = 250

type State = 'idle' | 'loading' | 'ready' | 'error' | 'saving'

interface Refusal { field: string | null; message: string }

function refusalOf(error: unknown): Refusal {
  if (error instanceof ApiError) return { field: error.field ?? null, message: error.message }
  return { field: null, message: error instanceof Error ? error.message : String(error) }
}

function firstError(errors: Record<string, string>): Refusal | null {
  const [field, message] = Object.entries(errors)[0] ?? []
  return field && message ? { field, message } : null
}

function markForking(scenarioId: number | null): void {
  for (const leaf of document.querySelectorAll('.tree-leaf.is-forking')) leaf.classList.remove('is-forking')
  if (scenarioId !== null) document.getElementById(`scenario-${scenarioId}`)?.classList.add('is-forking')
}

export function ScenarioFork({ base, fork, errors }: ScenarioForkProps) {
  const [panel, setPanel] = useState<ForkPanel | null>(fork)
  const [value, setValue] = useState(fork?.value ?? '')
  const [name, setName] = useState(fork?.name ?? '')
  const [state, setState] = useState<State>(fork?.preview ? 'ready' : 'idle')
  const [refusal, setRefusal] = useState<Refusal | null>(firstError(errors))
  const nameTouched = useRef(false)
  const latest = useRef(0)
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const heading = useRef<HTMLHeadingElement>(null)

  async function open(scenarioId: number, question?: string) {
    const mine = ++latest.current
    clearTimeout(timer.current)
    setState('loading')
    try {
      const next = await loadFork(scenarioId, question === undefined ? {} : { question })
      if (mine !== latest.current) return
      setPanel(next)
      setValue(next.value)
      setName(next.name)
      nameTouched.current = false
      setRefusal(null)
      setState('idle')
      markForking(scenarioId)
      window.history.replaceState(null, '', `${base}/tree?fork=${scenarioId}${question ? `&question=${encodeURIComponent(question)}` : ''}#fork`)
      heading.current?.focus()
    } catch (error) {
      if (mine !== latest.current) return
      setRefusal(refusalOf(error))
      setState('error')
    }
  }

  async function preview(current: ForkPanel, answer: string) {
    const mine = ++latest.current
    setState('loading')
    try {
      const next = await loadFork(current.scenario.id, { question: current.step.variable, value: answer })
      if (mine !== latest.current) return
      setPanel(next)
      if (!nameTouched.current) setName(next.name)
      setRefusal(null)
      setState('ready')
    } catch (error) {
      if (mine !== latest.current) return
      setPanel({ ...current, preview: null })
      setRefusal(refusalOf(error))
      setState('error')
    }
  }

  // "Fork…" links in the tree (server-rendered, outside the island) open their scenario here.
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      const link = event.target instanceof Element ? event.target.closest<HTMLAnchorElement>('a[data-fork-scenario]') : null
      if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
      event.preventDefault()
      void open(Number(link.dataset.forkScenario))
    }
    document.addEventListener('click', onClick)
    return () => document.removeEventListener('click', onClick)
  })

  useEffect(() => () => clearTimeout(timer.current), [])

  if (!panel) {
    return (
      <section className="fork-panel" aria-labelledby="fork-heading" data-preview-state={state}>
        <h2 id="fork-heading" ref={heading} tabIndex={-1}>Fork a scenario</h2>
        <p className="hint">Choose “Fork…” on a scenario to give one of its questions another answer (“what if Age were 70?”), see what the working draft advises then, and save it as a new scenario.</p>
        {refusal && <p className="field-error" role="alert">{refusal.message}</p>}
      </section>
    )
  }

  const current = panel
  const answerField = `inputs.${current.step.variable}`

  function answerChanged(event: SyntheticEvent<HTMLDivElement>) {
    const target = event.target
    if (!(target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement)) return
    if (target.name !== `input.${current.step.variable}`) return
    if (target instanceof HTMLInputElement && target.type === 'radio' && !target.checked) return
    const answer = target.value
    setValue(answer)
    clearTimeout(timer.current)
    timer.current = setTimeout(() => void preview(current, answer), PREVIEW_DELAY_MS)
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    clearTimeout(timer.current)
    void preview(current, value)
  }

  async function save() {
    clearTimeout(timer.current)
    const mine = ++latest.current
    setState('saving')
    try {
      const saved = await saveFork(current.scenario.id, { question: current.step.variable, value, name })
      window.location.assign(`${base}/tree?created=${saved.id}#scenario-${saved.id}`)
    } catch (error) {
      if (mine !== latest.current) return
      setRefusal(refusalOf(error))
      setState('error')
    }
  }

  const p = current.preview
  return (
    <section className="fork-panel" aria-labelledby="fork-heading" data-preview-state={state} data-scenario-id={current.scenario.id}>
      <h2 id="fork-heading" ref={heading} tabIndex={-1}>Fork “{current.scenario.name}”</h2>
      <p className="hint">Pick a question on its path and give it another answer.</p>
      <ol className="fork-steps">
        {current.steps.map((s) => (
          <li key={s.variable} aria-current={s.variable === current.step.variable ? 'step' : undefined}>
            <button type="button" className="link-button" onClick={() => void open(current.scenario.id, s.variable)}>{s.label}</button>: <span className="muted">{s.valueText}</span>
          </li>
        ))}
      </ol>
      <form className="fork-form" onSubmit={submit} noValidate>
        <div className={refusal?.field === answerField ? 'field-invalid' : ''} onInput={answerChanged} onChange={answerChanged}>
          <DebugField key={`${current.scenario.id}:${current.step.variable}`} field={current.field} value={value} />
          {refusal?.field === answerField && <p className="field-error" role="alert">{refusal.message}</p>}
        </div>
        <p className="fork-status hint" role="status">{state === 'loading' ? 'Running the draft…' : state === 'saving' ? 'Saving…' : ''}</p>
        {refusal && refusal.field !== answerField && refusal.field !== 'name' && <p className="field-error" role="alert">{refusal.message}</p>}
        {p && (
          <div className="fork-preview">
            <h3>The draft advises then</h3>
            <p>{p.advice.length ? p.advice.join(' · ') : 'No advice'} <span className="muted">· {p.focus}</span></p>
            <ul className="fork-changes">
              {p.added.map((a) => <li key={`+${a}`} className="fork-added">Adds: {a}</li>)}
              {p.removed.map((a) => <li key={`-${a}`} className="fork-removed">No longer: {a}</li>)}
              {p.focusChanged && <li>Ends elsewhere: {p.focus}</li>}
              {!p.added.length && !p.removed.length && !p.focusChanged && <li>Same outcome as the original.</li>}
            </ul>
            {p.dropped.length > 0 && <p className="hint">Answers no longer asked are left out: {p.dropped.join(', ')}.</p>}
          </div>
        )}
        {p && current.canSave && (
          <div className={`field${refusal?.field === 'name' ? ' field-invalid' : ''}`}>
            <label htmlFor="fork-name">Name of the new scenario</label>
            <input id="fork-name" value={name} maxLength={200} required onChange={(event) => { nameTouched.current = true; setName(event.target.value) }} />
            {refusal?.field === 'name' && <p className="field-error" role="alert">{refusal.message}</p>}
          </div>
        )}
        <div className="actions">
          {!p && <button type="submit">Show the outcome</button>}
          {p && current.canSave && <button type="button" className="primary" disabled={state === 'loading' || state === 'saving'} onClick={() => void save()}>Save as scenario</button>}
          <a href={`${base}/tree`}>Cancel</a>
        </div>
      </form>
    </section>
  )
}
