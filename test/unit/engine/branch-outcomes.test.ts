// Generated branches agree with the engine (issue 23 defect 1): a branch's outcome is the outcome of the run the
// debugger and the Advice API make with its answers (evaluate() with their options: the "run" context, rendered), errors
// included; answers that raise no error are preferred; a path only reached with an error in its rules is an error
// branch; a path that ends at a question (or another step that decides nothing) is a prefix, not an outcome.
import t, { type Test } from 'tap'
import fc from 'fast-check'
import { generateBranches, outcomeOf, pathReached } from '../../../src/engine/branches/index.ts'
import type { Branch } from '../../../src/engine/branches/index.ts'
import { compileAdviceSet, evaluate } from '../../../src/engine/tree/index.ts'
import type { CompiledAdviceSet } from '../../../src/engine/tree/index.ts'
import type { AdviceSetModel } from '../../../src/engine/model.ts'
import { advice, adviceSet, always, ask, assign, condition, exit, formula, rule, variable } from '../../fixtures/engine/build.ts'
import { randomFormulaSet } from '../../fixtures/engine/random-formula-sets.ts'
import { drawdown } from '../../fixtures/engine/drawdown.ts'

const NOW = new Date('2026-01-15T00:00:00Z')

/** The debugger's run of these answers (services/authoring/rules.ts tracedRun: evaluate with a trace, as of `now`). */
const debuggerRun = (compiled: CompiledAdviceSet, inputs: Record<string, unknown>) => evaluate(compiled, inputs, { trace: true, contentType: 'text', now: NOW })

function agreesWithDebugger(t: Test, compiled: CompiledAdviceSet, branch: Branch): void {
  const run = debuggerRun(compiled, branch.inputs)
  const leaf = compiled.nodeById.get(branch.path.at(-1)!)!
  t.ok(pathReached(run.trace!, branch.path, leaf.type === 'condition'), `the debugger's run walks ${branch.path.join(' > ')}`)
  t.same(branch.outcome, outcomeOf(run), `branch to ${branch.path.join(' > ')} reports the debugger's outcome for ${JSON.stringify(branch.inputs)}`)
}

/** The mortgage-affordability set of the issue: a ratio of two answers and conditions on it. */
const affordability: AdviceSetModel = adviceSet(
  [rule('r', 'Affordability', always('al', ask('q-income', 'Income'), ask('q-debts', 'Debts'),
    condition('c-high', '[[Ratio]] > 0.4', advice('a-high', 'Your debts are too high')),
    condition('c-mid', '[[Ratio]] <= 0.4 && [[Ratio]] > 0.2', advice('a-mid', 'You can afford it')),
    condition('c-low', '[[Ratio]] <= 0.2', advice('a-low', 'You can easily afford it'))))],
  [variable('Income'), variable('Debts'), formula('Ratio', '{{Debts}} / {{Income}}', { dataType: 'number' })],
)

t.test('Ratio = Debts / Income: no branch divides by zero, each reports the debugger\'s outcome, every path is reached', async (t) => {
  const report = generateBranches(affordability, { now: NOW })
  const compiled = compileAdviceSet(affordability)
  t.same(report.unreachable, [], 'the 0.2–0.4 band is reached too (answers derived through the formula)')
  t.same(report.branches.map((branch) => branch.path.at(-1)), ['q-income', 'q-debts', 'a-high', 'a-mid', 'a-low'])
  for (const branch of report.branches) {
    t.not(branch.inputs.Income, 0, `${branch.path.at(-1)}: Income is not 0`)
    t.same(branch.outcome?.errors, [], `${branch.path.at(-1)}: no error`)
    t.equal(branch.endsInError, false)
    agreesWithDebugger(t, compiled, branch)
  }
})

