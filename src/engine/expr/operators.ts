import { EngineError, type SourceSpan } from '../errors.ts'
import { describeType, valueToText, type Value } from '../value.ts'
import { addDays, daysBetween } from './dates.ts'
import { ExprErrorCode } from './error-codes.ts'

/*
 * Runtime meaning of the operators. The compiled closures handle the common number case inline and call these for
 * everything else, so the rules live in one place:
 *
 * - `+` joins text when either side is text (no value joins as ''); otherwise numbers add, and a date plus a number
 *   of days is a date. `-` subtracts numbers, a number of days from a date, or two dates (giving whole days).
 *   `* / ^` take numbers only. With no value on either side (and no text) the result is no value.
 * - Any other pairing is TYPE_MISMATCH; dividing by zero is DIVISION_BY_ZERO; a result that is not a finite number
 *   (overflow, or a root of a negative number) is NUMBER_OUT_OF_RANGE.
 * - `< > <= >=` order two numbers, two texts (by character code) or two dates; with no value on either side the
 *   comparison is false; other pairings are TYPE_MISMATCH.
 * - `== !=` never fail: values of different kinds are simply not equal; no value equals only no value.
 * - `&& || !` and if() take true/false; no value counts as false; anything else is TYPE_MISMATCH.
 */

const OPERATOR_WORDS: Record<string, string> = {
  '+': '+ (add)',
  '-': '- (subtract)',
  '*': '* (multiply)',
  '/': '/ (divide)',
  '^': '^ (power)',
  '<': '< (less than)',
  '>': '> (greater than)',
  '<=': '<= (at most)',
  '>=': '>= (at least)',
  '&&': '&& (and)',
  '||': '|| (or)',
  '!': '! (not)',
}

export function typeMismatch(op: string, a: Value, b: Value, span: SourceSpan): never {
  throw new EngineError(
    ExprErrorCode.TypeMismatch,
    `Cannot use ${OPERATOR_WORDS[op] ?? op} with ${describeType(a)} and ${describeType(b)}.`,
    { span },
  )
}

function unaryMismatch(op: string, a: Value, expected: string, span: SourceSpan): never {
  throw new EngineError(ExprErrorCode.TypeMismatch, `${OPERATOR_WORDS[op] ?? op} needs ${expected}, but got ${describeType(a)}.`, {
    span,
  })
}

export function finite(result: number, op: string, span: SourceSpan): number {
  if (Number.isFinite(result)) return result
  throw new EngineError(
    ExprErrorCode.NumberOutOfRange,
    `The result of ${OPERATOR_WORDS[op] ?? op} is too large or not a real number.`,
    { span },
  )
}

export function add(a: Value, b: Value, span: SourceSpan): Value {
  if (typeof a === 'string' || typeof b === 'string') return valueToText(a) + valueToText(b)
  if (a === null || b === null) return null
  if (typeof a === 'number') {
    if (typeof b === 'number') return finite(a + b, '+', span)
    if (b instanceof Date) return addDays(b, a, span)
  }
  if (a instanceof Date && typeof b === 'number') return addDays(a, b, span)
  return typeMismatch('+', a, b, span)
}

export function subtract(a: Value, b: Value, span: SourceSpan): Value {
  if (a === null || b === null) return null
  if (typeof a === 'number' && typeof b === 'number') return finite(a - b, '-', span)
  if (a instanceof Date) {
    if (typeof b === 'number') return addDays(a, -b, span)
    if (b instanceof Date) return daysBetween(b, a)
  }
  return typeMismatch('-', a, b, span)
}

export function arithmetic(op: '*' | '/' | '^', a: Value, b: Value, span: SourceSpan): Value {
  if (a === null || b === null) return null
  if (typeof a !== 'number' || typeof b !== 'number') return typeMismatch(op, a, b, span)
  if (op === '*') return finite(a * b, op, span)
  if (op === '^') return finite(a ** b, op, span)
  if (b === 0) throw new EngineError(ExprErrorCode.DivisionByZero, 'Cannot divide by zero.', { span })
  return finite(a / b, op, span)
}

export function negate(a: Value, span: SourceSpan): Value {
  if (a === null) return null
  if (typeof a === 'number') return -a
  return unaryMismatch('-', a, 'a number', span)
}

/** The true/false meaning of a value in && || ! and if(); no value is false. */
export function truth(a: Value, op: string, span: SourceSpan): boolean {
  if (a === true) return true
  if (a === false || a === null) return false
  return unaryMismatch(op, a, 'true/false', span)
}

export function compareOrdered(op: '<' | '>' | '<=' | '>=', a: Value, b: Value, span: SourceSpan): boolean {
  if (a === null || b === null) return false
  let x: number | string
  let y: number | string
  if (typeof a === 'number' && typeof b === 'number') {
    x = a
    y = b
  } else if (typeof a === 'string' && typeof b === 'string') {
    x = a
    y = b
  } else if (a instanceof Date && b instanceof Date) {
    x = a.getTime()
    y = b.getTime()
  } else {
    return typeMismatch(op, a, b, span)
  }
  switch (op) {
    case '<':
      return x < y
    case '>':
      return x > y
    case '<=':
      return x <= y
    default:
      return x >= y
  }
}
