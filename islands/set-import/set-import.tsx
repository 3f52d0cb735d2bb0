// The import page (issue 28): an advice-set file (.json or its .zip form) as a new set or into one, or a decision
// table (.csv, .xlsx) as a new rule of a set. The first step is always a check (the server's dry run) that shows what
// would be created or changed and every problem; the import itself follows from there, and shows the proof: the set's
// scenarios run on the imported draft, or the rule made from the table.
import { useId, useRef, useState } from 'react'
import { sendMultipart } from '../shared/upload.ts'
import { isRecord } from '../shared/guards.ts'
import type { SetImportProps } from './props.ts'
import { IssueList, PlanView, ResultView, TablePreviewView, type Issue } from './views.tsx'

type Kind = 'set' | 'table'
type Step = { name: 'choose' } | { name: 'sending'; percent: number; what: string } | { name: 'checked'; data: Record<string, unknown> }
  | { name: 'done'; data: Record<string, unknown> } | { name: 'failed'; message: string; issues: Issue[]; data: Record<string, unknown> | null }

function issuesOf(raw: unknown): Issue[] {
  if (!Array.isArray(raw)) return []
  return raw.filter(isRecord).map((i) => ({
    message: typeof i.message === 'string' ? i.message : '', line: typeof i.line === 'number' ? i.line : undefined, column: typeof i.column === 'number' ? i.column : undefined,
  }))
}