t.test('a branch ending at a question is a prefix of the run, not an outcome of its own', async (t) => {
  const report = generateBranches(affordability, { now: NOW })
  t.same(report.branches.map((branch) => [branch.path.at(-1), branch.prefix]), [
    ['q-income', true], ['q-debts', true], ['a-high', false], ['a-mid', false], ['a-low', false],
  ])
  // A rule of questions only: each of them is a step; a formula node and an assignment are steps as well.
  const steps = generateBranches(adviceSet([rule('r', 'R', ask('q', 'X'), { id: 'f', type: 'formula', variable: 'Twice', expression: '{{X}} * 2', children: [] },
    { id: 's', type: 'variableAssignment', expression: '{{Y}} = 1', children: [] })], [variable('X'), variable('Y'), formula('Twice', '{{X}} * 2')]), { now: NOW })
  t.same(steps.branches.map((branch) => branch.prefix), [true, true, true])
})

t.test('a path only reached with an error in its rule is an error branch, with the error the debugger shows', async (t) => {
  // After the advice, the rule always divides by zero: any answer reaching the advice ends in the error.
  const model = adviceSet([rule('r', 'Broken', condition('c', '{{X}} > 5', advice('a', 'Big')), condition('d', '1 / ({{X}} - {{X}}) > 1', advice('b', 'Never')))], [variable('X')])
  const report = generateBranches(model, { now: NOW })
  const compiled = compileAdviceSet(model)
  const branch = report.branches.find((b) => b.path.at(-1) === 'a')!
  t.equal(branch.endsInError, true)
  t.match(branch.outcome?.errors, [{ ruleId: 'r', code: 'INCOMPLETE_ADVICE', message: /could not finish\. Cannot divide by zero\./ }])
  agreesWithDebugger(t, compiled, branch)
})

t.test('an error that answers can avoid is avoided; a text whose formula fails counts as the debugger counts it', async (t) => {
  // Share divides by (X - 3): X = 3 fails. The text of the advice shows Share, so rendering it fails at X = 3 too.
  const model = adviceSet([rule('r', 'R', condition('c', '{{X}} >= 3', advice('a', 'Share', 'Your share is [[Share]]')))],
    [variable('X'), formula('Share', '10 / ({{X}} - 3)')])
  const report = generateBranches(model, { now: NOW })
  const compiled = compileAdviceSet(model)
  const [branch] = report.branches
  t.not(branch?.inputs.X, 3, 'not the answer whose text cannot be shown')
  t.same(branch?.outcome?.errors, [])
  agreesWithDebugger(t, compiled, branch!)
  t.match(outcomeOf(debuggerRun(compiled, { X: 3 })).errors, [{ code: 'UNDEFINED_IN_OUTPUT' }], 'the debugger reports X = 3 as an error')
})

t.test('the drawdown set: ages from a birth date, percents, sums and products, a called rule — every path reached', async (t) => {
  const report = generateBranches(drawdown, { now: NOW })
  const compiled = compileAdviceSet(drawdown)
  t.same(report.unreachable, [], 'no path is called unreachable')
  const byLeaf = new Map(report.branches.map((branch) => [branch.path.join('>'), branch]))
  const age = (inputs: Record<string, unknown>) => evaluate(compiled, inputs, { now: NOW }).valueOf('Birth_Date') as Date
  const years = (branch: Branch) => NOW.getUTCFullYear() - age(branch.inputs).getUTCFullYear()
  t.ok(years(byLeaf.get('c-old>a-old')!) > 75, 'over 75')
  t.ok(years(byLeaf.get('c-mid>k-tax>c-taxed>a-taxed')!) >= 55, '55–75, through the called rule')
  t.ok(years(byLeaf.get('c-early>a-early')!) < 55)
  t.ok(byLeaf.has('c-mid>k-tax>c-untaxed>a-untaxed'))
  t.ok((byLeaf.get('c-mid>c-rate-high>a-rate-high')!.inputs.Withdrawal_Rate as number) > 4, 'a percent answered as typed (5 for 5%)')
  t.ok((byLeaf.get('c-big-pot>a-big-pot')!.inputs.Pot as number) / 12 > 50000)
  t.ok((byLeaf.get('c-top-up>a-top-up')!.inputs.Pot as number) + 25000 >= 100000)
  for (const branch of report.branches) agreesWithDebugger(t, compiled, branch)
})

