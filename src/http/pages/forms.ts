// Re-rendering a form after bad input: the field's message beside it, the typed values kept (never passwords).
import type { FastifyReply } from 'fastify'
import { DomainError, fieldProblemsOf, type FieldProblem } from '../../services/errors.ts'

const SECRET_FIELDS = new Set(['password', 'confirm', 'current', '_csrf'])

export function keptValues(body: unknown): Record<string, unknown> {
  const values: Record<string, unknown> = {}
  if (body && typeof body === 'object') {
    for (const [key, value] of Object.entries(body)) if (!SECRET_FIELDS.has(key)) values[key] = value
  }
  return values
}

/**
 * A form's Find button beside its advice-set list (views/partials/_set-finder.eta): the text to look for, or null
 * when the form was sent to be saved. The form then comes back with what was typed, and nothing is saved.
 */
export function findSetsIn(body: Record<string, unknown>): string | null {
  if (body.findSets === undefined) return null
  return typeof body.setFilter === 'string' ? body.setFilter : ''
}

/**
 * Renders `template` with each field's message at its field when the error is about input fields; anything else is
 * rethrown to the error handler. The view's fields mark themselves invalid (views/partials/_field.eta), and the
 * first of them takes the focus, so the person lands on what to correct rather than at the Save button.
 */
export async function renderFormError(reply: FastifyReply, error: unknown, template: string, data: Record<string, unknown>) {
  const problems = fieldProblemsOf(error)
  if (!problems || !(error instanceof DomainError)) throw error
  reply.code(error.status)
  return reply.page(template, { ...data, ...formErrors(problems) })
}

/** A view's `errors` (message by field) and the line above the form that says how many fields need correcting. */
export function formErrors(problems: FieldProblem[]): { errors: Record<string, string>; formError: string } {
  const errors: Record<string, string> = {}
  // Two problems with one field are both told there.
  for (const { field, message } of problems) errors[field] = errors[field] ? `${errors[field]} ${message}` : message
  const count = Object.keys(errors).length
  return { errors, formError: count === 1 ? 'Please correct the field marked below.' : `Please correct the ${count} fields marked below.` }
}
