// The dictionary entry form (SPEC.md §3 fields, §5 name rule) saving through /api/entity without a page load.
// Editing an entry, Save and Reset appear once a field differs from its original value (SPEC.md §4); a new entry has
// nothing saved to differ from, so its Create button is there from the start. A server error is shown beside
// the fields it names (the first takes the focus), keeping what was typed. A save that renamed the entry or changed its type dispatches
// `entity:changed` (islands/entity-sync), so every place showing it, here and in other tabs, follows; a new entry
// is announced by `entity:created`, so other tabs' `{{` suggestions offer it.
import { useEffect, useId, useRef, useState } from 'react'
import type { FormEvent, ReactNode } from 'react'
import { ENTITY_TYPES } from '../../src/engine/entity-types.ts'
import { announceCreatedEntity } from '../entity-sync/announce.ts'
import { ENTITY_CHANGED_EVENT, parseEntityChange, refreshedBoxValue } from '../entity-sync/change.ts'
import type { EntityChange } from '../entity-sync/change.ts'
import { callApi } from '../shared/api.ts'
import { refusalOf, useFocusFirstInvalid } from '../shared/field-errors.ts'
import { isRecord } from '../shared/guards.ts'
import { notify } from '../shared/notify.ts'
import { apiBody, formFieldOf, sameValues } from './values.ts'
import type { Choice, EntityFormValues, SetChoice } from './values.ts'

export interface SavedEntity { id: number; values: EntityFormValues }

export interface EntityFormProps {
  entityId: number | null
  original: EntityFormValues
  typed?: EntityFormValues
  errors?: Record<string, string>
  adviceSets: SetChoice[]
  dataTypes: Choice[]
  onCreated(entity: SavedEntity): void
  onSaved?(entity: SavedEntity): void
  cancel: ReactNode
}

function changeOf(id: number, before: EntityFormValues, after: EntityFormValues): EntityChange | null {
  if (before.reservedName === after.reservedName && before.kind === after.kind) return null
  return {
    id, reservedName: after.reservedName, previousName: before.reservedName, entityTypeId: ENTITY_TYPES[after.kind].id,
    previousEntityTypeId: ENTITY_TYPES[before.kind].id, typeDisplayName: ENTITY_TYPES[after.kind].displayName,
  }
}

