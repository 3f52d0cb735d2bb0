// Why an item was given, or why the question is next, as views/rule/_debug-reasons.eta renders it without JavaScript.
import type { ReasonView } from '../../src/services/authoring/reason-view.ts'

export function Reasons({ reasons, summary }: { reasons: ReasonView[]; summary: string }) {
  return (
    <details className="debug-reasons">
      <summary>{summary} ({reasons.length} {reasons.length === 1 ? 'step' : 'steps'})</summary>
      {reasons.length === 0 ? <p className="hint">At its rule’s root: no condition decides it.</p> : (
        <ol>
          {reasons.map((r, i) => (
            <li key={`${r.nodeId}-${i}`} data-reason-node={r.nodeId} data-reason-kind={r.kind}>
              <a href={`#debug-node-${r.nodeId}`}><code>{r.text}</code></a>{r.kind === 'condition' && <> → <code>{r.result}</code></>}
              {r.reads.length > 0 && (
                <ul className="debug-reads">
                  {r.reads.map((read) => <li key={read.name}><code>{read.name}</code> = <strong>{read.value}</strong> <span className="hint">{read.from}</span></li>)}
                </ul>
              )}
            </li>
          ))}
        </ol>
      )}
    </details>
  )
}
