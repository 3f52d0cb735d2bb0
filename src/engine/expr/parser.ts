/*
 * A hand-written lexer and Pratt parser rather than jsep or a parser generator, because:
 * - every node must carry its exact source span, so the editor can underline the part an error is about;
 * - our operator set is unusual (`<>`, `and`/`or`/`not`, `^` as power, `.match(/re/)`, `{{Var}}`, `[[Formula]]`,
 *   names that may start with a digit) and bending a general-purpose parser to it costs more than this file;
 * - each failure needs a stable code and a message a non-programmer can act on ("Use == to compare ...");
 * - it ships in the browser bundle for live validation, where a dependency would be dead weight.
 *
 * The language:
 * - numbers `12`, `3.25`, `1e6` (a minus sign before a number makes a negative literal); text in '...' or "..." with
 *   the escapes \\ \' \" \n \t \r \/ \uXXXX; `true`/`false` (any case); dates between hash signs, `#2024-05-01#`
 *   (a calendar day, kept as UTC midnight) or `#2024-05-01T10:30Z#`; lists `[a, b]` (write `[ [1]]` for a list whose
 *   first item is a list: `[[...]]` around a name is a formula).
 * - `{{Var}}` variable, `[[Formula]]` formula, a bare `Name` (the scope decides what it means). Names follow SPEC §5.
 *   A word that starts with a digit is a number only if all of it is one (`2`, `2.5`, `1e6`); otherwise it is a name
 *   (`2abc`, `12_months`), and `2.5abc` is an error. The words true, false, and, or, not are never bare names.
 * - calls of the standard library (functions.ts), case-insensitive: `round({{X}}, 2)`, `if(c, a, b)`, `today()`.
 * - `x.match(/pattern/flags)` or `x.match("pattern")`, flags among i m s u; `x.includes(value)`.
 *
 * Precedence, loosest first: `||`/or, `&&`/and, `== != <>`, `< > <= >=`, `+ -`, `* /`, prefix `- ! not`, `^`
 * (right-associative, so 2^3^2 is 2^(3^2), and -2^2 is -(2^2)), then `.match()`/`.includes()`. Comparisons do not
 * chain: `a < b < c` is an error that suggests `a < b && b < c`.
 */
import { EngineError, type SourceSpan } from '../errors.ts'
import type { BinaryOp, Expr, MethodName } from './ast.ts'
import { ExprErrorCode } from './error-codes.ts'
import { FUNCTION_NAMES, findFunction } from './functions.ts'
import { Lexer, type Token } from './lexer.ts'
import { MAX_EXPRESSION_DEPTH, MAX_EXPRESSION_LENGTH } from './limits.ts'
import { compilePattern } from './patterns.ts'

export type ParseMode = 'value' | 'condition'

const PREC = { or: 1, and: 2, equality: 3, relational: 4, additive: 5, multiplicative: 6, unary: 7, power: 8 } as const

interface Infix {
  op: BinaryOp
  prec: number
  assoc: 'left' | 'right' | 'none'
}

const INFIX_OPS: Record<string, Infix> = {
  '||': { op: '||', prec: PREC.or, assoc: 'left' },
  '&&': { op: '&&', prec: PREC.and, assoc: 'left' },
  '==': { op: '==', prec: PREC.equality, assoc: 'none' },
  '!=': { op: '!=', prec: PREC.equality, assoc: 'none' },
  '<>': { op: '!=', prec: PREC.equality, assoc: 'none' },
  '<': { op: '<', prec: PREC.relational, assoc: 'none' },
  '>': { op: '>', prec: PREC.relational, assoc: 'none' },
  '<=': { op: '<=', prec: PREC.relational, assoc: 'none' },
  '>=': { op: '>=', prec: PREC.relational, assoc: 'none' },
  '+': { op: '+', prec: PREC.additive, assoc: 'left' },
  '-': { op: '-', prec: PREC.additive, assoc: 'left' },
  '*': { op: '*', prec: PREC.multiplicative, assoc: 'left' },
  '/': { op: '/', prec: PREC.multiplicative, assoc: 'left' },
  '^': { op: '^', prec: PREC.power, assoc: 'right' },
}
const KEYWORD_INFIX: Record<string, Infix> = { or: INFIX_OPS['||']!, and: INFIX_OPS['&&']! }

