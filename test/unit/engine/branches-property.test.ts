// Branch generation against brute force: on random small advice sets, a path is reported reachable exactly when
// some input on a grid that covers every case reaches it. Constants are whole numbers 0..10, so every region a
// conjunction of comparisons allows holds a point of the half-step grid from -1 to 11.
import t from 'tap'
import fc from 'fast-check'
import { generateBranches, pathReached } from '../../../src/engine/branches/index.ts'
import { branchCoverage } from '../../../src/engine/branches/coverage.ts'
import { compileAdviceSet, evaluate } from '../../../src/engine/tree/index.ts'
import type { TraceEntry } from '../../../src/engine/tree/index.ts'
import { OPTIONS_Y, randomAdviceSet } from '../../fixtures/engine/random-sets.ts'

const NOW = new Date('2026-01-15T00:00:00Z')
const GRID_X = Array.from({ length: 25 }, (_, i) => -1 + i / 2)
const GRID_Y = OPTIONS_Y
const GRID_B = [true, false]

t.test('reachable paths are exactly those some input reaches', async (t) => {
  const stats = { branches: 0, unreachable: 0 }
  fc.assert(
    fc.property(randomAdviceSet, (model) => {
      const report = generateBranches(model, { now: NOW })
      const compiled = compileAdviceSet(model)
      const traces: TraceEntry[][] = []
      for (const X of GRID_X) for (const Y of GRID_Y) for (const B of GRID_B) {
        traces.push(evaluate(compiled, { X, Y, B }, { context: 'genbranches', trace: true, render: false, now: NOW }).trace!)
      }
      const reachable = (path: string[]) => {
        const leaf = compiled.nodeById.get(path[path.length - 1]!)!
        return traces.some((trace) => pathReached(trace, path, leaf.type === 'condition'))
      }
      for (const branch of report.branches) {
        const result = evaluate(compiled, branch.inputs, { context: 'genbranches', trace: true, render: false, now: NOW })
        const leaf = compiled.nodeById.get(branch.path[branch.path.length - 1]!)!
        if (!pathReached(result.trace!, branch.path, leaf.type === 'condition')) return false
      }
      stats.branches += report.branches.length
      stats.unreachable += report.unreachable.length
      return report.unreachable.every((path) => !reachable(path.path)) && report.branches.every((branch) => reachable(branch.path))
    }),
    { numRuns: 150 },
  )
  t.comment(`${stats.branches} branches and ${stats.unreachable} unreachable paths checked`)
  t.ok(stats.unreachable > 0 && stats.branches > 0, 'both kinds occur')
})

t.test('coverage: every branch is reached by its own answers, so saved branches cover 100%', async (t) => {
  fc.assert(
    fc.property(randomAdviceSet, (model) => {
      const report = generateBranches(model, { now: NOW })
      const coverage = branchCoverage(compileAdviceSet(model), report.branches, report.branches.map((branch) => ({ inputs: branch.inputs, now: NOW })))
      return coverage.ratio === 1 && coverage.reachedBy.every((by, i) => by.includes(i))
    }),
    { numRuns: 100 },
  )
  t.pass('100 random advice sets')
})

