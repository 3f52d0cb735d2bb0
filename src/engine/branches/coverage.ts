// Scenario coverage (DESIGN "Testing advice"): which generated branches the saved scenarios reach. A scenario
// reaches a branch when its run's trace walks the branch's whole path (pathReached), so a run is given either as
// its trace (a stored run) or as its inputs (run here, on the same compiled set the branches came from).
import type { CompiledAdviceSet } from '../tree/compiled.ts'
import type { ApiPort } from '../tree/options.ts'
import type { TraceEntry } from '../tree/result.ts'
import type { Branch } from './index.ts'
import { pathVisited, visitedNodes } from './outcome.ts'
import { NO_API_VALUE, answersRun } from './run.ts'

export type CoverageRun =
  | { trace: ReadonlyArray<Pick<TraceEntry, 'nodeId' | 'value'>> }
  | { inputs: Record<string, unknown>; now?: Date }

export interface BranchCoverage {
  /** For each branch (same order): the indexes of the runs that reach it. */
  reachedBy: number[][]
  reached: number
  total: number
  /** reached ÷ total, 1 when there are no branches. */
  ratio: number
}

export function branchCoverage(
  compiled: CompiledAdviceSet,
  branches: ReadonlyArray<Pick<Branch, 'path'>>,
  runs: readonly CoverageRun[],
  options: { apiPort?: ApiPort } = {},
): BranchCoverage {
  const apiPort = options.apiPort ?? NO_API_VALUE
  const visits = runs.map((run) => visitedNodes('trace' in run ? run.trace : answersRun(compiled, run.inputs, { apiPort, ...(run.now ? { now: run.now } : {}) }).trace ?? []))
  const reachedBy = branches.map((branch) => {
    const leafIsCondition = compiled.nodeById.get(branch.path[branch.path.length - 1] ?? '')?.type === 'condition'
    const by: number[] = []
    visits.forEach((visited, index) => { if (pathVisited(visited, branch.path, leafIsCondition)) by.push(index) })
    return by
  })
  const reached = reachedBy.filter((by) => by.length > 0).length
  return { reachedBy, reached, total: branches.length, ratio: branches.length === 0 ? 1 : reached / branches.length }
}
