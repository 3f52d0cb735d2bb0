import type { Expr } from './ast.ts'
import { dateToText } from '../value.ts'

/*
 * Canonical printer: one spelling per meaning (`&&`, `||`, `!`, `!=`), single spaces around binary operators, and only
 * the parentheses the precedence rules need, so parsing the output gives back the same tree.
 */

const BINARY_PREC: Record<string, number> = {
  '||': 1,
  '&&': 2,
  '==': 3,
  '!=': 3,
  '<': 4,
  '>': 4,
  '<=': 4,
  '>=': 4,
  '+': 5,
  '-': 5,
  '*': 6,
  '/': 6,
  '^': 8,
}
const UNARY_PREC = 7
const ATOM_PREC = 10

function precedence(expr: Expr): number {
  if (expr.type === 'binary') return BINARY_PREC[expr.op]!
  if (expr.type === 'unary') return UNARY_PREC
  if (expr.type === 'literal' && typeof expr.value === 'number' && (expr.value < 0 || Object.is(expr.value, -0))) return UNARY_PREC
  return ATOM_PREC
}

function quote(text: string): string {
  let out = '"'
  for (const ch of text) {
    if (ch === '"' || ch === '\\') out += '\\' + ch
    else if (ch === '\n') out += '\\n'
    else if (ch === '\r') out += '\\r'
    else if (ch === '\t') out += '\\t'
    else if (ch < ' ' || ch === '\u007f') out += '\\u' + ch.charCodeAt(0).toString(16).padStart(4, '0')
    else out += ch
  }
  return out + '"'
}

function printNumber(value: number): string {
  return Object.is(value, -0) ? '-0' : String(value)
}

function wrap(expr: Expr, needsParens: boolean): string {
  const text = printExpression(expr)
  return needsParens ? `(${text})` : text
}

export function printExpression(expr: Expr): string {
  switch (expr.type) {
    case 'literal': {
      const v = expr.value
      if (typeof v === 'number') return printNumber(v)
      if (typeof v === 'string') return quote(v)
      if (typeof v === 'boolean') return String(v)
      return `#${dateToText(v)}#`
    }
    case 'regex':
      return `/${expr.pattern}/${expr.flags}`
    case 'ref':
      if (expr.kind === 'variable') return `{{${expr.name}}}`
      if (expr.kind === 'formula') return `[[${expr.name}]]`
      return expr.name
    case 'array': {
      const items = expr.items.map(printExpression).join(', ')
      // "[[" would read as the start of a [[Formula]]; a space keeps a list whose first item is a list a list.
      return expr.items[0]?.type === 'array' ? `[ ${items}]` : `[${items}]`
    }
    case 'unary': {
      const operand = expr.operand
      // "-5" reads back as the literal minus five, so negating a literal number needs parentheses to stay a negation.
      const literalNumber = operand.type === 'literal' && typeof operand.value === 'number' && precedence(operand) === ATOM_PREC
      return expr.op + wrap(operand, literalNumber || precedence(operand) < UNARY_PREC)
    }
    case 'binary': {
      const prec = BINARY_PREC[expr.op]!
      const rightAssoc = expr.op === '^'
      const nonAssoc = prec === 3 || prec === 4
      const left = wrap(expr.left, rightAssoc || nonAssoc ? precedence(expr.left) <= prec : precedence(expr.left) < prec)
      const right = wrap(expr.right, rightAssoc ? precedence(expr.right) < prec && precedence(expr.right) !== UNARY_PREC : precedence(expr.right) <= prec)
      return `${left} ${expr.op} ${right}`
    }
    case 'call':
      return `${expr.name}(${expr.args.map(printExpression).join(', ')})`
    case 'method':
      return `${wrap(expr.target, precedence(expr.target) < ATOM_PREC)}.${expr.name}(${expr.args.map(printExpression).join(', ')})`
  }
}
