// Issue 23 defect 5: the debug island shows a run as the server page does, formulas included: presentResult reads
// /api/rule/debug's answer (the result and the formulas beside it) into the page's RunView.
import t from 'tap'
import { compileAdviceSet, evaluate } from '../../../src/engine/index.ts'
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
