import { isDeepStrictEqual } from 'node:util'
import fc from 'fast-check'
import t from 'tap'
import { EngineError } from '../../../src/engine/errors.ts'
import {
  compileExpression,
  parseExpression,
  printExpression,
  type BinaryOp,
  type Expr,
  type Scope,
} from '../../../src/engine/expr/index.ts'
import type { Value } from '../../../src/engine/value.ts'

const NO_SPAN = { start: 0, end: 0 }

function withoutSpans(expr: Expr): unknown {
  return JSON.parse(
    JSON.stringify(expr, (key, value: unknown) => {
      if (key === 'span') return undefined
      if (typeof value === 'number' && Object.is(value, -0)) return '-0'
      return value
    }),
    (_key, value: unknown) => value,
  )
}

// --- Arbitraries -------------------------------------------------------------------------------------------------

const KEYWORDS = new Set(['true', 'false', 'and', 'or', 'not'])
const LOOKS_LIKE_NUMBER = /^\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/
const name = fc.stringMatching(/^[A-Za-z0-9ÄéЖ][A-Za-z0-9_?é]{0,8}$/)
const bareName = name.filter((n) => !KEYWORDS.has(n.toLowerCase()) && !LOOKS_LIKE_NUMBER.test(n))

const literal: fc.Arbitrary<Expr> = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((value) => ({ type: 'literal', value, span: NO_SPAN }) as Expr),
  fc.integer({ min: -1000, max: 1000 }).map((value) => ({ type: 'literal', value, span: NO_SPAN }) as Expr),
  fc.string({ unit: 'binary', maxLength: 12 }).map((value) => ({ type: 'literal', value, span: NO_SPAN }) as Expr),
  fc.boolean().map((value) => ({ type: 'literal', value, span: NO_SPAN }) as Expr),
  fc
    .date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2100-12-31T00:00:00Z'), noInvalidDate: true })
    .chain((date) => fc.constantFrom(date, new Date(Math.floor(date.getTime() / 86_400_000) * 86_400_000)))
    .map((value) => ({ type: 'literal', value, span: NO_SPAN }) as Expr),
)

const ref: fc.Arbitrary<Expr> = fc.oneof(
  name.map((n) => ({ type: 'ref', kind: 'variable', name: n, span: NO_SPAN }) as Expr),
  name.map((n) => ({ type: 'ref', kind: 'formula', name: n, span: NO_SPAN }) as Expr),
  bareName.map((n) => ({ type: 'ref', kind: 'bare', name: n, span: NO_SPAN }) as Expr),
)

const PATTERNS = ['^a', '\\d+', '[/]x', 'a|b', '^\\w+@\\w+\\.com$', '(ab)+', '']
const regex: fc.Arbitrary<Expr> = fc.record({
  type: fc.constant('regex' as const),
  pattern: fc.constantFrom(...PATTERNS),
  flags: fc.constantFrom('', 'i', 'im', 'su'),
  span: fc.constant(NO_SPAN),
})
const patternText: fc.Arbitrary<Expr> = fc.constantFrom(...PATTERNS).map((value) => ({ type: 'literal', value, span: NO_SPAN }))

const BINARY_OPS: BinaryOp[] = ['+', '-', '*', '/', '^', '==', '!=', '<', '>', '<=', '>=', '&&', '||']
const CALLS: Array<[string, number]> = [
  ['round', 1], ['round', 2], ['floor', 1], ['ceil', 1], ['abs', 1], ['min', 1], ['min', 3], ['max', 2], ['sum', 2],
  ['if', 3], ['today', 0], ['year', 1], ['month', 1], ['day', 1], ['daysBetween', 2], ['date', 1], ['date', 3],
  ['isBlank', 1], ['isSet', 1], ['len', 1], ['count', 1], ['concat', 2], ['lower', 1], ['upper', 1], ['number', 1],
  ['text', 1],
]

