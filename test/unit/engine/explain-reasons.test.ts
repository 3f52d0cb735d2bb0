// Issue 27 point 1: a run that explains itself gives each advice item the steps from its rule's root, each condition
// with its expression as written, the values it read (and where each came from) and its result; a run that stops at a
// question says which path made that question the next one.
import t from 'tap'
import { compileAdviceSet, evaluate, type ApiPort, type Reason } from '../../../src/engine/index.ts'
import type { AdviceSetModel } from '../../../src/engine/model.ts'
import { advice, adviceSet, always, api, ask, assign, call, condition, exit, formula, rule, variable } from '../../fixtures/engine/build.ts'

const NOW = new Date('2026-01-15T00:00:00Z')
const explain = (model: AdviceSetModel, inputs: Record<string, unknown>, apiPort?: ApiPort) =>
  evaluate(compileAdviceSet(model), inputs, { now: NOW, render: false, explain: true, ...(apiPort ? { apiPort } : {}) })
const reasonsOf = (model: AdviceSetModel, inputs: Record<string, unknown>, nodeId: string, apiPort?: ApiPort): Reason[] =>
  explain(model, inputs, apiPort).explanation!.items.get(nodeId)!
const steps = (reasons: Reason[]) => reasons.map((r) => `${r.type}:${r.nodeId}`)

const pension = adviceSet([
  rule('r1', 'Pension', ask('q-age', 'Age'),
    condition('c-age', '{{Age}} >= 55 && [[Years_Left]] < 20',
      assign('set-band', '{{Band}} = "senior"'),
      always('al', condition('c-band', '{{Band}} == "senior" && {{Income}} > 1000', advice('a-senior', 'Senior advice'))))),
], [
  variable('Age'), variable('Income', { defaultValue: 2000 }), variable('Band', { dataType: 'freetext' }),
  formula('Years_Left', '75 - {{Age}}', { dataType: 'number' }),
])

t.test('conditions and Always from the root, with the values read and where they came from', async (t) => {
  const reasons = reasonsOf(pension, { Age: 60 }, 'a-senior')
  t.same(steps(reasons), ['condition:c-age', 'conditionAlways:al', 'condition:c-band'], 'root first, the item last reached')
  const [age, al, band] = reasons
  t.equal(age!.expression, '{{Age}} >= 55 && [[Years_Left]] < 20', 'the expression as written')
  t.equal(age!.result, true)
  t.same(age!.reads, [
    { kind: 'variable', name: 'Age', value: 60, valueFormatted: '60', from: { kind: 'answer', nodeId: 'q-age' } },
    { kind: 'formula', name: 'Years_Left', value: 15, valueFormatted: '15', from: { kind: 'formula', expression: '75 - {{Age}}' } },
  ], 'a variable answered at its question, a formula with its expression')
  t.same(al, { nodeId: 'al', ruleId: 'r1', type: 'conditionAlways', result: true, reads: [] }, 'an Always holds without reading')
  t.same(band!.reads, [
    { kind: 'variable', name: 'Band', value: 'senior', valueFormatted: 'senior', from: { kind: 'assignment', nodeId: 'set-band', expression: '{{Band}} = "senior"' } },
    { kind: 'variable', name: 'Income', value: 2000, valueFormatted: '2,000', from: { kind: 'default' } },
  ], 'an assigned value names its assignment; an unanswered one its default')
  const given = reasonsOf(pension, { Age: 60, Income: 5000 }, 'a-senior')
  t.same(given[2]!.reads[1]!.from, { kind: 'input' }, 'an answer read without a question is an input')
})

t.test('a value an API Call gave names the call', async (t) => {
  const model = adviceSet([
    rule('r1', 'Rates', api('fetch', 'rates', 'Rate', condition('c-rate', '{{Rate}} > 4', advice('high', 'Rates are high')))),
  ], [variable('Rate')])
  const reasons = reasonsOf(model, {}, 'high', () => 5.25)
  t.same(reasons[0]!.reads, [{ kind: 'variable', name: 'Rate', value: 5.25, valueFormatted: '5.25', from: { kind: 'api', nodeId: 'fetch', apiId: 'rates' } }])
})

