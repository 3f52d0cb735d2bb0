import { parseNumberText, scaleNumber } from './number-text.ts'
import { accepted, rejected, type CoerceResult } from './result.ts'

const NUMBER_HINT = 'Enter a number, like 42 or 3.5'
const PERCENT_HINT = 'Enter a percentage as a number, like 4.2 for 4.2%'
const TRAILING_PERCENT_SIGN = /\s*%$/

export function coerceNumber(raw: unknown): CoerceResult {
  return coerceScaled(raw, 0, 'INPUT_INVALID_NUMBER', NUMBER_HINT)
}

/** Percent answers arrive as typed (4.2, "4.2" or "4.2%") and are stored as the fraction 0.042. */
export function coercePercent(raw: unknown): CoerceResult {
  const text = typeof raw === 'string' ? withoutPercentSign(raw) : raw
  return coerceScaled(text, -2, 'INPUT_INVALID_PERCENT', PERCENT_HINT)
}

function withoutPercentSign(text: string): string {
  return text.trim().replace(TRAILING_PERCENT_SIGN, '')
}

/**
 * A number answer typed into a form, as an API caller would send it: "60,000" and "$60,000" give 60000, a percent
 * stays in percent ("4.2%" gives 4.2, which coercePercent reads as 0.042). Undefined when the text is no number, so
 * the form keeps the text and the answer's check names what is wrong. The embed's answers take the same path.
 */
export function typedNumber(text: string, type: 'number' | 'percent'): number | undefined {
  const parsed = parseNumberText(type === 'percent' ? withoutPercentSign(text) : text)
  return parsed.ok ? parsed.value : undefined
}

function coerceScaled(raw: unknown, scale: number, code: string, hint: string): CoerceResult {
  if (typeof raw === 'number') {
    return Number.isFinite(raw) ? accepted(scaleNumber(raw, scale)) : rejected(code, `${hint}.`)
  }
  if (typeof raw !== 'string') return rejected(code, `${hint}.`)
  const parsed = parseNumberText(raw, scale)
  if (parsed.ok) return accepted(parsed.value)
  if (parsed.problem === 'too large') return rejected(code, 'That number is too large.')
  return rejected(code, `${hint} (${parsed.problem}).`)
}
