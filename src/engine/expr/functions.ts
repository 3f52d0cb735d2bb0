import { EngineError, type SourceSpan } from '../errors.ts'
import { describeType, isBlank, valueToText, type Value } from '../value.ts'
import { addDays, addMonths, daysBetween, monthsBetween, parseIsoDate, startOfUtcDay, yearsBetween } from './dates.ts'
import { ExprErrorCode } from './error-codes.ts'
import { finite, truth } from './operators.ts'
import type { CompiledExpr, Scope } from './scope.ts'

/** How a call is turned into a closure: it receives its compiled arguments (so if() can stay lazy). */
type Build = (args: CompiledExpr[], span: SourceSpan) => CompiledExpr

export interface FunctionDef {
  /** Canonical spelling; calls match it case-insensitively. */
  name: string
  accepts: (argumentCount: number) => boolean
  arityText: string
  /** False for functions whose answer depends on the scope (today), so they are never folded at compile time. */
  pure: boolean
  build: Build
}

function between(min: number, max: number): (count: number) => boolean {
  return (count) => count >= min && count <= max
}

function wrongType(fn: string, expected: string, got: Value, span: SourceSpan): never {
  throw new EngineError(ExprErrorCode.TypeMismatch, `${fn}() needs ${expected}, but got ${describeType(got)}.`, { span })
}

function numberOrNull(fn: string, value: Value, span: SourceSpan): number | null {
  if (value === null || typeof value === 'number') return value
  return wrongType(fn, 'a number', value, span)
}

function dateOrNull(fn: string, value: Value, span: SourceSpan): Date | null {
  if (value === null || value instanceof Date) return value
  return wrongType(fn, 'a date', value, span)
}

function one(fn: (value: Value, span: SourceSpan) => Value): Build {
  return ([a], span) => {
    const arg = a!
    return (scope) => fn(arg(scope), span)
  }
}

function all(fn: (values: Value[], span: SourceSpan) => Value): Build {
  return (args, span) => (scope) => fn(args.map((arg) => arg(scope)), span)
}

function numeric(name: string, op: (x: number) => number): FunctionDef {
  return {
    name,
    accepts: between(1, 1),
    arityText: '1 number',
    pure: true,
    build: one((value, span) => {
      const x = numberOrNull(name, value, span)
      return x === null ? null : op(x)
    }),
  }
}

function datePart(name: string, part: (d: Date) => number): FunctionDef {
  return {
    name,
    accepts: between(1, 1),
    arityText: '1 date',
    pure: true,
    build: one((value, span) => {
      const d = dateOrNull(name, value, span)
      return d === null ? null : part(d)
    }),
  }
}

function text(name: string, op: (s: string) => string): FunctionDef {
  return {
    name,
    accepts: between(1, 1),
    arityText: '1 text',
    pure: true,
    build: one((value, span) => {
      if (value === null) return null
      return typeof value === 'string' ? op(value) : wrongType(name, 'text', value, span)
    }),
  }
}

/** Lists are opened one level at a time, so min([1, 2], 3) and min(1, 2, 3) agree; no value is skipped. */
function flatten(values: Value[], into: Value[] = []): Value[] {
  for (const value of values) {
    if (Array.isArray(value)) flatten(value, into)
    else if (value !== null) into.push(value)
  }
  return into
}

function extreme(name: 'min' | 'max'): FunctionDef {
  const better = name === 'min' ? (a: number, b: number) => a < b : (a: number, b: number) => a > b
  return {
    name,
    accepts: between(1, Infinity),
    arityText: 'one or more numbers, dates or lists',
    pure: true,
    build: all((values, span) => {
      const items = flatten(values)
      if (items.length === 0) return null
      const first = items[0]!
      const dates = first instanceof Date
      let best: Value = first
      for (const item of items) {
        const ok = dates ? item instanceof Date : typeof item === 'number'
        if (!ok) return wrongType(name, dates ? 'only dates' : 'only numbers', item, span)
        const key = (v: Value) => (dates ? (v as Date).getTime() : (v as number))
        if (better(key(item), key(best))) best = item
      }
      return best
    }),
  }
}