function infixOf(token: Token): Infix | undefined {
  if (token.kind === 'op') return INFIX_OPS[token.text]
  // Own keys only: a name such as `constructor` must not find Object.prototype's member and pass as an operator.
  if (token.kind === 'name') return Object.hasOwn(KEYWORD_INFIX, token.text.toLowerCase()) ? KEYWORD_INFIX[token.text.toLowerCase()] : undefined
  return undefined
}

function spanOf(token: Token): SourceSpan {
  return { start: token.start, end: token.end }
}

function fail(code: string, message: string, span: SourceSpan): never {
  throw new EngineError(code, message, { span })
}

function isDigit(ch: string | undefined): boolean {
  return ch !== undefined && ch >= '0' && ch <= '9'
}

function describeToken(token: Token): string {
  switch (token.kind) {
    case 'eof':
      return 'the end'
    case 'number':
      return `the number ${token.value}`
    case 'string':
      return 'a text value'
    case 'date':
      return 'a date'
    case 'variable':
      return `{{${token.name}}}`
    case 'formula':
      return `[[${token.name}]]`
    case 'regex':
      return 'a pattern'
    default:
      return `"${token.text}"`
  }
}

export function checkLength(source: string): void {
  if (source.length > MAX_EXPRESSION_LENGTH) {
    fail(
      ExprErrorCode.TooLong,
      `This expression is ${source.length} characters long; the limit is ${MAX_EXPRESSION_LENGTH}. Split it into formulas.`,
      { start: MAX_EXPRESSION_LENGTH, end: source.length },
    )
  }
}

/** Nesting depth of a tree, stopping (with the offending node) as soon as it passes the limit. */
function checkDepth(expr: Expr, depth: number): void {
  if (depth > MAX_EXPRESSION_DEPTH) {
    fail(ExprErrorCode.TooDeep, `This expression nests more than ${MAX_EXPRESSION_DEPTH} levels deep; split it into formulas.`, expr.span)
  }
  switch (expr.type) {
    case 'unary':
      return checkDepth(expr.operand, depth + 1)
    case 'binary':
      checkDepth(expr.left, depth + 1)
      return checkDepth(expr.right, depth + 1)
    case 'array':
      for (const item of expr.items) checkDepth(item, depth + 1)
      return
    case 'call':
      for (const arg of expr.args) checkDepth(arg, depth + 1)
      return
    case 'method':
      checkDepth(expr.target, depth + 1)
      for (const arg of expr.args) checkDepth(arg, depth + 1)
      return
    default:
      return
  }
}

export class Parser {
  readonly lexer: Lexer
  private depth = 0

  constructor(
    private readonly source: string,
    private readonly mode: ParseMode,
  ) {
    this.lexer = new Lexer(source)
  }

  /** Parses one whole expression up to the end of the input. */
  parseToEnd(): Expr {
    if (this.lexer.peek().kind === 'eof') fail(ExprErrorCode.Empty, 'The expression is empty.', spanOf(this.lexer.peek()))
    const expr = this.expression(0)
    const rest = this.lexer.peek()
    if (rest.kind !== 'eof') this.unexpected(rest)
    checkDepth(expr, 1)
    return expr
  }

  private expression(minPrec: number): Expr {
    if (++this.depth > MAX_EXPRESSION_DEPTH) {
      fail(ExprErrorCode.TooDeep, `This expression nests more than ${MAX_EXPRESSION_DEPTH} levels deep; split it into formulas.`, spanOf(this.lexer.peek()))
    }
    let left = this.prefix()
    for (;;) {
      const token = this.lexer.peek()
      if (token.kind === 'punct' && token.text === '.') {
        left = this.method(left)
        continue
      }
      const infix = infixOf(token)
      if (infix === undefined || infix.prec < minPrec) break
      this.lexer.next()
      const right = this.expression(infix.assoc === 'right' ? infix.prec : infix.prec + 1)
      left = { type: 'binary', op: infix.op, left, right, span: { start: left.span.start, end: right.span.end } }
      const following = infixOf(this.lexer.peek())
      if (infix.assoc === 'none' && following?.prec === infix.prec) {
        fail(
          ExprErrorCode.ChainedComparison,
          'Compare two values at a time: instead of a < b < c write a < b && b < c.',
          spanOf(this.lexer.peek()),
        )
      }
    }
    this.depth--
    return left
  }

