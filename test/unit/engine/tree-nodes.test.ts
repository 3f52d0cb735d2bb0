import t from 'tap'
import { apiFailure, compileAdviceSet, evaluate } from '../../../src/engine/tree/index.ts'
import type { EvaluateOptions } from '../../../src/engine/tree/index.ts'
import type { AdviceSetModel } from '../../../src/engine/model.ts'
import {
  advice,
  adviceSet,
  always,
  api,
  ask,
  assign,
  call,
  condition,
  exit,
  formula,
  formulaNode,
  rule,
  variable,
} from '../../fixtures/engine/build.ts'

const NOW = new Date('2026-01-15T00:00:00Z')
function run(model: AdviceSetModel, inputs: Record<string, unknown> = {}, options: EvaluateOptions = {}) {
  return evaluate(compileAdviceSet(model), inputs, { now: NOW, render: false, ...options })
}
const ids = (items: ReadonlyArray<{ nodeId: string }>) => items.map((item) => item.nodeId)

t.test('condition runs its children only when true', async (t) => {
  const model = adviceSet(
    [rule('r', 'R', condition('c1', '{{A}} > 5', advice('yes', 'Big')), condition('c2', '{{A}} <= 5', advice('no', 'Small')))],
    [variable('A')],
  )
  t.same(ids(run(model, { A: 7 }).advice), ['yes'])
  t.same(ids(run(model, { A: 5 }).advice), ['no'])
})

t.test('condition (always) runs its children; siblings run in order', async (t) => {
  const model = adviceSet([rule('r', 'R', advice('first', '1'), always('k', advice('second', '2'), advice('third', '3')), advice('fourth', '4'))], [])
  t.same(ids(run(model).advice), ['first', 'second', 'third', 'fourth'])
})

t.test('children of non-condition nodes run after the node', async (t) => {
  const model = adviceSet([rule('r', 'R', ask('q', 'A', 'A?', advice('after', 'After {{A}}')))], [variable('A')])
  t.same(ids(run(model, { A: 1 }).advice), ['after'])
  t.same(run(model).advice, [])
})

t.test('input request: answered is recorded with the coerced value, unanswered stops the run as the focus', async (t) => {
  const model = adviceSet(
    [
      rule('r1', 'First', ask('q1', 'Rate', 'Your rate?'), ask('q2', 'Name', 'Your name, {{Rate}}?'), advice('a1', 'Done')),
      rule('r2', 'Second', advice('a2', 'Later rule')),
    ],
    [variable('Rate', { dataType: 'percent' }), variable('Name', { dataType: 'freetext' })],
  )
  const partial = run(model, { Rate: '4.2' })
  t.equal(partial.inputRequests.length, 1)
  t.equal(partial.inputRequests[0]!.variable, 'Rate')
  t.equal(partial.inputRequests[0]!.value, 0.042)
  t.equal(partial.currentFocus?.nodeId, 'q2')
  t.equal(partial.currentFocus?.variable, 'Name')
  t.equal(partial.currentFocus?.dataType, 'freetext')
  t.equal(partial.currentFocus?.question, 'Your name, 4.2%?', 'the focus question is rendered')
  t.same(partial.advice, [], 'nothing after the open question runs, not even later rules')
  t.equal(partial.done, false)

  const complete = run(model, { Rate: '4.2', Name: 'Ann' })
  t.equal(complete.currentFocus, undefined)
  t.same(ids(complete.advice), ['a1', 'a2'])
  t.same(complete.inputRequests.map((answer) => answer.nodeId), ['q1', 'q2'])
  t.equal(complete.done, true)
})

t.test('an answer that cannot be coerced keeps the question in focus with the reason', async (t) => {
  const model = adviceSet([rule('r', 'R', ask('q', 'Age'), advice('a', 'x'))], [variable('Age')])
  const result = run(model, { Age: 'twelve' })
  t.equal(result.currentFocus?.nodeId, 'q')
  t.ok(result.currentFocus?.error?.code)
  t.match(result.currentFocus?.error?.message, /number/i)
  t.same(result.advice, [])
})