export function SetImport(props: SetImportProps) {
  const id = useId()
  const [kind, setKind] = useState<Kind>('set')
  const [into, setInto] = useState<number | null>(props.into)
  const [hitPolicy, setHitPolicy] = useState<'first' | 'collect'>('first')
  const [file, setFile] = useState<File | null>(null)
  const [step, setStep] = useState<Step>({ name: 'choose' })
  const input = useRef<HTMLInputElement>(null)
  const maxBytes = kind === 'set' ? props.maxSetBytes : props.maxTableBytes
  const tooBig = file !== null && file.size > maxBytes
  const needsSet = kind === 'table' && into === null

  const send = async (dryRun: boolean) => {
    if (!file) return
    const form = new FormData()
    let url: string
    if (kind === 'set') {
      const query = new URLSearchParams({ dryRun: String(dryRun) })
      if (into !== null) query.set('into', String(into))
      url = `/api/adviceset/import?${query}`
    } else {
      form.append('into', String(into ?? ''))
      form.append('hitPolicy', hitPolicy)
      form.append('dryRun', String(dryRun))
      url = '/api/adviceset/import/table'
    }
    form.append('file', file, file.name)
    const what = dryRun ? 'Checking' : 'Importing'
    setStep({ name: 'sending', percent: 0, what })
    const answer = await sendMultipart(url, form, (loaded, total) => setStep({ name: 'sending', percent: Math.min(99, Math.round((loaded / total) * 100)), what })).done
    const data = isRecord(answer.body) && isRecord(answer.body.data) ? answer.body.data : null
    if ((answer.status === 200 || answer.status === 201) && data) {
      setStep(answer.status === 201 ? { name: 'done', data } : { name: 'checked', data })
      return
    }
    const error = isRecord(answer.body) && isRecord(answer.body.error) ? answer.body.error : {}
    const issues = issuesOf(error.errors).length > 0 ? issuesOf(error.errors) : issuesOf(error.fields)
    setStep({ name: 'failed', message: answer.message, issues, data: isRecord(error.preview) ? error.preview : null })
  }

  const restart = () => {
    setStep({ name: 'choose' })
    setFile(null)
    if (input.current) input.current.value = ''
  }

  const checkedHasErrors = step.name === 'checked' && (Array.isArray(step.data.errors) && step.data.errors.length > 0)
  const busy = step.name === 'sending'

  return (
    <div className="set-import">
      <fieldset className="set-import__kind" disabled={busy || step.name === 'done'}>
        <legend>What to import</legend>
        <label><input type="radio" name={`${id}-kind`} checked={kind === 'set'} onChange={() => { setKind('set'); setStep({ name: 'choose' }) }} /> An advice set file (.json, or its .zip with files)</label>
        <label><input type="radio" name={`${id}-kind`} checked={kind === 'table'} onChange={() => { setKind('table'); setStep({ name: 'choose' }) }} /> A decision table (.csv or .xlsx) as a new rule</label>
      </fieldset>
      <div className="field">
        <label htmlFor={`${id}-into`}>{kind === 'set' ? 'Import as' : 'Add the rule to'}</label>
        <select id={`${id}-into`} value={into ?? ''} disabled={busy || step.name === 'done'} onChange={(e) => { setInto(e.target.value ? Number(e.target.value) : null); setStep({ name: 'choose' }) }}>
          <option value="">{kind === 'set' ? 'A new advice set' : 'Choose an advice set'}</option>
          {props.sets.map((s) => <option key={s.id} value={s.id}>{kind === 'set' ? `Into “${s.name}” (replaces its working draft)` : s.name}</option>)}
        </select>
      </div>
      {kind === 'table' && (
        <div className="field">
          <label htmlFor={`${id}-policy`}>Hit policy</label>
          <select id={`${id}-policy`} value={hitPolicy} disabled={busy || step.name === 'done'} onChange={(e) => { setHitPolicy(e.target.value === 'collect' ? 'collect' : 'first'); setStep({ name: 'choose' }) }}>
            <option value="first">First match: the first row that holds gives its advice</option>
            <option value="collect">Collect all: every row that holds gives its advice</option>
          </select>
        </div>
      )}
      <div className="field">
        <label htmlFor={`${id}-file`}>File</label>
        <input id={`${id}-file`} ref={input} type="file" disabled={busy || step.name === 'done'} accept={kind === 'set' ? '.json,.zip,application/json,application/zip' : '.csv,.xlsx,text/csv'}
          onChange={(e) => { setFile(e.target.files?.[0] ?? null); setStep({ name: 'choose' }) }} aria-describedby={`${id}-file-hint`} />
        <p className="hint" id={`${id}-file-hint`}>At most {Math.round(maxBytes / (1024 * 1024))} MB.{kind === 'set' ? ' Export one from an advice set’s page, or from another Advice Studio.' : ' Header cells name variables ({{Age}}); add Headline and Text columns for the advice.'}</p>
        {tooBig && <p className="field-error" role="alert">“{file!.name}” is larger than {Math.round(maxBytes / (1024 * 1024))} MB.</p>}
        {needsSet && file && <p className="field-error" role="alert">Choose the advice set the rule goes into.</p>}
      </div>
      <div className="actions">
        {step.name !== 'done' && (
          <button type="button" className={step.name === 'checked' ? '' : 'primary'} disabled={!file || tooBig || needsSet || busy} onClick={() => void send(true)}>Check file</button>
        )}
        {step.name === 'checked' && !checkedHasErrors && <button type="button" className="primary" onClick={() => void send(false)}>Import</button>}
        {(step.name === 'done' || step.name === 'failed') && <button type="button" onClick={restart}>Import another file</button>}
      </div>
      <div aria-live="polite">
        {step.name === 'sending' && <p className="set-import__progress">{step.what} “{file?.name}”… {step.percent}%</p>}
      </div>
      {step.name === 'checked' && (kind === 'set' ? <PlanView plan={step.data} /> : <TablePreviewView preview={step.data} />)}
      {step.name === 'done' && <ResultView kind={kind} data={step.data} />}
      {step.name === 'failed' && (
        <div className="set-import__failed" role="alert">
          {step.issues.length === 0 ? <p className="form-error">{step.message}</p> : <IssueList title="The file cannot be imported; nothing was written:" issues={step.issues} />}
          {step.data && <TablePreviewView preview={step.data} />}
        </div>
      )}
    </div>
  )
}
