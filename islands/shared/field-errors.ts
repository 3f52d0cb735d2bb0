// Server refusals of a form's input, shown where they belong: each message at its field, and the focus on the first
// field in error once the form has rendered them (a person should land on what to correct, not stay at Save).
import { useEffect } from 'react'
import type { RefObject } from 'react'
import { ApiError } from './api.ts'

export type FieldErrors = Record<string, string>

export interface Refusal {
  /** Messages by the form's field names. */
  errors: FieldErrors
  /** The line above the form: how many fields to correct, or a message no field of the form can show. */
  formError: string | null
}

/**
 * A failed save as the form shows it. `fieldOf` maps the server's name of a field to the form's, or to null when the
 * form has no such field (its message then goes above the form). Two problems with one field are told there together.
 */
export function refusalOf(error: unknown, fieldOf: (field: string) => string | null = (field) => field): Refusal {
  const message = error instanceof Error ? error.message : String(error)
  const errors: FieldErrors = {}
  const unplaced: string[] = []
  for (const problem of error instanceof ApiError ? error.fields : []) {
    const field = fieldOf(problem.field)
    if (field === null) unplaced.push(problem.message)
    else errors[field] = errors[field] ? `${errors[field]} ${problem.message}` : problem.message
  }
  const count = Object.keys(errors).length
  if (unplaced.length) return { errors, formError: unplaced.join(' ') }
  if (count === 0) return { errors, formError: message }
  return { errors, formError: count === 1 ? 'Please correct the field marked below.' : `Please correct the ${count} fields marked below.` }
}

/** A control marked invalid, or one inside a field (or table row) marked invalid. */
const INVALID_CONTROL = '[aria-invalid="true"], .field-invalid :is(input, select, textarea)'

/** Moves the focus to the first control in error in `form` each time a new set of errors is shown. */
export function useFocusFirstInvalid(form: RefObject<HTMLElement | null>, errors: FieldErrors): void {
  useEffect(() => {
    if (Object.keys(errors).length === 0) return
    form.current?.querySelector<HTMLElement>(INVALID_CONTROL)?.focus()
  }, [form, errors])
}
