// The conditions (and Always nodes) above each node in its own rule, root first: the steps a run took inside a rule to
// reach the node. Worked out once per compiled set.
import { KIND_ALWAYS, KIND_CONDITION, type CompiledAdviceSet, type CompiledNode } from './compiled.ts'

const ancestorsBySet = new WeakMap<CompiledAdviceSet, ReadonlyMap<string, readonly CompiledNode[]>>()
const NONE: readonly CompiledNode[] = Object.freeze([])

export function ancestorsOf(compiled: CompiledAdviceSet, node: CompiledNode): readonly CompiledNode[] {
  let ancestors = ancestorsBySet.get(compiled)
  if (ancestors === undefined) ancestorsBySet.set(compiled, ancestors = allAncestors(compiled))
  return ancestors.get(node.id) ?? NONE
}

function allAncestors(compiled: CompiledAdviceSet): Map<string, readonly CompiledNode[]> {
  const ancestors = new Map<string, readonly CompiledNode[]>()
  const walk = (nodes: readonly CompiledNode[], above: readonly CompiledNode[]) => {
    for (const node of nodes) {
      ancestors.set(node.id, above)
      if (node.children.length > 0) walk(node.children, node.kind === KIND_CONDITION || node.kind === KIND_ALWAYS ? [...above, node] : above)
    }
  }
  for (const rule of new Set(compiled.ruleById.values())) walk(rule.nodes, NONE)
  return ancestors
}
