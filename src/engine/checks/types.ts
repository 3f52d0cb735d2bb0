import type { SourceSpan } from '../errors.ts'

export type CheckSeverity = 'error' | 'warning'

export interface CheckIssue {
  /** The node the issue is about; for dictionary entries, the entity id. */
  nodeId: string
  /** Null for issues about dictionary entries. */
  ruleId: string | null
  /** The rule the issue is about when that is not the rule it is reported in (a called rule, reported at the call). */
  aboutRuleId?: string
  code: string
  severity: CheckSeverity
  message: string
  /** Where in the node's expression, when the issue has a position. */
  span?: SourceSpan
}
