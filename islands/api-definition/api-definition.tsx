// The external API definition form with JavaScript: rows of headers and mappings added and removed in place, the
// placeholders' value fields following the templates as they are typed, "Send test request" answered in place
// (/api/external-api/verify/send, the saved definition's stored secrets filling empty secret headers), and each
// value of the answer mappable with one click. Saving goes through /api/external-api; errors are shown at the
// fields the server names, the first taking the focus.
import { useMemo, useRef, useState } from 'react'
import type { FormEvent, ReactNode } from 'react'
import { callApi } from '../shared/api.ts'
import { refusalOf, useFocusFirstInvalid } from '../shared/field-errors.ts'
import { isRecord } from '../shared/guards.ts'
import { notify } from '../shared/notify.ts'
import { answerLeaves, placeholdersIn, suggestedDataType, suggestedVariable } from './answer-paths.ts'
import type { ApiDefinitionProps, DefinitionValues, HeaderRow, MappingRow, TestResult } from './props.ts'

type Errors = Record<string, string>

function payload(values: DefinitionValues) {
  return {
    name: values.name, method: values.method, urlTemplate: values.urlTemplate, bodyTemplate: values.bodyTemplate,
    timeoutMs: values.timeoutMs === '' ? undefined : Number(values.timeoutMs),
    cacheTtlSeconds: values.cacheTtlSeconds === '' ? undefined : Number(values.cacheTtlSeconds),
    sampleResponse: values.sampleResponse,
    headers: values.headers.filter((h) => h.name !== '' || h.value !== ''),
    responseMapping: values.responseMapping.filter((m) => m.path !== '' || m.variable !== ''),
  }
}

function Field({ id, label, error, hint, children }: { id: string; label: string; error?: string; hint?: string; children: ReactNode }) {
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children}
      {hint && <p className="hint">{hint}</p>}
      {error && <p className="field-error" id={`${id}-error`}>{error}</p>}
    </div>
  )
}

