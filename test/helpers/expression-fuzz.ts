// Fuzzing the expression language (issue 18): random, grammar-built and mutated sources, parsed, compiled and
// evaluated with random variable values. Shared by test/unit/engine/expression-fuzz.test.ts (a bounded run) and
// scripts/fuzz-expressions.ts (the full million). A crash is any throw other than EngineError.
import fc from 'fast-check'
import { EngineError } from '../../src/engine/errors.ts'
import { compileExpression, parseAssignment, parseExpression, type Scope } from '../../src/engine/expr/index.ts'
import type { Value } from '../../src/engine/value.ts'

/** Expressions as authors write them: the demo content, the test fixtures and the documented examples. */
export const REAL_EXPRESSIONS = [
  '{{Annual_Income}} * 10', '{{Savings}} >= [[Savings_Target]]', '{{Savings}} < [[Savings_Target]]', '{{Has_Pension}} == false',
  '{{Age}} >= 65', '{{Age}} < 65', '{{Risk}} == "high"', '{{Age}} >= 18 && {{Age}} < 65', 'Income > 1000 && {{Country}} == "NL"',
  'year(today()) >= 2030', '!{{Employed}}', '{{Income}} * 0.2', '{{Zip}}.match(/^\\d{5}$/)', '{{Name}}.match(/^a/i)',
  '{{Name}}.match({{P}})', '{{Tags}}.includes("pension")', 'round({{Income}} / 12, 2)', 'max({{A}}, {{B}}, 0)',
  'if({{Age}} > 67, "retired", "working")', 'daysBetween(#2024-01-01#, today()) > 30', 'concat({{First}}, " ", {{Last}})',
  'isBlank({{Partner}}) or not isSet({{Children}})', 'len(lower({{Email}})) <> 0', 'number("12.5") + 2 ^ 3',
  'date(2024, 5, 1) - 7', 'count([1, 2, [[F]]]) == 3', '{{Email}}.match("^[\\\\w.]+@[\\\\w.]+$")', 'sum([1, 2, 3]) / {{N}}',
  'text({{Amount}}) + " EUR"', 'month(#2024-05-01#) == 5 && day(date({{When}})) < 15', 'abs(-{{Delta}}) <= 1e3',
]
/** Assignments (variable assignment nodes) parse through their own entry point. */
export const REAL_ASSIGNMENTS = ['{{Score}} = {{Age}} * 2', 'Count += 1', '{{ Count }} = {{Count}} * 2', '[[F]] = 2', 'Rate -= 0.5']

/** Patterns known to take exponential or high polynomial time in a backtracking engine. */
export const CATASTROPHIC_PATTERNS = [
  '(a+)+$', '(a|a)*$', '(a|aa)+$', '(.*a){12}$', '(\\w+\\s?)*$', '^(a+)+b', '(x+x+)+y', 'a*a*a*a*a*a*b', '(\\d+)*\\.',
  '^(([a-z])+.)+[A-Z]([a-z])+$', '(.*){1,32000}[bc]', '^(\\w+\\s?)*$',
]

const TOKENS = [
  '{{Age}}', '{{Name}}', '{{P}}', '{{Tags}}', '[[Net]]', '[[F]]', 'Name', 'x', '2abc', '12', '0', '3.5', '1e308', '1e-9', '"t"',
  "'s'", '""', '#2024-05-01#', '#2024-02-30#', '#x#', 'true', 'false', 'and', 'or', 'not', '+', '-', '*', '/', '^', '==', '!=',
  '<>', '<', '>', '<=', '>=', '&&', '||', '!', '=', '+=', '-=', '(', ')', '[', ']', ',', '.', '.match(', '.includes(', '/a+/',
  '/(a|a)*$/', '/(.*a){12}$/i', '"(a+)+$"', 'round(', 'max(', 'min(', 'if(', 'today()', 'date(', 'daysBetween(', 'len(',
  'concat(', 'number(', 'text(', 'sum(', 'count(', 'year(', '{{', '}}', '[[', ']]', '"', "'", '#', '\\', ' ', '\n', '&', '|',
  '{', '}', '?', '_', '\u0000', '\uD800', 'é', 'Ж', '😀', '__proto__', 'constructor', '{{__proto__}}', '[[constructor]]',
]

const PATTERN_PIECES = ['a', 'b', '.', '\\d', '\\w', '\\s', '\\b', '[a-z]', '[^x]', '(', ')', '(?:', '|', '*', '+', '?', '{2}', '{2,}',
  '{1,30}', '^', '$', '\\', '(?=', '(?!', '\\1', '\\u00e9', '\\p{L}', '[', ']', '-', '/', '"']

