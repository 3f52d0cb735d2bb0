// Unknown names (read or set but not in the dictionary) and unused dictionary entries.
import { RESERVED_VARIABLE_NAMES } from '../entity-types.ts'
import type { SourceSpan } from '../errors.ts'
import type { Expr } from '../expr/ast.ts'
import type { CompiledAdviceSet } from '../tree/compiled.ts'
import { exprReads, nodeReads } from './references.ts'
import type { CheckIssue } from './types.ts'
import { forEachNode } from './walk.ts'

export function checkNames(compiled: CompiledAdviceSet): CheckIssue[] {
  const issues: CheckIssue[] = []
  const dictionaryVariables = new Set<string>()
  const dictionaryFormulas = new Set<string>()
  for (const entity of compiled.model.entities) {
    ;(entity.kind === 'formula' ? dictionaryFormulas : dictionaryVariables).add(entity.name)
  }
  const usedVariables = new Set<string>()
  const usedFormulas = new Set<string>()
  const isKnownVariable = (name: string): boolean => dictionaryVariables.has(name) || RESERVED_VARIABLE_NAMES.has(name)

  forEachNode(compiled, ({ node, rule }) => {
    const reads = nodeReads(compiled, node)
    if (node.type === 'formula') exprReads(compiled, node.ast, reads)
    const reported = new Set<string>()
    const report = (kind: 'variable' | 'formula', name: string): void => {
      const key = `${kind}:${name}`
      if (reported.has(key)) return
      reported.add(key)
      const written = kind === 'variable' ? `{{${name}}}` : `[[${name}]]`
      const span = node.ast ? refSpan(node.ast, name) : undefined
      issues.push({
        nodeId: node.id,
        ruleId: rule.id,
        code: kind === 'variable' ? 'UNKNOWN_VARIABLE' : 'UNKNOWN_FORMULA',
        severity: 'error',
        message: `${written} is not in the dictionary.`,
        ...(span ? { span } : {}),
      })
    }
    for (const name of reads.variables) {
      usedVariables.add(name)
      if (!isKnownVariable(name)) report('variable', name)
    }
    for (const name of reads.formulas) {
      usedFormulas.add(name)
      if (!dictionaryFormulas.has(name)) report('formula', name)
    }
    const target = node.model.variable
    if (target !== undefined && target !== '' && node.type !== 'formula' && node.type !== 'variableAssignment') {
      usedVariables.add(target)
      if (!isKnownVariable(target)) report('variable', target)
    }
    if (node.type === 'variableAssignment' && node.slot >= 0) {
      const name = compiled.variables[node.slot]!.name
      usedVariables.add(name)
      if (!isKnownVariable(name)) report('variable', name)
    }
    if (node.type === 'formula' && target !== undefined && target !== '' && !dictionaryFormulas.has(target)) {
      report('formula', target)
    }
  })

  for (const formula of compiled.formulas) {
    if (!formula.entity) continue
    const reads = exprReads(compiled, formula.ast)
    for (const name of reads.variables) {
      usedVariables.add(name)
      if (!isKnownVariable(name)) issues.push(entityIssue(formula.entity.id, 'UNKNOWN_VARIABLE', `The formula [[${formula.name}]] reads {{${name}}}, which is not in the dictionary.`))
    }
    for (const name of reads.formulas) {
      if (name !== formula.name) usedFormulas.add(name)
      if (!dictionaryFormulas.has(name)) issues.push(entityIssue(formula.entity.id, 'UNKNOWN_FORMULA', `The formula [[${formula.name}]] reads [[${name}]], which is not in the dictionary.`))
    }
  }

  for (const entity of compiled.model.entities) {
    if (entity.isSystem || RESERVED_VARIABLE_NAMES.has(entity.name)) continue
    if (entity.kind === 'variable' && !usedVariables.has(entity.name)) {
      issues.push({ ...entityIssue(entity.id, 'UNUSED_VARIABLE', `{{${entity.name}}} is never asked, set or read.`), severity: 'warning' })
    }
    if (entity.kind === 'formula' && !usedFormulas.has(entity.name)) {
      issues.push({ ...entityIssue(entity.id, 'UNUSED_FORMULA', `[[${entity.name}]] is never used.`), severity: 'warning' })
    }
  }
  return issues
}

function entityIssue(entityId: string, code: string, message: string): CheckIssue {
  return { nodeId: entityId, ruleId: null, code, severity: 'error', message }
}

/** Where `name` is first referenced in an expression. */
export function refSpan(expr: Expr, name: string): SourceSpan | undefined {
  switch (expr.type) {
    case 'ref':
      return expr.name === name ? expr.span : undefined
    case 'unary':
      return refSpan(expr.operand, name)
    case 'binary':
      return refSpan(expr.left, name) ?? refSpan(expr.right, name)
    case 'array':
      return firstSpan(expr.items, name)
    case 'call':
      return firstSpan(expr.args, name)
    case 'method':
      return refSpan(expr.target, name) ?? firstSpan(expr.args, name)
    default:
      return undefined
  }
}

function firstSpan(items: Expr[], name: string): SourceSpan | undefined {
  for (const item of items) {
    const span = refSpan(item, name)
    if (span) return span
  }
  return undefined
}
