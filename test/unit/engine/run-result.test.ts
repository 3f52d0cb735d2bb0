import t from 'tap'
import { compileAdviceSet, evaluate } from '../../../src/engine/tree/index.ts'
import type { EvaluateOptions } from '../../../src/engine/tree/index.ts'
import type { AdviceSetModel } from '../../../src/engine/model.ts'
import { advice, adviceSet, always, ask, assign, condition, formula, formulaNode, rule, variable } from '../../fixtures/engine/build.ts'

const NOW = new Date('2026-01-15T00:00:00Z')
function run(model: AdviceSetModel, inputs: Record<string, unknown> = {}, options: EvaluateOptions = {}) {
  return evaluate(compileAdviceSet(model), inputs, { now: NOW, ...options })
}
const ids = (items: ReadonlyArray<{ nodeId: string }>) => items.map((item) => item.nodeId)

const income = adviceSet(
  [
    rule(
      'r1',
      'Income',
      ask('q-income', 'Income', 'What do you earn?'),
      condition('c-rich', '{{Income}} > 50000', advice('a-rich', 'Earning {{Income}}', 'You earn **[[Monthly]]** a month.', [], { sources: [{ id: 's1', name: 'Tax guide' }] })),
      advice('a-always', 'Always', 'Sourced twice', [], { sources: [{ id: 's1', name: 'Tax guide' }, { id: 's2', name: 'Budget' }] }),
    ),
  ],
  [variable('Income', { displayFormat: '$0,0' }), formula('Monthly', '{{Income}} / 12', { dataType: 'number', displayFormat: '$0,0' })],
)

t.test('result carries the advice set, answered inputs with formatted values, variables and sources', async (t) => {
  const result = run(income, { Income: '60,000' })
  t.same(result.adviceSet, { id: 'set', name: 'Test set' })
  t.equal(result.inputRequests.length, 1)
  const answer = result.inputRequests[0]!
  t.equal(answer.value, 60000)
  t.equal(answer.valueFormatted, '$60,000')
  t.equal(answer.question, 'What do you earn?')
  t.same(result.variables.Income, { value: 60000, valueFormatted: '$60,000', isSystem: false, isConstant: false })
  t.same(result.variables.Context, { value: 'run', valueFormatted: 'run', isSystem: true, isConstant: false })
  t.same(result.sources, [{ id: 's1', name: 'Tax guide' }, { id: 's2', name: 'Budget' }])
  const json = JSON.parse(JSON.stringify(result))
  t.equal(json.inputRequests[0].valueFormatted, '$60,000', 'toJSON includes the lazily formatted values')
  t.equal(json.variables.Income.valueFormatted, '$60,000')
})

