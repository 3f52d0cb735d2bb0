// Domain errors carry a stable code; the HTTP layer maps them to a status.

export class DomainError extends Error {
  constructor(readonly code: string, message: string, readonly status: number) {
    super(message)
    this.name = new.target.name
  }
}

/** Bad input. `field` names the form field or property at fault. */
export class ValidationError extends DomainError {
  constructor(readonly field: string, message: string) {
    super('VALIDATION', message, 400)
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

export class ConflictError extends DomainError {
  constructor(readonly field: string, message: string) {
    super('CONFLICT', message, 409)
  }
}
