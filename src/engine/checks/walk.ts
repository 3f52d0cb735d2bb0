import type { CompiledAdviceSet, CompiledNode, CompiledRule } from '../tree/compiled.ts'

export interface NodeVisit {
  node: CompiledNode
  rule: CompiledRule
  /** Conditions above the node, outermost first. */
  ancestors: CompiledNode[]
}

/** Every node of every rule (top-level and called), depth first in sibling order. */
export function forEachNode(compiled: CompiledAdviceSet, visit: (entry: NodeVisit) => void): void {
  for (const rule of compiled.ruleById.values()) {
    const ancestors: CompiledNode[] = []
    const walk = (nodes: CompiledNode[]): void => {
      for (const node of nodes) {
        visit({ node, rule, ancestors })
        ancestors.push(node)
        walk(node.children)
        ancestors.pop()
      }
    }
    walk(rule.nodes)
  }
}
