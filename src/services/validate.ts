// Small input checks shared by services; each names the field it refuses.
import { ConflictError, ValidationError } from './errors.ts'

/**
 * Deeper than any JSON the app reads (scenario inputs and pinned answers are a few levels); keeps every walk short.
 * Request bodies (http/plugins/input-guard.ts) and uploaded advice-set files (library/portable-json.ts) are refused
 * past it.
 */
export const MAX_JSON_DEPTH = 64

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/**
 * What a text may hold besides printable characters. `line` (the default: names, titles, labels): one line, no control
 * character U+0000–U+001F, which would break lists, headers, exports and logs. `multiline` (descriptions, advice text,
 * comments, notes): tabs and line breaks (CR LF as browsers send them), no other control character. `secret`
 * (passwords): compared, never shown, so any character.
 */
export type TextKind = 'line' | 'multiline' | 'secret'

const NOT_IN_LINE = /[\u0000-\u001f]/
const NOT_IN_MULTILINE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/

function assertKind(field: string, value: string, label: string, kind: TextKind): void {
  if (kind === 'line' && NOT_IN_LINE.test(value)) {
    throw new ValidationError(field, `${label} must be one line without control characters (tabs, line breaks, U+0000–U+001F).`)
  }
  if (kind === 'multiline' && NOT_IN_MULTILINE.test(value)) {
    throw new ValidationError(field, `${label} must not contain control characters other than tabs and line breaks (U+0000–U+001F).`)
  }
}

export function requireText(field: string, raw: unknown, label: string, maxLength: number, kind: TextKind = 'line'): string {
  const value = typeof raw === 'string' ? raw.trim() : ''
  if (!value) throw new ValidationError(field, `${label} is required.`)
  if (value.length > maxLength) throw new ValidationError(field, `${label} must be at most ${maxLength} characters.`)
  assertKind(field, value, label, kind)
  return value
}

export function optionalText(field: string, raw: unknown, label: string, maxLength: number, kind: TextKind = 'line'): string {
  if (raw === undefined || raw === null) return ''
  if (typeof raw !== 'string') throw new ValidationError(field, `${label} must be text.`)
  const value = raw.trim()
  if (value.length > maxLength) throw new ValidationError(field, `${label} must be at most ${maxLength} characters.`)
  assertKind(field, value, label, kind)
  return value
}

export function requireEmail(field: string, raw: unknown): string {
  const value = typeof raw === 'string' ? raw.trim().toLowerCase() : ''
  if (!value) throw new ValidationError(field, 'E-mail address is required.')
  if (value.length > 254 || !EMAIL.test(value)) throw new ValidationError(field, 'E-mail address is not valid.')
  return value
}

export function requireOneOf<T extends string>(field: string, raw: unknown, allowed: readonly T[], label: string): T {
  if (typeof raw === 'string' && (allowed as readonly string[]).includes(raw)) return raw as T
  throw new ValidationError(field, `${label} must be one of: ${allowed.join(', ')}.`)
}

// Checking a form's fields all at once: a person who sent several bad fields hears of every one in one answer,
// instead of fixing one, sending again and only then hearing of the next.

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
