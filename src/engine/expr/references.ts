import type { Expr } from './ast.ts'

export interface References {
  variables: string[]
  formulas: string[]
  bare: string[]
}

/** Every name an expression reads, each once, in order of first appearance. */
export function references(expr: Expr): References {
  const found = { variable: new Set<string>(), formula: new Set<string>(), bare: new Set<string>() }
  const visit = (node: Expr): void => {
    if (node.type === 'ref') found[node.kind].add(node.name)
    else childExpressions(node).forEach(visit)
  }
  visit(expr)
  return { variables: [...found.variable], formulas: [...found.formula], bare: [...found.bare] }
}

/** The expressions directly inside `expr` (operands, list items, arguments, a method's target), in source order. */
export function childExpressions(expr: Expr): Expr[] {
  switch (expr.type) {
    case 'unary':
      return [expr.operand]
    case 'binary':
      return [expr.left, expr.right]
    case 'array':
      return expr.items
    case 'call':
      return expr.args
    case 'method':
      return [expr.target, ...expr.args]
    default:
      return []
  }
}