t.test('a closed-set question offers its options in the focus', async (t) => {
  const model = adviceSet([rule('r', 'R', ask('q', 'Colour'))], [variable('Colour', { dataType: 'select', options: ['Red', 'Blue'] })])
  t.same(run(model).currentFocus?.options, ['Red', 'Blue'])
})

t.test('variable assignment supports =, += and -= and later nodes see the value', async (t) => {
  const model = adviceSet(
    [
      rule(
        'r',
        'R',
        assign('s1', '{{Total}} = 10'),
        assign('s2', '{{Total}} += {{Fee}}'),
        assign('s3', 'Total -= 1'),
        condition('c', '{{Total}} == 14', advice('ok', 'Total is {{Total}}')),
      ),
    ],
    [variable('Total'), variable('Fee')],
  )
  const result = run(model, { Fee: 5 })
  t.same(ids(result.advice), ['ok'])
  t.equal(result.variables.Total?.value, 14)
})

t.test('formulas are computed from current values; a formula node redefines the formula for the rest of the run', async (t) => {
  const model = adviceSet(
    [
      rule(
        'r',
        'R',
        condition('c1', '[[Double]] == 4', advice('before', 'Before')),
        assign('s', '{{A}} = 3'),
        condition('c2', '[[Double]] == 6', advice('after-assign', 'After assignment')),
        formulaNode('f', 'Double', '{{A}} * 10'),
        condition('c3', '[[Double]] == 30', advice('after-redefine', 'After redefinition')),
      ),
    ],
    [variable('A'), formula('Double', '{{A}} * 2')],
  )
  t.same(ids(run(model, { A: 2 }).advice), ['before', 'after-assign', 'after-redefine'])
})

t.test('advice is split into advice, assumptions and examples by tag', async (t) => {
  const model = adviceSet(
    [
      rule(
        'r',
        'R',
        advice('plain', 'Plain', '', ['collapse']),
        advice('assume', 'Assume', '', ['assumption']),
        advice('example', 'Example', '', ['example', 'follow-on']),
      ),
    ],
    [],
  )
  const result = run(model)
  t.same(ids(result.advice), ['plain'])
  t.same(ids(result.assumptions), ['assume'])
  t.same(ids(result.examples), ['example'])
  t.same(result.examples[0]!.tags, ['example', 'follow-on'])
})

t.test('rule exit ends the current rule only', async (t) => {
  const model = adviceSet(
    [rule('r1', 'R1', advice('a1', '1'), exit('x'), advice('a2', 'never')), rule('r2', 'R2', advice('a3', '3'))],
    [],
  )
  t.same(ids(run(model).advice), ['a1', 'a3'])
})

t.test('rule call runs the other rule inline; an exit there returns to the caller', async (t) => {
  const helper = rule('helper', 'Helper', advice('h1', 'In helper'), exit('hx'), advice('h2', 'never'))
  const model = adviceSet(
    [rule('main', 'Main', advice('m1', 'Before'), call('call', 'helper', advice('m2', 'Child of call')), advice('m3', 'After'))],
    [],
    { externalRules: [helper] },
  )
  t.same(ids(run(model).advice), ['m1', 'h1', 'm2', 'm3'])
})

t.test('a question inside a called rule stops the whole run', async (t) => {
  const helper = rule('helper', 'Helper', ask('hq', 'A'))
  const model = adviceSet([rule('main', 'Main', call('call', 'helper'), advice('m', 'After'))], [variable('A')], {
    externalRules: [helper],
  })
  const result = run(model)
  t.equal(result.currentFocus?.nodeId, 'hq')
  t.equal(result.currentFocus?.ruleId, 'helper')
  t.same(result.advice, [])
})

