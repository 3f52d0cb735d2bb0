import { EngineError, type SourceSpan } from '../errors.ts'
import { ExprErrorCode } from './error-codes.ts'

const MS_PER_DAY = 86_400_000
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?Z)?$/

/**
 * Reads `YYYY-MM-DD` (a calendar date, kept as UTC midnight) or `YYYY-MM-DDTHH:MM[:SS[.sss]]Z`; returns undefined
 * when the text is neither or names a moment that does not exist (2024-02-30, 25:00).
 */
export function parseIsoDate(text: string): Date | undefined {
  const m = ISO_DATE.exec(text)
  if (!m) return undefined
  const year = Number(m[1])
  const month = Number(m[2]) - 1
  const day = Number(m[3])
  const hour = Number(m[4] ?? 0)
  const minute = Number(m[5] ?? 0)
  const second = Number(m[6] ?? 0)
  const ms = Number((m[7] ?? '').padEnd(3, '0'))
  const date = new Date(Date.UTC(2000, month, day, hour, minute, second, ms))
  // Date.UTC maps years 0-99 to 1900-1999; setting the year afterwards keeps the year as written.
  date.setUTCFullYear(year, month, day)
  const exists =
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second
  return exists ? date : undefined
}

export function requireIsoDate(text: string, span: SourceSpan, code: string): Date {
  const date = parseIsoDate(text)
  if (date === undefined) {
    throw new EngineError(code, `"${text}" is not a date; write dates as YYYY-MM-DD, for example 2024-05-01.`, { span })
  }
  return date
}

/** The calendar day (UTC midnight) of a moment. */
export function startOfUtcDay(date: Date): Date {
  return new Date(Math.floor(date.getTime() / MS_PER_DAY) * MS_PER_DAY)
}

/** Whole days from `from` to `to` (negative when `to` is earlier), counted between calendar days. */
export function daysBetween(from: Date, to: Date): number {
  return Math.round((startOfUtcDay(to).getTime() - startOfUtcDay(from).getTime()) / MS_PER_DAY)
}

export function addDays(date: Date, days: number, span: SourceSpan): Date {
  const moved = new Date(date.getTime() + days * MS_PER_DAY)
  if (Number.isNaN(moved.getTime())) {
    throw new EngineError(ExprErrorCode.InvalidDate, `Moving a date by ${days} days goes beyond the calendar.`, { span })
  }
  return moved
}
