// Coverage of a source's generated branches by the set's saved scenarios, told two ways (engine branches/coverage.ts):
// the outcome branches they reach (prefixes — paths ending at a question — are not outcomes of their own) and the
// advice items they give ("advice covered: 2 of 3"). The generated-branches page, the summary and the review gate all
// show it from here. The scenarios run now, on the same compiled source the branches came from, as of their own "run
// as of" dates.
import type { AdviceSetRow } from '../../db/queries/advice-sets.ts'
import { findScenariosOfSet } from '../../db/queries/scenarios.ts'
import { branchCoverage, type CompiledAdviceSet, type CoverageRun } from '../../engine/index.ts'
import type { Deps } from '../context.ts'
import { apiIdsOf } from '../integrations/api-runtime.ts'
import { runAnswers, scenarioMoment } from './runs.ts'

export interface CoverageSummary {
  scenarios: number
  /** Outcome branches (not prefixes) some scenario reaches, of all outcome branches. */
  branches: { reached: number; total: number; percent: number }
  /** Advice items some scenario gives, of all the set's advice items; those none gives, by headline. */
  advice: { reached: number; total: number; percent: number; missing: Array<{ nodeId: string; headline: string }> }
  /** Per branch (in the order given): whether a scenario reaches it. */
  reached: boolean[]
}

/** A share as the pages print it: one decimal, rounded down (so 99.95% of the work is never "100%"). */
export function percentOf(reached: number, total: number): number {
  return total === 0 ? 100 : Math.floor((reached / total) * 1000) / 10
}

/** How the set's live scenarios run on `compiled`, as coverage reads them: their answers, or (with API calls) their traces. */
async function scenarioRuns(deps: Deps, set: AdviceSetRow, compiled: CompiledAdviceSet): Promise<CoverageRun[]> {
  const scenarios = await findScenariosOfSet(deps.db, set.id)
  const now = new Date()
  if (apiIdsOf(compiled).length === 0) return scenarios.map((s): CoverageRun => ({ inputs: s.inputs, now: scenarioMoment(s, now) }))
  const runs: CoverageRun[] = []
  for (const s of scenarios) runs.push({ trace: (await runAnswers(deps, set.ownerId, compiled, s, { now, trace: true })).trace ?? [] })
  return runs
}

export async function scenarioCoverage(
  deps: Deps, set: AdviceSetRow, compiled: CompiledAdviceSet, branches: ReadonlyArray<{ path: string[]; kind?: string }>,
): Promise<CoverageSummary> {
  const runs = await scenarioRuns(deps, set, compiled)
  const coverage = branchCoverage(compiled, branches.map((branch) => ({ path: branch.path, prefix: branch.kind === 'prefix' })), runs)
  const headline = (nodeId: string) => {
    const model = compiled.nodeById.get(nodeId)?.model
    return (model?.headline || model?.text || '').trim() || 'Untitled advice'
  }
  return {
    scenarios: runs.length,
    branches: { reached: coverage.reached, total: coverage.total, percent: percentOf(coverage.reached, coverage.total) },
    advice: {
      reached: coverage.advice.reached, total: coverage.advice.total, percent: percentOf(coverage.advice.reached, coverage.advice.total),
      missing: coverage.advice.missing.map((nodeId) => ({ nodeId, headline: headline(nodeId) })),
    },
    reached: coverage.reachedBy.map((by) => by.length > 0),
  }
}
