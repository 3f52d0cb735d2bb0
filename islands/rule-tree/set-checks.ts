// The engine's whole-set static checks (unreachable nodes, reads before any set, unknown names, cycles …) on the
// advice set with this rule as it is now in the tree, mapped to this rule's nodes.
import { staticChecks, type CheckIssue } from '../../src/engine/checks/index.ts'
import type { AdviceSetModel } from '../../src/engine/model.ts'
import { nodeModelsOf, type Tree } from './tree.ts'

/** The advice set model with this rule's saved nodes taken from the tree (added when the model lacks the rule). */
export function withLiveRule(model: AdviceSetModel, rule: { id: number; name: string; adviceSetId: number }, tree: Tree): AdviceSetModel {
  const id = String(rule.id)
  const live = { id, name: rule.name, adviceSetId: String(rule.adviceSetId), nodes: nodeModelsOf(tree) }
  const known = model.rules.some((candidate) => candidate.id === id)
  return { ...model, rules: known ? model.rules.map((candidate) => (candidate.id === id ? live : candidate)) : [...model.rules, live] }
}

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

export function checkRule(model: AdviceSetModel, rule: { id: number; name: string; adviceSetId: number }, tree: Tree): Map<number, CheckIssue[]> {
  return issuesByNode(staticChecks(withLiveRule(model, rule, tree)), rule.id)
}