const NAMES = ['Age', 'Name', 'P', 'Tags', 'Income', 'X', 'é', '__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty']
const FUNCTIONS: Array<[string, number]> = [
  ['round', 1], ['round', 2], ['floor', 1], ['ceil', 1], ['abs', 1], ['min', 3], ['max', 2], ['sum', 1], ['if', 3], ['today', 0],
  ['year', 1], ['month', 1], ['day', 1], ['daysBetween', 2], ['date', 1], ['date', 3], ['isBlank', 1], ['isSet', 1], ['len', 1],
  ['count', 1], ['concat', 3], ['lower', 1], ['upper', 1], ['number', 1], ['text', 1], ['nosuch', 1],
]
const BINARY = ['+', '-', '*', '/', '^', '==', '!=', '<>', '<', '>', '<=', '>=', '&&', '||', 'and', 'or']

const patternSource = fc.oneof(
  fc.array(fc.constantFrom(...PATTERN_PIECES), { maxLength: 24 }).map((parts) => parts.join('')),
  fc.constantFrom(...CATASTROPHIC_PATTERNS),
)

/** Source text built from the grammar: well-formed most of the time, wrong in places where a choice is wrong. */
const { source: grammarSource } = fc.letrec<{ source: string }>((tie) => {
  const sub = tie('source')
  return {
    source: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.oneof(fc.integer({ min: -1e6, max: 1e6 }).map(String), fc.double({ noNaN: true }).map((n) => String(Math.abs(n))), fc.constant('1e999')),
      fc.string({ maxLength: 12 }).map((s) => JSON.stringify(s)),
      fc.constantFrom('true', 'false', '#2024-05-01#', '#1900-01-01#', '#9999-12-31#'),
      fc.constantFrom(...NAMES).map((n) => `{{${n}}}`),
      fc.constantFrom(...NAMES).map((n) => `[[${n}]]`),
      fc.tuple(fc.constantFrom('-', '!', 'not '), sub).map(([op, x]) => `${op}${x}`),
      fc.tuple(sub, fc.constantFrom(...BINARY), sub).map(([a, op, b]) => `${a} ${op} ${b}`),
      sub.map((x) => `(${x})`),
      fc.array(sub, { maxLength: 4 }).map((items) => `[${items.join(', ')}]`),
      fc.constantFrom(...FUNCTIONS).chain(([fn, n]) => fc.array(sub, { minLength: n, maxLength: n }).map((args) => `${fn}(${args.join(', ')})`)),
      fc.tuple(sub, patternSource, fc.constantFrom('', 'i', 'm', 's', 'u', 'g', 'ii')).map(([x, p, f]) => `${x}.match(/${p}/${f})`),
      fc.tuple(sub, patternSource).map(([x, p]) => `${x}.match(${JSON.stringify(p)})`),
      fc.tuple(sub, sub).map(([x, p]) => `${x}.match(${p})`),
      fc.tuple(sub, sub).map(([x, y]) => `${x}.includes(${y})`),
    ),
  }
})

/** One edit of a source: a character or token inserted, removed, replaced, or a piece repeated. */
const mutation = fc.tuple(fc.nat(), fc.nat(), fc.oneof(fc.constantFrom(...TOKENS), fc.string({ unit: 'binary', maxLength: 3 })), fc.integer({ min: 0, max: 4 }))
function mutate(source: string, edits: Array<[number, number, string, number]>): string {
  let s = source
  for (const [at, length, piece, kind] of edits) {
    const i = s.length === 0 ? 0 : at % (s.length + 1)
    const n = 1 + (length % 8)
    if (kind === 0) s = s.slice(0, i) + piece + s.slice(i)
    else if (kind === 1) s = s.slice(0, i) + s.slice(i + n)
    else if (kind === 2) s = s.slice(0, i) + piece + s.slice(i + n)
    else if (kind === 3) s = s.slice(0, i) + s.slice(i, i + n).repeat(1 + (length % 50)) + s.slice(i)
    else s = s.slice(i) + s.slice(0, i)
  }
  return s.slice(0, 12_000)
}
const mutatedSource = fc.tuple(fc.constantFrom(...REAL_EXPRESSIONS, ...REAL_ASSIGNMENTS), fc.array(mutation, { minLength: 1, maxLength: 6 }))
  .map(([source, edits]) => mutate(source, edits))

const tokenSoup = fc.array(fc.constantFrom(...TOKENS), { maxLength: 300 }).map((parts) => parts.join(''))