function roundTo(x: number, digits: number): number {
  const scale = 10 ** Math.abs(digits)
  // toPrecision(15) drops binary noise first, so round(1.005, 2) is 1.01 as a person expects, not 1.
  const scaled = Number((Math.abs(x) * (digits >= 0 ? scale : 1 / scale)).toPrecision(15))
  // Beyond 1e15 a double has no fractional digits left to round.
  if (!Number.isFinite(scaled) || scaled > 1e15) return x
  const rounded = Math.round(scaled)
  return Math.sign(x) * (digits >= 0 ? rounded / scale : rounded * scale) || 0
}

/** A count of whole days, months or years from the first date to the second (negative when the second is earlier). */
function between2(name: string, count: (from: Date, to: Date) => number): FunctionDef {
  return {
    name,
    accepts: between(2, 2),
    arityText: 'two dates',
    pure: true,
    build: ([fromArg, toArg], span) => {
      const from = fromArg!
      const to = toArg!
      return (scope) => {
        const a = dateOrNull(name, from(scope), span)
        const b = dateOrNull(name, to(scope), span)
        return a === null || b === null ? null : count(a, b)
      }
    },
  }
}

/** A date moved by a whole number of days, months or years (back when negative). */
function moveDate(name: string, unit: string, move: (date: Date, n: number, span: SourceSpan) => Date): FunctionDef {
  return {
    name,
    accepts: between(2, 2),
    arityText: `a date and a whole number of ${unit}`,
    pure: true,
    build: ([dateArg, countArg], span) => {
      const date = dateArg!
      const count = countArg!
      return (scope) => {
        const d = dateOrNull(name, date(scope), span)
        const n = numberOrNull(name, count(scope), span)
        if (d === null || n === null) return null
        if (!Number.isSafeInteger(n)) {
          throw new EngineError(ExprErrorCode.InvalidArgument, `${name}() needs a whole number of ${unit}, but got ${valueToText(n)}.`, { span })
        }
        return move(d, n, span)
      }
    },
  }
}

const NUMBER_TEXT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/

