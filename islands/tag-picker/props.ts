import { InvalidPropsError } from '../shared/invalid-props.ts'
import { isRecord } from '../shared/guards.ts'

export interface TagPickerProps {
  /** The field's id, as the server rendered it (its label points at it). */
  inputId: string
  /** The form field the chosen tag's name is sent in. */
  name: string
  label: string
  /** Tags not to suggest (those already on the set). */
  exclude: number[]
  /** The name typed before a refused submit, kept. */
  value: string
  /** The id of the field's error message, when the server refused the name. */
  errorId: string | null
  /** A name must be given (adding a tag); a filter's field may be left empty (any tag). */
  required: boolean
  placeholder: string
}

export function parseTagPickerProps(raw: unknown): TagPickerProps {
  if (!isRecord(raw) || typeof raw.inputId !== 'string' || typeof raw.name !== 'string') throw new InvalidPropsError('tag-picker needs inputId and name')
  const exclude = Array.isArray(raw.exclude) ? raw.exclude.filter((id): id is number => Number.isInteger(id)) : []
  return {
    inputId: raw.inputId, name: raw.name, label: typeof raw.label === 'string' ? raw.label : 'Tag', exclude,
    value: typeof raw.value === 'string' ? raw.value : '', errorId: typeof raw.errorId === 'string' ? raw.errorId : null,
    required: raw.required !== false, placeholder: typeof raw.placeholder === 'string' ? raw.placeholder : 'Type a tag’s name',
  }
}
