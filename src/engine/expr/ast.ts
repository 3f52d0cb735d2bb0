import type { SourceSpan } from '../errors.ts'

export type RefKind = 'variable' | 'formula' | 'bare'
export type UnaryOp = '-' | '!'
/** `<>` parses to '!=', `and`/`or` to '&&'/'||', `not` to '!': the tree keeps one spelling per meaning. */
export type BinaryOp = '+' | '-' | '*' | '/' | '^' | '==' | '!=' | '<' | '>' | '<=' | '>=' | '&&' | '||'
export type MethodName = 'match' | 'includes'

/** A number, text, true/false or date written in the expression. Negative numbers are literals too (`-5`). */
export interface LiteralExpr {
  type: 'literal'
  value: number | string | boolean | Date
  span: SourceSpan
}
/** `[a, b, c]` */
export interface ArrayExpr {
  type: 'array'
  items: Expr[]
  span: SourceSpan
}
/** `{{Name}}` (variable), `[[Name]]` (formula) or a bare `Name` (the scope decides what it means). */
export interface RefExpr {
  type: 'ref'
  kind: RefKind
  name: string
  span: SourceSpan
}
export interface UnaryExpr {
  type: 'unary'
  op: UnaryOp
  operand: Expr
  span: SourceSpan
}
export interface BinaryExpr {
  type: 'binary'
  op: BinaryOp
  left: Expr
  right: Expr
  span: SourceSpan
}
/** A standard-library call; `name` is the function's canonical spelling (calls are case-insensitive). */
export interface CallExpr {
  type: 'call'
  name: string
  args: Expr[]
  span: SourceSpan
}
/** `target.match(pattern)` or `target.includes(item)`. */
export interface MethodExpr {
  type: 'method'
  target: Expr
  name: MethodName
  args: Expr[]
  span: SourceSpan
}
/** `/pattern/flags`, only allowed as the argument of `.match(...)`; `pattern` is kept exactly as written. */
export interface RegexExpr {
  type: 'regex'
  pattern: string
  flags: string
  span: SourceSpan
}

export type Expr = LiteralExpr | ArrayExpr | RefExpr | UnaryExpr | BinaryExpr | CallExpr | MethodExpr | RegexExpr
