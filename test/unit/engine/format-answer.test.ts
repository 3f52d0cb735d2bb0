// An answer shown as a run of the set would show it (a scenario's answers on its page): the variable's data type and
// display format, or null when the answer cannot be shown that way.
import t from 'tap'
import { compileAdviceSet, formatAnswer } from '../../../src/engine/tree/index.ts'
import { adviceSet, ask, rule, variable } from '../../fixtures/engine/build.ts'

const compiled = compileAdviceSet(adviceSet(
  [rule('r', 'Loans', ask('q1', 'Employed'), ask('q2', 'Salary'), ask('q3', 'Start'))],
  [variable('Employed', { dataType: 'boolean' }), variable('Salary', { displayFormat: '$0,0' }), variable('Start', { dataType: 'date', displayFormat: 'dd/MM/yyyy' })],
))

t.test('as the run formats it', async (t) => {
  t.equal(formatAnswer(compiled, 'Employed', true), 'Yes')
  t.equal(formatAnswer(compiled, 'Employed', false), 'No')
  t.equal(formatAnswer(compiled, 'Salary', 60000), '$60,000')
  t.equal(formatAnswer(compiled, 'Salary', '60,000'), '$60,000', 'coerced as the run coerces it')
  t.equal(formatAnswer(compiled, 'Start', '2026-05-01'), '01/05/2026')
})

t.test('null when it cannot be', async (t) => {
  t.equal(formatAnswer(compiled, 'Salary', 'lots'), null, 'an answer the variable refuses')
  t.equal(formatAnswer(compiled, 'Nobody', 1), null, 'no such variable')
  t.equal(formatAnswer(compiled, 'Salary', null), null, 'no answer')
})
