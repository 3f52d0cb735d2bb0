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

function daysInMonth(year: number, monthIndex: number): number {
  const last = new Date(0)
  // Day 0 of the next month is the last day of this one; setUTCFullYear keeps years 0-99 as written.
  last.setUTCFullYear(year, monthIndex + 1, 0)
  return last.getUTCDate()
}

/**
 * The same day `months` calendar months later (earlier when negative), at the same time of day. A day the target
 * month does not have becomes its last day: Jan 31 + 1 month is Feb 28 (Feb 29 in a leap year), and Feb 29 + 12
 * months is Feb 28 of a non-leap year.
 */
export function addMonths(date: Date, months: number, span: SourceSpan): Date {
  const total = date.getUTCMonth() + months
  const year = date.getUTCFullYear() + Math.floor(total / 12)
  const month = ((total % 12) + 12) % 12
  const moved = new Date(date.getTime())
  moved.setUTCFullYear(year, month, Math.min(date.getUTCDate(), daysInMonth(year, month)))
  if (Number.isNaN(moved.getTime())) {
    throw new EngineError(ExprErrorCode.InvalidDate, `Moving a date by ${months} months goes beyond the calendar.`, { span })
  }
  return moved
}

/**
 * Whole calendar months completed from `from` to `to`, counted between calendar days: the most months n with
 * addMonths(from, n) on or before `to` (so Jan 31 to Feb 28 is one month, as Jan 31 + 1 month is Feb 28). When `to`
 * is earlier the count is the same with a minus sign.
 */
export function monthsBetween(from: Date, to: Date): number {
  const a = startOfUtcDay(from)
  const b = startOfUtcDay(to)
  // `|| 0`: less than a month back is 0, not -0.
  if (b.getTime() < a.getTime()) return -monthsBetween(b, a) || 0
  let months = (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + (b.getUTCMonth() - a.getUTCMonth())
  // The target month is b's; a day of the month past b's (after clamping) has not completed that month yet.
  if (Math.min(a.getUTCDate(), daysInMonth(b.getUTCFullYear(), b.getUTCMonth())) > b.getUTCDate()) months--
  return months
}

/** Whole years completed from `from` to `to`: whole months ÷ 12, rounded toward zero (negative when `to` is earlier). */
export function yearsBetween(from: Date, to: Date): number {
  const months = monthsBetween(from, to)
  return months < 0 ? -Math.floor(-months / 12) || 0 : Math.floor(months / 12)
}