  private prefix(): Expr {
    const token = this.lexer.next()
    const span = spanOf(token)
    switch (token.kind) {
      case 'number':
      case 'string':
      case 'date':
        return { type: 'literal', value: token.value, span }
      case 'variable':
      case 'formula':
        return { type: 'ref', kind: token.kind, name: token.name, span }
      case 'name':
        return this.word(token)
      case 'op':
        return this.prefixOperator(token)
      case 'punct':
        if (token.text === '(') {
          const inner = this.expression(0)
          const close = this.expect(')', token)
          return { ...inner, span: { start: token.start, end: close.end } }
        }
        if (token.text === '[') return this.array(token)
        return this.unexpected(token)
      default:
        return this.unexpected(token)
    }
  }

  private word(token: Token & { kind: 'name' }): Expr {
    const span = spanOf(token)
    const lower = token.text.toLowerCase()
    if (lower === 'true' || lower === 'false') return { type: 'literal', value: lower === 'true', span }
    if (lower === 'not') return this.unary('!', token)
    if (lower === 'and' || lower === 'or') {
      fail(ExprErrorCode.UnexpectedToken, `"${token.text}" needs a value on its left.`, span)
    }
    const next = this.lexer.peek()
    if (next.kind === 'punct' && next.text === '(') return this.call(token)
    return { type: 'ref', kind: 'bare', name: token.text, span }
  }

  private prefixOperator(token: Token & { kind: 'op' }): Expr {
    if (token.text === '-') {
      const negated = this.unary('-', token)
      // "-5" is the number minus five rather than "negate 5", so comparisons with negative numbers stay plain
      // literals; "-(5)" and "- -5" stay negations, so printing and re-parsing gives back the same tree.
      const operand = negated.type === 'unary' ? negated.operand : undefined
      if (operand?.type === 'literal' && typeof operand.value === 'number' && isDigit(this.source[operand.span.start])) {
        return { type: 'literal', value: -operand.value, span: negated.span }
      }
      return negated
    }
    if (token.text === '!') return this.unary('!', token)
    if (token.text === '/') {
      fail(ExprErrorCode.RegexOutsideMatch, 'A /pattern/ can only be used inside .match(...).', spanOf(token))
    }
    return this.unexpected(token)
  }

  private unary(op: '-' | '!', token: Token): Expr {
    const operand = this.expression(PREC.unary)
    return { type: 'unary', op, operand, span: { start: token.start, end: operand.span.end } }
  }

  private array(open: Token): Expr {
    const items: Expr[] = []
    if (!this.isPunct(this.lexer.peek(), ']')) {
      do items.push(this.expression(0))
      while (this.eatComma())
    }
    const close = this.expect(']', open)
    return { type: 'array', items, span: { start: open.start, end: close.end } }
  }

  private call(nameToken: Token & { kind: 'name' }): Expr {
    const def = findFunction(nameToken.text)
    if (def === undefined) {
      fail(
        ExprErrorCode.UnknownFunction,
        `There is no function called ${nameToken.text}. Available: ${FUNCTION_NAMES.join(', ')}.`,
        spanOf(nameToken),
      )
    }
    const { args, close } = this.argumentList()
    const span = { start: nameToken.start, end: close.end }
    if (!def.accepts(args.length)) {
      fail(ExprErrorCode.WrongArgumentCount, `${def.name}() takes ${def.arityText}, but was given ${args.length}.`, span)
    }
    return { type: 'call', name: def.name, args, span }
  }

