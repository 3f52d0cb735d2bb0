// Many advice sets read like a decision table: rule after rule that each start with a number band on the same
// variable ({{Age}} >= 30 && {{Age}} < 40 && …), often a second band on another one ({{Income}} > 20000), and then
// give advice or add to a score. Run in order, every rule checks its bands, and most fail. A range table indexes
// such a run of rules by those bands (its columns): each column's number line is cut where any band starts or ends,
// and each piece has a bit per rule whose band holds there. An untraced run reads the values, finds their pieces,
// and enters only the rules whose bits are set in both. A rule whose band fails does nothing at all (no step, no
// value read, no error), and these rules never write the banded variables, so the outcome is the same as checking
// every band.
//
// The second column is read when the first rule entered would read it (its first band held), so a missing or bad
// answer fails that rule, as it would; a value of another kind leaves the second band to be checked rule by rule.
import type { CompiledNode, CompiledRule } from './compiled.ts'
import * as kinds from './compiled.ts'
import type { ConditionPlan } from './condition-plan.ts'
import { nextDown, PLAN_RANGE } from './condition-plan.ts'
import { RESERVED_SLOTS } from './slots.ts'

export interface RangeColumn {
  /** The variable the column's bands read. */
  readonly slot: number
  /** Where the rules a value passes change, ascending: piece j holds the values v with edges[j-1] <= v < edges[j]. */
  readonly edges: Float64Array
  /** Piece j's rules: bit r % 32 of masks[j × words + r / 32] is set when rule r's band holds in it. */
  readonly masks: Int32Array
  /**
   * When the edges span at most DENSE_SPAN: the piece of each whole number from `denseFrom` on, so whole numbers
   * (ages, years, counts) find their piece without a search.
   */
  readonly dense: Int32Array | null
  readonly denseFrom: number
}

export interface RangeTable {
  readonly first: RangeColumn
  /** Present when every rule's second check is a band on another variable. */
  readonly second: RangeColumn | null
  /** 32-bit words per piece. */
  readonly words: number
  /** Rule r entered through the first column only: its instruction just past its first band. */
  readonly pastFirst: Int32Array
  /** Rule r entered through both columns: its instruction just past its second band. */
  readonly pastBoth: Int32Array
  /** Rule r: the instruction just past it. */
  readonly stops: Int32Array
  /** Every rule's bit set, one piece's worth: what a table without a second column ands the first one with. */
  readonly everyRule: Int32Array
  /** Just past the table's last rule. */
  readonly end: number
}

/** Fewer rules than this gain too little from a table to pay its lookup. */
export const MIN_TABLE_RULES = 4
/** A longer run of rules gets several tables, so a table's masks stay small (pieces × rules / 32 words). */
export const MAX_TABLE_RULES = 512
/** The widest range of whole numbers a column keeps pieces for, one slot each. */
const DENSE_SPAN = 4096

/**
 * The plan of a rule a table may index: one planned condition starting with a band, and beneath it nothing that
 * could change the band's variable or leave the rule other than at its end (see keepsTo).
 */
function bandedPlan(rule: CompiledRule): ConditionPlan | null {
  if (rule.nodes.length !== 1) return null
  const node = rule.nodes[0]!
  const plan = node.error === null && node.kind === kinds.KIND_CONDITION ? node.plan : null
  if (plan === null || !isBand(plan, 0)) return null
  return node.children.every((child) => keepsTo(child, plan.slots[0]!)) ? plan : null
}

function isBand(plan: ConditionPlan, check: number): boolean {
  return (
    check < plan.ops.length &&
    plan.ops[check] === PLAN_RANGE &&
    plan.slots[check]! >= RESERVED_SLOTS &&
    !Number.isNaN(plan.lows[check]!) &&
    !Number.isNaN(plan.highs[check]!)
  )
}

/**
 * Conditions, advice, rule exits (which go on just past the rule) and assignments to other variables: nothing that
 * writes `slot`, asks, calls another rule or an API. Scores added up rule by rule do not stop a table.
 */
function keepsTo(node: CompiledNode, slot: number): boolean {
  if (node.error !== null) return false
  const kind = node.kind
  const allowed =
    kind === kinds.KIND_CONDITION ||
    kind === kinds.KIND_ALWAYS ||
    kind === kinds.KIND_ADVICE ||
    kind === kinds.KIND_EXIT ||
    (kind === kinds.KIND_ASSIGN && node.slot !== slot)
  return allowed && node.children.every((child) => keepsTo(child, slot))
}

