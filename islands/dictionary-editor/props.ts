import { InvalidPropsError } from '../shared/define-island.ts'
import { isRecord } from '../shared/guards.ts'
import { FIELD_NAMES, isKind, parseChoices } from './values.ts'
import type { Choice, EntityFormValues, SetChoice } from './values.ts'

export interface DictionaryEditorProps {
  /** null: a new entry. */
  entityId: number | null
  values: EntityFormValues
  /** What was typed before a server-side error, when the page was rendered after one. */
  typed: EntityFormValues
  errors: Record<string, string>
  adviceSets: SetChoice[]
  dataTypes: Choice[]
}

export function parseFormValues(raw: unknown): EntityFormValues {
  if (!isRecord(raw) || !isKind(raw.kind)) throw new InvalidPropsError('values need a kind: variable or formula')
  const values: Record<string, unknown> = {}
  for (const field of FIELD_NAMES) {
    const value = raw[field]
    values[field] = field === 'isClosedSet' || field === 'isConstant' || field === 'personal' ? value === true : typeof value === 'string' ? value : ''
  }
  return values as unknown as EntityFormValues
}

export function parseDictionaryEditorProps(raw: unknown): DictionaryEditorProps {
  if (!isRecord(raw)) throw new InvalidPropsError('dictionary-editor needs an object')
  const values = parseFormValues(raw.values)
  const errors: Record<string, string> = {}
  if (isRecord(raw.errors)) for (const [key, value] of Object.entries(raw.errors)) if (typeof value === 'string') errors[key === 'entityTypeId' ? 'kind' : key] = value
  return {
    entityId: typeof raw.entityId === 'number' ? raw.entityId : null,
    values, typed: raw.typed === undefined ? values : parseFormValues(raw.typed), errors, ...parseChoices(raw),
  }
}