  private method(target: Expr): Expr {
    this.lexer.next()
    const nameToken = this.lexer.next()
    const lower = nameToken.kind === 'name' ? nameToken.text.toLowerCase() : ''
    if (lower !== 'match' && lower !== 'includes') {
      fail(ExprErrorCode.UnknownMethod, 'After a dot write .match(pattern) or .includes(value).', spanOf(nameToken))
    }
    const name: MethodName = lower
    const open = this.lexer.next()
    if (!this.isPunct(open, '(')) fail(ExprErrorCode.UnexpectedToken, `Write .${name}( ... ) with parentheses.`, spanOf(open))
    const first = this.lexer.peek()
    const startsRegex = name === 'match' && first.kind === 'op' && first.text === '/'
    const { args, close } = startsRegex ? this.regexArgument(open) : this.restOfArguments(open)
    const span = { start: target.span.start, end: close.end }
    if (args.length !== 1) {
      fail(ExprErrorCode.WrongArgumentCount, `.${name}() takes exactly one ${name === 'match' ? 'pattern' : 'value'}.`, span)
    }
    const pattern = args[0]!
    if (name === 'match' && pattern.type === 'literal' && typeof pattern.value === 'string') {
      compilePattern(pattern.value, '', pattern.span)
    }
    return { type: 'method', target, name, args, span }
  }

  private regexArgument(open: Token): { args: Expr[]; close: Token } {
    const regex = this.lexer.nextRegex()
    const span = spanOf(regex)
    compilePattern(regex.pattern, regex.flags, span)
    return { args: [{ type: 'regex', pattern: regex.pattern, flags: regex.flags, span }], close: this.expect(')', open) }
  }

  private argumentList(): { args: Expr[]; close: Token } {
    const open = this.lexer.next()
    return this.restOfArguments(open)
  }

  /** Reads `a, b, c)` after an already consumed `(`. */
  private restOfArguments(open: Token): { args: Expr[]; close: Token } {
    const args: Expr[] = []
    if (!this.isPunct(this.lexer.peek(), ')')) {
      do args.push(this.expression(0))
      while (this.eatComma())
    }
    return { args, close: this.expect(')', open) }
  }

  private eatComma(): boolean {
    if (!this.isPunct(this.lexer.peek(), ',')) return false
    this.lexer.next()
    return true
  }

  private isPunct(token: Token, text: string): boolean {
    return token.kind === 'punct' && token.text === text
  }

  private expect(text: ')' | ']', opener: Token): Token {
    const token = this.lexer.peek()
    if (this.isPunct(token, text)) return this.lexer.next()
    if (token.kind === 'eof') {
      fail(ExprErrorCode.UnexpectedEnd, `The ${opener.kind === 'punct' ? opener.text : '('} here is never closed; add ${text}.`, spanOf(opener))
    }
    return this.unexpected(token, ` Expected ${text}.`)
  }

  private unexpected(token: Token, hint = ''): never {
    if (token.kind === 'op' && (token.text === '=' || token.text === '+=' || token.text === '-=')) {
      this.assignmentOperator(token)
    }
    if (token.kind === 'eof') {
      fail(ExprErrorCode.UnexpectedEnd, 'The expression ends too early; a value is missing.', spanOf(token))
    }
    fail(ExprErrorCode.UnexpectedToken, `Did not expect ${describeToken(token)} here.${hint}`, spanOf(token))
  }

  private assignmentOperator(token: Token & { kind: 'op' }): never {
    if (this.mode === 'condition') {
      const message =
        token.text === '='
          ? 'Use == to compare; a single = assigns a value.'
          : `${token.text} changes a variable and cannot be used in a condition; to compare use ==, !=, <, >, <= or >=.`
      fail(ExprErrorCode.AssignmentInCondition, message, spanOf(token))
    }
    fail(
      ExprErrorCode.AssignmentInExpression,
      `${token.text} can only be used in a Variable Assignment; to compare use ==.`,
      spanOf(token),
    )
  }
}

export function parseExpression(source: string, opts?: { mode?: ParseMode }): Expr {
  checkLength(source)
  return new Parser(source, opts?.mode ?? 'value').parseToEnd()
}
