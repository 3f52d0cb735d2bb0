import type { CompiledNode, CompiledRule } from '../tree/compiled.ts'
import { alwaysExits } from '../checks/reachability.ts'

export interface TreePath {
  ruleId: string
  nodes: CompiledNode[]
  /** Set when an earlier sibling of a node on the path always exits the rule. */
  afterExit: boolean
}

/** Root-to-leaf paths of the given rules, in rule and sibling order; `visit` returning false stops the walk. */
export function forEachPath(rules: readonly CompiledRule[], visit: (path: TreePath) => boolean): void {
  const stack: CompiledNode[] = []
  let going = true
  const walk = (ruleId: string, nodes: CompiledNode[], afterExit: boolean): void => {
    let exited = afterExit
    for (const node of nodes) {
      if (!going) return
      stack.push(node)
      if (node.children.length === 0) going = visit({ ruleId, nodes: [...stack], afterExit: exited })
      else walk(ruleId, node.children, exited)
      stack.pop()
      if (node.type === 'ruleExit' || (node.type === 'conditionAlways' && alwaysExits(node.children))) exited = true
    }
  }
  for (const rule of rules) {
    if (!going) return
    walk(rule.id, rule.nodes, false)
  }
}

export function countPaths(rules: readonly CompiledRule[]): number {
  const count = (nodes: CompiledNode[]): number =>
    nodes.reduce((sum, node) => sum + (node.children.length === 0 ? 1 : count(node.children)), 0)
  return rules.reduce((sum, rule) => sum + count(rule.nodes), 0)
}
