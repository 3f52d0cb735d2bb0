// Issue 23 defect 5: formula values are part of what a run shows. A run's result reads each formula's value as the
// run ended, and a traced run reports a Formula node's value ("= 0.2"), without the reading changing the run.
import t from 'tap'
import { compileAdviceSet, evaluate } from '../../../src/engine/index.ts'
import { advice, adviceSet, ask, condition, formula, formulaNode, rule, variable } from '../../fixtures/engine/build.ts'

const model = adviceSet([rule('r', 'Afford',
  ask('q-income', 'Income'),
  ask('q-debts', 'Debts'),
  formulaNode('f-node', 'Share', '{{Debts}} / {{Income}} * 100'),
  condition('c-high', '[[Ratio]] > 0.4', advice('a-high', 'Too much debt')),
  condition('c-low', '[[Ratio]] <= 0.4', advice('a-low', 'Fine')),
)], [
  variable('Income'), variable('Debts'), variable('Extra'),
  formula('Ratio', '{{Debts}} / {{Income}}', { dataType: 'number', displayFormat: '0.00' }),
  formula('Share', '0'),
  formula('Padded', '{{Extra}} + 1'),
])
const compiled = compileAdviceSet(model)
const NOW = new Date('2026-01-15T00:00:00Z')

t.test('a run reads each formula as the run ended', async (t) => {
  const result = evaluate(compiled, { Income: 60000, Debts: 12000, Extra: 4 }, { now: NOW })
  t.equal(result.formulaValueOf('Ratio'), 0.2)
  t.equal(result.formulaValueOf('Share'), 20, 'a formula a Formula node redefined has the value it ended with')
  t.equal(result.formulaValueOf('Nope'), undefined)
  t.same(result.formulas.Ratio, { value: 0.2, valueFormatted: '0.20' }, 'formatted as the dictionary says')
  t.notOk('Extra' in result.variables, 'reading a formula does not make an unread answer part of the run')
  t.equal(result.formulas.Padded?.value, 5)
  t.notOk('Extra' in result.variables)
})

t.test('a formula that cannot be computed has no value', async (t) => {
  const result = evaluate(compiled, { Income: 0, Debts: 12000 }, { now: NOW })
  t.equal(result.formulaValueOf('Ratio'), undefined)
  t.notOk('Ratio' in result.formulas)
  t.match(result.errors[0], { nodeId: 'c-high', code: 'INCOMPLETE_ADVICE' }, 'the run still fails where it read it')
})

t.test('a traced run shows a Formula node\'s value, and the outcome is the untraced one', async (t) => {
  const inputs = { Income: 60000, Debts: 12000 }
  const traced = evaluate(compiled, inputs, { now: NOW, trace: true })
  t.equal(traced.trace!.find((entry) => entry.nodeId === 'f-node')?.value, 20)
  const untraced = evaluate(compiled, inputs, { now: NOW })
  t.same(traced.advice, untraced.advice)
  t.same(traced.variables, untraced.variables)
  const waiting = evaluate(compiled, { Income: 60000 }, { now: NOW, trace: true })
  t.equal(waiting.currentFocus?.variable, 'Debts', 'a run that stops before the node never reaches it')
})

t.test('a Formula node without an expression of its own works out the dictionary\'s formula (one definition)', async (t) => {
  const oneDefinition = compileAdviceSet(adviceSet([rule('r', 'Afford',
    ask('q-income', 'Income'),
    ask('q-debts', 'Debts'),
    { id: 'f-ratio', type: 'formula', variable: 'Ratio', children: [] },
    condition('c-high', '[[Ratio]] > 0.4', advice('a-high', 'Too much debt')),
  )], [variable('Income'), variable('Debts'), formula('Ratio', '{{Debts}} / {{Income}}')]))
  t.same(oneDefinition.errors, [], 'it compiles without an expression')
  const result = evaluate(oneDefinition, { Income: 10000, Debts: 5000 }, { now: NOW, trace: true })
  t.equal(result.trace!.find((entry) => entry.nodeId === 'f-ratio')?.value, 0.5, 'the trace shows the dictionary formula\'s value there')
  t.same(result.advice.map((item) => item.nodeId), ['a-high'])
  const failing = evaluate(oneDefinition, { Income: 0, Debts: 5000 }, { now: NOW, trace: true })
  t.equal(failing.trace!.find((entry) => entry.nodeId === 'f-ratio')?.value, null, 'a value that cannot be worked out shows none')
  t.match(failing.errors, [{ nodeId: 'c-high', code: 'INCOMPLETE_ADVICE' }], 'and the run fails where the formula is read, as without the node')
})
