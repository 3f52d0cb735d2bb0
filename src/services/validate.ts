// Small input checks shared by services; each names the field it refuses.
import { ValidationError } from './errors.ts'

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
