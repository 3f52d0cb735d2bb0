// Scenario coverage (DESIGN "Testing advice"), told two ways: which generated branches the saved scenarios reach, and
// which advice items of the set they give. A scenario reaches a branch when its run's trace walks the branch's whole
// path (pathReached), so a run is given either as its trace (a stored run) or as its inputs (run here, on the same
// compiled set the branches came from, by the branch tools' run). A prefix branch — one that ends at a question or
// another step that decides nothing — is not an outcome of its own: it is reported but not counted.
import type { CompiledAdviceSet, CompiledNode } from '../tree/compiled.ts'
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
  /** Branches that are outcomes (not prefixes) and that some run reaches, and how many outcomes there are. */
  reached: number
  total: number
  /** reached ÷ total, 1 when there are no outcome branches. */
  ratio: number
  /** Advice items of the set (advice nodes its rules can run, through the rules they call): given by some run, or not. */
  advice: { reached: number; total: number; missing: string[] }
}

export function branchCoverage(
  compiled: CompiledAdviceSet,
  branches: ReadonlyArray<Pick<Branch, 'path'> & { prefix?: boolean }>,
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
  const outcomes = branches.flatMap((branch, i) => (branch.prefix === true ? [] : [i]))
  const reached = outcomes.filter((i) => reachedBy[i]!.length > 0).length
  const items = adviceNodes(compiled)
  const missing = items.filter((id) => !visits.some((visited) => visited.has(id)))
  return {
    reachedBy, reached, total: outcomes.length, ratio: outcomes.length === 0 ? 1 : reached / outcomes.length,
    advice: { reached: items.length - missing.length, total: items.length, missing },
  }
}

/** Advice nodes the set's rules can run, in tree order: under the top-level rules and the rules they call, each once. */
export function adviceNodes(compiled: CompiledAdviceSet): string[] {
  const out: string[] = []
  const seenRules = new Set<string>()
  const walk = (nodes: readonly CompiledNode[]): void => {
    for (const node of nodes) {
      if (node.type === 'advice') out.push(node.id)
      if (node.called && !seenRules.has(node.called.id)) {
        seenRules.add(node.called.id)
        walk(node.called.nodes)
      }
      walk(node.children)
    }
  }
  for (const rule of compiled.rules) {
    if (seenRules.has(rule.id)) continue
    seenRules.add(rule.id)
    walk(rule.nodes)
  }
  return out
}
