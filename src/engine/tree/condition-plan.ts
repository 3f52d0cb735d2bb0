// Most conditions authors write are a chain of `{{Var}} <op> constant` joined by &&. For those the runner
// checks a flat list of (slot, check) in one loop instead of calling a closure per operator. The plan only
// decides the common case — a number compared with numbers, text with text, true/false with a lone reference;
// for any other value it defers to the expression's compiled closure, so the meaning (including errors) is
// always exactly the expression compiler's.
import type { Expr } from '../expr/ast.ts'

// One op per kind of constant, so each check tests the value's kind against a fixed one.
/** The number lies in [low, high]: `<`, `<=`, `>`, `>=` and `==` with a number (`< 5` is `<=` the double below 5). */
export const PLAN_RANGE = 0
export const PLAN_NE_NUMBER = 1
export const PLAN_EQ_TEXT = 2
export const PLAN_NE_TEXT = 3
export const PLAN_EQ_BOOLEAN = 4
export const PLAN_NE_BOOLEAN = 5
/** A lone reference: true when the value is true. */
export const PLAN_IS_TRUE = 6
/** `!{{Var}}`: true when the value is false (or no value). */
export const PLAN_IS_FALSE = 7

export interface ConditionPlan {
  readonly slots: number[]
  readonly ops: number[]
  readonly lows: number[]
  readonly highs: number[]
  readonly constants: Array<string | number | boolean | null>
}

interface Check {
  slot: number
  op: number
  low: number
  high: number
  constant: string | number | boolean | null
}

/** A plan for `ast`, or null when it is not a conjunction of simple comparisons on variables. */
export function planCondition(ast: Expr, variableSlot: (ref: Expr & { type: 'ref' }) => number | undefined): ConditionPlan | null {
  const checks: Check[] = []
  if (!collect(ast, checks, variableSlot)) return null
  return {
    slots: checks.map((check) => check.slot),
    ops: checks.map((check) => check.op),
    lows: checks.map((check) => check.low),
    highs: checks.map((check) => check.high),
    constants: checks.map((check) => check.constant),
  }
}

function collect(expr: Expr, checks: Check[], slotOf: (ref: Expr & { type: 'ref' }) => number | undefined): boolean {
  if (expr.type === 'ref') return add(checks, slotOf(expr), PLAN_IS_TRUE, true)
  if (expr.type === 'unary') {
    return expr.op === '!' && expr.operand.type === 'ref' && add(checks, slotOf(expr.operand), PLAN_IS_FALSE, false)
  }
  if (expr.type !== 'binary') return false
  if (expr.op === '&&') return collect(expr.left, checks, slotOf) && collect(expr.right, checks, slotOf)
  if (expr.left.type !== 'ref' || expr.right.type !== 'literal') return false
  const constant = expr.right.value
  if (constant instanceof Date) return false
  const slot = slotOf(expr.left)
  if (typeof constant === 'number') {
    switch (expr.op) {
      case '<':
        return addRange(checks, slot, -Infinity, nextDown(constant))
      case '<=':
      case '==':
        return addRange(checks, slot, expr.op === '==' ? constant : -Infinity, constant)
      case '>':
        return addRange(checks, slot, -nextDown(-constant), Infinity)
      case '>=':
        return addRange(checks, slot, constant, Infinity)
    }
  }
  if (expr.op !== '==' && expr.op !== '!=') return false
  const equal = expr.op === '=='
  if (typeof constant === 'number') return add(checks, slot, PLAN_NE_NUMBER, constant)
  if (typeof constant === 'string') return add(checks, slot, equal ? PLAN_EQ_TEXT : PLAN_NE_TEXT, constant)
  return add(checks, slot, equal ? PLAN_EQ_BOOLEAN : PLAN_NE_BOOLEAN, constant)
}

function add(checks: Check[], slot: number | undefined, op: number, constant: string | number | boolean): boolean {
  if (slot === undefined) return false
  checks.push({ slot, op, low: 0, high: 0, constant })
  return true
}

/**
 * Back-to-back ranges on the same variable (`{{Age}} >= 18 && {{Age}} < 65`) become one check. Only adjacent
 * ones: merging across a check on another variable could skip that variable's read and its "no value" error.
 */
function addRange(checks: Check[], slot: number | undefined, low: number, high: number): boolean {
  if (slot === undefined) return false
  const last = checks[checks.length - 1]
  if (last !== undefined && last.op === PLAN_RANGE && last.slot === slot) {
    last.low = Math.max(last.low, low)
    last.high = Math.min(last.high, high)
    return true
  }
  checks.push({ slot, op: PLAN_RANGE, low, high, constant: null })
  return true
}

const doubles = new Float64Array(1)
const bits = new BigInt64Array(doubles.buffer)

/** The largest double below `x` (x finite), so `a < x` is exactly `a <= nextDown(x)`. */
export function nextDown(x: number): number {
  if (x === 0) return -Number.MIN_VALUE
  doubles[0] = x
  bits[0]! += x > 0 ? -1n : 1n
  return doubles[0]!
}
