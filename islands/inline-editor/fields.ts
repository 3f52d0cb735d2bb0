// Change detection and validation of inline-editor fields (SPEC.md §4, §5), free of React.

export type EditorType = 'input' | 'textarea'

export interface FieldState {
  name: string
  label: string
  editor: EditorType
  value: string
  /** The value the page was rendered with, or the last value saved. */
  original: string
  /** A value stored automatically (a draft), when there is one. */
  autosave?: string
  required?: boolean
  maxLength?: number
}

// Browsers hand back textarea text with their own line breaks (\n) whatever the server sent (\r\n), so line
// breaks alone never count as a change.
export function comparable(value: string, editor: EditorType): string {
  return editor === 'textarea' ? value.replace(/\r\n|\r|\n/g, '') : value
}

/** Changed: differs from the original value and from the autosave value, if there is one. */
export function isFieldChanged(field: FieldState): boolean {
  const value = comparable(field.value, field.editor)
  if (value === comparable(field.original, field.editor)) return false
  return field.autosave === undefined || value !== comparable(field.autosave, field.editor)
}

export function fieldError(field: FieldState): string | null {
  if (field.required && field.value.trim() === '') return `${field.label} is required.`
  if (field.maxLength !== undefined && field.value.length > field.maxLength) {
    return `${field.label} must be at most ${field.maxLength} characters.`
  }
  return null
}

/** A form is valid only when none of its fields is invalid. */
export function isFormValid(fields: readonly FieldState[]): boolean {
  return fields.every((field) => fieldError(field) === null)
}

/** What a save sends: the changed fields by name. */
export function changedValues(fields: readonly FieldState[]): Record<string, string> {
  return Object.fromEntries(fields.filter(isFieldChanged).map((field) => [field.name, field.value]))
}

/** Enter saves; in a textarea Shift+Enter is a new line. Escape cancels the edit. */
export function editorKeyAction(key: string, shiftKey: boolean, editor: EditorType): 'save' | 'cancel' | null {
  if (key === 'Escape') return 'cancel'
  if (key === 'Enter' && !(editor === 'textarea' && shiftKey)) return 'save'
  return null
}