function TestAnswer({ result, onMap, canWrite }: { result: TestResult; onMap(pointer: string, value: unknown): void; canWrite: boolean }) {
  const leaves = useMemo(() => {
    if (!result.response) return []
    try { return answerLeaves(JSON.parse(result.response.body)) } catch { return [] }
  }, [result])
  return (
    <section className="external-api-test-result" data-test-outcome={result.error ? result.error.code : 'ok'} aria-live="polite">
      <h3>Answer</h3>
      {result.error && <p className="field-error" data-test-error>{result.error.message}</p>}
      {result.response && (
        <>
          <p>Status <strong data-test-status>{result.response.status}</strong> in <span data-test-time>{result.response.timeMs} ms</span> · <code>{result.request.method} {result.request.url}</code></p>
          <details>
            <summary>Headers ({Object.keys(result.response.headers).length})</summary>
            <ul className="external-api-headers-list">{Object.entries(result.response.headers).map(([name, value]) => <li key={name}><code>{name}: {value}</code></li>)}</ul>
          </details>
          {leaves.length > 0 ? (
            <>
              <h4>Values in the answer</h4>
              <ul className="external-api-paths">
                {leaves.map((leaf) => (
                  <li key={leaf.pointer} data-answer-path={leaf.pointer}>
                    <code>{leaf.pointer}</code> <code>{JSON.stringify(leaf.value)}</code>
                    {canWrite && <button type="button" className="link-button" onClick={() => onMap(leaf.pointer, leaf.value)}>Map</button>}
                  </li>
                ))}
              </ul>
            </>
          ) : <pre className="external-api-body" data-test-body>{result.response.body}</pre>}
        </>
      )}
      {result.mapped.length > 0 && (
        <>
          <h3>Mapped variables</h3>
          <table className="table external-api-mapped">
            <thead><tr><th scope="col">Variable</th><th scope="col">Path</th><th scope="col">Value</th></tr></thead>
            <tbody>
              {result.mapped.map((m) => (
                <tr key={m.variable} data-mapped-variable={m.variable}>
                  <td><code>{`{{${m.variable}}}`}</code></td><td><code>{m.path}</code></td>
                  <td>{m.error ? <span className="field-error">{m.error}</span> : <code>{m.valueText}</code>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  )
}

export function ApiDefinition(props: ApiDefinitionProps) {
  const [values, setValues] = useState<DefinitionValues>(props.values)
  const [storedSecrets, setStoredSecrets] = useState(props.storedSecrets)
  const [inputs, setInputs] = useState<Record<string, string>>(props.inputs)
  const [errors, setErrors] = useState<Errors>({})
  const [formError, setFormError] = useState<string | null>(null)
  const [test, setTest] = useState<TestResult | null>(props.test)
  const [busy, setBusy] = useState<'saving' | 'sending' | null>(null)
  const form = useRef<HTMLFormElement>(null)
  useFocusFirstInvalid(form, errors)
  const placeholders = useMemo(
    () => placeholdersIn(values.urlTemplate, values.bodyTemplate, ...values.headers.map((h) => h.value)),
    [values.urlTemplate, values.bodyTemplate, values.headers],
  )
  const readOnly = !props.canWrite

  const set = <K extends keyof DefinitionValues>(key: K, value: DefinitionValues[K]) => setValues((current) => ({ ...current, [key]: value }))
  const setHeader = (index: number, change: Partial<HeaderRow>) => set('headers', values.headers.map((h, i) => (i === index ? { ...h, ...change } : h)))
  const setMapping = (index: number, change: Partial<MappingRow>) => set('responseMapping', values.responseMapping.map((m, i) => (i === index ? { ...m, ...change } : m)))

  const fail = (error: unknown) => {
    const refusal = refusalOf(error)
    setErrors(refusal.errors)
    setFormError(refusal.formError)
  }

  async function save(event: FormEvent) {
    event.preventDefault()
    if (busy) return
    setBusy('saving')
    try {
      const answer = await callApi(props.id === null ? '/api/external-api' : `/api/external-api/${props.id}`, { method: props.id === null ? 'POST' : 'PATCH', json: payload(values) })
      const saved = isRecord(answer) && isRecord(answer.data) ? answer.data : {}
      setErrors({})
      setFormError(null)
      if (props.id === null) {
        window.location.assign(`/api-manager/${String(saved.id)}/edit`)
        return
      }
      // Secret values typed are stored now: the fields empty again, showing that a value is kept.
      setStoredSecrets(values.headers.filter((h) => h.secret).map((h) => h.name))
      set('headers', values.headers.map((h) => (h.secret ? { ...h, value: '' } : h)))
      notify({ type: 'success', text: `External API “${values.name}” saved.` })
    } catch (error) {
      fail(error)
    } finally {
      setBusy(null)
    }
  }

  async function send() {
    if (busy) return
    setBusy('sending')
    try {
      const answer = await callApi('/api/external-api/verify/send', {
        json: { definition: payload(values), inputs: Object.fromEntries(placeholders.map((name) => [name, inputs[name] ?? ''])), ...(props.id === null ? {} : { id: props.id }) },
      })
      setTest(isRecord(answer) ? (answer.data as TestResult) : null)
      setErrors({})
      setFormError(null)
    } catch (error) {
      fail(error)
    } finally {
      setBusy(null)
    }
  }

  const map = (pointer: string, value: unknown) => {
    const existing = values.responseMapping.findIndex((m) => m.path === pointer)
    if (existing >= 0) return
    const taken = new Set(values.responseMapping.map((m) => m.variable))
    let variable = suggestedVariable(pointer)
    for (let n = 2; taken.has(variable); n++) variable = `${suggestedVariable(pointer)}_${n}`
    const row = { path: pointer, variable, dataType: suggestedDataType(value) }
    const blank = values.responseMapping.findIndex((m) => m.path === '' && m.variable === '')
    set('responseMapping', blank >= 0 ? values.responseMapping.map((m, i) => (i === blank ? row : m)) : [...values.responseMapping, row])
    notify({ type: 'info', text: `${pointer} is mapped to {{${variable}}}; rename it if you like, then save.` })
  }

  return (
    <form ref={form} className="external-api-definition" onSubmit={(event) => void save(event)} noValidate data-island-form="api-definition">
      {formError && <div className="form-error" role="alert">{formError}</div>}
      <fieldset className="external-api-fields" disabled={readOnly}>
        <Field id="api-name" label="Name" error={errors.name} hint="What the API gives, e.g. “Exchange rates”.">
          <input id="api-name" name="name" value={values.name} onChange={(e) => set('name', e.target.value)} aria-invalid={Boolean(errors.name)} />
        </Field>
        <div className="external-api-request-line">
          <Field id="api-method" label="Method" error={errors.method}>
            <select id="api-method" name="method" value={values.method} onChange={(e) => set('method', e.target.value)}>
              {props.methods.map((m) => <option key={m} value={m}>{m}</option>)}
            </select>
          </Field>
          <Field id="api-url" label="URL" error={errors.urlTemplate} hint="Placeholders like {{Currency}} are filled from the run’s variables (URL-encoded).">
            <input id="api-url" name="urlTemplate" value={values.urlTemplate} onChange={(e) => set('urlTemplate', e.target.value)} aria-invalid={Boolean(errors.urlTemplate)} spellCheck={false} />
          </Field>
        </div>
        <fieldset className="external-api-rows">
          <legend>Headers</legend>
          {errors.headers && <p className="field-error">{errors.headers}</p>}
          {values.headers.length > 0 && (
            <table className="table external-api-headers">
              <thead><tr><th scope="col">Name</th><th scope="col">Value</th><th scope="col">Secret</th><th scope="col"><span className="visually-hidden">Remove</span></th></tr></thead>
              <tbody>
                {values.headers.map((h, i) => {
                  const error = errors[`headers.${i}`]
                  const stored = h.secret && storedSecrets.includes(h.name)
                  return (
                    <tr key={i} className={error ? 'field-invalid' : undefined}>
                      <td><input value={h.name} aria-label={`Header ${i + 1} name`} onChange={(e) => setHeader(i, { name: e.target.value })} /></td>
                      <td>
                        <input value={h.value} type={h.secret ? 'password' : 'text'} autoComplete="off" aria-label={`Header ${i + 1} value`}
                          placeholder={stored ? '•••••• (stored; leave empty to keep)' : ''} onChange={(e) => setHeader(i, { value: e.target.value })} />
                        {error && <p className="field-error">{error}</p>}
                      </td>
                      <td><input type="checkbox" checked={h.secret} aria-label={`Header ${i + 1} is secret`} onChange={(e) => setHeader(i, { secret: e.target.checked })} /></td>
                      <td><button type="button" className="link-button" onClick={() => set('headers', values.headers.filter((_, j) => j !== i))}>Remove</button></td>
                    </tr>
                  )
                })}
              </tbody>
            </table>
          )}
          <button type="button" onClick={() => set('headers', [...values.headers, { name: '', value: '', secret: false }])}>Add header</button>
          <p className="hint">Secret values are stored encrypted and never shown again.</p>
        </fieldset>
        <Field id="api-body" label="Body" error={errors.bodyTemplate} hint="Sent with POST, PUT and PATCH (JSON unless a Content-Type header says otherwise); placeholders are escaped for JSON.">
          <textarea id="api-body" rows={4} value={values.bodyTemplate} onChange={(e) => set('bodyTemplate', e.target.value)} spellCheck={false} />
        </Field>
        <div className="external-api-numbers">
          <Field id="api-timeout" label="Timeout (ms)" error={errors.timeoutMs} hint="At most 30000.">
            <input id="api-timeout" type="number" value={values.timeoutMs} onChange={(e) => set('timeoutMs', e.target.value)} />
          </Field>
          <Field id="api-ttl" label="Cache time (seconds)" error={errors.cacheTtlSeconds} hint="0: ask every time.">
            <input id="api-ttl" type="number" value={values.cacheTtlSeconds} onChange={(e) => set('cacheTtlSeconds', e.target.value)} />
          </Field>
        </div>
        <fieldset className="external-api-rows">
          <legend>Response mapping</legend>
          {errors.responseMapping && <p className="field-error">{errors.responseMapping}</p>}
          {values.responseMapping.length > 0 && (
            <table className="table external-api-mapping">
              <thead><tr><th scope="col">Path in the answer</th><th scope="col">Variable</th><th scope="col">Data type</th><th scope="col"><span className="visually-hidden">Remove</span></th></tr></thead>
              <tbody>
                {values.responseMapping.map((m, i) => {
                  const error = errors[`responseMapping.${i}`]
                  return (
                    <tr key={i} className={error ? 'field-invalid' : undefined} data-mapping-row={i}>
                      <td><input value={m.path} placeholder="/data/rate" aria-label={`Mapping ${i + 1} path`} onChange={(e) => setMapping(i, { path: e.target.value })} />
                        {error && <p className="field-error">{error}</p>}</td>
                      <td><input value={m.variable} placeholder="Rate" aria-label={`Mapping ${i + 1} variable`} onChange={(e) => setMapping(i, { variable: e.target.value })} /></td>
                      <td><select value={m.dataType} aria-label={`Mapping ${i + 1} data type`} onChange={(e) => setMapping(i, { dataType: e.target.value })}>
                        {props.dataTypes.map((t) => <option key={t} value={t}>{t}</option>)}
                      </select></td>
                      <td><button type="button" className="link-button" onClick={() => set('responseMapping', values.responseMapping.filter((_, j) => j !== i))}>Remove</button></td>
                    </tr>
                  )
                })}
              </tbody>
            </table>
          )}
          <button type="button" onClick={() => set('responseMapping', [...values.responseMapping, { path: '', variable: '', dataType: 'number' }])}>Add mapping</button>
          <p className="hint">A JSON pointer (<code>/data/rates/0/value</code>) or a path (<code>data.rates[0].value</code>); or send a test request and click Map beside a value. API Call nodes pick one of these variables.</p>
        </fieldset>
        <Field id="api-sample" label="Sample response" error={errors.sampleResponse} hint="A JSON answer to keep with the definition (for reference and recorded scenario responses).">
          <textarea id="api-sample" rows={4} value={values.sampleResponse} onChange={(e) => set('sampleResponse', e.target.value)} spellCheck={false} />
        </Field>
      </fieldset>
      <section className="external-api-test" aria-labelledby="test-heading">
        <h2 id="test-heading">Send test request</h2>
        {placeholders.length > 0 && <p className="hint">Values for the placeholders:</p>}
        {placeholders.map((name) => (
          <Field key={name} id={`input-${name}`} label={`{{${name}}}`} error={errors[`inputs.${name}`]}>
            <input id={`input-${name}`} value={inputs[name] ?? ''} onChange={(e) => setInputs((current) => ({ ...current, [name]: e.target.value }))} />
          </Field>
        ))}
        {!readOnly && <button type="button" onClick={() => void send()} disabled={busy !== null} data-send-test>{busy === 'sending' ? 'Sending…' : 'Send test request'}</button>}
        {test && <TestAnswer result={test} onMap={map} canWrite={!readOnly} />}
      </section>
      {!readOnly && (
        <div className="actions">
          <button type="submit" className="primary" disabled={busy !== null}>{props.id === null ? 'Create external API' : 'Save'}</button> <a href="/api-manager">Cancel</a>
        </div>
      )}
    </form>
  )
}
