import { InvalidPropsError } from '../shared/define-island.ts'
import { isRecord, optionalString } from '../shared/guards.ts'
import type { EditorType } from './fields.ts'

export type SaveMethod = 'POST' | 'PUT' | 'PATCH'

export interface InlineFieldProps {
  name: string
  label: string
  value: string
  editor: EditorType
  autosaveValue?: string
  required?: boolean
  maxLength?: number
  /** Unique on the page; defaults to the name. */
  id?: string
  /** Where the value is saved; defaults to the editor's action. */
  target?: string
}

export interface InlineEditorProps {
  action: string
  method: SaveMethod
  fields: InlineFieldProps[]
}

function parseField(raw: unknown): InlineFieldProps {
  if (!isRecord(raw) || typeof raw.name !== 'string' || typeof raw.value !== 'string') {
    throw new InvalidPropsError('every field needs a name and a string value')
  }
  return {
    name: raw.name,
    label: optionalString(raw.label) ?? raw.name,
    value: raw.value,
    editor: raw.editor === 'textarea' ? 'textarea' : 'input',
    autosaveValue: optionalString(raw.autosaveValue),
    required: raw.required === true,
    maxLength: typeof raw.maxLength === 'number' ? raw.maxLength : undefined,
    id: optionalString(raw.id),
    target: optionalString(raw.target),
  }
}

export function parseInlineEditorProps(raw: unknown): InlineEditorProps {
  if (!isRecord(raw) || typeof raw.action !== 'string' || !Array.isArray(raw.fields)) {
    throw new InvalidPropsError('inline-editor needs an action and fields')
  }
  const method = raw.method === 'POST' || raw.method === 'PUT' ? raw.method : 'PATCH'
  return { action: raw.action, method, fields: raw.fields.map(parseField) }
}