/** The four kinds of input, weighted towards the ones that reach evaluation. */
export const fuzzSource: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.string({ maxLength: 200 }), weight: 1 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 200 }), weight: 1 },
  { arbitrary: tokenSoup, weight: 2 },
  { arbitrary: grammarSource, weight: 4 },
  { arbitrary: mutatedSource, weight: 4 },
)

/** Values a variable can hold, including the awkward ones: huge numbers, long near-miss text, hostile patterns. */
const value: fc.Arbitrary<Value> = fc.oneof(
  fc.double(), fc.integer(), fc.constantFrom(0, -0, 1e308, -1e308, Number.MAX_SAFE_INTEGER, 5e-324),
  fc.string({ maxLength: 40 }), fc.constantFrom(...CATASTROPHIC_PATTERNS), fc.constantFrom('(', '[', '\\', '*', '(?=a)', ''),
  fc.integer({ min: 1, max: 10_001 }).map((n) => 'a'.repeat(n) + '!'),
  fc.boolean(), fc.constant(null),
  fc.date({ min: new Date(-8.64e15), max: new Date(8.64e15) }),
  fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 5 }), fc.constant(null)), { maxLength: 5 }),
)

export const fuzzValues: fc.Arbitrary<Value[]> = fc.array(value, { minLength: 1, maxLength: 8 })

/** A scope whose answer depends on the name only, picked among the run's random values. */
export function scopeOver(values: Value[]): Scope {
  return {
    lookup(_kind, name) {
      let h = 0
      for (const ch of name) h = (h * 31 + ch.charCodeAt(0)) >>> 0
      return values[h % values.length]!
    },
    now: new Date(Date.UTC(2025, 0, 15, 12)),
  }
}

export interface FuzzOutcome { crash?: unknown; ms: number }

/** Parses (as a value, condition or assignment), compiles and evaluates one source; times the whole. */
export function runOne(source: string, values: Value[]): FuzzOutcome {
  const started = performance.now()
  try {
    const scope = scopeOver(values)
    if (/[+-]?=(?!=)/.test(source) && source.length % 3 === 0) {
      const assignment = parseAssignment(source)
      compileExpression(assignment.value)(scope)
    } else {
      compileExpression(parseExpression(source, { mode: source.length % 2 === 0 ? 'value' : 'condition' }))(scope)
    }
  } catch (error) {
    if (!(error instanceof EngineError) || typeof error.code !== 'string') return { crash: error, ms: performance.now() - started }
  }
  return { ms: performance.now() - started }
}

export interface FuzzReport {
  inputs: number
  crashes: Array<{ source: string; error: string }>
  /**
   * Inputs over the limit on the first try and again on each of three later tries (the machine is shared: one slow
   * try, e.g. during another process's burst or a GC pause, proves little).
   */
  slow: Array<{ source: string; ms: number }>
  /** First tries over the limit, each re-checked three times at the end. */
  slowFirstTries: number
  /** The slowest single try over the whole run, and its input. */
  slowest: { source: string; ms: number }
}

export const SLOW_EVALUATION_MS = 100

/** Runs `runs` inputs from a fixed seed; never stops early, so one report counts every crash and slow input. */
export function fuzzExpressions(opts: { runs: number; seed: number; onProgress?: (done: number) => void }): FuzzReport {
  const report: FuzzReport = { inputs: 0, crashes: [], slow: [], slowFirstTries: 0, slowest: { source: '', ms: 0 } }
  const candidates: Array<{ source: string; values: Value[] }> = []
  fc.assert(
    fc.property(fuzzSource, fuzzValues, (source, values) => {
      const outcome = runOne(source, values)
      report.inputs++
      if (opts.onProgress && report.inputs % 50_000 === 0) opts.onProgress(report.inputs)
      if (outcome.crash !== undefined) {
        const error = outcome.crash instanceof Error ? `${outcome.crash.name}: ${outcome.crash.message}` : String(outcome.crash)
        report.crashes.push({ source, error })
      }
      if (outcome.ms >= SLOW_EVALUATION_MS) candidates.push({ source, values })
      if (outcome.ms > report.slowest.ms) report.slowest = { source, ms: outcome.ms }
      return true
    }),
    { numRuns: opts.runs, seed: opts.seed, endOnFailure: true },
  )
  report.slowFirstTries = candidates.length
  for (const { source, values } of candidates) {
    const ms = Math.min(...[0, 1, 2].map(() => runOne(source, values).ms))
    if (ms >= SLOW_EVALUATION_MS) report.slow.push({ source, ms })
  }
  return report
}
