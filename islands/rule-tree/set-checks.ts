// The whole set's static checks (unreachable nodes, reads before any set, unknown names, cycles …) as the server
// computes them for this rule (GET /api/rule/{id}/checks), arranged by node for the tree.
import type { CheckIssue } from '../../src/engine/checks/index.ts'

/** Issues of this rule's nodes by node id, each node's errors before its warnings. */
export function issuesByNode(issues: readonly CheckIssue[], ruleId: number): Map<number, CheckIssue[]> {
  const byNode = new Map<number, CheckIssue[]>()
  for (const issue of issues) {
    if (issue.ruleId !== String(ruleId)) continue
    const nodeId = Number(issue.nodeId)
    if (!Number.isSafeInteger(nodeId)) continue
    byNode.set(nodeId, [...(byNode.get(nodeId) ?? []), issue])
  }
  for (const list of byNode.values()) list.sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1))
  return byNode
}
