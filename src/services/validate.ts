// Small input checks shared by services; each names the field it refuses.
import { ValidationError } from './errors.ts'

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export function requireText(field: string, raw: unknown, label: string, maxLength: number): string {
  const value = typeof raw === 'string' ? raw.trim() : ''
  if (!value) throw new ValidationError(field, `${label} is required.`)
  if (value.length > maxLength) throw new ValidationError(field, `${label} must be at most ${maxLength} characters.`)
  return value
}

export function optionalText(field: string, raw: unknown, label: string, maxLength: number): string {
  if (raw === undefined || raw === null) return ''
  if (typeof raw !== 'string') throw new ValidationError(field, `${label} must be text.`)
  const value = raw.trim()
  if (value.length > maxLength) throw new ValidationError(field, `${label} must be at most ${maxLength} characters.`)
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
