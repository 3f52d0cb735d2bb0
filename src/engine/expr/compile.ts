/*
 * Compiles a parsed expression into nested closures; no source text is ever turned into code at run time.
 *
 * Values and "no value" (null), as evaluated here:
 * - A reference asks the scope; the scope decides what an unset name means (return null, or throw UNSET_VARIABLE).
 * - Arithmetic with no value on either side gives no value, except `+` with text, which joins no value as ''.
 * - `==`/`!=` compare any two values: different kinds are never equal, no value equals only no value, dates by
 *   moment, lists item by item. There is no conversion: 18 == '18' is false.
 * - `< > <= >=` order two numbers, two texts (by character code) or two dates. With no value on either side the
 *   answer is false. Any other pairing (a number with text, anything with true/false or a list) is TYPE_MISMATCH.
 * - `&&`, `||`, `!`, if(): no value counts as false; a value that is not true/false is TYPE_MISMATCH. `&&`/`||`
 *   stop early, so `isSet({{X}}) && {{X}} > 3` never reads an unset X.
 * - `.match(p)` tests text (numbers are tested as written, e.g. 12.5); no value never matches. Subjects longer than
 *   MAX_MATCH_SUBJECT_LENGTH are MATCH_SUBJECT_TOO_LONG. `.includes(x)` looks for a piece of text in text or an
 *   equal item in a list; no value includes nothing.
 * - Dates are calendar days at UTC midnight; date + n and date - n move n days; date - date is whole days.
 *
 * Speed: the number cases of arithmetic and comparison are handled inline and everything else falls to the shared
 * rules in operators.ts; closures allocate nothing on the number path and hold no try/catch. Subtrees without
 * references (and without today()) are computed once here, unless computing them fails, in which case the error is
 * left to happen at evaluation time where it is reported like any other.
 */
import { EngineError, type SourceSpan } from '../errors.ts'
import { describeType, valueToText, valuesEqual, type Value } from '../value.ts'
import type { BinaryExpr, Expr, MethodExpr, RefKind } from './ast.ts'
import { ExprErrorCode } from './error-codes.ts'
import { findFunction } from './functions.ts'
import { MAX_MATCH_SUBJECT_LENGTH } from './limits.ts'
import { add, arithmetic, compareOrdered, finite, negate, subtract, truth, typeMismatch } from './operators.ts'
import { compilePattern, type Pattern } from './patterns.ts'
import type { CompiledExpr, Scope } from './scope.ts'

interface Compiled {
  run: CompiledExpr
  /** True when the value cannot depend on the scope. */
  constant: boolean
}

const FOLDING_SCOPE: Scope = {
  lookup() {
    throw new Error('constant subtrees read no names')
  },
  now: new Date(0),
}

function constant(value: Value): Compiled {
  return { run: () => value, constant: true }
}

/** Computes a scope-independent subtree now; if that fails, keeps it so the error surfaces during evaluation. */
function fold(run: CompiledExpr, children: Compiled[], pure = true): Compiled {
  if (!pure || !children.every((child) => child.constant)) return { run, constant: false }
  try {
    return constant(run(FOLDING_SCOPE))
  } catch {
    return { run, constant: false }
  }
}

function compileNode(expr: Expr, bind: BindReference): Compiled {
  switch (expr.type) {
    case 'literal':
      return constant(expr.value)
    case 'regex':
      return constant(expr.pattern)
    case 'ref':
      return { run: bind(expr.kind, expr.name), constant: false }
    case 'array': {
      const items = expr.items.map((item) => compileNode(item, bind))
      const runs = items.map((item) => item.run)
      return fold((scope) => runs.map((run) => run(scope)), items)
    }
    case 'unary': {
      const operand = compileNode(expr.operand, bind)
      const run = operand.run
      const span = expr.span
      if (expr.op === '!') return fold((scope) => !truth(run(scope), '!', span), [operand])
      return fold((scope) => {
        const a = run(scope)
        return typeof a === 'number' ? -a : negate(a, span)
      }, [operand])
    }
    case 'binary':
      return compileBinary(expr, bind)
    case 'call': {
      const def = findFunction(expr.name)
      if (def === undefined) throw new EngineError(ExprErrorCode.UnknownFunction, `There is no function called ${expr.name}.`, { span: expr.span })
      const args = expr.args.map((arg) => compileNode(arg, bind))
      return fold(def.build(args.map((arg) => arg.run), expr.span), args, def.pure)
    }
    case 'method':
      return compileMethod(expr, bind)
  }
}

