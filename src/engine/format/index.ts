import type { DataType } from '../types/data-types.ts'
import type { Value } from '../value.ts'
import { BoundedMemo } from './bounded-memo.ts'
import { formatDateWith } from './date-pattern.ts'
import { formatNumberWith, parseNumberPattern, type NumberPattern } from './number-pattern.ts'

/** What a value shows when its variable has no display format, or one that cannot be used. */
export const DEFAULT_FORMATS = {
  number: '0,0.[00]',
  percent: '0.[0]%',
  date: 'MMM d, yyyy',
  booleanTrue: 'Yes',
  booleanFalse: 'No',
  listSeparator: ', ',
} as const

const PATTERN_LIMIT = 500
// numbro takes a few microseconds per number and date-fns-tz more per date, while the same values are shown
// again and again (every render of a session, every scenario run), so outputs are memoised too.
const OUTPUT_LIMIT = 5000
const numberPatterns = new BoundedMemo<NumberPattern | null>(PATTERN_LIMIT)
// Number outputs are kept per pattern and keyed by the number itself, so a render that finds its output builds no
// key string (a full response formats hundreds of numbers).
const OUTPUT_PATTERN_LIMIT = 50
const numberOutputs = new BoundedMemo<BoundedMemo<string, number>>(OUTPUT_PATTERN_LIMIT)
const dateOutputs = new BoundedMemo<string | null>(OUTPUT_LIMIT)

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

function numberPattern(pattern: string): NumberPattern | null {
  let parsed = numberPatterns.find(pattern)
  if (parsed === undefined) numberPatterns.remember(pattern, (parsed = parseNumberPattern(pattern) ?? null))
  return parsed
}

function formatNumber(value: number, type: DataType, displayFormat: string | undefined): string {
  const usable = displayFormat !== undefined && numberPattern(displayFormat) !== null
  const pattern = usable ? displayFormat : type === 'percent' ? DEFAULT_FORMATS.percent : DEFAULT_FORMATS.number
  let outputs = numberOutputs.find(pattern)
  if (outputs === undefined) numberOutputs.remember(pattern, (outputs = new BoundedMemo<string, number>(OUTPUT_LIMIT)))
  let formatted = outputs.find(value)
  if (formatted === undefined) outputs.remember(value, (formatted = formatNumberWith(value, numberPattern(pattern)!)))
  return formatted
}

function formatDate(value: Date, displayFormat: string | undefined): string {
  const time = value.getTime()
  if (Number.isNaN(time)) return ''
  if (displayFormat !== undefined) {
    const formatted = dateOutputs.get(`${displayFormat}\u0000${time}`, () => formatDateWith(value, displayFormat) ?? null)
    if (formatted !== null) return formatted
  }
  return dateOutputs.get(`${DEFAULT_FORMATS.date}\u0000${time}`, () => formatDateWith(value, DEFAULT_FORMATS.date) ?? '')!
}
export { formatDateTime } from './date-time.ts'
