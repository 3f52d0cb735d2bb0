import { numbro, type NumbroFormat } from './numbro.ts'

// Numeral-style display patterns, read by our own strict grammar and handed to numbro as an options object.
// numbro's own string parser is lenient in ways that hurt here: "garbage" formats as "5B" instead of failing, and
// "0,0" keeps every decimal where numeral rounds to a whole number. Grammar, in order:
//   "(" for negatives in parentheses, "+" to always show the sign, a currency sign before,
//   "0" or "0,0" (thousands grouped), decimals ".00" (fixed), ".[00]" (up to, trailing zeros dropped) or
//   "[.]00" (only when not whole), then one of "%" (percent of the fraction), "a" (1.2k), "o" (1st),
//   a currency sign after, ")" closing the parenthesis. A space before a sign or suffix is kept in the output.
const PATTERN = /^(\()?(\+)?(?:([$€£¥])( )?)?0(,0)?(?:\.(0+)|\.\[(0+)\]|\[\.\](0+))?(?:( )?([%ao]))?(?:( )?([$€£¥]))?(\))?$/

/** numbro options plus the one thing we do ourselves: accountants' parentheses around negatives. */
export interface NumberPattern {
  options: NumbroFormat
  parentheses: boolean
}

export function parseNumberPattern(pattern: string): NumberPattern | undefined {
  const match = PATTERN.exec(pattern.trim())
  if (match === null) return undefined
  const [, open, plus, symbolBefore, spaceBefore, grouped, fixed, upTo, whenFraction, suffixSpace, suffix, spaceAfter, symbolAfter, close] = match
  if ((open === undefined) !== (close === undefined)) return undefined
  if (symbolBefore !== undefined && symbolAfter !== undefined) return undefined
  const symbol = symbolBefore ?? symbolAfter
  if (symbol !== undefined && suffix === '%') return undefined
  const decimals = fixed ?? upTo ?? whenFraction ?? ''
  const options: NumbroFormat = {
    output: outputKind(symbol, suffix),
    thousandSeparated: grouped !== undefined,
    mantissa: decimals.length,
    trimMantissa: upTo !== undefined,
    optionalMantissa: whenFraction !== undefined,
    average: suffix === 'a',
    spaceSeparated: (spaceBefore ?? suffixSpace ?? spaceAfter) !== undefined,
    negative: 'sign',
    forceSign: plus !== undefined,
    ...(symbol === undefined ? {} : { currencySymbol: symbol, currencyPosition: symbolBefore === undefined ? 'postfix' : 'prefix' }),
  }
  return { options, parentheses: open !== undefined }
}

// Doubles this large print in exponent form, which numbro mangles ("1e,+21").
const LARGEST_PLAIN = 1e21

export function formatNumberWith(value: number, pattern: NumberPattern): string {
  if (Number.isNaN(value)) return ''
  if (!(Math.abs(value) < LARGEST_PLAIN)) return String(value)
  // numbro picks the ordinal suffix from the unrounded value (1.5 -> "2th"); round first, as the digits are.
  const signed = numbro(pattern.options.output === 'ordinal' ? Math.round(value) : value).format(pattern.options)
  // numbro would put parentheses inside the currency sign ("$(5)"); accountants write "($5)".
  return pattern.parentheses && signed.includes('-') ? `(${signed.replace('-', '')})` : signed
}

function outputKind(symbol: string | undefined, suffix: string | undefined): NumbroFormat['output'] {
  if (symbol !== undefined) return 'currency'
  if (suffix === '%') return 'percent'
  return suffix === 'o' ? 'ordinal' : 'number'
}
