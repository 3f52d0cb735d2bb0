// Domain errors carry a stable code; the HTTP layer maps them to a status.

export class DomainError extends Error {
  /** Extra facts for the client, sent inside the error object (e.g. the dependents of a blocked delete). */
  details?: Record<string, unknown>
  constructor(readonly code: string, message: string, readonly status: number) {
    super(message)
    this.name = new.target.name
  }
}

export interface Dependent { type: string; id: number | string; name: string; uri?: string }

/** SPEC §8: a delete blocked by a dependency answers status 221 "Delete Not Allowed", listing what depends on it. */
export class DeleteNotAllowedError extends DomainError {
  /** `more`: these are the first of the dependents, not all of them. */
  constructor(readonly dependents: Dependent[], what: string, more = false) {
    const these = more ? `these ${dependents.length} and more depend` : dependents.length === 1 ? 'this depends' : `these ${dependents.length} depend`
    super('DELETE_NOT_ALLOWED', `${what} cannot be deleted while ${these} on it.`, 221)
    this.details = more ? { dependents, more } : { dependents }
  }
}

/** One field's problem: the form field or property at fault and what is wrong with it. */
export interface FieldProblem { field: string; message: string }

/**
 * Bad input. `field` names the form field or property at fault; API clients get it as `error.field`, and every
 * field at fault, each with its own message, as `error.fields` (several when checkFields gathered them).
 */
export class ValidationError extends DomainError {
  readonly fields: FieldProblem[]
  constructor(readonly field: string, message: string, fields: FieldProblem[] = [{ field, message }]) {
    super('VALIDATION', message, 400)
    this.fields = fields
    this.details = { field, fields }
  }
}

export class NotFoundError extends DomainError {
  constructor(message = 'Not found') {
    super('NOT_FOUND', message, 404)
  }
}

export class ForbiddenError extends DomainError {
  constructor(message = 'You do not have access to this.') {
    super('FORBIDDEN', message, 403)
  }
}

export class UnauthorizedError extends DomainError {
  constructor(message = 'Please sign in.') {
    super('UNAUTHORIZED', message, 401)
  }
}

/** The input clashes with what exists (a name taken); told at its field like a ValidationError. */
export class ConflictError extends DomainError {
  readonly fields: FieldProblem[]
  constructor(readonly field: string, message: string) {
    super('CONFLICT', message, 409)
    this.fields = [{ field, message }]
    this.details = { field, fields: this.fields }
  }
}

/** The fields an error is about, if it is about input fields at all. */
export function fieldProblemsOf(error: unknown): FieldProblem[] | null {
  return error instanceof ValidationError || error instanceof ConflictError ? error.fields : null
}

/**
 * An outside service this request depended on (an external API, a page being previewed) did not answer usably. The
 * message is written for the user (it never carries internals), so the HTTP layer shows it although the status is 502.
 */
export class UpstreamError extends DomainError {
  constructor(message: string, readonly reason: string) {
    super('UPSTREAM', message, 502)
    this.details = { reason }
  }
}

/** Whether a database error is a unique constraint's refusal (PostgreSQL 23505), as drivers report it or wrap it. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: string; cause?: { code?: string } }).code ?? (err as { cause?: { code?: string } }).cause?.code
  return code === '23505'
}