t.test('an item of a called rule: the caller\'s conditions, the call, then the called rule\'s own', async (t) => {
  const model = adviceSet([
    rule('main', 'Main', condition('c-main', '{{Age}} > 18', call('do-call', 'helper')), call('again', 'helper')),
  ], [variable('Age'), variable('Debt')], {
    externalRules: [{ ...rule('helper', 'Helper', condition('c-debt', '{{Debt}} > 100', exit('stop')), condition('c-ok', '{{Debt}} <= 100', advice('no-debt', 'No debt worries'))), onlyWhenCalled: true }],
  })
  const adult = reasonsOf(model, { Age: 30, Debt: 50 }, 'no-debt')
  t.same(steps(adult), ['condition:c-main', 'ruleCall:do-call', 'condition:c-ok'], 'through the call that ran it')
  t.same(adult[1]!.calledRule, { id: 'helper', name: 'Helper' })
  const minor = reasonsOf(model, { Age: 12, Debt: 50 }, 'no-debt')
  t.same(steps(minor), ['ruleCall:again', 'condition:c-ok'], 'the other call gave it when the first did not run')
  const exited = explain(model, { Age: 30, Debt: 500 })
  t.equal(exited.advice.length, 0, 'an exit ends the called rule before the item')
  t.equal(exited.explanation!.evaluations.get('c-debt')!.result, true, 'the exit\'s condition is kept as decided')
  t.notOk(exited.explanation!.evaluations.has('c-ok'), 'the condition after the exit was never decided')
})

t.test('a run stopped at a question says which path made it the next one', async (t) => {
  const model = adviceSet([
    rule('r1', 'Housing', ask('q-own', 'Owner', 'Do you own?'), condition('c-own', '{{Owner}} == true', ask('q-value', 'Value', 'What is it worth?'))),
  ], [variable('Owner', { dataType: 'boolean' }), variable('Value')])
  const result = explain(model, { Owner: true })
  t.equal(result.currentFocus?.variable, 'Value')
  t.same(steps(result.explanation!.focus!), ['condition:c-own'])
  t.same(result.explanation!.focus![0]!.reads[0]!.from, { kind: 'answer', nodeId: 'q-own' })
  const json = JSON.parse(JSON.stringify(result)) as { currentFocus: { reasons: Reason[] } }
  t.same(json.currentFocus.reasons, JSON.parse(JSON.stringify(result.explanation!.focus)), 'the JSON result carries them on the focus')
})

t.test('explaining changes nothing about the outcome', async (t) => {
  for (const inputs of [{ Age: 60 }, { Age: 40 }, { Age: 60, Income: 10 }, {}]) {
    const plain = evaluate(compileAdviceSet(pension), inputs, { now: NOW, render: false })
    const explained = explain(pension, inputs)
    t.same(explained.advice.map((a) => a.nodeId), plain.advice.map((a) => a.nodeId), JSON.stringify(inputs))
    t.same(explained.currentFocus?.variable, plain.currentFocus?.variable)
    t.same(explained.errors, plain.errors)
    t.equal(explained.trace, undefined, 'no trace unless asked for')
  }
  const json = JSON.parse(JSON.stringify(explain(pension, { Age: 60 }))) as { advice: Array<{ nodeId: string; reasons: Reason[] }> }
  t.same(steps(json.advice[0]!.reasons), ['condition:c-age', 'conditionAlways:al', 'condition:c-band'], 'the JSON result carries reasons on each item')
  t.notOk('explanation' in JSON.parse(JSON.stringify(evaluate(compileAdviceSet(pension), { Age: 60 }, { now: NOW }))).advice[0], 'and none without explain')
})