const FUNCTIONS: FunctionDef[] = [
  {
    name: 'round',
    accepts: between(1, 2),
    arityText: 'a number and optionally how many decimals',
    pure: true,
    build: ([valueArg, digitsArg], span) => {
      const value = valueArg!
      return (scope) => {
        const x = numberOrNull('round', value(scope), span)
        const digits = digitsArg === undefined ? 0 : numberOrNull('round', digitsArg(scope), span)
        if (x === null || digits === null) return null
        if (!Number.isInteger(digits) || Math.abs(digits) > 15) {
          throw new EngineError(ExprErrorCode.InvalidArgument, 'round() needs a whole number of decimals between -15 and 15.', { span })
        }
        return roundTo(x, digits)
      }
    },
  },
  numeric('floor', Math.floor),
  numeric('ceil', Math.ceil),
  numeric('abs', Math.abs),
  extreme('min'),
  extreme('max'),
  {
    name: 'sum',
    accepts: between(1, Infinity),
    arityText: 'one or more numbers or lists',
    pure: true,
    build: all((values, span) => {
      let total = 0
      for (const item of flatten(values)) total += typeof item === 'number' ? item : wrongType('sum', 'only numbers', item, span)
      return finite(total, '+', span)
    }),
  },
  {
    name: 'if',
    accepts: between(3, 3),
    arityText: 'a condition, a value when true and a value when false',
    pure: true,
    build: ([cond, whenTrue, whenFalse], span) => {
      const c = cond!
      const t = whenTrue!
      const f = whenFalse!
      return (scope) => (truth(c(scope), 'if', span) ? t(scope) : f(scope))
    },
  },
  {
    name: 'today',
    accepts: between(0, 0),
    arityText: 'nothing',
    pure: false,
    build: () => (scope: Scope) => startOfUtcDay(scope.now),
  },
  datePart('year', (d) => d.getUTCFullYear()),
  datePart('month', (d) => d.getUTCMonth() + 1),
  datePart('day', (d) => d.getUTCDate()),
  between2('daysBetween', daysBetween),
  between2('monthsBetween', monthsBetween),
  between2('yearsBetween', yearsBetween),
  {
    // age(date) is as of the run's today(), so it is never folded at compile time; age(date, asOf) as of asOf.
    name: 'age',
    accepts: between(1, 2),
    arityText: 'a date and optionally the date to count to',
    pure: false,
    build: ([dateArg, asOfArg], span) => {
      const date = dateArg!
      return (scope) => {
        const born = dateOrNull('age', date(scope), span)
        const asOf = asOfArg === undefined ? startOfUtcDay(scope.now) : dateOrNull('age', asOfArg(scope), span)
        return born === null || asOf === null ? null : yearsBetween(born, asOf)
      }
    },
  },
  moveDate('addYears', 'years', (date, n, span) => addMonths(date, n * 12, span)),
  moveDate('addMonths', 'months', addMonths),
  moveDate('addDays', 'days', addDays),
  {
    name: 'date',
    accepts: (count) => count === 1 || count === 3,
    arityText: 'a text like 2024-05-01, or year, month and day',
    pure: true,
    build: all((values, span) => {
      if (values.length === 1) {
        const value = values[0]!
        if (value === null || value instanceof Date) return value
        if (typeof value !== 'string') return wrongType('date', 'text like 2024-05-01', value, span)
        if (value.trim() === '') return null
        const date = parseIsoDate(value.trim())
        if (date) return date
        throw new EngineError(ExprErrorCode.InvalidDate, `"${value}" is not a date; write dates as YYYY-MM-DD, for example 2024-05-01.`, { span })
      }
      if (values.some((v) => v === null)) return null
      const [y, m, d] = values.map((v) => numberOrNull('date', v, span)) as number[]
      const date = new Date(Date.UTC(2000, m! - 1, d!))
      date.setUTCFullYear(y!, m! - 1, d!)
      const exists = [y, m, d].every(Number.isInteger) && date.getUTCMonth() === m! - 1 && date.getUTCDate() === d
      if (exists) return date
      throw new EngineError(ExprErrorCode.InvalidDate, `There is no date with year ${y}, month ${m} and day ${d}.`, { span })
    }),
  },
  { name: 'isBlank', accepts: between(1, 1), arityText: '1 value', pure: true, build: one((value) => isBlank(value)) },
  { name: 'isSet', accepts: between(1, 1), arityText: '1 value', pure: true, build: one((value) => !isBlank(value)) },
  {
    name: 'len',
    accepts: between(1, 1),
    arityText: '1 text or list',
    pure: true,
    build: one((value, span) => {
      if (value === null) return 0
      if (typeof value === 'string' || Array.isArray(value)) return value.length
      return wrongType('len', 'text or a list', value, span)
    }),
  },
  {
    name: 'count',
    accepts: between(1, 1),
    arityText: '1 list',
    pure: true,
    build: one((value, span) => {
      if (value === null) return 0
      if (Array.isArray(value)) return value.filter((item) => !isBlank(item)).length
      return wrongType('count', 'a list', value, span)
    }),
  },
  { name: 'concat', accepts: between(1, Infinity), arityText: 'one or more values', pure: true, build: all((values) => values.map(valueToText).join('')) },
  text('lower', (s) => s.toLowerCase()),
  text('upper', (s) => s.toUpperCase()),
  {
    name: 'number',
    accepts: between(1, 1),
    arityText: '1 value',
    pure: true,
    build: one((value, span) => {
      if (value === null || typeof value === 'number') return value
      if (typeof value === 'boolean') return value ? 1 : 0
      if (typeof value !== 'string') return wrongType('number', 'text or true/false', value, span)
      const trimmed = value.trim()
      if (trimmed === '') return null
      if (NUMBER_TEXT.test(trimmed) && Number.isFinite(Number(trimmed))) return Number(trimmed)
      throw new EngineError(ExprErrorCode.InvalidNumber, `"${value}" is not a number.`, { span })
    }),
  },
  { name: 'text', accepts: between(1, 1), arityText: '1 value', pure: true, build: one((value) => valueToText(value)) },
]

const BY_LOWER_NAME = new Map(FUNCTIONS.map((def) => [def.name.toLowerCase(), def]))

/** The standard library, looked up case-insensitively. */
export function findFunction(name: string): FunctionDef | undefined {
  return BY_LOWER_NAME.get(name.toLowerCase())
}

export const FUNCTION_NAMES: readonly string[] = FUNCTIONS.map((def) => def.name)