const { expr } = fc.letrec<{ expr: Expr }>((tie) => {
  const sub = tie('expr')
  return {
    expr: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      literal,
      ref,
      fc.record({ type: fc.constant('unary' as const), op: fc.constantFrom('-' as const, '!' as const), operand: sub, span: fc.constant(NO_SPAN) }),
      fc.record({ type: fc.constant('binary' as const), op: fc.constantFrom(...BINARY_OPS), left: sub, right: sub, span: fc.constant(NO_SPAN) }),
      fc.record({ type: fc.constant('array' as const), items: fc.array(sub, { maxLength: 3 }), span: fc.constant(NO_SPAN) }),
      fc.constantFrom(...CALLS).chain(([fn, count]) =>
        fc.array(sub, { minLength: count, maxLength: count }).map((args): Expr => ({ type: 'call', name: fn, args, span: NO_SPAN })),
      ),
      fc.record({
        type: fc.constant('method' as const),
        target: sub,
        name: fc.constant('match' as const),
        args: fc.oneof(regex, patternText, ref).map((arg) => [arg]),
        span: fc.constant(NO_SPAN),
      }),
      fc.record({ type: fc.constant('method' as const), target: sub, name: fc.constant('includes' as const), args: sub.map((arg) => [arg]), span: fc.constant(NO_SPAN) }),
    ),
  }
})

/** A scope whose answers depend only on the name, covering every kind of value including no value. */
function hashScope(): Scope {
  const values: Value[] = [0, 7, -2.5, 'text', '', true, false, null, new Date(Date.UTC(2024, 4, 1)), [1, 'a', null]]
  return {
    lookup(_kind, n) {
      let h = 0
      for (const ch of n) h = (h * 31 + ch.charCodeAt(0)) >>> 0
      return values[h % values.length]!
    },
    now: new Date(Date.UTC(2025, 0, 15, 12)),
  }
}

function outcome(run: () => Value): { value: Value } | { code: string } {
  try {
    return { value: run() }
  } catch (error) {
    if (error instanceof EngineError) return { code: error.code }
    throw error
  }
}

// --- Properties --------------------------------------------------------------------------------------------------

const TOKENS = [
  '{{Age}}', '[[Net]]', 'Name', '2abc', '12', '3.5', '1e3', '"t"', "'s'", '#2024-05-01#', 'true', 'false', 'and', 'or',
  'not', '+', '-', '*', '/', '^', '==', '!=', '<>', '<', '>', '<=', '>=', '&&', '||', '!', '=', '+=', '-=', '(', ')',
  '[', ']', ',', '.', '.match(', '.includes(', '/a+/', 'round(', 'max(', 'if(', 'today()', '{{', '}}', '[[', ']]',
  '"', "'", '#', '\\', ' ', '&', '|', '{', '?', '_', '(a+)+',
]
const tokenSoup = fc.array(fc.constantFrom(...TOKENS), { maxLength: 400 }).map((parts) => parts.join('').slice(0, 1000))
const nestedSoup = fc.integer({ min: 1, max: 499 }).map((n) => '('.repeat(n) + '1' + ')'.repeat(n))

t.test('parsing any input up to 1,000 characters throws only EngineError, each parse under 50 ms', async (t) => {
  let slowest = 0
  const timeParse = (source: string): number => {
    const started = performance.now()
    try {
      parseExpression(source, { mode: source.length % 2 === 0 ? 'value' : 'condition' })
    } catch (error) {
      if (!(error instanceof EngineError)) throw error
      if (typeof error.code !== 'string' || error.span === undefined) throw new Error(`error without code or span: ${error.message}`)
    }
    return performance.now() - started
  }
  const check = (source: string): boolean => {
    // Other processes share this machine: a parse counts as slow only if it is slow on each of three tries.
    let elapsed = timeParse(source)
    for (let retry = 0; retry < 2 && elapsed >= 50; retry++) elapsed = Math.min(elapsed, timeParse(source))
    slowest = Math.max(slowest, elapsed)
    return elapsed < 50
  }
  fc.assert(fc.property(fc.string({ maxLength: 1000 }), check), { numRuns: 2000 })
  fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 1000 }), check), { numRuns: 1000 })
  fc.assert(fc.property(tokenSoup, check), { numRuns: 3000 })
  fc.assert(fc.property(nestedSoup, check), { numRuns: 200 })
  t.ok(slowest < 50, `slowest parse ${slowest.toFixed(2)} ms`)
})