t.test('a rule-call cycle fails that rule with a clear error and the other rules still run', async (t) => {
  const model = adviceSet(
    [
      rule('a', 'Alpha', advice('a1', 'alpha'), call('ab', 'b')),
      rule('b', 'Beta', call('ba', 'a')),
      rule('c', 'Gamma', advice('c1', 'gamma')),
    ],
    [],
  )
  const result = run(model)
  t.same(ids(result.advice), ['a1', 'c1'], 'alpha runs at top level and again inside beta; its advice appears once')
  t.equal(result.errors.length, 2)
  t.equal(result.errors[0]!.code, 'INCOMPLETE_ADVICE')
  t.equal(result.errors[0]!.cause?.code, 'RULE_CALL_CYCLE')
  t.equal(result.errors[0]!.ruleId, 'a')
  t.equal(result.errors[0]!.nodeId, 'ba')
  t.match(result.errors[0]!.cause?.message, /"Alpha" → "Beta" → "Alpha"/)
})

t.test('rule-call depth is bounded', async (t) => {
  const rules = Array.from({ length: 6 }, (_, i) => rule(`r${i}`, `R${i}`, call(`c${i}`, `r${i + 1}`)))
  const model = adviceSet([rules[0]!], [], { externalRules: [...rules.slice(1), rule('r6', 'R6', advice('deep', 'deep'))] })
  t.same(ids(run(model).advice), ['deep'])
  const bounded = run(model, {}, { maxCallDepth: 3 })
  t.same(bounded.advice, [])
  t.equal(bounded.errors[0]?.cause?.code, 'CALL_DEPTH')
})

t.test('the step limit stops runaway work with an error', async (t) => {
  const leaf = rule('leaf', 'Leaf', advice('l', 'x'))
  const fan = rule('fan', 'Fan', call('f1', 'leaf'), call('f2', 'leaf'), call('f3', 'leaf'))
  const model = adviceSet([fan, rule('next', 'Next', advice('n', 'never'))], [], { externalRules: [leaf] })
  const result = run(model, {}, { maxSteps: 4 })
  t.equal(result.errors.length, 1)
  t.equal(result.errors[0]!.code, 'STEP_LIMIT')
  t.same(ids(result.advice), ['l'], 'the run stops entirely, later rules do not run (and the leaf’s advice appears once)')
})

t.test('API call: the port answers, or the call is reported pending and the run stops', async (t) => {
  const model = adviceSet(
    [rule('r', 'R', api('call', 'credit-score', 'Score', condition('c', '{{Score}} > 700', advice('good', 'Good score'))), advice('after', 'After'))],
    [variable('Score'), variable('Customer', { dataType: 'freetext' })],
  )
  const pending = run(model, { Customer: 'C1' })
  t.same(pending.pendingApiCalls, [{ nodeId: 'call', ruleId: 'r', apiId: 'credit-score', variable: 'Score' }])
  t.same(pending.advice, [])
  t.equal(pending.done, false)

  const requests: Array<{ apiId: string; customer: unknown }> = []
  const answered = run(model, { Customer: 'C1' }, {
    apiPort: (apiId, request) => {
      requests.push({ apiId, customer: request.valueOf('Customer') })
      return 720
    },
  })
  t.same(requests, [{ apiId: 'credit-score', customer: 'C1' }])
  t.same(ids(answered.advice), ['good', 'after'])
  t.equal(answered.variables.Score?.value, 720)
})

t.test('API call: a pending call skips the rest of its rule only, so one run collects the calls of every rule', async (t) => {
  const model = adviceSet(
    [
      rule('r1', 'Rates', api('c1', 'rates', 'Rate', advice('rated', 'Rate {{Rate}}')), advice('r1-after', 'After the rate')),
      rule('r2', 'Score', advice('r2-before', 'Before the score'), api('c2', 'score', 'Score')),
      rule('r3', 'Plain', advice('plain', 'Plain advice')),
    ],
    [variable('Rate'), variable('Score')],
  )
  const pending = run(model, {}, { apiPort: () => undefined })
  t.same(pending.pendingApiCalls.map((call) => call.nodeId), ['c1', 'c2'], 'the calls of both rules are collected in one run')
  t.same(ids(pending.advice), ['r2-before', 'plain'], 'the rest of a rule waiting for an answer is skipped; other rules run')
  t.same(pending.errors, [], 'waiting is not an error')
  t.equal(pending.done, false)
})

