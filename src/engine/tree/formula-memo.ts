import type { ResolvedTag } from '../content/index.ts'
import type { CompiledExpr } from '../expr/index.ts'
import type { Value } from '../value.ts'

/**
 * Per-run formula state, created on the first formula read (or redefinition): the memo with, for each value, the
 * write epoch it was computed in and the variable slots it read (directly or through other formulas), so only a
 * later write to one of those makes it stale (each slot's latest write is recorded from here on); the value resolved for content (formatted), once asked; which formulas are being computed (to
 * catch cycles) and the formulas that Formula nodes redefined.
 */
export class FormulaMemo {
  readonly values: Value[]
  /** 0: never computed. */
  readonly epochs: Int32Array
  readonly reads: Array<readonly number[]>
  readonly resolved: Array<ResolvedTag | undefined>
  readonly busy: Uint8Array
  readonly overrides: Array<CompiledExpr | undefined>
  /** Per variable slot, the epoch of its latest write since this memo was made (0: none). */
  readonly writtenAt: Int32Array
  /** The epoch of the latest redefinition: every value computed before it is stale. */
  overriddenAt = 0

  constructor(count: number, variableCount: number) {
    this.values = new Array<Value>(count).fill(null)
    this.epochs = new Int32Array(count)
    this.reads = new Array<readonly number[]>(count).fill(NO_READS)
    this.resolved = new Array<ResolvedTag | undefined>(count).fill(undefined)
    this.busy = new Uint8Array(count)
    this.overrides = new Array<CompiledExpr | undefined>(count).fill(undefined)
    this.writtenAt = new Int32Array(variableCount)
  }
}

const NO_READS: readonly number[] = Object.freeze([])