function compileBinary(expr: BinaryExpr, bind: BindReference): Compiled {
  const left = compileNode(expr.left, bind)
  const right = compileNode(expr.right, bind)
  const l = left.run
  const r = right.run
  const span = expr.span
  const children = [left, right]
  switch (expr.op) {
    case '&&':
      return fold((scope) => truth(l(scope), '&&', span) && truth(r(scope), '&&', span), children)
    case '||':
      return fold((scope) => truth(l(scope), '||', span) || truth(r(scope), '||', span), children)
    case '==':
      return fold((scope) => {
        const a = l(scope)
        const b = r(scope)
        return a === b || valuesEqual(a, b)
      }, children)
    case '!=':
      return fold((scope) => {
        const a = l(scope)
        const b = r(scope)
        return a !== b && !valuesEqual(a, b)
      }, children)
    case '<':
    case '>':
    case '<=':
    case '>=':
      return fold(compileComparison(expr.op, left, right, span), children)
    case '+':
      return fold((scope) => {
        const a = l(scope)
        const b = r(scope)
        return typeof a === 'number' && typeof b === 'number' ? finite(a + b, '+', span) : add(a, b, span)
      }, children)
    case '-':
      return fold((scope) => {
        const a = l(scope)
        const b = r(scope)
        return typeof a === 'number' && typeof b === 'number' ? finite(a - b, '-', span) : subtract(a, b, span)
      }, children)
    case '*':
      return fold((scope) => {
        const a = l(scope)
        const b = r(scope)
        return typeof a === 'number' && typeof b === 'number' ? finite(a * b, '*', span) : arithmetic('*', a, b, span)
      }, children)
    case '/':
      return fold((scope) => {
        const a = l(scope)
        const b = r(scope)
        return typeof a === 'number' && typeof b === 'number' && b !== 0 ? finite(a / b, '/', span) : arithmetic('/', a, b, span)
      }, children)
    case '^':
      return fold((scope) => arithmetic('^', l(scope), r(scope), span), children)
  }
}

/** Comparisons are the hot path of rule trees; a constant number on the right (`{{Age}} >= 18`) gets its own closure. */
function compileComparison(op: '<' | '>' | '<=' | '>=', left: Compiled, right: Compiled, span: SourceSpan): CompiledExpr {
  const l = left.run
  const r = right.run
  const c = right.constant ? r(FOLDING_SCOPE) : undefined
  if (typeof c === 'number') {
    switch (op) {
      case '<':
        return (scope) => {
          const a = l(scope)
          return typeof a === 'number' ? a < c : compareOrdered(op, a, c, span)
        }
      case '>':
        return (scope) => {
          const a = l(scope)
          return typeof a === 'number' ? a > c : compareOrdered(op, a, c, span)
        }
      case '<=':
        return (scope) => {
          const a = l(scope)
          return typeof a === 'number' ? a <= c : compareOrdered(op, a, c, span)
        }
      case '>=':
        return (scope) => {
          const a = l(scope)
          return typeof a === 'number' ? a >= c : compareOrdered(op, a, c, span)
        }
    }
  }
  switch (op) {
    case '<':
      return (scope) => {
        const a = l(scope)
        const b = r(scope)
        return typeof a === 'number' && typeof b === 'number' ? a < b : compareOrdered(op, a, b, span)
      }
    case '>':
      return (scope) => {
        const a = l(scope)
        const b = r(scope)
        return typeof a === 'number' && typeof b === 'number' ? a > b : compareOrdered(op, a, b, span)
      }
    case '<=':
      return (scope) => {
        const a = l(scope)
        const b = r(scope)
        return typeof a === 'number' && typeof b === 'number' ? a <= b : compareOrdered(op, a, b, span)
      }
    case '>=':
      return (scope) => {
        const a = l(scope)
        const b = r(scope)
        return typeof a === 'number' && typeof b === 'number' ? a >= b : compareOrdered(op, a, b, span)
      }
  }
}

