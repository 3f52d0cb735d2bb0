import type { NumbroFormat } from './numbro.ts'
import type { DataType } from '../types/data-types.ts'
import type { Value } from '../value.ts'
import { formatDateWith } from './date-pattern.ts'
import { formatNumberWith, parseNumberPattern } from './number-pattern.ts'

/** What a value shows when its variable has no display format, or one that cannot be used. */
export const DEFAULT_FORMATS = {
  number: '0,0.[00]',
  percent: '0.[0]%',
  date: 'MMM d, yyyy',
  booleanTrue: 'Yes',
  booleanFalse: 'No',
  listSeparator: ', ',
} as const

const PATTERN_CACHE_LIMIT = 500
const numberPatterns = new Map<string, NumbroFormat | undefined>()

function numberPattern(pattern: string): NumbroFormat | undefined {
  if (numberPatterns.has(pattern)) return numberPatterns.get(pattern)
  // Patterns come from authors, so the cache is bounded rather than trusted to stay small.
  if (numberPatterns.size >= PATTERN_CACHE_LIMIT) numberPatterns.clear()
  const parsed = parseNumberPattern(pattern)
  numberPatterns.set(pattern, parsed)
  return parsed
}

const defaultNumber = numberPattern(DEFAULT_FORMATS.number)
const defaultPercent = numberPattern(DEFAULT_FORMATS.percent)

/**
 * The `valueFormatted` of a value: numbers with a numeral-style pattern (`$0,0.00`, `0.0%`, `0o`, `0.0a`), dates
 * with a date-fns pattern (`dd/MM/yyyy`), booleans as Yes/No, lists joined with ", ", text as it is. The value's
 * own kind decides how it is shown; the data type only picks the default (percent or plain number). Never throws:
 * a pattern that does not fit the value falls back to the default, and no value shows as ''.
 */
export function formatValue(value: Value, type: DataType, displayFormat?: string): string {
  if (value === null) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'boolean') return value ? DEFAULT_FORMATS.booleanTrue : DEFAULT_FORMATS.booleanFalse
  if (typeof value === 'number') return formatNumber(value, type, displayFormat)
  if (value instanceof Date) return formatDate(value, displayFormat)
  return value
    .map((item) => formatValue(item, type === 'percent' ? 'percent' : 'number', displayFormat))
    .join(DEFAULT_FORMATS.listSeparator)
}

function formatNumber(value: number, type: DataType, displayFormat: string | undefined): string {
  const chosen = displayFormat === undefined ? undefined : numberPattern(displayFormat)
  const fallback = type === 'percent' ? defaultPercent : defaultNumber
  const format = chosen ?? fallback
  return format === undefined ? String(value) : formatNumberWith(value, format)
}

function formatDate(value: Date, displayFormat: string | undefined): string {
  if (displayFormat !== undefined) {
    const formatted = formatDateWith(value, displayFormat)
    if (formatted !== undefined) return formatted
  }
  return formatDateWith(value, DEFAULT_FORMATS.date) ?? ''
}
