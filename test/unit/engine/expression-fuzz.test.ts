// Issue 18: the expression language under fuzzing. Random, grammar-built and mutated sources with random variable
// values throw nothing but EngineError, and none takes 100 ms; FUZZ_RUNS sets the count (`npm run fuzz:expressions`
// runs the full million).
import t from 'tap'
import { EngineError } from '../../../src/engine/errors.ts'
import { compileExpression, parseExpression } from '../../../src/engine/expr/index.ts'
import { CATASTROPHIC_PATTERNS, fuzzExpressions, runOne, SLOW_EVALUATION_MS } from '../../helpers/expression-fuzz.ts'

const RUNS = Number(process.env.FUZZ_RUNS ?? 20_000)

t.test(`${RUNS} fuzzed expressions: no crash, none slower than ${SLOW_EVALUATION_MS} ms`, async (t) => {
  const report = fuzzExpressions({ runs: RUNS, seed: 18 })
  t.equal(report.inputs, RUNS)
  t.same(report.crashes.slice(0, 5), [], `${report.crashes.length} crashes`)
  t.same(report.slow.slice(0, 5), [], `slowest single try ${report.slowest.ms.toFixed(1)} ms: ${report.slowest.source.slice(0, 200)}`)
})

t.test('catastrophic patterns finish quickly on a 10,000-character near miss', async (t) => {
  const nearMiss = 'a'.repeat(9_999) + '!'
  for (const pattern of CATASTROPHIC_PATTERNS) {
    for (const source of [`{{T}}.match(/${pattern}/)`, `{{T}}.match(${JSON.stringify(pattern)})`, '{{T}}.match({{P}})']) {
      const values = [nearMiss, pattern]
      const outcome = [runOne(source, values), runOne(source, values), runOne(source, values)]
      t.notOk(outcome[0]!.crash, `${source} does not crash`)
      t.ok(Math.min(...outcome.map((o) => o.ms)) < SLOW_EVALUATION_MS, `${source} with ${pattern}: under ${SLOW_EVALUATION_MS} ms`)
    }
  }
  const run = (source: string, subject: string) => compileExpression(parseExpression(source))({ lookup: () => subject, now: new Date() })
  t.equal(run('{{T}}.match(/(a+)+$/)', 'xaaa'), true, 'a repeated group still matches what it should')
  t.equal(run('{{T}}.match(/(a|a)*b$/)', nearMiss), false)
  t.equal(run('{{T}}.match(/^caf\\u00e9$/i)', 'CAFÉ'), true, 'JavaScript \\u escapes and flags keep their meaning')
})

t.test('patterns the linear engine cannot run, or too large to run quickly, are INVALID_PATTERN with a reason', async (t) => {
  for (const [pattern, reason] of [
    ['(?=a)b', /look-ahead/], ['(a)\\1', /back-references/], ['(?<!a)b', /look-behind/],
    ['(a|b|c|d){200}', /too large/], ['x'.repeat(1_001), /at most 1000 characters/],
  ] as const) {
    try {
      parseExpression(`{{T}}.match(${JSON.stringify(pattern)})`)
      t.fail(`${pattern} is refused`)
    } catch (error) {
      t.ok(error instanceof EngineError && error.code === 'INVALID_PATTERN', `${pattern.slice(0, 20)} -> INVALID_PATTERN`)
      t.match((error as Error).message, reason)
    }
  }
})

t.test('names shaped like Object.prototype members are plain names, not operators', async (t) => {
  for (const source of ["'s' constructor {{Age}}", '1 toString 2', '1 hasOwnProperty 2', '1 valueOf 2']) {
    t.throws(() => parseExpression(source), { code: 'PARSE_UNEXPECTED_TOKEN' }, source)
  }
})
