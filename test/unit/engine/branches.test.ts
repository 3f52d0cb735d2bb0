import t from 'tap'
import { generateBranches, outcomeOf, pathReached, pathsToExamine, walkBranches } from '../../../src/engine/branches/index.ts'
import type { BranchProgress } from '../../../src/engine/branches/index.ts'
import { compileAdviceSet, evaluate } from '../../../src/engine/tree/index.ts'
import type { AdviceSetModel } from '../../../src/engine/model.ts'
import { LOAN_UNREACHABLE_LEAVES, loan } from '../../fixtures/engine/loan.ts'
import { INTERVIEW_UNREACHABLE_LEAVES, interview } from '../../fixtures/engine/interview.ts'
import { advice, adviceSet, call, condition, rule, variable } from '../../fixtures/engine/build.ts'

const NOW = new Date('2026-01-15T00:00:00Z')
const FIXTURES: Array<[string, AdviceSetModel, string[]]> = [
  ['loan', loan, LOAN_UNREACHABLE_LEAVES],
  ['interview', interview, INTERVIEW_UNREACHABLE_LEAVES],
]

for (const [name, model, unreachableLeaves] of FIXTURES) {
  t.test(`${name}: every reported branch, re-run, reaches its path`, async (t) => {
    const report = generateBranches(model, { now: NOW })
    const compiled = compileAdviceSet(model)
    t.ok(report.branches.length > 0)
    for (const branch of report.branches) {
      t.equal(branch.verified, true)
      const result = evaluate(compiled, branch.inputs, { context: 'genbranches', trace: true, render: false, now: NOW })
      const leaf = compiled.nodeById.get(branch.path[branch.path.length - 1]!)!
      t.ok(pathReached(result.trace!, branch.path, leaf.type === 'condition'), `branch to ${branch.path.join(' > ')} with ${JSON.stringify(branch.inputs)}`)
    }
  })

  t.test(`${name}: the unreachable paths are exactly the ones that are`, async (t) => {
    const report = generateBranches(model, { now: NOW })
    t.same(report.unreachable.map((path) => path.path[path.path.length - 1]).sort(), [...unreachableLeaves].sort())
    for (const path of report.unreachable) t.ok(path.reason.length > 0)
    t.equal(report.truncated, undefined)
  })

  t.test(`${name}: branch generation is deterministic`, async (t) => {
    t.same(generateBranches(model, { now: NOW }), generateBranches(model, { now: NOW }))
  })
}

t.test('loan: unreachable reasons name the cause', async (t) => {
  const report = generateBranches(loan, { now: NOW })
  const reason = (leaf: string) => report.unreachable.find((path) => path.path.at(-1) === leaf)!.reason
  t.match(reason('a-never'), /\{\{Income\}\} > 100000 and \{\{Income\}\} < 50000 cannot all hold/)
  t.match(reason('a-after-exit'), /always exits/)
  t.match(reason('a-west'), /No answer satisfies/)
})

t.test('inputs are raw answers as an API caller sends them', async (t) => {
  const report = generateBranches(loan, { now: NOW })
  const rate = report.branches.find((branch) => branch.path.at(-1) === 'a-rate')!
  t.type(rate.inputs.Rate, 'number')
  t.ok((rate.inputs.Rate as number) > 5, 'a percent is answered as the person types it (5 for 5%)')
  const region = report.branches.find((branch) => branch.path.at(-1) === 'a-mid-region')!
  t.ok(['North', 'East'].includes(region.inputs.Region as string))
})

t.test('the limit bounds the work with a clear message; progress is reported', async (t) => {
  const progress: BranchProgress[] = []
  const report = generateBranches(loan, { now: NOW, limit: 5, onProgress: (step) => progress.push(step) })
  t.equal(report.branches.length + report.unreachable.length, 5)
  t.match(report.truncated?.message, /Only the first 5 of \d+ paths were examined/)
  t.same(progress.map((step) => step.done), [1, 2, 3, 4, 5])
  t.ok(progress.every((step) => step.total === 5))
})

t.test('without verification, branches are listed but not proven', async (t) => {
  const report = generateBranches(loan, { now: NOW, verify: false })
  t.ok(report.branches.length > 0)
  t.ok(report.branches.every((branch) => branch.verified === false))
  t.ok(report.unreachable.some((path) => path.path.at(-1) === 'a-never'), 'contradictions are still found')
})

