import type { CompiledExpr } from '../expr/index.ts'
import type { Value } from '../value.ts'

/**
 * Per-run formula state, created on the first formula read: the memo, the write epoch each value was computed
 * in (a later write makes it stale), which formulas are being computed (to catch cycles) and the formulas that
 * Formula nodes redefined.
 */
export class FormulaMemo {
  readonly values: Value[]
  readonly epochs: Int32Array
  readonly busy: Uint8Array
  readonly overrides: Array<CompiledExpr | undefined>

  constructor(count: number) {
    this.values = new Array<Value>(count).fill(null)
    this.epochs = new Int32Array(count)
    this.busy = new Uint8Array(count)
    this.overrides = new Array<CompiledExpr | undefined>(count).fill(undefined)
  }
}