t.test('full-response mode renders headline and text in the content type', async (t) => {
  const text = run(income, { Income: 60000 })
  t.equal(text.advice[0]!.headline, 'Earning $60,000')
  t.match(String(text.advice[0]!.text), /\$5,000/)
  const html = run(income, { Income: 60000 }, { contentType: 'html', questionHref: (id) => `#node-${id}` })
  t.match(String(html.advice[0]!.text), /<strong>/)
  t.match(String(html.advice[0]!.headline), /#node-q-income/, 'variable chips link back to the question that set them')
})

t.test('decision mode leaves content unrendered', async (t) => {
  const result = run(income, { Income: 60000 }, { render: false })
  t.same(ids(result.advice), ['a-rich', 'a-always'])
  t.equal(result.advice[0]!.headline, undefined)
  t.equal(result.advice[0]!.text, undefined)
  t.equal(result.inputRequests[0]!.question, 'What do you earn?')
})

t.test('a condition reading an unset variable makes that rule incomplete; other rules still run', async (t) => {
  const model = adviceSet(
    [
      rule('r1', 'Eligibility', advice('a0', 'Start'), condition('c', '{{Age}} > 18', advice('a1', 'Adult'))),
      rule('r2', 'Other', advice('a2', 'Still here')),
    ],
    [variable('Age')],
  )
  const result = run(model, {}, { render: false })
  t.same(ids(result.advice), ['a0', 'a2'])
  t.equal(result.errors.length, 1)
  const error = result.errors[0]!
  t.equal(error.code, 'INCOMPLETE_ADVICE')
  t.equal(error.nodeId, 'c')
  t.equal(error.ruleId, 'r1')
  t.equal(error.variable, 'Age')
  t.equal(error.message, 'Incomplete advice: the rule "Eligibility" could not finish. {{Age}} has no value.')
})

t.test('an evaluation error is told as a sentence of its own after the rule that could not finish', async (t) => {
  const model = adviceSet(
    [rule('r1', 'Affordability', ask('q-debts', 'Debts'), ask('q-income', 'Income'), condition('c', '{{Debts}} / {{Income}} > 0.4', advice('a1', 'Too much debt')))],
    [variable('Debts'), variable('Income')],
  )
  const result = run(model, { Debts: 100, Income: 0 }, { render: false })
  t.same(result.errors.map((e) => [e.code, e.cause?.code]), [['INCOMPLETE_ADVICE', 'DIVISION_BY_ZERO']])
  t.equal(result.errors[0]!.message, 'Incomplete advice: the rule "Affordability" could not finish. Cannot divide by zero.')
})

t.test('a default value is used when nobody set the variable, but does not answer a question', async (t) => {
  const model = adviceSet(
    [rule('r', 'R', condition('c', '{{Limit}} == 10', advice('a', 'Default used')), ask('q', 'Limit'))],
    [variable('Limit', { defaultValue: '10' })],
  )
  const result = run(model, {}, { render: false })
  t.same(ids(result.advice), ['a'])
  t.equal(result.currentFocus?.nodeId, 'q')
  t.equal(result.currentFocus?.defaultValue, 10)
})

t.test('constants keep their value whatever the inputs say', async (t) => {
  const model = adviceSet([rule('r', 'R', condition('c', '{{Rate}} == 0.5', advice('a', 'constant')))], [
    variable('Rate', { isConstant: true, defaultValue: 0.5 }),
  ])
  const result = run(model, { Rate: 9 }, { render: false })
  t.same(ids(result.advice), ['a'])
  t.same(result.variables.Rate, { value: 0.5, valueFormatted: '0.5', isSystem: false, isConstant: true })
})

t.test('formulas are memoised per run and recomputed after a write', async (t) => {
  const model = adviceSet(
    [
      rule(
        'r',
        'R',
        condition('c1', '[[Twice]] > 0', advice('a1', 'x')),
        condition('c2', '[[Twice]] + [[Twice]] > 0', advice('a2', 'y')),
        assign('s', '{{A}} = 5'),
        condition('c3', '[[Twice]] == 10', advice('a3', 'z')),
      ),
    ],
    [variable('A'), formula('Twice', '{{A}} * 2')],
  )
  const compiled = compileAdviceSet(model)
  const index = compiled.formulaIndex.get('Twice')!
  const original = compiled.formulas[index]!
  let computed = 0
  compiled.formulas[index] = {
    ...original,
    expr: (scope) => {
      computed++
      return original.expr!(scope)
    },
  }
  const result = evaluate(compiled, { A: 1 }, { render: false })
  t.same(ids(result.advice), ['a1', 'a2', 'a3'])
  t.equal(computed, 2, 'once before the assignment, once after')
})

t.test('a memoised formula goes stale only by a write to a variable it reads, through other formulas too, or a redefinition', async (t) => {
  const model = adviceSet(
    [
      rule(
        'r',
        'R',
        advice('a1', 'Share [[Share]] of [[Total]]'),
        assign('s1', '{{Other}} = 7'),
        advice('a2', 'Share [[Share]]'),
        assign('s2', '{{B}} = 4'),
        advice('a3', 'Share [[Share]]'),
        formulaNode('f', 'Total', '{{A}} + {{B}} + 100'),
        advice('a4', 'Share [[Share]]'),
      ),
    ],
    [
      variable('A'), variable('B'), variable('Other'),
      formula('Total', '{{A}} + {{B}}', { dataType: 'number', displayFormat: '0,0.00' }),
      formula('Share', 'round({{A}} / [[Total]], 2)'),
    ],
  )
  const compiled = compileAdviceSet(model)
  const counts = { Share: 0, Total: 0 }
  for (const name of ['Share', 'Total'] as const) {
    const index = compiled.formulaIndex.get(name)!
    const original = compiled.formulas[index]!
    compiled.formulas[index] = { ...original, expr: (scope) => { counts[name]++; return original.expr!(scope) } }
  }
  const result = evaluate(compiled, { A: 1, B: 1 }, { contentType: 'text' })
  t.same(result.advice.map((item) => item.headline), ['Share 0.5 of 2.00', 'Share 0.5', 'Share 0.2', 'Share 0.01'])
  t.same(counts, { Share: 3, Total: 2 }, 'not after {{Other}} = 7; after {{B}} = 4 (read through [[Total]]); after Total is redefined (the new Total is not counted)')
})

t.test('a formula that depends on itself fails its rule with FORMULA_CYCLE', async (t) => {
  const model = adviceSet(
    [rule('r1', 'R1', condition('c', '[[Ping]] > 1', advice('a', 'x'))), rule('r2', 'R2', advice('b', 'y'))],
    [formula('Ping', '[[Pong]] + 1'), formula('Pong', '[[Ping]] + 1')],
  )
  const result = run(model, {}, { render: false })
  t.same(ids(result.advice), ['b'])
  t.equal(result.errors[0]?.cause?.code, 'FORMULA_CYCLE')
})

t.test('a missing tag in rendered content is reported and the item still emitted', async (t) => {
  const model = adviceSet([rule('r', 'R', advice('a', 'Hello {{Name}}'))], [variable('Name', { dataType: 'freetext' })])
  const result = run(model)
  t.equal(result.advice.length, 1)
  t.same(result.errors.map((error) => [error.code, error.nodeId, error.variable]), [['UNDEFINED_IN_OUTPUT', 'a', 'Name']])
})

t.test('trace lists every node visited with its value and time, only when asked', async (t) => {
  const model = adviceSet(
    [rule('r', 'R', ask('q', 'A'), condition('c1', '{{A}} > 1', advice('a1', 'x')), condition('c2', '{{A}} > 5', advice('a2', 'y')), always('k', assign('s', '{{B}} = {{A}} + 1')))],
    [variable('A'), variable('B')],
  )
  t.equal(run(model, { A: 3 }).trace, undefined)
  const trace = run(model, { A: 3 }, { trace: true }).trace!
  t.same(
    trace.map((entry) => [entry.nodeId, entry.type, entry.value]),
    [
      ['q', 'inputRequest', 3],
      ['c1', 'condition', true],
      ['a1', 'advice', null],
      ['c2', 'condition', false],
      ['k', 'conditionAlways', null],
      ['s', 'variableAssignment', 4],
    ],
  )
  t.ok(trace.every((entry) => Number.isInteger(entry.durationNs) && entry.durationNs >= 0))
})

t.test('evaluation is deterministic for the same inputs and moment', async (t) => {
  const compiled = compileAdviceSet(income)
  const first = JSON.stringify(evaluate(compiled, { Income: 70000 }, { now: NOW }))
  const second = JSON.stringify(evaluate(compiled, { Income: 70000 }, { now: NOW }))
  t.equal(first, second)
})

t.test('inputs that are not in the dictionary keep their JSON kind; non-values are rejected', async (t) => {
  const model = adviceSet([rule('r', 'R', condition('c', '{{Free}} == "x"', advice('a', 'match')))], [])
  t.same(ids(run(model, { Free: 'x' }, { render: false }).advice), ['a'])
  const bad = run(model, { Free: { nested: true } }, { render: false })
  t.equal(bad.errors[0]?.cause?.code, 'INVALID_INPUT')
})

t.test('inherited object properties are not inputs', async (t) => {
  const model = adviceSet([rule('r', 'R', condition('c', '{{constructor}} == 1', advice('a', 'x')))], [])
  t.equal(run(model, {}, { render: false }).errors[0]?.variable, 'constructor')
})
