import type { Value } from '../value.ts'
import type { RefKind } from './ast.ts'

/** What a compiled expression reads from. The scope, not the expression, decides what a missing name means. */
export interface Scope {
  lookup(kind: RefKind, name: string): Value
  /** The moment of the run; today() is derived from it so evaluation stays deterministic. */
  now: Date
}

export type CompiledExpr = (scope: Scope) => Value
