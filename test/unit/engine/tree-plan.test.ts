// The runner's shortcuts must never change an outcome: planned conditions (checked inline), traced runs
// (checked in one call) and the expression compiler's closures must agree on every value, including errors.
import t from 'tap'
import fc from 'fast-check'
import { compileAdviceSet, evaluate } from '../../../src/engine/tree/index.ts'
import type { CompiledAdviceSet } from '../../../src/engine/tree/index.ts'
import { mainProgram } from '../../../src/engine/tree/program.ts'
import { nextDown } from '../../../src/engine/tree/condition-plan.ts'
import { coerceAnswer } from '../../../src/engine/tree/inputs.ts'
import { coerceInput } from '../../../src/engine/types/index.ts'
import { advice, adviceSet, condition, rule, variable } from '../../fixtures/engine/build.ts'

const atom = fc.oneof(
  fc.tuple(fc.constantFrom('A', 'B'), fc.constantFrom('<', '<=', '>', '>=', '==', '!='), fc.constantFrom(-1, 0, 0.5, 2, 3, 100)).map(
    ([name, op, n]) => `{{${name}}} ${op} ${n}`,
  ),
  fc.tuple(fc.constantFrom('A', 'B'), fc.constantFrom('==', '!='), fc.constantFrom('"x"', '"y"', 'true', 'false')).map(
    ([name, op, constant]) => `{{${name}}} ${op} ${constant}`,
  ),
  fc.constantFrom('{{A}}', '{{B}}', '!{{A}}', '!{{B}}'),
)
const conditionSource = fc.array(atom, { minLength: 1, maxLength: 3 }).map((atoms) => atoms.join(' && '))
const rawValue = fc.oneof(
  fc.constantFrom(-1, 0, 0.5, 1, 2, 3, 3.0000001, 100, -0),
  fc.constantFrom('x', 'y', ''),
  fc.boolean(),
  fc.constant(null),
  fc.constant([1, 2]),
  fc.constant('2024-01-01'),
)

function withoutPlans(compiled: CompiledAdviceSet): CompiledAdviceSet {
  for (const node of compiled.nodeById.values()) node.plan = null
  const { program, ruleEnds } = mainProgram(compiled.rules)
  return { ...compiled, program, ruleEnds }
}

function outcome(result: ReturnType<typeof evaluate>) {
  return {
    advice: result.advice.map((item) => item.nodeId),
    errors: result.errors.map((error) => [error.code, error.nodeId, error.cause?.code, error.variable]),
  }
}

t.test('planned, traced and closure-only runs agree on every condition and value', async (t) => {
  fc.assert(
    fc.property(fc.array(conditionSource, { minLength: 1, maxLength: 3 }), rawValue, rawValue, (sources, a, b) => {
      const model = adviceSet(
        sources.map((source, i) => rule(`r${i}`, `R${i}`, condition(`c${i}`, source, advice(`a${i}`, 'x')), advice(`after${i}`, 'y'))),
        [variable('A', { dataType: undefined }), variable('B', { dataType: undefined })],
      )
      const inputs = { A: a, B: b }
      const planned = compileAdviceSet(model)
      t.ok(planned.rules.every((r) => r.nodes[0]!.plan !== null), 'these conditions are all plannable')
      const fast = outcome(evaluate(planned, inputs, { render: false }))
      const traced = outcome(evaluate(planned, inputs, { render: false, trace: true }))
      const reference = outcome(evaluate(withoutPlans(compileAdviceSet(model)), inputs, { render: false }))
      return JSON.stringify(fast) === JSON.stringify(reference) && JSON.stringify(traced) === JSON.stringify(reference)
    }),
    { numRuns: 400 },
  )
})

t.test('ranges over numbers: a < x exactly when a <= nextDown(x)', async (t) => {
  const finite = fc.double({ noNaN: true, noDefaultInfinity: true })
  fc.assert(fc.property(finite, finite, (a, x) => (a < x) === (a <= nextDown(x))))
  t.equal(nextDown(1), 1 - Number.EPSILON / 2)
  t.equal(nextDown(0), -Number.MIN_VALUE)
  t.equal(nextDown(-1), -1 - Number.EPSILON)
})

t.test('adjacent comparisons on one variable merge; others keep their order', async (t) => {
  const compiled = compileAdviceSet(
    adviceSet([rule('r', 'R', condition('c', '{{A}} >= 18 && {{A}} < 65 && {{B}} > 1 && {{A}} != 30', advice('a', 'x')))], [variable('A'), variable('B')]),
  )
  const plan = compiled.nodeById.get('c')!.plan!
  const slot = (name: string) => compiled.variableIndex.get(name)
  t.same(plan.slots, [slot('A'), slot('B'), slot('A')])
  t.equal(plan.lows[0], 18)
  t.equal(plan.highs[0], nextDown(65), '< 65 is <= the double just below 65')
  t.ok(plan.lows[1]! > 1 && plan.lows[1]! < 1 + 1e-15, '> 1 is >= the double just above 1')
  // With B unset, the closure reads B before the last A check: so must the plan.
  const result = evaluate(compiled, { A: 30 }, { render: false })
  t.equal(result.errors[0]?.variable, 'B')
})

t.test('the fast input paths give what coerceInput gives', async (t) => {
  const options = ['Yes', 'yes', 'No', ' Maybe ']
  const select = compileAdviceSet(adviceSet([], [variable('S', { dataType: 'select', options }), variable('N'), variable('F', { dataType: 'boolean' })]))
  const slotOf = (name: string) => select.variables[select.variableIndex.get(name)!]!
  for (const option of options) {
    const expected = coerceInput('select', option, { options })
    t.same(coerceAnswer(slotOf('S'), { S: option }), expected.ok ? expected.value : undefined, `option ${JSON.stringify(option)}`)
  }
  fc.assert(
    fc.property(fc.double({ noNaN: true }), (n) => {
      const expected = coerceInput('number', n)
      const got = coerceAnswer(slotOf('N'), { N: n })
      return expected.ok ? Object.is(got, expected.value) : got instanceof Error
    }),
  )
  for (const flag of [true, false]) t.equal(coerceAnswer(slotOf('F'), { F: flag }), flag)
})