t.test('API call: the port names the data it used in Data_Api_Sources, each once', async (t) => {
  const model = adviceSet(
    [rule('r', 'R', api('c1', 'rates', 'Rate'), api('c2', 'rates', 'Fee'), advice('a', 'Sources: {{Data_Api_Sources}}'))],
    [variable('Rate'), variable('Fee')],
  )
  const result = run(model, {}, { dataApiSources: ['given'], apiPort: (_apiId, request) => { request.useSource('Rates (fetched 2026-01-02T03:04:05.000Z)'); return 1 } })
  t.same(result.variables.Data_Api_Sources?.value, ['given', 'Rates (fetched 2026-01-02T03:04:05.000Z)'])
})

t.test('API call: a failure from the port makes its rule incomplete advice with the failure as cause; the others run', async (t) => {
  const model = adviceSet(
    [rule('r1', 'Rates', api('c1', 'rates', 'Rate', advice('rated', 'Rate {{Rate}}'))), rule('r2', 'Plain', advice('plain', 'Plain advice'))],
    [variable('Rate')],
  )
  const result = run(model, {}, { apiPort: () => apiFailure('API_TIMEOUT', 'The external API "Rates" did not answer within 500 ms.') })
  t.same(ids(result.advice), ['plain'])
  t.same(result.pendingApiCalls, [])
  t.equal(result.done, true)
  t.same(result.errors.map((e) => [e.code, e.nodeId, e.cause?.code]), [['INCOMPLETE_ADVICE', 'c1', 'API_TIMEOUT']])
  t.equal(result.errors[0]!.message, 'Incomplete advice: the rule "Rates" could not finish. The external API "Rates" did not answer within 500 ms.')
})

t.test('compile errors are collected per node; the broken rule fails, the others run', async (t) => {
  const model = adviceSet(
    [
      rule('bad', 'Bad', advice('b0', 'before'), condition('c', '{{A}} = 5', advice('b1', 'never'))),
      rule('missing', 'Missing', call('m', 'nowhere')),
      rule('good', 'Good', advice('g', 'fine')),
    ],
    [variable('A')],
  )
  const compiled = compileAdviceSet(model)
  t.same(
    compiled.errors.map((error) => [error.nodeId, error.ruleId]),
    [
      ['c', 'bad'],
      ['m', 'missing'],
    ],
  )
  t.ok(compiled.errors[0]!.span, 'parse errors keep their position')
  t.equal(compiled.errors[1]!.code, 'UNKNOWN_RULE')
  const result = evaluate(compiled, { A: 5 }, { render: false })
  t.same(ids(result.advice), ['b0', 'g'])
  t.same(result.errors.map((error) => [error.code, error.nodeId, error.cause?.code]), [
    ['INCOMPLETE_ADVICE', 'c', compiled.errors[0]!.code],
    ['INCOMPLETE_ADVICE', 'm', 'UNKNOWN_RULE'],
  ])
})

t.test('assigning to a constant is a compile error', async (t) => {
  const model = adviceSet([rule('r', 'R', assign('s', '{{Pi}} = 3'))], [variable('Pi', { isConstant: true, defaultValue: 3.14 })])
  t.equal(compileAdviceSet(model).errors[0]?.code, 'CONSTANT_ASSIGNMENT')
})

t.test('a node without its required field is a compile error', async (t) => {
  const model = adviceSet([rule('r', 'R', { id: 'q', type: 'inputRequest', children: [] })], [])
  const errors = compileAdviceSet(model).errors
  t.equal(errors[0]?.code, 'MISSING_FIELD')
  t.equal(errors[0]?.nodeId, 'q')
})
