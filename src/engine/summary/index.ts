// summarize: a readable markdown outline of an advice set's logic, for gen-summary and reviewers who do not
// read rule trees. It follows the tree exactly (rules in order, siblings in order) and quotes expressions as
// the author wrote them.
import type { AdviceSetModel, EntityModel, NodeModel, RuleModel } from '../model.ts'

export function summarize(model: AdviceSetModel): string {
  const rulesById = new Map<string, RuleModel>()
  for (const rule of [...model.rules, ...(model.externalRules ?? [])]) rulesById.set(rule.id, rule)
  const lines: string[] = [`# ${inline(model.name)}`, '']
  lines.push(`${model.rules.length} ${model.rules.length === 1 ? 'rule runs' : 'rules run'} in order.`, '')
  model.rules.forEach((rule, index) => {
    lines.push(`## ${index + 1}. ${inline(rule.name)}`, '')
    if (rule.nodes.length === 0) lines.push('_This rule has no nodes._')
    for (const node of rule.nodes) outline(node, 0, lines, rulesById)
    lines.push('')
  })
  const variables = model.entities.filter((entity) => entity.kind === 'variable')
  const formulas = model.entities.filter((entity) => entity.kind === 'formula')
  if (variables.length > 0) {
    lines.push('## Variables', '')
    for (const entity of variables) lines.push(`- ${describeVariable(entity)}`)
    lines.push('')
  }
  if (formulas.length > 0) {
    lines.push('## Formulas', '')
    for (const entity of formulas) lines.push(`- [[${entity.name}]] = ${code(entity.expression ?? '')}`)
    lines.push('')
  }
  return lines.join('\n').trimEnd() + '\n'
}

function outline(node: NodeModel, depth: number, lines: string[], rules: Map<string, RuleModel>): void {
  lines.push(`${'  '.repeat(depth)}- ${describeNode(node, rules)}`)
  for (const child of node.children) outline(child, depth + 1, lines, rules)
}

function describeNode(node: NodeModel, rules: Map<string, RuleModel>): string {
  switch (node.type) {
    case 'condition':
      return `**If** ${code(node.expression ?? '')}`
    case 'conditionAlways':
      return '**Always**'
    case 'inputRequest':
      return `**Ask** ${quote(node.question ?? '')} → {{${node.variable ?? '?'}}}`
    case 'variableAssignment':
      return `**Set** ${code(node.expression ?? '')}`
    case 'formula':
      return `**From here on** [[${node.variable ?? '?'}]] = ${code(node.expression ?? '')}`
    case 'advice': {
      const tags = node.tags && node.tags.length > 0 ? ` _(${node.tags.join(', ')})_` : ''
      return `**Advice:** ${inline(node.headline ?? '') || '_untitled_'}${tags}`
    }
    case 'ruleCall': {
      const called = node.calledRuleId ? rules.get(node.calledRuleId) : undefined
      return `**Run rule** ${called ? quote(called.name) : `_missing rule ${node.calledRuleId ?? ''}_`}`
    }
    case 'ruleExit':
      return '**Exit this rule**'
    case 'apiCall':
      return `**Call API** ${inline(node.apiId ?? '?')} → {{${node.variable ?? '?'}}}`
  }
}

function describeVariable(entity: EntityModel): string {
  const facts: string[] = []
  if (entity.dataType) facts.push(entity.dataType)
  if (entity.options && entity.options.length > 0) facts.push(`one of ${entity.options.map(quote).join(', ')}`)
  if (entity.defaultValue !== undefined && entity.defaultValue !== null) facts.push(`default ${quote(String(entity.defaultValue))}`)
  if (entity.isConstant) facts.push('constant')
  const description = entity.description ? ` — ${inline(entity.description)}` : ''
  return `{{${entity.name}}}${facts.length > 0 ? ` (${facts.join('; ')})` : ''}${description}`
}

/** Inline code that survives backticks inside the expression. */
function code(text: string): string {
  const fence = text.includes('`') ? '``' : '`'
  return `${fence}${fence === '``' ? ' ' : ''}${text.replace(/\s+/g, ' ').trim()}${fence === '``' ? ' ' : ''}${fence}`
}

function quote(text: string): string {
  return `“${inline(text)}”`
}

/** One line of markdown text: newlines folded, characters that would start markup escaped. */
function inline(text: string): string {
  return text.replace(/\s+/g, ' ').trim().replace(/([\\*_#<>|])/g, '\\$1')
}
