// Issue 27 point 2: for each advice node a run did not give, each path's first failing condition with the values that
// made it fail (or the question, exit or error the run ended at first), and the answers nearest to the run's that give
// it — proven, here by running them: one answer changed, several, none possible (naming the contradiction), and a node
// behind a Rule Call. A property test runs the nearest answers of random sets.
import t from 'tap'
import fc from 'fast-check'
import { compileAdviceSet, evaluate, type AdviceSetModel } from '../../../src/engine/index.ts'
import { whyNot, type NotGiven } from '../../../src/engine/branches/why-not.ts'
import { advice, adviceSet, ask, call, condition, exit, rule, variable } from '../../fixtures/engine/build.ts'
import { OPTIONS_Y, randomAdviceSet } from '../../fixtures/engine/random-sets.ts'

const NOW = new Date('2026-01-15T00:00:00Z')

function explainNotGiven(model: AdviceSetModel, inputs: Record<string, unknown>): NotGiven[] {
  const compiled = compileAdviceSet(model)
  const result = evaluate(compiled, inputs, { now: NOW, render: false, explain: true, trace: 'visits' })
  return whyNot(compiled, inputs, result, { now: NOW })
}
const notGiven = (model: AdviceSetModel, inputs: Record<string, unknown>, nodeId: string) => explainNotGiven(model, inputs).find((n) => n.nodeId === nodeId)!
const gives = (model: AdviceSetModel, inputs: Record<string, unknown>, nodeId: string) =>
  evaluate(compileAdviceSet(model), inputs, { now: NOW, render: false }).advice.some((item) => item.nodeId === nodeId)

const pension = adviceSet([
  rule('r1', 'Pension', ask('q-age', 'Age'), ask('q-income', 'Income'), ask('q-region', 'Region'),
    condition('c-income', '{{Income}} > 50000', advice('max', 'Max out your pension')),
    condition('c-senior', '{{Age}} >= 60 && {{Income}} > 20000',
      condition('c-north', '{{Region}} == "North"', advice('north-senior', 'Northern seniors\' allowance')))),
], [variable('Age'), variable('Income'), variable('Region', { dataType: 'select', options: ['North', 'South'] })])
const ANSWERS = { Age: 40, Income: 30000, Region: 'South' }

t.test('one answer away: the failing condition with its values, and that one change', async (t) => {
  const max = notGiven(pension, ANSWERS, 'max')
  t.same(max.paths.map((p) => p.path), [['c-income', 'max']])
  t.match(max.paths[0]!.blocker, { kind: 'condition', nodeId: 'c-income', expression: '{{Income}} > 50000', result: false })
  t.same((max.paths[0]!.blocker as { reads: unknown[] }).reads, [{ kind: 'variable', name: 'Income', value: 30000, valueFormatted: '30,000', from: { kind: 'answer', nodeId: 'q-income' } }])
  t.same(max.nearest!.changes.map((c) => [c.variable, c.from]), [['Income', 30000]], 'only Income changes')
  t.ok(Number(max.nearest!.changes[0]!.to) > 50000)
  t.same({ ...max.nearest!.inputs, Income: 0 }, { ...ANSWERS, Income: 0 }, 'the other answers are kept')
  t.ok(gives(pension, max.nearest!.inputs, 'max'), 'running them gives the advice')
})

t.test('several answers away: each that must change, and only those', async (t) => {
  const north = notGiven(pension, ANSWERS, 'north-senior')
  t.match(north.paths[0]!.blocker, { kind: 'condition', nodeId: 'c-senior', result: false }, 'the first condition that failed')
  t.same(north.nearest!.changes.map((c) => c.variable).sort(), ['Age', 'Region'], 'Income 30,000 already passes > 20,000')
  t.ok(gives(pension, north.nearest!.inputs, 'north-senior'))
})

t.test('unreachable: it says so, naming the contradiction', async (t) => {
  const model = adviceSet([
    rule('r1', 'Bands', condition('hi', '{{X}} > 5', condition('lo', '{{X}} < 3', advice('never', 'Never given'))), advice('always', 'Always given')),
  ], [variable('X')])
  const never = notGiven(model, { X: 7 }, 'never')
  t.match(never.paths[0]!.blocker, { kind: 'condition', nodeId: 'lo', result: false })
  t.equal(never.nearest, null)
  t.match(never.unreachable, /contradict each other: \{\{X\}\} > 5 and \{\{X\}\} < 3 cannot all hold/)
  t.notOk(explainNotGiven(model, { X: 7 }).some((n) => n.nodeId === 'always'), 'advice given is not listed')
})

