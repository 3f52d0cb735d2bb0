// summarize: the advice set in plain language, as markdown, for a compliance reader who does not read rule trees
// (gen-summary): each question with its input type and options, each advice item with the conditions that lead to
// it in words, how the rules run (an outline that follows the tree exactly, expressions quoted as written), and
// the variables and formulas used. Pure and deterministic: the same set always gives the same text.
import type { AdviceSetModel, EntityModel, NodeModel, RuleModel } from '../model.ts'
import { compileAdviceSet } from '../tree/compile.ts'
import type { CompiledAdviceSet, CompiledNode } from '../tree/compiled.ts'
import { INPUT_TYPES } from '../types/index.ts'
import { checkReachability } from '../checks/reachability.ts'
import { treePaths } from '../branches/paths.ts'
import { pathInWords } from '../branches/words.ts'
import type { WordsCache } from '../branches/words.ts'

/** Paths walked to collect the conditions of each advice item; a larger set says so instead of going on. */
const MAX_PATHS = 20_000
/** Different condition sets listed per advice item before "and N more". */
const MAX_WAYS = 12

export interface SummaryOptions {
  /** A line under the title, e.g. which version this is and when it was written. */
  note?: string
}

export function summarize(model: AdviceSetModel, options: SummaryOptions = {}): string {
  const compiled = compileAdviceSet(model)
  const rulesById = new Map<string, RuleModel>()
  for (const rule of [...model.rules, ...(model.externalRules ?? [])]) rulesById.set(rule.id, rule)
  const lines: string[] = [`# ${inline(model.name)}`, '']
  if (options.note) lines.push(`_${inline(options.note)}_`, '')
  const questions = questionsOf(compiled)
  const advice = adviceOf(compiled)
  lines.push(
    `${count(questions.length, 'question')}, ${count(advice.items.length, 'advice item')} and ${count(model.rules.length, 'rule')}. ` +
      'Rules run in order; within a rule, a condition’s steps run only when it holds.',
    '',
  )
  lines.push('## Questions', '')
  if (questions.length === 0) lines.push('_No question is asked._')
  questions.forEach((question, index) => lines.push(...describeQuestion(question, index)))
  lines.push('', '## Advice', '')
  if (advice.items.length === 0) lines.push('_No advice is given._', '')
  for (const item of advice.items) lines.push(...describeAdvice(item, compiled.ruleById.get(item.node.ruleId)?.name ?? item.node.ruleId))
  if (advice.truncated) lines.push(`_Only the first ${MAX_PATHS} paths through the rules were read for the conditions above._`, '')
  lines.push('## How the rules run', '')
  model.rules.forEach((rule, index) => {
    lines.push(`### ${index + 1}. ${inline(rule.name)}`, '')
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
    for (const entity of formulas) lines.push(`- [[${entity.name}]] = ${code(entity.expression ?? '')}${entity.description ? ` — ${inline(entity.description)}` : ''}`)
    lines.push('')
  }
  return lines.join('\n').trimEnd() + '\n'
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`
}

interface Question {
  variable: string
  text: string
  entity: EntityModel | undefined
  rules: string[]
}

/** Every variable an input request asks for, first ask first (top-level rules, then the rules they call). */
function questionsOf(compiled: CompiledAdviceSet): Question[] {
  const byVariable = new Map<string, Question>()
  const entities = new Map(compiled.model.entities.filter((e) => e.kind === 'variable').map((e) => [e.name, e]))
  const seenRules = new Set<string>()
  const visitRule = (ruleId: string, nodes: readonly CompiledNode[]) => {
    if (seenRules.has(ruleId)) return
    seenRules.add(ruleId)
    const ruleName = compiled.ruleById.get(ruleId)?.name ?? ruleId
    const visit = (node: CompiledNode) => {
      const variable = node.model.variable
      if (node.type === 'inputRequest' && variable) {
        const known = byVariable.get(variable)
        if (known) { if (!known.rules.includes(ruleName)) known.rules.push(ruleName) }
        else byVariable.set(variable, { variable, text: node.model.question ?? '', entity: entities.get(variable), rules: [ruleName] })
      }
      if (node.called) visitRule(node.called.id, node.called.nodes)
      node.children.forEach(visit)
    }
    nodes.forEach(visit)
  }
  for (const rule of compiled.rules) visitRule(rule.id, rule.nodes)
  return [...byVariable.values()]
}

function describeQuestion(question: Question, index: number): string[] {
  const type = question.entity?.dataType
  const kind = type ? INPUT_TYPES[type].label : 'No input type set'
  const lines = [`${index + 1}. **${inline(question.text.trim() || question.variable)}** — ${kind}, answers {{${question.variable}}}`]
  const options = question.entity?.options ?? []
  if (options.length > 0) lines.push(`   - Options: ${options.map(quote).join(', ')}`)
  if (question.entity?.defaultValue !== undefined && question.entity.defaultValue !== null) lines.push(`   - Default: ${quote(String(question.entity.defaultValue))}`)
  lines.push(`   - Asked in: ${question.rules.map(quote).join(', ')}`)
  return lines
}

interface AdviceEntry {
  node: CompiledNode
  ways: string[]
  never: string | undefined
}

/**
 * Each advice node with the conditions of every path that leads to it, in words. Paths through a node the static
 * checks prove never runs are left out; an item left with none is "never given", with the checks' reason.
 */
function adviceOf(compiled: CompiledAdviceSet): { items: AdviceEntry[]; truncated: boolean } {
  const unreachable = new Map(checkReachability(compiled).map((issue) => [issue.nodeId, issue.message]))
  const entries = new Map<string, AdviceEntry>()
  for (const node of compiled.nodeById.values()) if (node.type === 'advice' && !entries.has(node.id)) entries.set(node.id, { node, ways: [], never: undefined })
  const cache: WordsCache = new Map()
  let walked = 0
  let truncated = false
  for (const path of treePaths(compiled.rules)) {
    if (++walked > MAX_PATHS) { truncated = true; break }
    const ids = path.nodes.map((node) => node.id)
    let blocked = path.afterExit ? 'This advice comes after a step that always ends its rule, so it is never given.' : undefined
    path.nodes.forEach((node, index) => {
      blocked ??= unreachable.get(node.id)
      if (node.type !== 'advice') return
      const entry = entries.get(node.id)!
      if (blocked !== undefined) { entry.never ??= blocked; return }
      const words = pathInWords(compiled, ids.slice(0, index + 1), cache).text
      if (!entry.ways.includes(words)) entry.ways.push(words)
    })
  }
  // Advice only in rules nothing runs (rules of other sets no call reaches) is not part of this set's outcome.
  return { items: [...entries.values()].filter((entry) => entry.ways.length > 0 || entry.never !== undefined), truncated }
}

function describeAdvice(entry: AdviceEntry, ruleName: string): string[] {
  const model = entry.node.model
  const lines = [`### ${inline(model.headline ?? '') || '_Untitled advice_'}`, '']
  const text = (model.text ?? '').trim()
  if (text) lines.push(...text.split(/\r?\n/).map((line) => `> ${inline(line)}`), '')
  const facts: string[] = []
  if (model.tags && model.tags.length > 0) facts.push(`Tags: ${model.tags.map(inline).join(', ')}`)
  facts.push(`Rule: ${quote(ruleName)}`)
  lines.push(facts.join(' · '), '')
  if (entry.ways.length === 0) lines.push(`**Never given.** ${inline(entry.never ?? '')}`)
  else if (entry.ways.includes('Always')) lines.push('**Always given.**')
  else if (entry.ways.length === 1) lines.push(`**Given when:** ${inline(entry.ways[0]!)}.`)
  else {
    lines.push('**Given when any of these holds:**', '')
    for (const way of entry.ways.slice(0, MAX_WAYS)) lines.push(`- ${inline(way)}`)
    if (entry.ways.length > MAX_WAYS) lines.push(`- _and ${entry.ways.length - MAX_WAYS} more combinations_`)
  }
  lines.push('')
  return lines
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
      return node.expression
        ? `**From here on** [[${node.variable ?? '?'}]] = ${code(node.expression)}`
        : `**Work out** [[${node.variable ?? '?'}]] _(defined in the dictionary)_`
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
  if (entity.dataType) facts.push(INPUT_TYPES[entity.dataType].label)
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
  return text.replace(/\s+/g, ' ').trim().replace(/([\\*_#<>|[\]`])/g, '\\$1')
}
