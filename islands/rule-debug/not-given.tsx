// "Advice not given", as views/rule/_debug-not-given.eta renders it without JavaScript.
import type { NotGivenView } from '../../src/services/authoring/not-given-view.ts'
import { MAX_NOT_GIVEN_SHOWN } from '../../src/services/authoring/not-given-view.ts'
import { Reads } from './reasons.tsx'

export function NotGiven({ entries }: { entries: NotGivenView[] }) {
  if (entries.length === 0) return null
  const shown = entries.slice(0, MAX_NOT_GIVEN_SHOWN)
  return (
    <section className="card debug-not-given" aria-labelledby="debug-not-given-title">
      <h2 id="debug-not-given-title">Advice not given</h2>
      <p className="hint">{entries.length} advice {entries.length === 1 ? 'node' : 'nodes'} this run did not reach: on each path to it, what stopped the run, and the answers nearest to yours that give it.</p>
      <ol className="debug-not-given__list">
        {shown.map((entry) => (
          <li key={entry.nodeId} id={`not-given-${entry.nodeId}`} data-not-given={entry.nodeId}>
            <h3><a href={`#debug-node-${entry.nodeId}`}>{entry.headline || `Node ${entry.nodeId}`}</a></h3>
            <ul className="debug-blockers">
              {entry.paths.map((p, i) => (
                <li key={i} data-blocker-node={p.blocker.nodeId}>
                  {p.blocker.text}{p.blocker.expression !== null && <> <a href={`#debug-node-${p.blocker.nodeId}`}><code>{p.blocker.expression}</code></a></>}
                  <Reads reads={p.blocker.reads} />
                </li>
              ))}
            </ul>
            {entry.unreachable !== null && <p className="debug-unreachable">No answers give it. {entry.unreachable}</p>}
            {entry.useHref !== null && (
              <div className="debug-nearest">
                {entry.changes.length === 0 ? <p>Your answers already lead there once the run goes on.</p> : (
                  <ul className="debug-changes">{entry.changes.map((c) => <li key={c}><code>{c}</code></li>)}</ul>
                )}
                <a className="button" href={entry.useHref} data-use-answers={entry.nodeId}>Use these answers</a>
              </div>
            )}
            {entry.askHref !== null && <a href={entry.askHref} data-find-answers={entry.nodeId}>Find the answers that give it</a>}
          </li>
        ))}
      </ol>
      {entries.length > shown.length && <p className="hint">And {entries.length - shown.length} more: debug one rule to see its own.</p>}
    </section>
  )
}
