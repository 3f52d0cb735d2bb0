import { dateToText } from '../value.ts'
import { accepted, rejected, type CoerceResult } from './result.ts'

/** Text is kept exactly as typed; numbers, yes/no and dates sent by an API become their usual text form. */
export function coerceFreetext(raw: unknown): CoerceResult {
  if (typeof raw === 'string') return accepted(raw)
  if (typeof raw === 'number' && Number.isFinite(raw)) return accepted(String(raw))
  if (typeof raw === 'boolean') return accepted(String(raw))
  if (raw instanceof Date && !Number.isNaN(raw.getTime())) return accepted(dateToText(raw))
  return rejected('INPUT_INVALID_TEXT', 'Enter text (a single answer, not a list).')
}