/** How many rules from `start` a table can index (all on one variable, at most MAX_TABLE_RULES), or 0 when too few. */
export function tableRuleCount(rules: readonly CompiledRule[], start: number): number {
  const slot = bandedPlan(rules[start]!)?.slots[0]
  if (slot === undefined) return 0
  let end = start + 1
  while (end < rules.length && end - start < MAX_TABLE_RULES && bandedPlan(rules[end]!)?.slots[0] === slot) end++
  return end - start >= MIN_TABLE_RULES ? end - start : 0
}

/** Where each rule of a table is laid out: its first instruction and the one just past it. */
export interface RuleLayout {
  readonly starts: readonly number[]
  readonly stops: readonly number[]
}

/**
 * The table of `rules` (a run tableRuleCount accepted) laid out as `layout` says. Bands are bounded on at least one
 * side, so values beyond the outermost bounds skip every rule, and values between skip those whose bands they miss.
 */
export function rangeTableOf(rules: readonly CompiledRule[], layout: RuleLayout): RangeTable {
  const plans = rules.map((rule) => rule.nodes[0]!.plan!)
  const words = Math.ceil(plans.length / 32)
  const first = columnOf(plans, 0, words)
  const secondSlot = plans[0]!.slots[1]
  const hasSecond =
    secondSlot !== first.slot &&
    plans.every((plan) => isBand(plan, 1) && plan.slots[1] === secondSlot) &&
    rules.every((rule) => rule.nodes[0]!.children.every((child) => keepsTo(child, secondSlot!)))
  return {
    first,
    second: hasSecond ? columnOf(plans, 1, words) : null,
    words,
    pastFirst: Int32Array.from(layout.starts, (start) => start + 1),
    pastBoth: Int32Array.from(layout.starts, (start) => start + 2),
    stops: Int32Array.from(layout.stops),
    everyRule: new Int32Array(words).fill(-1),
    end: layout.stops[layout.stops.length - 1]!,
  }
}

/** The smallest double above `x` (x finite or -Infinity). */
function nextUp(x: number): number {
  return x === -Infinity ? -Number.MAX_VALUE : -nextDown(-x)
}

/**
 * The column of each plan's check number `check`. A rule's band holds from its low bound up to just above its high
 * bound, so every value of a piece passes the same bands as the piece's first value.
 */
function columnOf(plans: readonly ConditionPlan[], check: number, words: number): RangeColumn {
  const lows = plans.map((plan) => plan.lows[check]!)
  const highs = plans.map((plan) => plan.highs[check]!)
  const cuts = new Set<number>()
  for (let i = 0; i < lows.length; i++) {
    if (lows[i]! !== -Infinity) cuts.add(lows[i]!)
    if (highs[i]! !== Infinity) cuts.add(nextUp(highs[i]!))
  }
  const edges = Float64Array.from([...cuts].sort((a, b) => a - b))
  const masks = new Int32Array((edges.length + 1) * words)
  for (let piece = 0; piece <= edges.length; piece++) {
    const value = piece === 0 ? -Infinity : edges[piece - 1]!
    for (let i = 0; i < lows.length; i++) {
      if (value >= lows[i]! && value <= highs[i]!) {
        masks[piece * words + (i >>> 5)]! |= 1 << (i & 31)
      }
    }
  }
  // Whole numbers below the first edge's ceiling lie in piece 0, above the last edge's floor in the last one.
  const denseFrom = edges.length > 0 ? Math.ceil(edges[0]!) : 0
  const denseTo = edges.length > 0 ? Math.floor(edges[edges.length - 1]!) : -1
  const dense = denseTo >= denseFrom && denseTo - denseFrom <= DENSE_SPAN
  return {
    slot: plans[0]!.slots[check]!,
    edges,
    masks,
    dense: dense ? Int32Array.from({ length: denseTo - denseFrom + 1 }, (_, i) => pieceOf(edges, denseFrom + i)) : null,
    denseFrom,
  }
}

/** The piece a number falls in (NaN falls in piece 0 and passes no band: the caller checks it first). */
export function pieceIn(column: RangeColumn, value: number): number {
  const dense = column.dense
  if (dense !== null && Math.floor(value) === value) {
    const offset = value - column.denseFrom
    if (offset < 0) return 0
    return offset < dense.length ? dense[offset]! : column.edges.length
  }
  return pieceOf(column.edges, value)
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

/** The lowest rule whose bit is set in `word` (not 0), word `index` of a piece. */
export function lowestRule(word: number, index: number): number {
  return (index << 5) + 31 - Math.clz32(word & -word)
}