function matchSubject(value: Value, span: SourceSpan): string | null {
  if (value === null) return null
  if (typeof value !== 'string' && typeof value !== 'number') {
    throw new EngineError(ExprErrorCode.TypeMismatch, `.match() needs text, but got ${describeType(value)}.`, { span })
  }
  const subject = typeof value === 'number' ? valueToText(value) : value
  if (subject.length > MAX_MATCH_SUBJECT_LENGTH) {
    throw new EngineError(
      ExprErrorCode.MatchSubjectTooLong,
      `.match() only checks text up to ${MAX_MATCH_SUBJECT_LENGTH} characters; this one has ${subject.length}.`,
      { span },
    )
  }
  return subject
}

function compileMethod(expr: MethodExpr, bind: BindReference): Compiled {
  const target = compileNode(expr.target, bind)
  const argExpr = expr.args[0]!
  const arg = compileNode(argExpr, bind)
  const t = target.run
  const a = arg.run
  const span = expr.span
  if (expr.name === 'includes') {
    return fold((scope) => {
      const haystack = t(scope)
      const needle = a(scope)
      if (haystack === null) return false
      if (Array.isArray(haystack)) return haystack.some((item) => valuesEqual(item, needle))
      if (typeof haystack === 'string' && typeof needle === 'string') return haystack.includes(needle)
      if (typeof haystack === 'string' && needle === null) return false
      return typeMismatch('.includes', haystack, needle, span)
    }, [target, arg])
  }
  if (argExpr.type === 'regex' || (argExpr.type === 'literal' && typeof argExpr.value === 'string')) {
    const regex =
      argExpr.type === 'regex'
        ? compilePattern(argExpr.pattern, argExpr.flags, argExpr.span)
        : compilePattern(argExpr.value as string, '', argExpr.span)
    return fold((scope) => {
      const subject = matchSubject(t(scope), span)
      return subject !== null && regex.test(subject)
    }, [target])
  }
  let lastSource: string | undefined
  let lastRegex: Pattern | undefined
  return fold((scope) => {
    const subject = matchSubject(t(scope), span)
    const pattern = a(scope)
    if (typeof pattern !== 'string') {
      throw new EngineError(ExprErrorCode.TypeMismatch, `.match() needs a pattern written as text, but got ${describeType(pattern)}.`, {
        span: argExpr.span,
      })
    }
    if (pattern !== lastSource || lastRegex === undefined) {
      lastRegex = compilePattern(pattern, '', argExpr.span)
      lastSource = pattern
    }
    return subject !== null && lastRegex.test(subject)
  }, [target, arg])
}

/** Produces the closure that reads one reference; the default asks the scope each time. */
export type BindReference = (kind: RefKind, name: string) => CompiledExpr

export interface CompileOptions {
  /**
   * Lets a caller that knows its names ahead of time (a compiled advice set) bind each reference once, e.g. to a slot
   * in an array, instead of a name lookup on every evaluation.
   */
  bindReference?: BindReference
}

const lookupInScope: BindReference = (kind, name) => (scope) => scope.lookup(kind, name)

export function compileExpression(expr: Expr, opts?: CompileOptions): CompiledExpr {
  return compileNode(expr, opts?.bindReference ?? lookupInScope).run
}
