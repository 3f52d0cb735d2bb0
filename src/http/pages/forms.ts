// Re-rendering a form after bad input: the field's message beside it, the typed values kept (never passwords).
import type { FastifyReply } from 'fastify'
import { ConflictError, ValidationError } from '../../services/errors.ts'

const SECRET_FIELDS = new Set(['password', 'confirm', 'current', '_csrf'])

export function keptValues(body: unknown): Record<string, unknown> {
  const values: Record<string, unknown> = {}
  if (body && typeof body === 'object') {
    for (const [key, value] of Object.entries(body)) if (!SECRET_FIELDS.has(key)) values[key] = value
  }
  return values
}

/** Renders `template` with the error when it is a field error; anything else is rethrown to the error handler. */
export async function renderFormError(reply: FastifyReply, error: unknown, template: string, data: Record<string, unknown>) {
  if (error instanceof ValidationError || error instanceof ConflictError) {
    reply.code(error.status)
    return reply.page(template, { ...data, errors: { [error.field]: error.message }, formError: 'Please correct the field marked below.' })
  }
  throw error
}
