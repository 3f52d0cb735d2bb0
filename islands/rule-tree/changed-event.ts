// Dispatched on `document` by the rule tree once a change of its saved tree has settled (after the same quiet time
// as the whole-set checks), so other parts of the page that show the rule's shape (the header's stats) read it again.
export const RULE_TREE_CHANGED_EVENT = 'rule-tree:changed'

export interface RuleTreeChange { ruleId: number }

export function ruleTreeChangeOf(event: Event): RuleTreeChange | null {
  const ruleId = Number((event as CustomEvent<{ ruleId?: unknown } | null>).detail?.ruleId)
  return Number.isSafeInteger(ruleId) ? { ruleId } : null
}
