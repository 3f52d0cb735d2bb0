// branchCoverage: which generated branches a list of runs (traces or inputs) reaches, and which advice items they give.
import t from 'tap'
import { branchCoverage, compileAdviceSet, evaluate, generateBranches } from '../../../src/engine/index.ts'
import { loan } from '../../fixtures/engine/loan.ts'
import { advice, adviceSet, always, ask, condition, formula, rule, variable } from '../../fixtures/engine/build.ts'

const NOW = new Date('2026-01-15T00:00:00Z')
const compiled = compileAdviceSet(loan)
const { branches } = generateBranches(loan, { now: NOW })

t.test('every branch\'s own inputs reach it: full coverage', async (t) => {
  const coverage = branchCoverage(compiled, branches, branches.map((branch) => ({ inputs: branch.inputs, now: NOW })))
  t.equal(coverage.reached, branches.filter((branch) => !branch.prefix).length)
  t.equal(coverage.ratio, 1)
  coverage.reachedBy.forEach((by, i) => t.ok(by.includes(i), `branch ${i} is reached by its own inputs`))
})

t.test('one scenario reaches the branches its run walks, and no others', async (t) => {
  const inputs = { Age: 70, Income: 0, Employed: true, Region: 'South', Rate: 5 }
  const trace = evaluate(compiled, inputs, { trace: true, render: false, now: NOW }).trace!
  const fromTrace = branchCoverage(compiled, branches, [{ trace }])
  const fromInputs = branchCoverage(compiled, branches, [{ inputs, now: NOW }])
  t.same(fromTrace, fromInputs, 'a stored trace and the inputs give the same answer')
  const reachedLeaves = branches.filter((_, i) => fromTrace.reachedBy[i]!.length > 0).map((branch) => branch.path.at(-1))
  t.ok(reachedLeaves.includes('a-senior'))
  t.notOk(reachedLeaves.includes('a-minor'))
  t.notOk(reachedLeaves.includes('a-prime'))
  t.ok(fromTrace.ratio > 0 && fromTrace.ratio < 1)
  t.equal(fromTrace.total, branches.filter((branch) => !branch.prefix).length, 'prefix branches (questions) are not counted')
})

t.test('no branches: coverage is complete', async (t) => {
  const empty = compileAdviceSet(adviceSet([], []))
  t.same(branchCoverage(empty, [], []), { reachedBy: [], reached: 0, total: 0, ratio: 1, advice: { reached: 0, total: 0, missing: [] } })
})

// The case: branches that end at a question counted as outcomes, so two scenarios giving 2 of 3 advice items
// read as "6 of 7". Counted as outcomes only, with advice items beside them, the same scenarios read 2 of 3 twice.
const mortgage = adviceSet(
  [rule('r', 'Affordability', always('al', ask('q-income', 'Income'), ask('q-debts', 'Debts'),
    condition('c-high', '[[Ratio]] > 0.4', advice('a-high', 'Too high')),
    condition('c-mid', '[[Ratio]] <= 0.4 && [[Ratio]] > 0.2', advice('a-mid', 'Affordable')),
    condition('c-low', '[[Ratio]] <= 0.2', advice('a-low', 'Easily affordable'))))],
  [variable('Income'), variable('Debts'), formula('Ratio', '{{Debts}} / {{Income}}')],
)

t.test('prefix branches are not outcomes; advice items covered are counted beside branches', async (t) => {
  const generated = generateBranches(mortgage, { now: NOW })
  const mortgageCompiled = compileAdviceSet(mortgage)
  const scenarios = [{ inputs: { Income: 1000, Debts: 500 }, now: NOW }, { inputs: { Income: 1000, Debts: 100 }, now: NOW }]
  const coverage = branchCoverage(mortgageCompiled, generated.branches, scenarios)
  t.equal(generated.branches.length, 5, 'two questions and three outcomes')
  t.same([coverage.reached, coverage.total], [2, 3], 'branches reached: 2 of 3 (the questions are prefixes)')
  t.same(coverage.advice, { reached: 2, total: 3, missing: ['a-mid'] }, 'advice covered: 2 of 3')
})

t.test('advice items include those of called rules, each once, and those no answer reaches', async (t) => {
  const model = adviceSet([
    rule('main', 'Main', condition('c', '{{X}} > 1', { id: 'k1', type: 'ruleCall', calledRuleId: 'shared', children: [] }), { id: 'k2', type: 'ruleCall', calledRuleId: 'shared', children: [] }),
    rule('other', 'Other', condition('never', '{{X}} > 1 && {{X}} < 0', advice('a-never', 'Never'))),
  ], [variable('X')], { externalRules: [rule('shared', 'Shared', advice('a-shared', 'Shared'))] })
  const coverage = branchCoverage(compileAdviceSet(model), [], [{ inputs: { X: 0 }, now: NOW }])
  t.same(coverage.advice, { reached: 1, total: 2, missing: ['a-never'] })
})
