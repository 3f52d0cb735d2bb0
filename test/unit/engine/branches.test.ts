import t from 'tap'
import { generateBranches, pathReached } from '../../../src/engine/branches/index.ts'
import type { BranchProgress } from '../../../src/engine/branches/index.ts'
import { compileAdviceSet, evaluate } from '../../../src/engine/tree/index.ts'
import type { AdviceSetModel } from '../../../src/engine/model.ts'
import { LOAN_UNREACHABLE_LEAVES, loan } from '../../fixtures/engine/loan.ts'
import { INTERVIEW_UNREACHABLE_LEAVES, interview } from '../../fixtures/engine/interview.ts'
import { advice, adviceSet, condition, rule, variable } from '../../fixtures/engine/build.ts'

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
  // Reaching the leaf needs X == Y, which per-variable reasoning cannot derive, and no candidate pair matches.
  const model = adviceSet([rule('r', 'R', condition('c', '{{X}} * 7 == {{Y}} + 0.5', advice('a', 'rare')))], [variable('X'), variable('Y')])
  const report = generateBranches(model, { now: NOW, maxAttempts: 8 })
  t.same(report.branches, [])
  t.match(report.unreachable[0]?.reason, /None of the 8 combinations/)
})
