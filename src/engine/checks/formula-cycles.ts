// FORMULA_CYCLE: a dictionary formula that, through the formulas it reads, reads itself.
import type { CompiledAdviceSet } from '../tree/compiled.ts'
import { exprReads } from './references.ts'
import type { CheckIssue } from './types.ts'

export function checkFormulaCycles(compiled: CompiledAdviceSet): CheckIssue[] {
  const reads = new Map<string, Set<string>>()
  for (const formula of compiled.formulas) reads.set(formula.name, exprReads(compiled, formula.ast).formulas)
  const issues: CheckIssue[] = []
  for (const formula of compiled.formulas) {
    if (!formula.entity) continue
    const seen = new Set<string>()
    const queue = [...(reads.get(formula.name) ?? [])]
    let cyclic = false
    while (queue.length > 0 && !cyclic) {
      const name = queue.pop()!
      if (name === formula.name) cyclic = true
      else if (!seen.has(name)) {
        seen.add(name)
        queue.push(...(reads.get(name) ?? []))
      }
    }
    if (cyclic) {
      issues.push({
        nodeId: formula.entity.id,
        ruleId: null,
        code: 'FORMULA_CYCLE',
        severity: 'error',
        message: `The formula [[${formula.name}]] depends on itself.`,
      })
    }
  }
  return issues
}
