import { EngineError } from '../errors.ts'
import type { Expr } from './ast.ts'
import { ExprErrorCode } from './error-codes.ts'
import { checkLength, Parser } from './parser.ts'

export type AssignmentOp = '=' | '+=' | '-='

export interface Assignment {
  target: string
  op: AssignmentOp
  value: Expr
}

const KEYWORDS = new Set(['true', 'false', 'and', 'or', 'not'])

/** Reads a Variable Assignment: `{{Total}} = 5`, `Total += {{Fee}}`, `{{Count}} -= 1`. */
export function parseAssignment(source: string): Assignment {
  checkLength(source)
  const parser = new Parser(source, 'value')
  const target = parser.lexer.next()
  const targetSpan = { start: target.start, end: target.end }
  let name: string
  if (target.kind === 'variable') name = target.name
  else if (target.kind === 'name' && !KEYWORDS.has(target.text.toLowerCase())) name = target.text
  else {
    const message =
      target.kind === 'formula'
        ? 'A formula computes its own value; assign to a variable such as {{Total}} instead.'
        : 'An assignment starts with the variable to set, for example {{Total}} = 5.'
    throw new EngineError(ExprErrorCode.InvalidAssignmentTarget, message, { span: targetSpan })
  }
  const op = parser.lexer.next()
  if (op.kind !== 'op' || (op.text !== '=' && op.text !== '+=' && op.text !== '-=')) {
    const hint = op.kind === 'op' && op.text === '==' ? ' Use a single = to assign; == compares.' : ''
    throw new EngineError(
      ExprErrorCode.ExpectedAssignment,
      `After ${source.slice(target.start, target.end)} write =, += or -= and then the value.${hint}`,
      { span: { start: op.start, end: op.end } },
    )
  }
  return { target: name, op: op.text, value: parser.parseToEnd() }
}