t.test('printing then parsing gives back the same tree (ignoring spans)', async (t) => {
  fc.assert(
    fc.property(expr, (tree) => {
      const printed = printExpression(tree)
      const reparsed = parseExpression(printed)
      return isDeepStrictEqual(withoutSpans(reparsed), withoutSpans(tree))
    }),
    { numRuns: 5000 },
  )
  t.pass('5000 random trees round-trip')
})

/**
 * Another way an author could write the same tree: every compound part in parentheses, alternative spellings
 * (and/or/not/<>, single quotes, any letter case for keywords and functions) and random spacing.
 */
function spellDifferently(tree: Expr, random: () => number): string {
  const pick = <T>(...options: T[]): T => options[Math.floor(random() * options.length)]!
  const space = () => pick('', ' ', '  ', '\t', '\n')
  const anyCase = (word: string) => [...word].map((ch) => (random() < 0.5 ? ch.toUpperCase() : ch.toLowerCase())).join('')
  const spell = (node: Expr): string => {
    switch (node.type) {
      case 'literal': {
        const v = node.value
        if (typeof v === 'number') return v < 0 || Object.is(v, -0) ? `(${printExpression(node)})` : printExpression(node)
        if (typeof v === 'boolean') return anyCase(String(v))
        if (typeof v === 'string' && random() < 0.5) {
          return `'${[...printExpression(node).slice(1, -1).replaceAll('\\"', '"')].map((ch) => (ch === "'" ? "\\'" : ch)).join('')}'`
        }
        return printExpression(node)
      }
      case 'regex':
        return printExpression(node)
      case 'ref':
        return node.kind === 'variable' ? `{{${space()}${node.name}${space()}}}` : printExpression(node)
      case 'array':
        return `[ ${node.items.map((item) => space() + spell(item) + space()).join(',')}]`
      case 'unary':
        return `(${node.op === '!' ? pick('!', 'not ', 'NOT ') : '-'}${space()}(${spell(node.operand)}))`
      case 'binary': {
        const op = node.op === '&&' ? pick('&&', 'and', 'And') : node.op === '||' ? pick('||', 'or', 'OR') : node.op === '!=' ? pick('!=', '<>') : node.op
        return `(${spell(node.left)} ${space()}${op}${space()} ${spell(node.right)})`
      }
      case 'call':
        return `${anyCase(node.name)}(${space()}${node.args.map(spell).join(`,${space()}`)})`
      case 'method':
        return `(${spell(node.target)}).${anyCase(node.name)}(${space()}${node.args.map(spell).join(',')}${space()})`
    }
  }
  return spell(tree)
}

t.test('other spellings of the same tree parse to that tree', async (t) => {
  fc.assert(
    fc.property(expr, fc.integer(), (tree, seed) => {
      let state = seed >>> 0
      const random = () => ((state = (state * 1_103_515_245 + 12_345) >>> 0) % 10_000) / 10_000
      const source = spellDifferently(tree, random)
      return isDeepStrictEqual(withoutSpans(parseExpression(source)), withoutSpans(tree))
    }),
    { numRuns: 3000 },
  )
  t.pass('3000 trees spelled differently')
})

t.test('evaluation is deterministic and throws only EngineError', async (t) => {
  fc.assert(
    fc.property(expr, (tree) => {
      const scope = hashScope()
      const first = outcome(() => compileExpression(tree)(scope))
      const compiled = compileExpression(tree)
      const second = outcome(() => compiled(scope))
      const third = outcome(() => compiled(hashScope()))
      return isDeepStrictEqual(first, second) && isDeepStrictEqual(second, third)
    }),
    { numRuns: 5000 },
  )
  t.pass('same tree and scope give the same value or the same error code')
})
