// Numbers as people type them: "1,234.5", "$1,234", "-€5", "3.5e6". Parsed by hand (not parseFloat, which reads
// "12abc" as 12) so that a typo is rejected with the part that is wrong named.
import { quote } from './result.ts'

const CURRENCY = '[$€£¥]'
const NUMBER_TEXT = new RegExp(
  `^([+-])?\\s*(${CURRENCY})?\\s*([+-])?(\\d{1,3}(?:,\\d{3})+|\\d+)?(?:\\.(\\d*))?(?:e([+-]?\\d+))?\\s*(${CURRENCY})?$`,
  'i',
)
const NOT_PART_OF_A_NUMBER = /[^\d\s,.+\-$€£¥]+/g
/** The common case, digits with an optional sign and decimals: Number() reads it exactly as the full parse would. */
const PLAIN_DECIMAL = /^-?\d{1,15}(?:\.\d{1,15})?$/

export type NumberText = { ok: true; value: number } | { ok: false; problem: string }

/**
 * Reads a decimal number from text. `scale` shifts the decimal point (−2 turns "4.2" into 0.042) on the digits
 * themselves, so the result is the nearest double to the decimal the user meant, not 4.2 / 100's rounding.
 */
export function parseNumberText(text: string, scale = 0): NumberText {
  if (scale === 0 && PLAIN_DECIMAL.test(text)) return { ok: true, value: Number(text) }
  const trimmed = text.trim()
  const match = NUMBER_TEXT.exec(trimmed)
  if (match !== null) {
    const [, signBefore, currencyBefore, signAfter, whole, fraction, exponent, currencyAfter] = match
    const hasDigits = whole !== undefined || (fraction ?? '') !== ''
    const oneSign = signBefore === undefined || signAfter === undefined
    const oneCurrency = currencyBefore === undefined || currencyAfter === undefined
    if (hasDigits && oneSign && oneCurrency) {
      const sign = signBefore ?? signAfter ?? ''
      const digits = `${(whole ?? '0').replaceAll(',', '')}.${fraction || '0'}`
      const value = Number(`${sign}${digits}e${Number(exponent ?? '0') + scale}`)
      if (Number.isFinite(value)) return { ok: true, value }
      return { ok: false, problem: 'too large' }
    }
  }
  return { ok: false, problem: describeProblem(trimmed) }
}

function describeProblem(text: string): string {
  // A lone "e" may be a broken exponent ("1e"), not a stray letter.
  const strangers = (text.match(NOT_PART_OF_A_NUMBER) ?? []).filter((part) => part.toLowerCase() !== 'e')
  if (strangers.length > 0) return `${quote(strangers.join(''))} is not part of a number`
  if (text.includes(',')) return 'commas only go between groups of three digits, as in 1,234'
  return `${quote(text)} is not a number`
}

/** A JSON number read back through the same path, so scaling stays exact (4.2 -> "4.2" -> 0.042). */
export function scaleNumber(value: number, scale: number): number {
  if (scale === 0) return value
  const parsed = parseNumberText(String(value), scale)
  return parsed.ok ? parsed.value : Number.NaN
}
