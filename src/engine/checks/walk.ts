import type { CompiledAdviceSet, CompiledNode, CompiledRule } from '../tree/compiled.ts'

/** Every node of every rule (top-level and called), depth first in sibling order. */
export function forEachNode(compiled: CompiledAdviceSet, visit: (entry: { node: CompiledNode; rule: CompiledRule }) => void): void {
  for (const rule of compiled.ruleById.values()) {
    const walk = (nodes: CompiledNode[]): void => {
      for (const node of nodes) {
        visit({ node, rule })
        walk(node.children)
      }
    }
    walk(rule.nodes)
  }
}
