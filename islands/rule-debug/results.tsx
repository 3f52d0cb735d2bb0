// A run's outcome, as views/rule/_debug-results.eta renders it without JavaScript.
import type { BodyView, RunView } from '../../src/services/authoring/rule-debug-page.ts'
import { Reasons } from './reasons.tsx'

const GROUPS = [['advice', 'Advice'], ['assumptions', 'Assumptions'], ['examples', 'Examples']] as const

/** Html bodies were sanitized by the engine's renderer; everything else is text. */
function Body({ body }: { body: BodyView }) {
  return 'html' in body
    ? <div className="debug-body" dangerouslySetInnerHTML={{ __html: body.html }} />
    : <span className="debug-body prewrap">{body.text}</span>
}

export function DebugResults({ run }: { run: RunView }) {
  const adviceCount = run.advice.length + run.assumptions.length + run.examples.length
  return (
    <section className="card debug-results" aria-label="Run result" data-done={String(run.done)} tabIndex={-1}>
      <h2>Result</h2>
      {run.focus ? (
        <div className="debug-focus" data-focus-variable={run.focus.variable}>
          <h3>Current focus</h3>
          <div className="debug-question">
            <Body body={run.focus.question} /> <a href={`#debug-input-${run.focus.variable}`}><code>{`{{${run.focus.variable}}}`}</code></a>
          </div>
          {run.focus.error && <p className="field-error">{run.focus.error}</p>}
          <Reasons reasons={run.focus.reasons} summary="Why this question is next" />
        </div>
      ) : <p className="debug-focus">Nothing left to ask.</p>}
      {GROUPS.filter(([group]) => run[group].length > 0).map(([group, heading]) => (
        <div key={group}>
          <h3>{heading}</h3>
          <ol className="debug-advice" data-group={group}>
            {run[group].map((item, i) => (
              <li key={`${item.nodeId}-${i}`} data-advice-node={item.nodeId}>
                <div className="debug-headline"><Body body={item.headline} /></div>
                <div className="debug-text"><Body body={item.text} /></div>
                <Reasons reasons={item.reasons} summary="Why" />
              </li>
            ))}
          </ol>
        </div>
      ))}
      {adviceCount === 0 && <p className="empty">No advice.</p>}
      {run.errors.length > 0 && (
        <>
          <h3>Errors</h3>
          <ul className="debug-errors">
            {run.errors.map((e, i) => <li key={i}><a href={`#debug-node-${e.nodeId}`}>{e.code}</a>: {e.message}</li>)}
          </ul>
        </>
      )}
      {run.answered.length > 0 && (
        <>
          <h3>Answered</h3>
          <table className="table debug-answered">
            <thead><tr><th>Question</th><th>Variable</th><th>Answer</th></tr></thead>
            <tbody>
              {run.answered.map((a, i) => (
                <tr key={i}><td><Body body={a.question} /></td><td><code>{`{{${a.variable}}}`}</code></td><td>{a.valueFormatted}</td></tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      <h3>Variables</h3>
      <table className="table debug-variables">
        <thead><tr><th>Name</th><th>Value</th><th>Formatted</th></tr></thead>
        <tbody>
          {run.variables.map((v) => (
            <tr key={`${v.kind}:${v.name}`} data-variable={v.name} data-kind={v.kind} className={v.isSystem ? 'is-system' : undefined}>
              <td><code>{v.kind === 'formula' ? `[[${v.name}]]` : v.name}</code></td><td><code>{v.value}</code></td><td>{v.valueFormatted}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}
