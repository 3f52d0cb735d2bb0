// The conditions that must have held for a run to reach a node: its condition ancestors in its rule, after those of
// the Rule Call that reached the rule when exactly one Rule Call calls it (a rule called from several places, or
// also running on its own, gives only its own part). Worked out once per compiled version, so a record costs a
// lookup, not a trace.
import { KIND_CALL, KIND_CONDITION, type CompiledAdviceSet, type CompiledNode, type CompiledRule } from '../../engine/tree/compiled.ts'

const pathsOf = new WeakMap<CompiledAdviceSet, ReadonlyMap<string, readonly string[]>>()

export function conditionPath(compiled: CompiledAdviceSet, nodeId: string): readonly string[] {
  let paths = pathsOf.get(compiled)
  if (!paths) pathsOf.set(compiled, paths = allPaths(compiled))
  return paths.get(nodeId) ?? NONE
}

const NONE: readonly string[] = Object.freeze([])

function allPaths(compiled: CompiledAdviceSet): Map<string, readonly string[]> {
  const within = new Map<string, string[]>()
  const callers = new Map<string, string[]>()
  const walk = (nodes: CompiledNode[], above: string[]) => {
    for (const node of nodes) {
      within.set(node.id, above)
      if (node.kind === KIND_CALL && node.called) callers.set(node.called.id, [...(callers.get(node.called.id) ?? []), node.id])
      walk(node.children, node.kind === KIND_CONDITION ? [...above, node.id] : above)
    }
  }
  const rules = new Set<CompiledRule>(compiled.ruleById.values())
  for (const rule of rules) walk(rule.nodes, [])
  const onItsOwn = new Set(compiled.rules.map((rule) => rule.id))
  const prefix = new Map<string, readonly string[]>()
  /** The path to a rule's root: through its only caller, when it has one and does not also run on its own. */
  const prefixOf = (ruleId: string, seen: Set<string>): readonly string[] => {
    const known = prefix.get(ruleId)
    if (known) return known
    const calls = callers.get(ruleId) ?? []
    let path: readonly string[] = NONE
    if (calls.length === 1 && !onItsOwn.has(ruleId) && !seen.has(ruleId)) {
      const call = compiled.nodeById.get(calls[0]!)!
      path = [...prefixOf(call.ruleId, new Set([...seen, ruleId])), ...(within.get(call.id) ?? [])]
    }
    prefix.set(ruleId, path)
    return path
  }
  const paths = new Map<string, readonly string[]>()
  for (const [nodeId, above] of within) {
    const node = compiled.nodeById.get(nodeId)
    paths.set(nodeId, Object.freeze([...(node ? prefixOf(node.ruleId, new Set()) : NONE), ...above]))
  }
  return paths
}
