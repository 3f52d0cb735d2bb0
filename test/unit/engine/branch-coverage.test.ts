// branchCoverage: which generated branches a list of runs (traces or inputs) reaches.
import t from 'tap'
import { branchCoverage, compileAdviceSet, evaluate, generateBranches } from '../../../src/engine/index.ts'
import { loan } from '../../fixtures/engine/loan.ts'

const NOW = new Date('2026-01-15T00:00:00Z')
const compiled = compileAdviceSet(loan)
const { branches } = generateBranches(loan, { now: NOW })

t.test('every branch\'s own inputs reach it: full coverage', async (t) => {
  const coverage = branchCoverage(compiled, branches, branches.map((branch) => ({ inputs: branch.inputs, now: NOW })))
  t.equal(coverage.reached, branches.length)
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
  t.equal(fromTrace.total, branches.length)
})

t.test('no branches: coverage is complete', async (t) => {
  t.same(branchCoverage(compiled, [], []), { reachedBy: [], reached: 0, total: 0, ratio: 1 })
})
