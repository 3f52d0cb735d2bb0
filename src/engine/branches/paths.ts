// Root-to-leaf paths through the rule trees, in run order. A Rule Call continues into the called rule: the path
// to a leaf inside the called rule goes through the call node (so the conditions above the call are part of it),
// and the call node's own children are a further list of leaves after it. A rule already being called on the way
// down is not entered again (the engine refuses such cycles at run time), so the call is then a leaf. A condition
// whose children always exit the rule, met before a node on the way down, is one the path needs false: it is listed
// with the path, as the run must not take it.
import type { CompiledNode, CompiledRule } from '../tree/compiled.ts'
import { KIND_CALL } from '../tree/compiled.ts'
import { alwaysExits } from '../checks/reachability.ts'

export interface TreePath {
  ruleId: string
  nodes: CompiledNode[]
  /** Set when an earlier sibling of a node on the path always exits the rule. */
  afterExit: boolean
  /** Earlier siblings of nodes on the path that exit the rule when their condition holds: the path needs each false. */
  avoided: CompiledNode[]
}

/** The rule a node calls and the path may enter, or null (not a call, missing rule, or a call cycle). */
function enterable(node: CompiledNode, calls: readonly string[]): CompiledRule | null {
  if (node.kind !== KIND_CALL || node.called === null || node.called.nodes.length === 0) return null
  return calls.includes(node.called.id) ? null : node.called
}

const STEP_TYPES: ReadonlySet<string> = new Set(['inputRequest', 'formula', 'variableAssignment', 'apiCall', 'conditionAlways'])

/** A leaf that decides nothing: after it the run goes on (a question answered, a value set, an empty "Always"). */
export function isStep(leaf: CompiledNode): boolean {
  return STEP_TYPES.has(leaf.type) && leaf.children.length === 0
}

function exitsAfter(node: CompiledNode): boolean {
  return node.type === 'ruleExit' || (node.type === 'conditionAlways' && alwaysExits(node.children))
}

/** Root-to-leaf paths of the given rules, in rule and sibling order; lazy, so a caller may stop at any path. */
export function* treePaths(rules: readonly CompiledRule[]): Generator<TreePath, void, undefined> {
  const stack: CompiledNode[] = []
  function* walk(ruleId: string, nodes: readonly CompiledNode[], afterExit: boolean, avoided: readonly CompiledNode[], calls: readonly string[]): Generator<TreePath, void, undefined> {
    let exited = afterExit
    const avoiding = [...avoided]
    for (const node of nodes) {
      stack.push(node)
      const called = enterable(node, calls)
      if (node.children.length === 0 && called === null) yield { ruleId, nodes: [...stack], afterExit: exited, avoided: [...avoiding] }
      else {
        if (called !== null) yield* walk(ruleId, called.nodes, exited, avoiding, [...calls, called.id])
        if (node.children.length > 0) yield* walk(ruleId, node.children, exited, avoiding, calls)
      }
      stack.pop()
      if (exitsAfter(node)) exited = true
      else if (node.type === 'condition' && alwaysExits(node.children)) avoiding.push(node)
    }
  }
  for (const rule of rules) yield* walk(rule.id, rule.nodes, false, [], [rule.id])
}

/**
 * How many paths treePaths gives. Each rule's count is worked out once, so shared rules cost nothing more per call
 * site; a call back into a rule still being counted counts as one leaf (exact for every set without call cycles).
 */
export function countPaths(rules: readonly CompiledRule[]): number {
  const perRule = new Map<string, number>()
  const counting = new Set<string>()
  const ruleCount = (rule: CompiledRule): number => {
    const known = perRule.get(rule.id)
    if (known !== undefined) return known
    counting.add(rule.id)
    const count = listCount(rule.nodes)
    counting.delete(rule.id)
    perRule.set(rule.id, count)
    return count
  }
  const listCount = (nodes: readonly CompiledNode[]): number => {
    let sum = 0
    for (const node of nodes) {
      const called = node.kind === KIND_CALL && node.called !== null && node.called.nodes.length > 0 && !counting.has(node.called.id) ? node.called : null
      const below = (called === null ? 0 : ruleCount(called)) + (node.children.length > 0 ? listCount(node.children) : 0)
      sum += below === 0 ? 1 : below
    }
    return sum
  }
  return rules.reduce((sum, rule) => sum + ruleCount(rule), 0)
}
