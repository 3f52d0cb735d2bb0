import { accepted, quote, rejected, type CoerceResult } from './result.ts'

// A calendar date is stored as UTC midnight (the engine's convention, see value.ts dateToText). A full ISO
// timestamp (what JSON.stringify makes of a Date) keeps its instant; without a zone it is read as UTC.
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?(Z|[+-]\d{2}:?\d{2})?)?$/i
const HINT = 'Enter a date as year-month-day, like 2024-03-31'
const MONTHS = [
  'January', 'February', 'March', 'April', 'May', 'June',
  'July', 'August', 'September', 'October', 'November', 'December',
]

export function coerceDate(raw: unknown): CoerceResult {
  if (raw instanceof Date) {
    return Number.isNaN(raw.getTime()) ? rejected('INPUT_INVALID_DATE', `${HINT}.`) : accepted(raw)
  }
  if (typeof raw !== 'string') return rejected('INPUT_INVALID_DATE', `${HINT}.`)
  const text = raw.trim()
  const match = ISO_DATE.exec(text)
  if (match === null) return rejected('INPUT_INVALID_DATE', `${HINT} (${quote(text)} is not in that form).`)
  const [, y, mo, d, h = '0', mi = '0', s = '0', ms = '0', zone] = match
  const year = Number(y)
  const month = Number(mo)
  const day = Number(d)
  const impossible = impossibleDate(year, month, day)
  if (impossible !== undefined) return rejected('INPUT_IMPOSSIBLE_DATE', `${text.slice(0, 10)} is not a real date: ${impossible}.`)
  const hours = Number(h)
  const minutes = Number(mi)
  const seconds = Number(s)
  if (hours > 23 || minutes > 59 || seconds > 59) {
    return rejected('INPUT_IMPOSSIBLE_DATE', `${quote(text)} has a time of day that does not exist.`)
  }
  const date = new Date(0)
  date.setUTCFullYear(year, month - 1, day)
  date.setUTCHours(hours, minutes, seconds, Number(ms.padEnd(3, '0')))
  return accepted(new Date(date.getTime() - zoneOffsetMinutes(zone) * 60_000))
}

function impossibleDate(year: number, month: number, day: number): string | undefined {
  if (year === 0) return 'there is no year 0'
  if (month < 1 || month > 12) return 'months go from 01 to 12'
  const days = daysInMonth(year, month)
  if (day < 1 || day > days) return `${MONTHS[month - 1]} ${year} has ${days} days`
  return undefined
}

function daysInMonth(year: number, month: number): number {
  const date = new Date(0)
  date.setUTCFullYear(year, month, 0)
  return date.getUTCDate()
}

function zoneOffsetMinutes(zone: string | undefined): number {
  if (zone === undefined || zone.toUpperCase() === 'Z') return 0
  const digits = zone.replace(':', '')
  const minutes = Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5))
  return digits.startsWith('-') ? -minutes : minutes
}
