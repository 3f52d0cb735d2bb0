export type {
  ArrayExpr,
  BinaryExpr,
  BinaryOp,
  CallExpr,
  Expr,
  LiteralExpr,
  MethodExpr,
  MethodName,
  RefExpr,
  RefKind,
  RegexExpr,
  UnaryExpr,
  UnaryOp,
} from './ast.ts'
export { parseAssignment, type Assignment, type AssignmentOp } from './assignment.ts'
export { compileExpression, type BindReference, type CompileOptions } from './compile.ts'
export { ExprErrorCode } from './error-codes.ts'
export { FUNCTION_NAMES } from './functions.ts'
export { MAX_EXPRESSION_DEPTH, MAX_EXPRESSION_LENGTH, MAX_MATCH_SUBJECT_LENGTH, MAX_PATTERN_LENGTH, MAX_PATTERN_STEPS } from './limits.ts'
export { NAME_PATTERN } from './names.ts'
export { parseExpression, type ParseMode } from './parser.ts'
export { printExpression } from './printer.ts'
export { references, type References } from './references.ts'
export type { CompiledExpr, Scope } from './scope.ts'
