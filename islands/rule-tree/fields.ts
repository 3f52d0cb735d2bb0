// What an author edits per node type (engine NodeModel docs, src/engine/model.ts) and how a node reads in a row.
import { ENTITY_TYPES, NODE_TYPES, type NodeType } from '../../src/engine/entity-types.ts'
import { nodeSummary as summarise } from '../../src/engine/node-summary.ts'
import type { TreeNode } from './props.ts'

export type FieldName = 'expression' | 'variable' | 'question' | 'headline' | 'text' | 'calledRuleId' | 'apiId'

export type FieldKind =
  | { kind: 'expression'; mode: 'condition' | 'assignment' | 'value' }
  | { kind: 'template'; multiline: boolean }
  | { kind: 'name'; names: 'variable' | 'formula' }
  | { kind: 'rule' }
  | { kind: 'api' }
  | { kind: 'text' }

export interface FieldSpec { name: FieldName; label: string; input: FieldKind }

const FIELDS: Record<NodeType, FieldSpec[]> = {
  condition: [{ name: 'expression', label: 'Condition', input: { kind: 'expression', mode: 'condition' } }],
  conditionAlways: [],
  inputRequest: [
    { name: 'variable', label: 'Variable asked for', input: { kind: 'name', names: 'variable' } },
    { name: 'question', label: 'Question', input: { kind: 'template', multiline: false } },
  ],
  variableAssignment: [{ name: 'expression', label: 'Assignment', input: { kind: 'expression', mode: 'assignment' } }],
  formula: [
    { name: 'variable', label: 'Formula name', input: { kind: 'name', names: 'formula' } },
    { name: 'expression', label: 'Expression (kept in the dictionary)', input: { kind: 'expression', mode: 'value' } },
  ],
  advice: [
    { name: 'headline', label: 'Headline', input: { kind: 'template', multiline: false } },
    { name: 'text', label: 'Text', input: { kind: 'template', multiline: true } },
  ],
  ruleCall: [{ name: 'calledRuleId', label: 'Rule to call', input: { kind: 'rule' } }],
  ruleExit: [],
  apiCall: [
    { name: 'apiId', label: 'External API', input: { kind: 'api' } },
    { name: 'variable', label: 'Variable receiving the answer', input: { kind: 'name', names: 'variable' } },
  ],
}

export function fieldsOf(type: NodeType): readonly FieldSpec[] {
  return FIELDS[type]
}

export type FieldValues = Partial<Record<FieldName, string>>

/**
 * What the editor starts with. A Formula node's expression is its dictionary formula's (`dictionaryExpression`),
 * unless the node still has one of its own (saved before formulas lived only in the dictionary).
 */
export function fieldValues(node: TreeNode, dictionaryExpression: string | null = null): FieldValues {
  const values: FieldValues = {}
  for (const field of FIELDS[node.type]) {
    values[field.name] = field.name === 'calledRuleId' ? (node.calledRuleId === null ? '' : String(node.calledRuleId)) : node[field.name] ?? ''
  }
  if (node.type === 'formula' && !node.expression) values.expression = dictionaryExpression ?? ''
  return values
}

/**
 * The body of PATCH/POST for these values: empty texts are sent as null, the called rule as a number. A Formula node
 * sends no expression: the editor saves it to the dictionary formula, the one definition.
 */
export function fieldPayload(type: NodeType, values: FieldValues): Record<string, string | number | null> {
  const payload: Record<string, string | number | null> = {}
  for (const field of FIELDS[type]) {
    const value = values[field.name] ?? ''
    payload[field.name] = field.name === 'calledRuleId' ? (value === '' ? null : Number(value)) : value === '' ? null : value
  }
  if (type === 'formula') payload.expression = null
  return payload
}

export function typeLabel(type: NodeType): string {
  return ENTITY_TYPES[type].displayName
}

export function typeIcon(type: NodeType): string {
  return ENTITY_TYPES[type].iconClass
}

/** One line saying what the node does, for its row; a Formula node shows its dictionary formula's expression. */
export function nodeSummary(node: TreeNode, ruleName: (id: number) => string | undefined, apiName?: (id: string) => string | undefined, formulaExpression?: string | null): string {
  const shown = node.type === 'formula' && !node.expression && formulaExpression ? { ...node, expression: formulaExpression } : node
  return summarise(shown, (id) => ruleName(Number(id)), apiName)
}

/** The next type after `from` (-1: from the top) whose label starts with `letter`, wrapping around; -1 when none does. */
export function nextTypeByLetter(from: number, letter: string): number {
  const lower = letter.toLowerCase()
  for (let step = 1; step <= NODE_TYPES.length; step++) {
    const index = (from + step) % NODE_TYPES.length
    if (typeLabel(NODE_TYPES[index]!).toLowerCase().startsWith(lower)) return index
  }
  return -1
}