export function EntityForm({ entityId, original: initial, typed, errors: initialErrors, adviceSets, dataTypes, onCreated, onSaved, cancel }: EntityFormProps) {
  const prefix = useId()
  const [original, setOriginal] = useState(initial)
  const [values, setValues] = useState(typed ?? initial)
  const [errors, setErrors] = useState<Record<string, string>>(initialErrors ?? {})
  const [formError, setFormError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const form = useRef<HTMLFormElement>(null)
  // Errors the page came with (the card page's form post) and each refused save put the focus on the first field.
  useFocusFirstInvalid(form, errors)
  const changed = !sameValues(values, original)

  // An unmodified expression follows a renamed entry it refers to; Reset then brings back what was stored.
  useEffect(() => {
    const onChanged = (event: Event) => {
      const change = parseEntityChange((event as CustomEvent<unknown>).detail)
      if (!change || change.id === entityId) return
      setValues((current) => {
        const next = current.expression === original.expression
          ? refreshedBoxValue({ value: current.expression, original: original.expression, editor: 'textarea' }, change)
          : null
        return next === null ? current : { ...current, expression: next }
      })
    }
    document.addEventListener(ENTITY_CHANGED_EVENT, onChanged)
    return () => document.removeEventListener(ENTITY_CHANGED_EVENT, onChanged)
  }, [entityId, original.expression])

  const set = <K extends keyof EntityFormValues>(field: K, value: EntityFormValues[K]) => setValues((current) => ({ ...current, [field]: value }))

  async function save(event: FormEvent) {
    event.preventDefault()
    setSaving(true)
    setErrors({})
    setFormError(null)
    try {
      const saved = values
      if (entityId === null) {
        const response = await callApi('/api/entity', { method: 'POST', json: apiBody(saved) })
        const data = isRecord(response) && isRecord(response.data) ? response.data : {}
        announceCreatedEntity(data)
        onCreated({ id: Number(data.id), values: saved })
        return
      }
      const response = await callApi(`/api/entity/${entityId}`, { method: 'PATCH', json: apiBody(saved) })
      const data = isRecord(response) && isRecord(response.data) ? response.data : {}
      const rewritten = isRecord(data.rewritten) && Array.isArray(data.rewritten.nodes) && Array.isArray(data.rewritten.entities)
        ? data.rewritten.nodes.length + data.rewritten.entities.length : 0
      const change = changeOf(entityId, original, saved)
      setOriginal(saved)
      notify({ type: 'success', text: change && change.previousName !== change.reservedName ? `Saved. ${rewritten} use${rewritten === 1 ? '' : 's'} rewritten.` : 'Saved.' })
      if (change) document.dispatchEvent(new CustomEvent(ENTITY_CHANGED_EVENT, { detail: change }))
      onSaved?.({ id: entityId, values: saved })
    } catch (error) {
      const refusal = refusalOf(error, formFieldOf)
      setErrors(refusal.errors)
      setFormError(refusal.formError)
    } finally {
      setSaving(false)
    }
  }

  const id = (field: string) => `${prefix}-${field}`
  const described = (field: string) => errors[field] ? { 'aria-invalid': true, 'aria-describedby': `${id(field)}-error` } : {}
  const fieldError = (field: string) => errors[field] && <p className="field-error" id={`${id(field)}-error`}>{errors[field]}</p>
  const fieldClass = (field: string) => `field${errors[field] ? ' field-invalid' : ''}`

  return (
    <form ref={form} className="entity-form" onSubmit={save} noValidate aria-busy={saving} data-changed={changed}>
      {formError && <div className="form-error" role="alert">{formError}</div>}
      <div className={fieldClass('reservedName')}>
        <label htmlFor={id('reservedName')}>Name</label>
        <input id={id('reservedName')} name="reservedName" value={values.reservedName} required autoComplete="off"
          onChange={(e) => set('reservedName', e.currentTarget.value)} {...described('reservedName')} />
        <p className="hint">Starts with a letter or digit, then letters, digits, _ or ?.</p>
        {fieldError('reservedName')}
      </div>
      <div className={fieldClass('kind')}>
        <label htmlFor={id('kind')}>Type</label>
        <select id={id('kind')} name="kind" value={values.kind} onChange={(e) => set('kind', e.currentTarget.value === 'formula' ? 'formula' : 'variable')} {...described('kind')}>
          <option value="variable">{'Variable {{ }}'}</option>
          <option value="formula">{'Formula [[ ]]'}</option>
        </select>
        {fieldError('kind')}
      </div>
      {values.kind === 'formula' && (
        <div className={fieldClass('expression')}>
          <label htmlFor={id('expression')}>Expression</label>
          <textarea id={id('expression')} name="expression" rows={3} value={values.expression}
            onChange={(e) => set('expression', e.currentTarget.value)} {...described('expression')} />
          <p className="hint">{'What the formula computes, e.g. {{Income}} * 0.2.'}</p>
          {fieldError('expression')}
        </div>
      )}
      <div className={fieldClass('dataType')}>
        <label htmlFor={id('dataType')}>Data type</label>
        <select id={id('dataType')} name="dataType" value={values.dataType} onChange={(e) => set('dataType', e.currentTarget.value)} {...described('dataType')}>
          <option value="">Not set</option>
          {dataTypes.map((d) => <option key={d.value} value={d.value}>{d.label}</option>)}
        </select>
        {fieldError('dataType')}
      </div>
      <div className={fieldClass('validOptions')}>
        <label htmlFor={id('validOptions')}>Options</label>
        <textarea id={id('validOptions')} name="validOptions" rows={3} value={values.validOptions}
          onChange={(e) => set('validOptions', e.currentTarget.value)} {...described('validOptions')} />
        <p className="hint">One option per line.</p>
        {fieldError('validOptions')}
      </div>
      <label className="check"><input type="checkbox" name="isClosedSet" checked={values.isClosedSet}
        onChange={(e) => set('isClosedSet', e.currentTarget.checked)} /> Closed set: answers must be one of the options</label>
      <div className={fieldClass('displayFormat')}>
        <label htmlFor={id('displayFormat')}>Display format</label>
        <input id={id('displayFormat')} name="displayFormat" value={values.displayFormat}
          onChange={(e) => set('displayFormat', e.currentTarget.value)} {...described('displayFormat')} />
        <p className="hint">e.g. 0,0.00 or $0,0 for numbers, MMM d, yyyy for dates.</p>
        {fieldError('displayFormat')}
      </div>
      <div className={fieldClass('defaultValue')}>
        <label htmlFor={id('defaultValue')}>Default value</label>
        <input id={id('defaultValue')} name="defaultValue" value={values.defaultValue}
          onChange={(e) => set('defaultValue', e.currentTarget.value)} {...described('defaultValue')} />
        <p className="hint">Used when nobody gave a value; it must suit the data type.</p>
        {fieldError('defaultValue')}
      </div>
      <label className="check"><input type="checkbox" name="isConstant" checked={values.isConstant}
        onChange={(e) => set('isConstant', e.currentTarget.checked)} /> Constant</label>
      {values.kind === 'variable' && (
        <div className={fieldClass('personal')}>
          <label className="check"><input type="checkbox" name="personal" checked={values.personal}
            onChange={(e) => set('personal', e.currentTarget.checked)} {...described('personal')} /> Personal data</label>
          <p className="hint">Its values are kept in decision records only as a keyed hash.</p>
          {fieldError('personal')}
        </div>
      )}
      <div className={fieldClass('description')}>
        <label htmlFor={id('description')}>Description</label>
        <textarea id={id('description')} name="description" rows={3} value={values.description}
          onChange={(e) => set('description', e.currentTarget.value)} {...described('description')} />
        {fieldError('description')}
      </div>
      <div className={fieldClass('adviceSetId')}>
        <label htmlFor={id('adviceSetId')}>Advice set</label>
        <select id={id('adviceSetId')} name="adviceSetId" value={values.adviceSetId} onChange={(e) => set('adviceSetId', e.currentTarget.value)} {...described('adviceSetId')}>
          <option value="">All advice sets</option>
          {adviceSets.map((s) => <option key={s.id} value={String(s.id)}>{s.name}</option>)}
        </select>
        {fieldError('adviceSetId')}
      </div>
      <div className="actions">
        {(changed || entityId === null) && <button type="submit" className="primary" disabled={saving}>{entityId === null ? 'Create' : 'Save'}</button>}
        {changed && <button type="button" onClick={() => { setValues(original); setErrors({}); setFormError(null) }}>Reset</button>}
        {cancel}
      </div>
    </form>
  )
}
