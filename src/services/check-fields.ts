// Checking a form's fields all at once: a person who sent several bad fields hears of every one in one answer,
// instead of fixing one, sending again and only then hearing of the next.
import { ConflictError, ValidationError } from './errors.ts'

type Checks<T> = { [K in keyof T]: () => T[K] | Promise<T[K]> }

/**
 * Runs the named checks in order (a check may read the database) and returns the checked values by name. Checks that
 * refuse their input with a ValidationError or ConflictError are collected: one refusal is thrown as it is, several
 * as one ValidationError listing each field. Any other error stops at once.
 */
async function runChecks<T>(names: Array<keyof T>, checks: Checks<T>): Promise<Partial<T>> {
  const values: Partial<T> = {}
  const refusals: Array<ValidationError | ConflictError> = []
  for (const name of names) {
    try {
      values[name] = await checks[name]()
    } catch (error) {
      if (!(error instanceof ValidationError || error instanceof ConflictError)) throw error
      refusals.push(error)
    }
  }
  const [first, ...others] = refusals
  if (!first) return values
  if (others.length === 0) throw first
  // The first field leads (`field`), and `message` tells every problem for clients that read only the message.
  const problems = refusals.flatMap((refusal) => refusal.fields)
  throw new ValidationError(first.field, problems.map((problem) => problem.message).join(' '), problems)
}

function namesOf<T extends object>(checks: Checks<T>): Array<keyof T> {
  return Object.keys(checks) as Array<keyof T>
}

/** Every field checked; all that are wrong are told together. */
export async function checkFields<T extends object>(checks: Checks<T>): Promise<T> {
  // Every check ran without refusal, so every value is there.
  return runChecks(namesOf(checks), checks) as Promise<T>
}

/** A change: only the fields that were sent are checked (and returned); all that are wrong are told together. */
export async function checkSentFields<T extends object>(sent: { [K in keyof T]?: unknown }, checks: Checks<T>): Promise<Partial<T>> {
  return runChecks(namesOf(checks).filter((name) => sent[name] !== undefined), checks)
}
