// Issue 23 defect 5: the debug island shows a run as the server page does, formulas included: presentResult reads
// /api/rule/debug's answer (the result and the formulas beside it) into the page's RunView.
import t from 'tap'
import { compileAdviceSet, evaluate, whyNot } from '../../../src/engine/index.ts'
import { runView } from '../../../src/services/authoring/rule-debug-page.ts'
import { presentResult } from '../../../islands/rule-debug/present.ts'
import { adviceSet, ask, condition, advice, formula, rule, variable } from '../../fixtures/engine/build.ts'

t.test('the island lists formula values as the server page does', async (t) => {
  const compiled = compileAdviceSet(adviceSet([rule('r', 'R', ask('q', 'Income'), condition('c', '[[Tax]] > 10', advice('a', 'Pay')))], [
    variable('Income'), formula('Tax', '{{Income}} * 0.2', { dataType: 'number', displayFormat: '$0,0' }),
  ]))
  const result = evaluate(compiled, { Income: 1000 }, { trace: true })
  const sent = JSON.parse(JSON.stringify({ result, formulas: result.formulas })) as { result: unknown; formulas: unknown }
  const shown = presentResult(sent.result, 'text', sent.formulas)
  t.same(shown.variables.filter((v) => v.kind === 'formula'), [{ name: 'Tax', kind: 'formula', value: '200', valueFormatted: '$200', isSystem: false }])
  t.same(shown.variables, runView(result, 'text').variables, 'the same rows as the server renders')
})

t.test('the island shows reasons and "Advice not given" as the server page does', async (t) => {
  const compiled = compileAdviceSet(adviceSet([rule('r', 'R', ask('q', 'Income'),
    condition('c', '{{Income}} > 10', advice('a', 'Pay')), condition('d', '{{Income}} > 500', advice('b', 'Pay more')))], [variable('Income')]))
  const inputs = { Income: 100 }
  const result = evaluate(compiled, inputs, { trace: true, explain: true })
  const notGiven = whyNot(compiled, inputs, result)
  const links = { run: (answers: Record<string, string>) => `?run=${JSON.stringify(answers)}`, ask: (nodeId: string) => `?why=${nodeId}` }
  const sent = JSON.parse(JSON.stringify({ result, formulas: result.formulas, notGiven })) as { result: unknown; formulas: unknown; notGiven: unknown }
  const shown = presentResult(sent.result, 'text', sent.formulas, { entries: sent.notGiven, links })
  const server = runView(result, 'text', { entries: notGiven, links })
  t.same(shown.advice, server.advice, 'items with their reasons')
  t.same(shown.advice[0]!.reasons.map((r) => [r.text, r.result, r.reads.map((read) => `${read.name}=${read.value} (${read.from})`)]), [['{{Income}} > 10', 'true', ['{{Income}}=100 (answered at node q)']]])
  t.same(shown.notGiven, server.notGiven, 'the same not-given entries')
  t.same(shown.notGiven.map((n) => [n.nodeId, n.paths[0]!.blocker.expression, n.changes]), [['b', '{{Income}} > 500', [`{{Income}}: 100 → ${JSON.stringify(notGiven[0]!.nearest!.changes[0]!.to)}`]]])
  t.match(shown.notGiven[0]!.useHref, /^\?run=/)
})