t.test('behind a Rule Call: the path runs through the call; the caller\'s condition or the called rule\'s can block', async (t) => {
  const model = adviceSet([
    rule('main', 'Main', ask('q-age', 'Age'), condition('adult', '{{Age}} >= 18', call('to-tax', 'tax'))),
  ], [variable('Age'), variable('Income')], {
    externalRules: [{ ...rule('tax', 'Tax', ask('q-income', 'Income'), condition('taxed', '{{Income}} > 12570', advice('pay', 'You pay income tax'))), onlyWhenCalled: true }],
  })
  const minor = notGiven(model, { Age: 12, Income: 20000 }, 'pay')
  t.same(minor.paths[0]!.path, ['adult', 'to-tax', 'taxed', 'pay'])
  t.match(minor.paths[0]!.blocker, { kind: 'condition', nodeId: 'adult' }, 'the call never ran')
  t.same(minor.nearest!.changes.map((c) => c.variable), ['Age'])
  const low = notGiven(model, { Age: 30, Income: 5000 }, 'pay')
  t.match(low.paths[0]!.blocker, { kind: 'condition', nodeId: 'taxed', result: false })
  t.ok(gives(model, low.nearest!.inputs, 'pay'))
  const unasked = notGiven(model, { Age: 30 }, 'pay')
  t.match(unasked.paths[0]!.blocker, { kind: 'question', variable: 'Income' }, 'a run stopped at a question says so')
  t.same(unasked.nearest!.changes.map((c) => [c.variable, 'from' in c]), [['Income', false]], 'an answer to add')
})

t.test('an exit before the node, and a rule no call reaches', async (t) => {
  const model = adviceSet([
    rule('r1', 'Gate', condition('stop', '{{X}} > 5', exit('out')), advice('after', 'After the gate')),
    { ...rule('orphan', 'Orphan', advice('lost', 'Never called')), onlyWhenCalled: true },
  ], [variable('X')])
  const after = notGiven(model, { X: 9 }, 'after')
  t.same(after.paths[0]!.blocker, { kind: 'exit', nodeId: 'out' })
  t.same(after.nearest!.changes.map((c) => c.variable), ['X'])
  t.ok(gives(model, after.nearest!.inputs, 'after'))
  const lost = notGiven(model, { X: 1 }, 'lost')
  t.same(lost.paths, [])
  t.match(lost.unreachable, /runs only where a Rule Call calls it/)
})

t.test('a path behind Rule Exits nested in earlier siblings: three answers change at once, and the run proves it', async (t) => {
  // Found by the property below: the first search order spent its whole budget on X alone, never trying Y and B
  // together, so no nearest answers were offered although they exist.
  const model = adviceSet([
    rule('r0', 'R0',
      condition('c-y-not-z', '{{Y}} != "z"', condition('c-x-a', '{{X}} < 1 && {{Y}} == "a"', advice('a-first', 'First')), condition('c-not-b', '!{{B}}', exit('x-b'))),
      condition('c-y-not-a', '{{Y}} != "a"', condition('c-y-b', '{{Y}} == "b"', exit('x-y'), advice('a-never', 'After the exit'))),
      condition('c-x-9', '{{X}} < 9', condition('c-x-0', '{{X}} != 0', advice('target', 'Target')))),
  ], [variable('X'), variable('Y', { dataType: 'select', options: ['a', 'b', 'c'] }), variable('B', { dataType: 'boolean' })])
  const entry = notGiven(model, { X: 0, Y: 'b', B: false }, 'target')
  t.same(entry.paths[0]!.blocker, { kind: 'exit', nodeId: 'x-b' })
  t.same(entry.nearest!.changes.map((c) => c.variable).sort(), ['B', 'X', 'Y'])
  t.ok(gives(model, entry.nearest!.inputs, 'target'))
})

t.test('property: on random sets, nearest answers give their node; none are offered only when no answers can', async (t) => {
  const grid: Array<Record<string, unknown>> = []
  for (let X = -1; X <= 11; X += 0.5) for (const Y of OPTIONS_Y) for (const B of [true, false]) grid.push({ X, Y, B })
  let proven = 0
  fc.assert(fc.property(randomAdviceSet, fc.record({ X: fc.integer({ min: -1, max: 11 }), Y: fc.constantFrom(...OPTIONS_Y), B: fc.boolean() }), (model, answers) => {
    const compiled = compileAdviceSet(model)
    for (const entry of explainNotGiven(model, answers)) {
      const reached = (inputs: Record<string, unknown>) => evaluate(compiled, inputs, { now: NOW, render: false }).advice.some((item) => item.nodeId === entry.nodeId)
      if (entry.nearest) {
        if (!reached(entry.nearest.inputs)) return false
        proven++
      } else if (grid.some(reached)) return false
    }
    return true
  }), { numRuns: 150 })
  t.ok(proven > 50, `${proven} nearest answers run and proven`)
})
