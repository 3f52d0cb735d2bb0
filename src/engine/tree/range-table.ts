// Many advice sets read like a decision table: rule after rule that each starts with a number band on the same
// variable ({{Age}} >= 30 && {{Age}} < 40 && …) and only gives advice. Run in order, every rule checks its band,
// and most bands fail. A range table indexes such a run of rules by that first band: the number line is cut where
// any band starts or ends, and each piece lists the rules (in order) whose band holds there. An untraced run reads
// the value once, finds its piece by binary search and enters only those rules. A rule whose band fails does
// nothing at all (no step, no value read, no error), and these rules write no variable, so the outcome is the
// same as checking every band.
import type { CompiledNode, CompiledRule } from './compiled.ts'
import * as kinds from './compiled.ts'
import { nextDown, PLAN_RANGE } from './condition-plan.ts'
import { RESERVED_SLOTS } from './slots.ts'

export interface RangeTable {
  /** The variable every band reads. */
  readonly slot: number
  /** Where the rules a value passes change, ascending: piece j holds the values v with edges[j-1] <= v < edges[j]. */
  readonly edges: Float64Array
  /** Piece j's rules are entries firsts[j] up to firsts[j + 1] of starts and stops. */
  readonly firsts: Int32Array
  /** Each entry's rule: its first instruction. */
  readonly starts: Int32Array
  /** Each entry's rule: the instruction just past it. */
  readonly stops: Int32Array
  /** Just past the table's last rule. */
  readonly end: number
  /**
   * When the edges span at most DENSE_SPAN: the piece of each whole number from `denseFrom` on, so whole numbers
   * (ages, years, counts) find their piece without a search.
   */
  readonly dense: Int32Array | null
  readonly denseFrom: number
}

/** Fewer rules than this gain too little from a table to pay its lookup. */
export const MIN_TABLE_RULES = 4
/** A table whose pieces list more than this many rules per rule is left out (nested wide bands). */
const MAX_ENTRIES_PER_RULE = 32
/** The widest range of whole numbers a table keeps pieces for, one slot each. */
const DENSE_SPAN = 4096
/** A table pays only when pieces list, on average, at most this share of its rules. */
const MAX_AVERAGE_SHARE = 0.75

/** A rule a table may index: one planned condition starting with a band, and beneath it only conditions and advice. */
function bandOf(rule: CompiledRule): number | null {
  if (rule.nodes.length !== 1) return null
  const node = rule.nodes[0]!
  const plan = node.error === null && node.kind === kinds.KIND_CONDITION ? node.plan : null
  if (plan === null || plan.ops[0] !== PLAN_RANGE || plan.slots[0]! < RESERVED_SLOTS) return null
  if (Number.isNaN(plan.lows[0]!) || Number.isNaN(plan.highs[0]!)) return null
  return node.children.every(onlyDecides) ? plan.slots[0]! : null
}

/** Conditions and advice only: nothing that writes a variable, asks, calls or leaves the rule. */
function onlyDecides(node: CompiledNode): boolean {
  if (node.error !== null) return false
  const kind = node.kind
  if (kind !== kinds.KIND_CONDITION && kind !== kinds.KIND_ALWAYS && kind !== kinds.KIND_ADVICE) return false
  return node.children.every(onlyDecides)
}

/** How many rules from `start` a table can index (all on one variable), or 0 when too few do. */
export function tableRuleCount(rules: readonly CompiledRule[], start: number): number {
  const slot = bandOf(rules[start]!)
  if (slot === null) return 0
  let end = start + 1
  while (end < rules.length && bandOf(rules[end]!) === slot) end++
  return end - start >= MIN_TABLE_RULES ? end - start : 0
}

/** The smallest double above `x` (x finite or -Infinity). */
function nextUp(x: number): number {
  return x === -Infinity ? -Number.MAX_VALUE : -nextDown(-x)
}

/**
 * The table of rules whose bands are [lows[i], highs[i]], laid out at starts[i] up to stops[i]; null when it would
 * not pay. A rule's membership changes only at its low bound and just above its high bound, so every value of a
 * piece passes the same bands as the piece's first value.
 */
export function rangeTableOf(slot: number, lows: number[], highs: number[], starts: number[], stops: number[]): RangeTable | null {
  const cuts = new Set<number>()
  for (let i = 0; i < lows.length; i++) {
    if (lows[i]! !== -Infinity) cuts.add(lows[i]!)
    if (highs[i]! !== Infinity) cuts.add(nextUp(highs[i]!))
  }
  const edges = Float64Array.from([...cuts].sort((a, b) => a - b))
  const firsts = [0]
  const entries: number[] = []
  for (let piece = 0; piece <= edges.length; piece++) {
    const value = piece === 0 ? -Infinity : edges[piece - 1]!
    for (let i = 0; i < lows.length; i++) if (value >= lows[i]! && value <= highs[i]!) entries.push(i)
    if (entries.length > MAX_ENTRIES_PER_RULE * lows.length) return null
    firsts.push(entries.length)
  }
  if (entries.length > MAX_AVERAGE_SHARE * lows.length * (edges.length + 1)) return null
  // Whole numbers below the first edge's ceiling lie in piece 0, above the last edge's floor in the last one.
  const denseFrom = edges.length > 0 ? Math.ceil(edges[0]!) : 0
  const denseTo = edges.length > 0 ? Math.floor(edges[edges.length - 1]!) : -1
  const dense = denseTo - denseFrom <= DENSE_SPAN && denseTo >= denseFrom
  return {
    slot,
    edges,
    firsts: Int32Array.from(firsts),
    starts: Int32Array.from(entries, (i) => starts[i]!),
    stops: Int32Array.from(entries, (i) => stops[i]!),
    end: stops[stops.length - 1]!,
    dense: dense ? Int32Array.from({ length: denseTo - denseFrom + 1 }, (_, i) => pieceOf(edges, denseFrom + i)) : null,
    denseFrom,
  }
}

/** The piece a number falls in (NaN falls in none: the caller checks it first). */
export function pieceIn(table: RangeTable, value: number): number {
  const dense = table.dense
  if (dense !== null && Math.floor(value) === value) {
    const offset = value - table.denseFrom
    if (offset < 0) return 0
    return offset < dense.length ? dense[offset]! : table.edges.length
  }
  return pieceOf(table.edges, value)
}

function pieceOf(edges: Float64Array, value: number): number {
  let low = 0
  let high = edges.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (edges[middle]! <= value) low = middle + 1
    else high = middle
  }
  return low
}
