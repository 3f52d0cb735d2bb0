// Which names each node and formula reads, for the static checks that reason about names.
import { references } from '../expr/index.ts'
import type { Expr } from '../expr/ast.ts'
import { parseTemplate } from '../template/index.ts'
import type { CompiledAdviceSet, CompiledNode } from '../tree/compiled.ts'

export interface Reads {
  variables: Set<string>
  formulas: Set<string>
}

export function exprReads(compiled: CompiledAdviceSet, ast: Expr | null, into: Reads = emptyReads()): Reads {
  if (!ast) return into
  const refs = references(ast)
  for (const name of refs.variables) into.variables.add(name)
  for (const name of refs.formulas) into.formulas.add(name)
  for (const name of refs.bare) {
    if (compiled.bareFormulas.has(name)) into.formulas.add(name)
    else into.variables.add(name)
  }
  return into
}

export function templateReads(text: string | undefined, into: Reads = emptyReads()): Reads {
  if (!text) return into
  for (const part of parseTemplate(text)) {
    if (part.kind === 'variable') into.variables.add(part.name)
    else if (part.kind === 'formula') into.formulas.add(part.name)
  }
  return into
}

export function emptyReads(): Reads {
  return { variables: new Set(), formulas: new Set() }
}

/**
 * What a node reads when it runs. A formula node only defines an expression (read later, lazily), so what it
 * names counts as read where the formula is used, not here.
 */
export function nodeReads(compiled: CompiledAdviceSet, node: CompiledNode): Reads {
  const reads = emptyReads()
  if (node.type !== 'formula') exprReads(compiled, node.ast, reads)
  if (node.type === 'advice') {
    templateReads(node.model.headline, reads)
    templateReads(node.model.text, reads)
  }
  if (node.type === 'inputRequest') templateReads(node.model.question, reads)
  return reads
}

/** For each formula, the variables it reads directly or through other formulas (cycles stop the walk). */
export function formulaVariableClosure(compiled: CompiledAdviceSet, extraDefinitions: Map<string, Expr[]>): Map<string, Set<string>> {
  const direct = new Map<string, Reads>()
  for (const formula of compiled.formulas) {
    const reads = exprReads(compiled, formula.ast)
    for (const ast of extraDefinitions.get(formula.name) ?? []) exprReads(compiled, ast, reads)
    direct.set(formula.name, reads)
  }
  const closure = new Map<string, Set<string>>()
  for (const name of direct.keys()) {
    const variables = new Set<string>()
    const seen = new Set<string>([name])
    const queue = [name]
    while (queue.length > 0) {
      const reads = direct.get(queue.pop()!)
      if (!reads) continue
      for (const variable of reads.variables) variables.add(variable)
      for (const formula of reads.formulas) {
        if (seen.has(formula)) continue
        seen.add(formula)
        queue.push(formula)
      }
    }
    closure.set(name, variables)
  }
  return closure
}
