// What a run says about branches: whether its trace walked a path, and its outcome in the terms an advice scenario
// expects (the advice items that appear, by node, and the final current focus or "complete") and the debugger shows
// (the errors of the run).
import type { EngineResult, TraceEntry } from '../tree/result.ts'

export interface OutcomeError {
  nodeId: string
  ruleId: string
  code: string
  message: string
}

export interface RunOutcome {
  /** Node ids of the items the run emitted, in run order within each group: advice, then assumptions, then examples. */
  advice: string[]
  /** The input request the run stopped at, or null when nothing was left to ask. */
  focus: string | null
  /** The run's errors (a rule that could not finish, a text's tag without a value), in run order. */
  errors: OutcomeError[]
}

export function outcomeOf(result: EngineResult): RunOutcome {
  const advice: string[] = []
  for (const group of [result.advice, result.assumptions, result.examples]) for (const item of group) advice.push(item.nodeId)
  const errors = result.errors.map(({ nodeId, ruleId, code, message }) => ({ nodeId, ruleId, code, message }))
  return { advice, focus: result.currentFocus?.nodeId ?? null, errors }
}

/** Node id → the value it had on its first visit, or true if any visit found it true. */
export type VisitedNodes = ReadonlyMap<string, unknown>

export function visitedNodes(trace: ReadonlyArray<Pick<TraceEntry, 'nodeId' | 'value'>>): VisitedNodes {
  const visited = new Map<string, unknown>()
  for (const entry of trace) if (!visited.has(entry.nodeId) || entry.value === true) visited.set(entry.nodeId, entry.value)
  return visited
}

/** pathReached over a trace already read into visitedNodes (many paths against one run). */
export function pathVisited(visited: VisitedNodes, path: readonly string[], leafIsCondition: boolean): boolean {
  for (const id of path) if (!visited.has(id)) return false
  return !leafIsCondition || visited.get(path[path.length - 1]!) === true
}

/**
 * Whether a trace visited every node of the path, and, when the path ends in a condition, found it true. One pass
 * over the trace that only looks up the path's few nodes (this runs once per attempt of branch generation).
 */
export function pathReached(trace: ReadonlyArray<Pick<TraceEntry, 'nodeId' | 'value'>>, path: readonly string[], leafIsCondition: boolean): boolean {
  const missing = new Set(path)
  const leaf = path[path.length - 1]
  let leafHeld = !leafIsCondition
  for (const entry of trace) {
    if (entry.nodeId === leaf && entry.value === true) leafHeld = true
    missing.delete(entry.nodeId)
    if (missing.size === 0 && leafHeld) return true
  }
  return false
}
