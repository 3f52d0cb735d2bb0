// Issue 23 defect 6: numbers are read one way everywhere. The scenario form (and the tree builder's fork) turn a
// typed number into the answer with the engine's own number parser, the one every answer of the embed and the Advice
// API goes through: "60,000", "$60,000" and "4.2%" mean what they mean there.
import t from 'tap'
import { coerceInput, typedNumber } from '../../../src/engine/index.ts'
import { answerOf, type ScenarioField } from '../../../src/services/scenarios/form.ts'

const field = (dataType: 'number' | 'percent'): ScenarioField => ({
  variable: 'X', label: 'X', control: 'number', dataType, options: [], placeholder: '', description: '', nodeId: '1',
})

t.test('typedNumber reads what the embed accepts', async (t) => {
  t.equal(typedNumber('60,000', 'number'), 60000)
  t.equal(typedNumber(' $60,000 ', 'number'), 60000)
  t.equal(typedNumber('-€5.5', 'number'), -5.5)
  t.equal(typedNumber('4.2%', 'percent'), 4.2, 'a percent stays in percent, as an API caller sends it')
  t.equal(typedNumber('4.2', 'percent'), 4.2)
  t.equal(typedNumber('60k', 'number'), undefined)
  t.equal(typedNumber('1,23', 'number'), undefined)
  for (const text of ['60,000', '$60,000']) {
    const coerced = coerceInput('number', text)
    t.same(coerced, { ok: true, value: typedNumber(text, 'number') }, `${text}: the same value the engine coerces`)
  }
  t.same(coerceInput('percent', typedNumber('4.2%', 'percent')), coerceInput('percent', '4.2%'), 'and the same percent')
})

t.test('the scenario form keeps typed numbers as numbers', async (t) => {
  t.equal(answerOf(field('number'), '60,000'), 60000)
  t.equal(answerOf(field('number'), '$60,000'), 60000)
  t.equal(answerOf(field('percent'), '4.2%'), 4.2)
  t.equal(answerOf(field('number'), '42'), 42)
  t.equal(answerOf(field('number'), '60k'), '60k', 'text that is no number stays text, for the check to name')
})
