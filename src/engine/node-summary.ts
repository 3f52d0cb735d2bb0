// One line saying what a rule node does, the same wherever a tree is drawn (the editor, the debugger).
import type { NodeType } from './entity-types.ts'

export interface SummarisedNode {
  type: NodeType
  expression?: string | null
  variable?: string | null
  question?: string | null
  headline?: string | null
  text?: string | null
  calledRuleId?: string | number | null
  apiId?: string | null
}

/** `ruleName` names a called rule by id; an unknown one reads "Rule {id}". `apiName` names an external API by id. */
export function nodeSummary(node: SummarisedNode, ruleName: (id: string) => string | undefined, apiName?: (id: string) => string | undefined): string {
  switch (node.type) {
    case 'condition':
    case 'variableAssignment':
      return node.expression ?? ''
    case 'conditionAlways':
      return 'Always'
    case 'inputRequest':
      return [node.variable ? `{{${node.variable}}}` : '', node.question ?? ''].filter(Boolean).join(' — ')
    case 'formula':
      if (!node.variable) return node.expression ?? ''
      return node.expression ? `[[${node.variable}]] = ${node.expression}` : `[[${node.variable}]]`
    case 'advice':
      return node.headline || node.text || ''
    case 'ruleCall': {
      if (node.calledRuleId === null || node.calledRuleId === undefined) return ''
      const id = String(node.calledRuleId)
      return ruleName(id) ?? `Rule ${id}`
    }
    case 'ruleExit':
      return 'Exit this rule'
    case 'apiCall':
      return [node.apiId ? apiName?.(node.apiId) ?? node.apiId : '', node.variable ? `→ {{${node.variable}}}` : ''].filter(Boolean).join(' ')
  }
}
