// What choosing a result does (SPEC.md §2): on the current rule's page a result in the same rule scrolls to its
// node in the rule tree, or says it is already shown when that node is the active one; anything else opens the
// result's uri (here, in a new tab or in a new window).
import type { OpenTarget } from './keyboard.ts'
import type { SearchHit } from './hit.ts'

export const ALREADY_VIEWING = "You're already viewing the search result you selected."

export type Selection =
  | { kind: 'scroll', nodeId: string }
  | { kind: 'already-viewing' }
  | { kind: 'open', uri: string, target: OpenTarget }

export interface RulePage {
  currentRuleId: string | null
  /** Whether the rule tree on the page shows the node, and whether it is the active one. */
  nodeState(nodeId: string): 'absent' | 'shown' | 'active'
}

export function chooseSelection(hit: Pick<SearchHit, 'uri' | 'nodeId' | 'ruleId'>, target: OpenTarget, page: RulePage): Selection {
  const sameRule = target === 'self' && page.currentRuleId !== null && hit.ruleId === page.currentRuleId
  if (sameRule && hit.nodeId !== null) {
    const state = page.nodeState(hit.nodeId)
    if (state === 'active') return { kind: 'already-viewing' }
    if (state === 'shown') return { kind: 'scroll', nodeId: hit.nodeId }
  }
  return { kind: 'open', uri: hit.uri, target }
}

/**
 * The rule tree's side of the contract: each node element carries `data-node-id`, and the active one also
 * `aria-current="true"`.
 */
export function domRulePage(document: Document, currentRuleId: string | null): RulePage {
  return {
    currentRuleId,
    nodeState(nodeId) {
      const node = document.querySelector(`[data-node-id="${CSS.escape(nodeId)}"]`)
      if (!node) return 'absent'
      return node.getAttribute('aria-current') === 'true' ? 'active' : 'shown'
    },
  }
}
