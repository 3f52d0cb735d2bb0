// Most conditions authors write are a chain of `{{Var}} <op> constant` joined by &&. For those the runner
// checks a flat list of (slot, op, constant) in one loop instead of calling a closure per operator. The plan
// only decides the common case — a number compared with a number, text with text, true/false with a lone
// reference; for any other value it defers to the expression's compiled closure, so the meaning (including
// errors) is always exactly the expression compiler's.
import type { Expr } from '../expr/ast.ts'

export const PLAN_LT = 0
export const PLAN_GT = 1
export const PLAN_LE = 2
export const PLAN_GE = 3
export const PLAN_EQ = 4
export const PLAN_NE = 5
/** A lone reference: true when the value is true. */
export const PLAN_IS_TRUE = 6
/** `!{{Var}}`: true when the value is false (or no value). */
export const PLAN_IS_FALSE = 7

const ORDER_OPS: Readonly<Record<string, number>> = { '<': PLAN_LT, '>': PLAN_GT, '<=': PLAN_LE, '>=': PLAN_GE }

/** Typed arrays keep the checks free of boxed numbers; `numbers` holds the constant of numeric comparisons. */
export interface ConditionPlan {
  readonly slots: Int32Array
  readonly ops: Uint8Array
  readonly numbers: Float64Array
  readonly constants: Array<number | string | boolean>
}

interface Draft {
  slots: number[]
  ops: number[]
  constants: Array<number | string | boolean>
}

/** A plan for `ast`, or null when it is not a conjunction of simple comparisons on variables. */
export function planCondition(ast: Expr, variableSlot: (ref: Expr & { type: 'ref' }) => number | undefined): ConditionPlan | null {
  const draft: Draft = { slots: [], ops: [], constants: [] }
  if (!collect(ast, draft, variableSlot)) return null
  return {
    slots: Int32Array.from(draft.slots),
    ops: Uint8Array.from(draft.ops),
    numbers: Float64Array.from(draft.constants, (constant) => (typeof constant === 'number' ? constant : 0)),
    constants: draft.constants,
  }
}

function collect(expr: Expr, plan: Draft, slotOf: (ref: Expr & { type: 'ref' }) => number | undefined): boolean {
  if (expr.type === 'ref') return push(plan, slotOf(expr), PLAN_IS_TRUE, true)
  if (expr.type === 'unary') {
    return expr.op === '!' && expr.operand.type === 'ref' && push(plan, slotOf(expr.operand), PLAN_IS_FALSE, false)
  }
  if (expr.type !== 'binary') return false
  if (expr.op === '&&') return collect(expr.left, plan, slotOf) && collect(expr.right, plan, slotOf)
  if (expr.left.type !== 'ref' || expr.right.type !== 'literal') return false
  const constant = expr.right.value
  const slot = slotOf(expr.left)
  const order = ORDER_OPS[expr.op]
  if (order !== undefined) return typeof constant === 'number' && push(plan, slot, order, constant)
  if (expr.op === '==' || expr.op === '!=') {
    return !(constant instanceof Date) && push(plan, slot, expr.op === '==' ? PLAN_EQ : PLAN_NE, constant)
  }
  return false
}

function push(plan: Draft, slot: number | undefined, op: number, constant: number | string | boolean): boolean {
  if (slot === undefined) return false
  plan.slots.push(slot)
  plan.ops.push(op)
  plan.constants.push(constant)
  return true
}
