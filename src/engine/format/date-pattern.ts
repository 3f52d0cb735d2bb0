import { formatInTimeZone } from 'date-fns-tz'

// Dates are formatted in UTC: a calendar date is stored as UTC midnight (value.ts), so formatting in the
// server's or the browser's zone would show the day before west of Greenwich.
const ZONE = 'UTC'
const QUOTED = /'[^']*'?/g
// date-fns rejects Y and D (week-year, day-of-year) unless asked, and warns on the console first; moment-style
// patterns such as "DD/MM/YYYY" are therefore refused here, quietly.
const REFUSED_TOKENS = /[YD]/
const ANY_TOKEN = /[A-Za-z]/

export function isDatePattern(pattern: string): boolean {
  const unquoted = pattern.replace(QUOTED, '')
  return ANY_TOKEN.test(unquoted) && !REFUSED_TOKENS.test(unquoted)
}

/** Formats with a date-fns pattern; `undefined` when date-fns cannot use the pattern. */
export function formatDateWith(date: Date, pattern: string): string | undefined {
  if (Number.isNaN(date.getTime()) || !isDatePattern(pattern)) return undefined
  try {
    return formatInTimeZone(date, ZONE, pattern)
  } catch {
    return undefined
  }
}