t.test('a path no answer reaches within the attempt budget is reported unreachable', async (t) => {
  // Reaching the leaf needs one exact text that only a function of the answer is compared with: no candidate has it.
  const model = adviceSet([rule('r', 'R', condition('c', 'concat({{Name}}, "!") == "secret!"', advice('a', 'rare')))], [variable('Name', { dataType: 'freetext' })])
  const report = generateBranches(model, { now: NOW, maxAttempts: 8 })
  t.same(report.branches, [])
  // A free text compared only through a function has one candidate: the report counts what was tried, not the budget.
  t.equal(report.unreachable[0]?.reason, 'The one combination of answers tried does not reach this path.')
  const budget = adviceSet([rule('r', 'R', condition('c', 'concat({{Name}}, "!") == "secret!" && {{N}} > 1 && {{N}} < 5 && {{N}} != 2 && {{N}} != 3 && {{N}} != 4', advice('a', 'rare')))],
    [variable('Name', { dataType: 'freetext' }), variable('N')])
  t.match(generateBranches(budget, { now: NOW, maxAttempts: 8 }).unreachable[0]?.reason, /^None of the \d+ combinations of answers tried reaches this path\.$/)
})

t.test('a path through a Rule Call continues into the called rule, with the conditions above the call', async (t) => {
  const model = adviceSet([
    rule('r1', 'Main', condition('c-old', '{{Age}} >= 65', call('k-old', 'r2', advice('a-after', 'After the call'))), call('k-any', 'r2')),
  ], [variable('Age'), variable('Smoker', { dataType: 'boolean' })], {
    externalRules: [rule('r2', 'Smoking', condition('c-smoke', '{{Smoker}}', advice('a-quit', 'Quit')), advice('a-info', 'Info'))],
  })
  const report = generateBranches(model, { now: NOW })
  t.same(report.branches.map((branch) => branch.path.join(' > ')), [
    'c-old > k-old > c-smoke > a-quit',
    'c-old > k-old > a-info',
    'c-old > k-old > a-after',
    'k-any > c-smoke > a-quit',
    'k-any > a-info',
  ])
  const quit = report.branches[0]!
  t.ok((quit.inputs.Age as number) >= 65 && quit.inputs.Smoker === true, 'answers satisfy the caller\'s and the called rule\'s conditions')
  t.equal(pathsToExamine(compileAdviceSet(model)).total, 5, 'the count agrees with the walk')
})

t.test('a rule calling itself is a leaf, not an endless path', async (t) => {
  const model = adviceSet([rule('r1', 'Loop', condition('c', '{{Age}} > 1', call('k', 'r1')), advice('a', 'Done'))], [variable('Age')])
  const report = generateBranches(model, { now: NOW, verify: false })
  t.same(report.branches.map((branch) => branch.path.join(' > ')), ['c > k', 'a'])
})

t.test('each proven branch carries the outcome of its run', async (t) => {
  const report = generateBranches(loan, { now: NOW })
  const senior = report.branches.find((branch) => branch.path.at(-1) === 'a-senior')!
  t.ok(senior.outcome!.advice.includes('a-senior'))
  t.equal(senior.outcome!.focus, null, 'every question answered: complete')
  const result = evaluate(compileAdviceSet(loan), senior.inputs, { now: NOW })
  t.same(senior.outcome, outcomeOf(result), 'the same outcome as running the inputs')
})

t.test('starting answers: kept in every branch, and paths they rule out are unreachable with the reason', async (t) => {
  const report = generateBranches(loan, { now: NOW, fixed: { Age: 70 } })
  t.ok(report.branches.length > 0)
  t.ok(report.branches.every((branch) => branch.inputs.Age === 70), 'every branch keeps Age = 70')
  t.ok(report.branches.some((branch) => branch.path.at(-1) === 'a-senior'))
  const minor = report.unreachable.find((path) => path.path.at(-1) === 'a-minor')!
  t.match(minor.reason, /The starting answer for \{\{Age\}\} rules this path out \(it needs \{\{Age\}\} < 18\)/)
  const bad = generateBranches(loan, { now: NOW, fixed: { Region: 'Mars' }, limit: 20 })
  t.ok(bad.unreachable.some((path) => /starting answer for \{\{Region\}\}/.test(path.reason)), 'an answer that cannot be used rules paths out')
})

t.test('walkBranches yields after every path and ends with the same report as generateBranches', async (t) => {
  const steps = walkBranches(compileAdviceSet(loan), { now: NOW })
  const progress: number[] = []
  let step = steps.next()
  while (!step.done) {
    progress.push(step.value.done)
    step = steps.next()
  }
  t.same(step.value, generateBranches(loan, { now: NOW }))
  t.same(progress, Array.from({ length: progress.length }, (_, i) => i + 1))
  t.equal(progress.length, step.value.branches.length + step.value.unreachable.length)
})
