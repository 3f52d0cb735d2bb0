import { accepted, quote, rejected, type CoerceResult } from './result.ts'

const TRUE_WORDS = new Set(['true', 'yes', 'y', '1', 'on'])
const FALSE_WORDS = new Set(['false', 'no', 'n', '0', 'off'])
const HINT = 'Answer yes or no (true/false, 1/0 and on/off work too)'

export function coerceBoolean(raw: unknown): CoerceResult {
  if (typeof raw === 'boolean') return accepted(raw)
  if (raw === 1 || raw === 0) return accepted(raw === 1)
  if (typeof raw !== 'string' && typeof raw !== 'number') return rejected('INPUT_INVALID_BOOLEAN', `${HINT}.`)
  const word = String(raw).trim().toLowerCase()
  if (TRUE_WORDS.has(word)) return accepted(true)
  if (FALSE_WORDS.has(word)) return accepted(false)
  return rejected('INPUT_INVALID_BOOLEAN', `${HINT}; ${quote(String(raw).trim())} is neither.`)
}
