// What the import page shows of the server's answers: the plan of a dry run, the table's preview, the result.
import { isRecord } from '../shared/guards.ts'

export interface Issue { message: string; line?: number; column?: number }

const list = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [])
const num = (value: unknown): number => (typeof value === 'number' ? value : 0)
const rec = (value: unknown): Record<string, unknown> => (isRecord(value) ? value : {})

function issuesOf(raw: unknown): Issue[] {
  return (Array.isArray(raw) ? raw : []).filter(isRecord).map((i) => ({
    message: typeof i.message === 'string' ? i.message : '', line: typeof i.line === 'number' ? i.line : undefined, column: typeof i.column === 'number' ? i.column : undefined,
  }))
}

export function IssueList({ title, issues, kind = 'error' }: { title: string; issues: Issue[]; kind?: 'error' | 'warning' }) {
  if (issues.length === 0) return null
  return (
    <div className={`set-import__issues set-import__issues--${kind}`}>
      <h3>{title}</h3>
      <ul>{issues.map((issue, i) => <li key={i}>{issue.message}{issue.line !== undefined ? ` (line ${issue.line}, column ${issue.column ?? 1})` : ''}</li>)}</ul>
    </div>
  )
}

function Names({ label, names }: { label: string; names: string[] }) {
  if (names.length === 0) return null
  const shown = names.slice(0, 20)
  return <li><strong>{label}:</strong> {shown.join(', ')}{names.length > shown.length ? ` and ${names.length - shown.length} more` : ''}</li>
}

function Group({ title, parts }: { title: string; parts: Array<[string, string[]]> }) {
  if (parts.every(([, names]) => names.length === 0)) return null
  return (
    <section className="set-import__group">
      <h3>{title}</h3>
      <ul>{parts.map(([label, names]) => <Names key={label} label={label} names={names} />)}</ul>
    </section>
  )
}

export function PlanView({ plan }: { plan: Record<string, unknown> }) {
  const target = rec(plan.target)
  const rules = rec(plan.rules)
  const nodes = rec(plan.nodes)
  const errors = issuesOf(plan.errors)
  const into = typeof target.adviceSetId === 'number'
  return (
    <div className="set-import__plan">
      <h2>{errors.length > 0 ? 'This file cannot be imported' : 'What the import will do'}</h2>
      <p>{into ? <>Into “{String(target.name)}”: its working draft becomes the file’s rules, in one change.</> : <>A new advice set “{String(target.name)}”.</>}</p>
      <IssueList title={`${errors.length} ${errors.length === 1 ? 'problem' : 'problems'} to fix first; nothing will be written:`} issues={errors} />
      {errors.length === 0 && (
        <>
          <p>Nodes: {num(nodes.create)} new, {num(nodes.keep)} kept{into ? `, ${num(nodes.delete)} deleted` : ''}.</p>
          <Group title="Rules" parts={[['New', list(rules.create)], ['Changed', list(rules.update)], ['Deleted', list(rules.delete)]]} />
          <Group title="Dictionary" parts={[['New', list(rec(plan.dictionary).create)], ['Updated', list(rec(plan.dictionary).update)], ['Already here, used as they are', list(rec(plan.dictionary).reuse)]]} />
          <Group title="Scenarios" parts={[['New', list(rec(plan.scenarios).create)], ['Updated', list(rec(plan.scenarios).update)]]} />
          <Group title="Keyword maps" parts={[['New', list(rec(plan.keywordMaps).create)], ['Updated', list(rec(plan.keywordMaps).update)]]} />
          <Group title="External APIs" parts={[['New', list(rec(plan.externalApis).create)], ['Already here', list(rec(plan.externalApis).reuse)]]} />
          <Group title="Files and links" parts={[['New', list(rec(plan.supplements).create)], ['Already here', list(rec(plan.supplements).reuse)], ['Left out', list(rec(plan.supplements).leftOut)]]} />
        </>
      )}
      <IssueList title="Warnings" kind="warning" issues={issuesOf(plan.warnings)} />
    </div>
  )
}

export function TablePreviewView({ preview }: { preview: Record<string, unknown> }) {
  const rows = (Array.isArray(preview.rows) ? preview.rows : []).filter(isRecord)
  const columns = (Array.isArray(preview.columns) ? preview.columns : []).filter(isRecord)
  const errors = issuesOf(preview.errors)
  return (
    <div className="set-import__plan">
      <h2>{errors.length > 0 ? 'This table cannot be imported' : `A rule “${String(preview.name ?? '')}” with ${rows.length} ${rows.length === 1 ? 'row' : 'rows'}`}</h2>
      <IssueList title={`${errors.length} ${errors.length === 1 ? 'problem' : 'problems'} to fix first; nothing will be written:`} issues={errors} />
      {rows.length > 0 && (
        <div className="table-scroll">
          <table className="set-import__table">
            <caption>Rows as read ({preview.hitPolicy === 'collect' ? 'collect all' : 'first match'})</caption>
            <thead><tr><th scope="col">Row</th>{columns.map((c, i) => <th key={i} scope="col">{String(c.header ?? '')}</th>)}<th scope="col">Headline</th></tr></thead>
            <tbody>
              {rows.slice(0, 200).map((row, i) => {
                const conditions = (Array.isArray(row.conditions) ? row.conditions : []).filter(isRecord)
                return (
                  <tr key={i}>
                    <th scope="row">{num(row.row)}</th>
                    {columns.map((c, j) => <td key={j}>{String(conditions.find((cond) => cond.column === c.header)?.source ?? '-')}</td>)}
                    <td>{String(row.headline ?? '')}</td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        </div>
      )}
      <IssueList title="Warnings" kind="warning" issues={issuesOf(preview.warnings)} />
    </div>
  )
}

export function ResultView({ kind, data }: { kind: 'set' | 'table'; data: Record<string, unknown> }) {
  if (kind === 'table') {
    const created = rec(data.created)
    return (
      <div className="set-import__result" role="status">
        <h2>Imported</h2>
        <p>The rule “{String(data.name ?? '')}” now holds the table’s {num(created.nodes)} nodes. <a href={String(created.href ?? '#')}>Open the rule</a></p>
      </div>
    )
  }
  const set = rec(data.adviceSet)
  const scenarios = rec(data.scenarios)
  const counts = rec(scenarios.counts)
  const results = (Array.isArray(scenarios.results) ? scenarios.results : []).filter(isRecord)
  const total = results.length
  return (
    <div className="set-import__result" role="status">
      <h2>{typeof rec(rec(data.plan).target).adviceSetId === 'number' ? `Imported into “${String(set.name ?? '')}”` : `Imported as a new advice set “${String(set.name ?? '')}”`}</h2>
      <p><a href={String(set.uri ?? '#')}>Open the advice set</a></p>
      {total === 0
        ? <p>The file has no scenarios, so there is nothing to run yet: add scenarios to prove the set’s behaviour.</p>
        : <p className={num(counts.fail) + num(counts.error) > 0 ? 'set-import__scenarios--failing' : 'set-import__scenarios--passing'}>
            Scenarios on the imported draft: {num(counts.pass)} passed, {num(counts.fail)} failed, {num(counts.error)} could not run.
          </p>}
      {total > 0 && <ul className="set-import__runs">{results.map((r, i) => <li key={i}><span className={`status status--${String(r.status)}`}>{String(r.status)}</span> {String(r.name)}</li>)}</ul>}
      <IssueList title="Warnings" kind="warning" issues={issuesOf(rec(data.plan).warnings)} />
    </div>
  )
}
