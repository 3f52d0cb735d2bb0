// Why an item was given, or why the question is next, as views/rule/_debug-reasons.eta renders it without JavaScript.
import type { ReasonReadView, ReasonView } from '../../src/services/authoring/reason-view.ts'

/** What a condition read, as views/rule/_debug-reads.eta renders it. */
export function Reads({ reads }: { reads: ReasonReadView[] }) {
  if (reads.length === 0) return null
  return (
    <ul className="debug-reads">
      {reads.map((read) => <li key={read.name}><code>{read.name}</code> = <strong>{read.value}</strong> <span className="hint">{read.from}</span></li>)}
    </ul>
  )
}

export function Reasons({ reasons, summary }: { reasons: ReasonView[]; summary: string }) {
  return (
    <details className="debug-reasons">
      <summary>{summary} ({reasons.length} {reasons.length === 1 ? 'step' : 'steps'})</summary>
      {reasons.length === 0 ? <p className="hint">At its rule’s root: no condition decides it.</p> : (
        <ol>
          {reasons.map((r, i) => (
            <li key={`${r.nodeId}-${i}`} data-reason-node={r.nodeId} data-reason-kind={r.kind}>
              <a href={`#debug-node-${r.nodeId}`}><code>{r.text}</code></a>{r.kind === 'condition' && <> → <code>{r.result}</code></>}
              <Reads reads={r.reads} />
            </li>
          ))}
        </ol>
      )}
    </details>
  )
}
