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
    switch (node.type) {
      case 'ref':
        found[node.kind].add(node.name)
        return
      case 'unary':
        return visit(node.operand)
      case 'binary':
        visit(node.left)
        return visit(node.right)
      case 'array':
        return node.items.forEach(visit)
      case 'call':
        return node.args.forEach(visit)
      case 'method':
        visit(node.target)
        return node.args.forEach(visit)
      default:
        return
    }
  }
  visit(expr)
  return { variables: [...found.variable], formulas: [...found.formula], bare: [...found.bare] }
}
