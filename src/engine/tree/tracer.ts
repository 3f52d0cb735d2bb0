// The trace of a run: every node visited, in visit order, with its value and the time its subtree took (untimed
// traces leave durationNs at 0 and keep no open entries).
import type { Value } from '../value.ts'
import type { CompiledNode } from './compiled.ts'
import type { Program } from './program.ts'
import type { TraceEntry } from './result.ts'

interface OpenEntry {
  entry: TraceEntry
  program: Program
  /** Program index just past the node's subtree. */
  end: number
  started: number
}

export class Tracer {
  readonly entries: TraceEntry[] = []
  /** Entries whose node's subtree is still running, innermost last. */
  private readonly open: OpenEntry[] = []
  /** The entry whose node has not reported its value yet. */
  private pending: TraceEntry | null = null

  constructor(
    private readonly timed = true,
    /** Record only these nodes. */
    private readonly only: ReadonlySet<string> | undefined = undefined,
  ) {}

  /** Closes the entries of this program whose subtree ended before `pc`, then opens one for `node`. */
  enter(program: Program, pc: number, node: CompiledNode): void {
    if (this.only !== undefined && !this.only.has(node.id)) {
      this.pending = null
      if (this.timed) this.closeEnded(program, pc)
      return
    }
    if (!this.timed) {
      const entry: TraceEntry = { nodeId: node.id, type: node.type, value: null, durationNs: 0 }
      this.entries.push(entry)
      this.pending = entry
      return
    }
    this.closeEnded(program, pc)
    const entry: TraceEntry = { nodeId: node.id, type: node.type, value: null, durationNs: 0 }
    this.entries.push(entry)
    this.pending = entry
    this.open.push({ entry, program, end: program.ends[pc]!, started: performance.now() })
  }

  /** Closes the entries of this program whose subtree ended before `pc`. */
  private closeEnded(program: Program, pc: number): void {
    const open = this.open
    for (let top = open[open.length - 1]; top !== undefined && top.program === program && top.end <= pc; top = open[open.length - 1]) {
      close(open.pop()!)
    }
  }

  /** The value of the node entered last (a condition's outcome, an assigned or answered value). */
  report(value: Value): void {
    if (this.pending !== null) {
      this.pending.value = value
      this.pending = null
    }
  }

  /** A program is left (null: all of them, after a failure); its open entries end now. */
  leave(program: Program | null): void {
    const open = this.open
    while (open.length > 0 && (program === null || open[open.length - 1]!.program === program)) close(open.pop()!)
    this.pending = null
  }
}

function close(open: OpenEntry): void {
  open.entry.durationNs = Math.round((performance.now() - open.started) * 1e6)
}
