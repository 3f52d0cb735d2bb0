// The pure parts of scenario runs: comparing outcomes, matching values, expected outcomes from runs, and one
// scenario's run on a compiled set (pass, fail, and error when an answer no longer fits).
import t from 'tap'
import { compileAdviceSet, evaluate } from '../../../src/engine/index.ts'
import { advice, adviceSet, ask, condition, rule, variable } from '../../fixtures/engine/build.ts'
import { compareOutcomes, expectedFromRun, hasDifferences, rawValue, sameValue } from '../../../src/services/scenarios/outcome.ts'
import { runScenario } from '../../../src/services/scenarios/runs.ts'

const NOW = new Date('2026-01-15T00:00:00Z')
const model = adviceSet([rule('r', 'R',
  ask('q-age', 'Age'),
  condition('c-old', '{{Age}} >= 65', advice('a-retire', 'Retire')),
  condition('c-young', '{{Age}} < 65', ask('q-plan', 'Plan'), condition('c-bold', '{{Plan}} == "bold"', advice('a-shares', 'Shares'))),
  advice('a-tax', 'Before tax', '', ['assumption']),
)], [variable('Age'), variable('Plan', { dataType: 'select', options: ['safe', 'bold'] }), variable('Born', { dataType: 'date' })])
const compiled = compileAdviceSet(model)

t.test('compareOutcomes: advice as sets, the focus, each expected variable', async (t) => {
  const expected = { advice: ['a', 'b'], focus: 'complete', variables: { X: 1, Y: 'yes' } }
  t.same(compareOutcomes(expected, { advice: ['b', 'a', 'a'], focus: 'complete', variables: { X: 1, Y: 'yes' } }),
    { missingAdvice: [], unexpectedAdvice: [], focus: null, variables: [] }, 'order and repeats do not matter')
  const d = compareOutcomes(expected, { advice: ['a', 'c'], focus: 'q1', variables: { X: 2 } })
  t.same(d, {
    missingAdvice: ['b'], unexpectedAdvice: ['c'], focus: { expected: 'complete', actual: 'q1' },
    variables: [{ name: 'X', expected: 1, actual: 2 }, { name: 'Y', expected: 'yes', actual: null }],
  })
  t.equal(hasDifferences(d), true)
  t.equal(hasDifferences(compareOutcomes(expected, { ...expected, advice: ['a', 'b'] })), false)
})

t.test('sameValue: forgiving about spelling, not about meaning', async (t) => {
  t.ok(sameValue(0.3, 0.1 + 0.2), 'floating-point noise')
  t.ok(sameValue('42', 42), 'a number written as text')
  t.notOk(sameValue(42.001, 42))
  t.notOk(sameValue('', 0), 'blank text is not zero')
  t.ok(sameValue('true', true))
  t.ok(sameValue(false, false))
  t.notOk(sameValue('yes', true))
  t.ok(sameValue('2026-01-15', '2026-01-15T00:00:00.000Z'), 'the same day')
  t.notOk(sameValue('2026-01-16', '2026-01-15'))
  t.ok(sameValue(['a', 1], ['a', 1]))
  t.notOk(sameValue(['a'], ['a', 'b']))
  t.ok(sameValue(null, null), 'null expects no value')
  t.notOk(sameValue(null, 0))
  t.notOk(sameValue(1, null))
  t.ok(sameValue('Text', 'Text'))
  t.notOk(sameValue('text', 'Text'))
})

t.test('rawValue writes values as an API caller would', async (t) => {
  t.equal(rawValue(new Date('2026-03-01T00:00:00Z')), '2026-03-01')
  t.same(rawValue([new Date('2026-03-01T00:00:00Z'), 2]), ['2026-03-01', 2])
  t.equal(rawValue(undefined), null)
})

t.test('expectedFromRun takes advice and focus, and only the variables named', async (t) => {
  const result = evaluate(compiled, { Age: 30, Plan: 'bold' }, { render: false, now: NOW })
  t.same(expectedFromRun(result), { advice: ['a-shares', 'a-tax'], focus: 'complete', variables: {} })
  t.same(expectedFromRun(result, { variables: ['Plan', 'Born'] }).variables, { Plan: 'bold', Born: null })
  t.equal(expectedFromRun(evaluate(compiled, { Age: 30 }, { render: false, now: NOW })).focus, 'q-plan')
})

t.test('runScenario: pass, fail with differences, error when an answer no longer fits', async (t) => {
  const expected = { advice: ['a-shares', 'a-tax'], focus: 'complete', variables: { Plan: 'bold' } }
  t.match(runScenario(compiled, { inputs: { Age: 30, Plan: 'bold' }, runAsOf: null, expected }, { now: NOW }), { status: 'pass', errorMessage: null })
  const failed = runScenario(compiled, { inputs: { Age: 70 }, runAsOf: null, expected }, { now: NOW })
  t.equal(failed.status, 'fail')
  t.same(failed.differences, {
    missingAdvice: ['a-shares'], unexpectedAdvice: ['a-retire'], focus: null, variables: [{ name: 'Plan', expected: 'bold', actual: null }],
  })
  t.match(runScenario(compiled, { inputs: { Age: 30, Plan: 'wild' }, runAsOf: null, expected }, { now: NOW }),
    { status: 'error', actual: null, errorMessage: /The answer for \{\{Plan\}\} cannot be used/ })
  t.match(runScenario(compiled, { inputs: { Agee: 30 }, runAsOf: null, expected }, { now: NOW }),
    { status: 'error', errorMessage: 'There is no variable {{Agee}} in this advice set.' })
  t.equal(runScenario(compiled, { inputs: { Age: 30, Plan: 'bold' }, runAsOf: null, expected }, { now: NOW }).result?.trace, undefined, 'no trace unless asked')
  t.ok(runScenario(compiled, { inputs: {}, runAsOf: null, expected }, { now: NOW, trace: true }).result?.trace?.length, 'a trace when asked')
})
