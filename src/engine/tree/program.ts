// The rule trees laid out for the runner as flat instruction lists, so a whole run is one loop without
// recursion per node. Nodes come in pre-order (which is run order); every node knows the index just past its
// subtree, where a false condition jumps. A condition with a plan (condition-plan.ts) is laid out as one
// instruction per comparison, checked inline. The top-level program is all top-level rules one after another,
// with a range table (range-table.ts) in front of each run of rules that reads like a decision table.
import type { CompiledNode, CompiledRule } from './compiled.ts'
import * as kinds from './compiled.ts'
import { rangeTableOf, tableRuleCount } from './range-table.ts'
import type { RangeTable } from './range-table.ts'

/**
 * Node instructions use the node kinds (0–9). A planned condition has no node instruction of its own: it is its
 * comparison instructions, OP_ATOM + the plan's op (condition-plan.ts PLAN_*).
 */
export const OP_ATOM = 16
/** The head of a run of rules indexed by a range table: untraced runs enter only the rules a value can pass. */
export const OP_TABLE = 10

export interface Program {
  readonly ops: number[]
  /** The node an instruction belongs to (a comparison's condition). */
  readonly nodes: CompiledNode[]
  /** Node: index past its subtree. Comparison: where to go when it fails. */
  readonly ends: number[]
  /**
   * Comparison: index just past the condition's comparisons, where its children start. Rule Exit: index past its
   * rule, where the run goes on.
   */
  readonly nexts: number[]
  /** Comparison: the variable slot. */
  readonly slots: number[]
  /** Range comparison: its low bound at 2 × index, its high bound at 2 × index + 1. */
  readonly bounds: number[]
  readonly constants: Array<number | string | boolean | null>
  /** OP_TABLE: its table. */
  readonly tables: Array<RangeTable | null>
}

interface Draft {
  ops: number[]
  nodes: CompiledNode[]
  ends: number[]
  nexts: number[]
  slots: number[]
  bounds: number[]
  constants: Array<number | string | boolean | null>
  tables: Array<RangeTable | null>
}

function emptyDraft(): Draft {
  return { ops: [], nodes: [], ends: [], nexts: [], slots: [], bounds: [], constants: [], tables: [] }
}

function push(draft: Draft, op: number, node: CompiledNode): number {
  draft.ops.push(op)
  draft.nodes.push(node)
  draft.ends.push(0)
  draft.nexts.push(0)
  draft.slots.push(-1)
  draft.bounds.push(0, 0)
  draft.constants.push(null)
  draft.tables.push(null)
  return draft.ops.length - 1
}

function addNode(draft: Draft, node: CompiledNode, exits: number[]): void {
  const broken = node.error !== null
  const plan = !broken && node.kind === kinds.KIND_CONDITION ? node.plan : null
  const heads: number[] = []
  if (plan) {
    for (let i = 0; i < plan.slots.length; i++) {
      const atom = push(draft, OP_ATOM + plan.ops[i]!, node)
      draft.slots[atom] = plan.slots[i]!
      draft.bounds[2 * atom] = plan.lows[i]!
      draft.bounds[2 * atom + 1] = plan.highs[i]!
      draft.constants[atom] = plan.constants[i]!
      heads.push(atom)
    }
  } else {
    heads.push(push(draft, broken ? kinds.KIND_BROKEN : node.kind, node))
    if (!broken && node.kind === kinds.KIND_EXIT) exits.push(heads[0]!)
  }
  const bodyStart = draft.ops.length
  for (const child of node.children) addNode(draft, child, exits)
  const end = draft.ops.length
  for (const head of heads) {
    draft.ends[head] = end
    if (plan) draft.nexts[head] = bodyStart
  }
}

/** Lays out one rule's nodes; each Rule Exit continues just past the rule. */
function addRule(draft: Draft, nodes: readonly CompiledNode[]): void {
  const exits: number[] = []
  for (const node of nodes) addNode(draft, node, exits)
  for (const exit of exits) draft.nexts[exit] = draft.ops.length
}

function finish(draft: Draft): Program {
  return {
    ops: draft.ops,
    nodes: draft.nodes,
    ends: draft.ends,
    nexts: draft.nexts,
    slots: draft.slots,
    bounds: draft.bounds,
    constants: draft.constants,
    tables: draft.tables,
  }
}

/** The program a rule runs when another rule calls it. */
export function ruleProgram(nodes: readonly CompiledNode[]): Program {
  const draft = emptyDraft()
  addRule(draft, nodes)
  return finish(draft)
}

/**
 * The program of a whole run: every top-level rule in order. Returns where each rule ends too, which is where
 * the run resumes when a rule fails. `tables: false` lays out the same rules without range tables (tests compare).
 */
export function mainProgram(rules: readonly CompiledRule[], options: { tables?: boolean } = {}): { program: Program; ruleEnds: Map<string, number> } {
  const draft = emptyDraft()
  const ruleEnds = new Map<string, number>()
  for (let i = 0; i < rules.length; ) {
    const count = options.tables === false ? 0 : tableRuleCount(rules, i)
    if (count > 0) {
      addTable(draft, rules.slice(i, i + count), ruleEnds)
      i += count
      continue
    }
    addRule(draft, rules[i]!.nodes)
    ruleEnds.set(rules[i]!.id, draft.ops.length)
    i++
  }
  return { program: finish(draft), ruleEnds }
}

/** Lays out `rules` behind an OP_TABLE instruction with their range table, made once their places are known. */
function addTable(draft: Draft, rules: readonly CompiledRule[], ruleEnds: Map<string, number>): void {
  const index = push(draft, OP_TABLE, rules[0]!.nodes[0]!)
  const starts: number[] = []
  const stops: number[] = []
  for (const rule of rules) {
    starts.push(draft.ops.length)
    addRule(draft, rule.nodes)
    stops.push(draft.ops.length)
    ruleEnds.set(rule.id, draft.ops.length)
  }
  draft.tables[index] = rangeTableOf(rules, { starts, stops })
  draft.ends[index] = draft.ops.length
}
