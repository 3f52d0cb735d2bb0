// Click a text to edit it in place (SPEC.md §2, §4, §5). Escape restores the text as it was before the edit,
// Enter saves, leaving the editor keeps the edit and shows the text again. Save and Reset appear while any field
// differs from its original (or autosave) value. A field the server refuses shows why beside it and opens again.
import { useEffect, useId, useRef, useState } from 'react'
import type { FormEvent, KeyboardEvent } from 'react'
import { callApi } from '../shared/api.ts'
import { refusalOf } from '../shared/field-errors.ts'
import type { FieldErrors } from '../shared/field-errors.ts'
import { notify } from '../shared/notify.ts'
import { changedValues, editorKeyAction, fieldError, isFieldChanged, isFormValid } from './fields.ts'
import type { FieldState } from './fields.ts'
import type { InlineEditorProps, InlineFieldProps } from './props.ts'

/** Other code sets a field's value by dispatching this on the field element: detail `{ value }`. */
export const SET_VALUE_EVENT = 'inline-editor:set-value'

interface EditorField extends FieldState {
  id: string
  target: string
  /** The value was set by code (SET_VALUE_EVENT), not typed. */
  setByCode: boolean
}

interface Editing {
  name: string
  valueBefore: string
}

function toEditorField(props: InlineFieldProps, action: string): EditorField {
  return {
    ...props,
    value: props.autosaveValue ?? props.value,
    original: props.value,
    autosave: props.autosaveValue,
    id: props.id ?? props.name,
    target: props.target ?? action,
    setByCode: false,
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

export function InlineEditor({ action, method, fields: fieldProps }: InlineEditorProps) {
  const idPrefix = useId()
  const [fields, setFields] = useState(() => fieldProps.map((field) => toEditorField(field, action)))
  const [editing, setEditing] = useState<Editing | null>(null)
  const [saving, setSaving] = useState(false)
  /** What the server refused, by field, until the field is changed again. */
  const [refused, setRefused] = useState<FieldErrors>({})
  const [focusAfterRender, setFocusAfterRender] = useState<string | null>(null)
  const formRef = useRef<HTMLFormElement>(null)
  const textButtons = useRef(new Map<string, HTMLButtonElement>())

  useEffect(() => {
    if (focusAfterRender === null) return
    textButtons.current.get(focusAfterRender)?.focus()
    setFocusAfterRender(null)
  }, [focusAfterRender])

  useEffect(() => {
    const form = formRef.current
    const onSetValue = (event: Event) => {
      const name = event.target instanceof HTMLElement ? event.target.closest<HTMLElement>('[data-name]')?.dataset.name : undefined
      const { value } = (event as CustomEvent<{ value: string }>).detail
      setFields((current) => current.map((field) => field.name === name ? { ...field, value, setByCode: true } : field))
    }
    form?.addEventListener(SET_VALUE_EVENT, onSetValue)
    return () => form?.removeEventListener(SET_VALUE_EVENT, onSetValue)
  }, [])

  const changed = fields.some(isFieldChanged)
  const valid = isFormValid(fields)

  const updateValue = (name: string, value: string) => {
    setFields((current) => current.map((field) => field.name === name ? { ...field, value, setByCode: false } : field))
    setRefused(({ [name]: _, ...others }) => others)
  }

  async function save(current: EditorField[]): Promise<void> {
    const values = changedValues(current)
    if (!isFormValid(current) || Object.keys(values).length === 0) return
    setSaving(true)
    try {
      await callApi(action, { method, json: values })
      setFields((latest) => latest.map((field) => Object.hasOwn(values, field.name)
        ? { ...field, original: values[field.name] ?? field.value, autosave: undefined, setByCode: false }
        : field))
      setRefused({})
      notify({ type: 'success', text: 'Saved.' })
    } catch (error) {
      // A refused field is told beside it and opened for editing, so the focus lands in it.
      const refusal = refusalOf(error, (name) => (current.some((field) => field.name === name) ? name : null))
      const first = current.find((field) => refusal.errors[field.name] !== undefined)
      setRefused(refusal.errors)
      if (first) setEditing({ name: first.name, valueBefore: first.value })
      else notify({ type: 'error', text: refusal.formError ?? errorMessage(error) })
    } finally {
      setSaving(false)
    }
  }

  function startEditing(field: EditorField) {
    setEditing({ name: field.name, valueBefore: field.value })
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement | HTMLTextAreaElement>, field: EditorField) {
    const action = editorKeyAction(event.key, event.shiftKey, field.editor)
    if (!action) return
    event.preventDefault()
    if (action === 'cancel' && editing) updateValue(field.name, editing.valueBefore)
    setEditing(null)
    setFocusAfterRender(field.name)
    if (action === 'save') void save(fields)
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault()
    void save(fields)
  }

  function reset() {
    setFields((current) => current.map((field) => ({ ...field, value: field.original, setByCode: false })))
    setEditing(null)
    setFocusAfterRender(fields[0]?.name ?? null)
  }

  return (
    <form ref={formRef} className="inline-editor" onSubmit={onSubmit} noValidate
      data-changed={changed} aria-busy={saving}>
      {fields.map((field) => {
        const baseId = `${idPrefix}-${field.id}`
        const isEditing = editing?.name === field.name
        const error = fieldError(field) ?? refused[field.name] ?? null
        const Control = field.editor === 'textarea' ? 'textarea' : 'input'
        return (
          <div key={field.name} className="inline-editor__field"
            data-name={field.name} data-id={field.id} data-target={field.target} data-editor={field.editor}
            data-original-value={field.original} data-autosave-value={field.autosave}
            data-set-value={field.setByCode} data-changed={isFieldChanged(field)}>
            <label className="inline-editor__label" id={`${baseId}-label`}
              htmlFor={isEditing ? `${baseId}-control` : undefined}>{field.label}</label>
            {isEditing
              ? <Control id={`${baseId}-control`} className="inline-editor__control" name={field.name}
                  value={field.value} rows={field.editor === 'textarea' ? 1 : undefined}
                  required={field.required} maxLength={field.maxLength} autoFocus
                  aria-invalid={error !== null} aria-describedby={error ? `${baseId}-error` : undefined}
                  onFocus={(event) => event.currentTarget.setSelectionRange(field.value.length, field.value.length)}
                  onChange={(event) => updateValue(field.name, event.currentTarget.value)}
                  onKeyDown={(event) => onKeyDown(event, field)}
                  onBlur={() => setEditing(null)} />
              : <button type="button" id={`${baseId}-text`} className="inline-editor__text"
                  aria-labelledby={`${baseId}-label ${baseId}-text`}
                  aria-describedby={error ? `${baseId}-error` : undefined}
                  ref={(button) => { if (button) textButtons.current.set(field.name, button); else textButtons.current.delete(field.name) }}
                  onClick={() => startEditing(field)}>
                  {field.value || <span className="inline-editor__placeholder">Click to add</span>}
                </button>}
            {error && <p className="inline-editor__error" id={`${baseId}-error`}>{error}</p>}
          </div>
        )
      })}
      {changed && (
        <div className="inline-editor__actions">
          <button type="submit" className="inline-editor__save primary" disabled={!valid || saving}>Save</button>
          <button type="button" className="inline-editor__reset" onClick={reset}>Reset</button>
        </div>
      )}
    </form>
  )
}