t.test('a condition on a variable a Variable Assignment set is solved through what it was set to', async (t) => {
  // The drawdown journey's Tax check as an author writes it first: the income assigned, then compared.
  const taxed = adviceSet([rule('r', 'Tax check', ask('q-pot', 'Pot'), ask('q-rate', 'Withdrawal_Rate'),
    assign('s-income', '{{Yearly_Income}} = {{Pot}} * {{Withdrawal_Rate}}'),
    condition('c-untaxed', '{{Yearly_Income}} <= 12570', advice('a-untaxed', 'No income tax')),
    condition('c-taxed', '{{Yearly_Income}} > 12570', advice('a-taxed', 'Income tax will apply')))],
  [variable('Pot'), variable('Withdrawal_Rate', { dataType: 'percent' }), variable('Yearly_Income')])
  const report = generateBranches(taxed, { now: NOW })
  const compiled = compileAdviceSet(taxed)
  t.same(report.unreachable, [], 'no path is called unreachable')
  const branch = report.branches.find((b) => b.path.at(-1) === 'a-taxed')!
  t.ok(evaluate(compiled, branch.inputs, { now: NOW }).valueOf('Yearly_Income') as number > 12570, `the taxed branch draws more than the allowance (${JSON.stringify(branch.inputs)})`)
  for (const b of report.branches) agreesWithDebugger(t, compiled, b)
})

t.test('a path after a condition that exits the rule needs that condition false, on computed values too', async (t) => {
  // Within the allowance Tax check stops (its Rule Exit); the tax advice after it is reached only above it.
  const questions = [ask('q-pot', 'Pot'), ask('q-rate', 'Withdrawal_Rate')]
  const allowance = (income: string) => condition('c-untaxed', `${income} <= 12570`, advice('a-untaxed', 'No income tax'), exit('x-untaxed'))
  const sets: Array<[string, AdviceSetModel]> = [
    ['a formula', adviceSet([rule('r', 'Tax check', ...questions, allowance('[[Yearly_Income]]'), advice('a-taxed', 'Income tax will apply'))],
      [variable('Pot'), variable('Withdrawal_Rate', { dataType: 'percent' }), formula('Yearly_Income', '{{Pot}} * {{Withdrawal_Rate}}')])],
    ['an assignment', adviceSet([rule('r', 'Tax check', ...questions, assign('s-income', '{{Yearly_Income}} = {{Pot}} * {{Withdrawal_Rate}}'),
      allowance('{{Yearly_Income}}'), advice('a-taxed', 'Income tax will apply'))],
    [variable('Pot'), variable('Withdrawal_Rate', { dataType: 'percent' }), variable('Yearly_Income')])],
  ]
  for (const [income, model] of sets) {
    const report = generateBranches(model, { now: NOW })
    const compiled = compileAdviceSet(model)
    t.same(report.unreachable, [], `income from ${income}: no path is called unreachable`)
    const taxed = report.branches.find((b) => b.path.at(-1) === 'a-taxed')
    t.same(taxed?.outcome?.advice, ['a-taxed'], `income from ${income}: the tax advice is reached, above the allowance`)
    for (const b of report.branches) agreesWithDebugger(t, compiled, b)
  }
})

t.test('property: on generated sets with division, dates and rule calls, every branch is the debugger\'s run of its answers', async (t) => {
  let branches = 0
  let errors = 0
  fc.assert(
    fc.property(randomFormulaSet, (model) => {
      const report = generateBranches(model, { now: NOW, maxAttempts: 16 })
      const compiled = compileAdviceSet(model)
      for (const branch of report.branches) {
        const run = debuggerRun(compiled, branch.inputs)
        const leaf = compiled.nodeById.get(branch.path.at(-1)!)!
        if (!pathReached(run.trace!, branch.path, leaf.type === 'condition')) return false
        const expected = outcomeOf(run)
        if (JSON.stringify(expected) !== JSON.stringify(branch.outcome)) return false
        const pathRules = new Set([branch.ruleId, ...branch.path.map((id) => compiled.nodeById.get(id)!.ruleId)])
        if (branch.endsInError !== expected.errors.some((error) => pathRules.has(error.ruleId))) return false
        branches++
        if (expected.errors.length > 0) errors++
      }
      return true
    }),
    { numRuns: 60 },
  )
  t.comment(`${branches} branches checked, ${errors} of them with errors`)
  t.ok(branches > 0)
})
