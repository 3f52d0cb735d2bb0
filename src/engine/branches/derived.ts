// Answers derived through formulas and arithmetic. A path's conditions often compare not a variable but something
// computed from variables: `[[Client_Age]] > 75` with Client_Age = `age({{Birth_Date}})`, `{{A}} * 12 > 1000`,
// `[[Ratio]] <= 0.4` with Ratio = `{{Debts}} / {{Income}}`. Such a comparison says nothing about any one variable that
// constraints.ts can read, so here it is solved numerically instead: with every other variable at its current answer,
// the comparison is evaluated as a function of one input variable, and the places where it changes from false to
// true are found by bisection between seed values (numbers on a wide 1-2-5 grid, dates from today back and forward
// by days to 150 years). Near each such boundary the plainest values on each side are kept (whole numbers, then
// one decimal more, …; for dates the two neighbouring days). A variable of a closed type (options, yes/no, text) is
// solved by trying its candidates. When a comparison reads several variables and none can be solved with the others
// at their first answers (Debts / Income with Income 0), the others' next candidates are tried as anchors.
//
// The values found are only proposals: the search (index.ts) puts those that satisfy every comparison on the path
// first and proves each branch by a real run, so a wrong guess costs an attempt, never a wrong branch. Formulas are
// computed as the run would at that point of the path: a Formula node run before a condition (an earlier sibling of
// the condition or of a node above it, or a node above it) replaces the dictionary's definition. A Variable
// Assignment run there (`{{Yearly_Income}} = {{Pot}} * {{Withdrawal_Rate}}`) makes its variable computed in the same
// way, so a condition on it is solved through what it was set to.
import { EngineError } from '../errors.ts'
import type { BinaryOp, Expr } from '../expr/ast.ts'
import { compileExpression } from '../expr/compile.ts'
import { references } from '../expr/references.ts'
import type { CompiledExpr, Scope } from '../expr/scope.ts'
import type { CompiledAdviceSet, CompiledNode } from '../tree/compiled.ts'
import { CONTEXT_SLOT } from '../tree/slots.ts'
import type { Value } from '../value.ts'
import type { Atom, AtomValue } from '../checks/constraints.ts'
import { holds as atomHolds } from '../checks/constraints.ts'
import type { TreePath } from './paths.ts'

const MS_PER_DAY = 86_400_000
const COMPARE_OPS: ReadonlySet<BinaryOp> = new Set(['<', '>', '<=', '>=', '==', '!='])
const NEGATED: Record<string, BinaryOp> = { '<': '>=', '>': '<=', '<=': '>', '>=': '<', '==': '!=', '!=': '==' }
/** Numbers a numeric solve starts from: 0 and ±1, 2, 5 × 10^k for k from -4 to 9, in order. */
const NUMBER_SEEDS: readonly number[] = (() => {
  const positive: number[] = []
  for (let k = -4; k <= 9; k++) for (const m of [1, 2, 5]) positive.push(Number((m * 10 ** k).toPrecision(6)))
  return [...positive.map((x) => -x).reverse(), 0, ...positive]
})()
/** Days from today a date solve starts from: ±a day, a week, a month, a quarter, half a year, then years to 150. */
const DAY_SEEDS: readonly number[] = (() => {
  const offsets = [1, 7, 30, 91, 182, ...[1, 2, 3, 5, 10, 15, 20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 120, 150].map((years) => Math.round(years * 365.25))]
  return [...offsets.map((d) => -d).reverse(), 0, ...offsets]
})()
/** Boundaries kept per comparison and variable, and anchors tried per other variable. */
const MAX_CROSSINGS = 4
const MAX_ANCHORS = 3
/** Formulas nested deeper than this while solving are treated as failing (a cycle the run would report). */
const MAX_FORMULA_DEPTH = 32

/** One comparison on a path, as it must hold for the path to be taken. */
interface Probe {
  /** Unique per probe made: paths under the same conditions share probes, and derivations by them (Deriver.memo). */
  id: number
  /** True when the comparison holds. */
  holds: CompiledExpr
  /** For == and != : the same sides compared with >=, whose change locates where the sides are equal. */
  crossing: CompiledExpr | null
  /** Input variable slots it reads, directly or through formulas. */
  unknowns: number[]
  /** Definitions in force where the condition runs. */
  inForce: InForce
}

/** What Formula nodes and Variable Assignments run before a node have defined: formula index or variable slot → expression. */
interface InForce {
  formulas: ReadonlyMap<number, Expr>
  variables: ReadonlyMap<number, Expr>
}

const NOTHING_IN_FORCE: InForce = { formulas: new Map(), variables: new Map() }

/** A variable's answers as the search holds them: values by slot, the first being the one a base attempt uses. */
export interface DerivableChoice {
  slot: number
  values: Value[]
  /** A starting answer: never changed. */
  fixed: boolean
  /** Comparisons of this variable with constants on the path (constraints.ts); derived values must satisfy them. */
  atoms: readonly Atom[]
}

/** What derivation proposes for one variable: values to try first (all of the path's comparisons hold with them). */
export interface DerivedValues {
  slot: number
  /** Values that satisfy every comparison of the path, given the other variables' first values; tried first. */
  first: Value[]
  /** Values found on the other side of a boundary: a path's comparisons fail with them (compare probes use them). */
  otherSide: Value[]
}

const compiledAsts = new WeakMap<Expr, CompiledExpr>()

function compiledOf(ast: Expr): CompiledExpr {
  let run = compiledAsts.get(ast)
  if (run === undefined) compiledAsts.set(ast, (run = compileExpression(ast)))
  return run
}

/** Evaluates probes with chosen values by slot; formulas are computed from their definitions in force. */
class ProbeScope implements Scope {
  private depth = 0
  inForce: InForce = NOTHING_IN_FORCE

  constructor(
    private readonly compiled: CompiledAdviceSet,
    readonly values: Array<Value | undefined>,
    readonly now: Date,
  ) {}

  lookup(kind: 'variable' | 'formula' | 'bare', name: string): Value {
    if (kind === 'formula' || (kind === 'bare' && this.compiled.bareFormulas.has(name))) {
      const index = this.compiled.formulaIndex.get(name)
      const ast = index === undefined ? null : (this.inForce.formulas.get(index) ?? this.compiled.formulas[index]!.ast)
      if (!ast) throw new EngineError('UNKNOWN_FORMULA', `[[${name}]] cannot be computed.`)
      return this.computed(ast, `[[${name}]]`)
    }
    const slot = this.compiled.variableIndex.get(name)
    if (slot === CONTEXT_SLOT) return 'run'
    const assigned = slot === undefined ? undefined : this.inForce.variables.get(slot)
    if (assigned) return this.computed(assigned, `{{${name}}}`)
    const value = slot === undefined ? undefined : (this.values[slot] ?? this.compiled.variables[slot]!.defaultValue)
    if (value === undefined) throw new EngineError('UNSET_VARIABLE', `{{${name}}} has no value.`)
    return value
  }

  private computed(ast: Expr, written: string): Value {
    if (this.depth >= MAX_FORMULA_DEPTH) throw new EngineError('UNKNOWN_FORMULA', `${written} cannot be computed.`)
    this.depth++
    try {
      return compiledOf(ast)(this)
    } finally {
      this.depth--
    }
  }

  /** true or false, or undefined when the expression fails with these values. */
  test(expr: CompiledExpr): boolean | undefined {
    try {
      return expr(this) === true
    } catch (error) {
      if (error instanceof EngineError) return undefined
      throw error
    }
  }
}

export class Deriver {
  /** Probes of each condition node (with no Formula nodes in force), worked out once; and of its negation. */
  private readonly probesOf = new Map<CompiledNode, Probe[]>()
  private readonly negatedProbesOf = new Map<CompiledNode, Probe[]>()
  /** Formula nodes or Variable Assignments: definitions that depend on where on a path a condition is. */
  private readonly hasDefiningNodes: boolean
  /** Derivations by their probes and starting point: sibling paths under the same conditions ask the same again. */
  private readonly memo = new Map<string, DerivedValues[]>()
  private nextProbeId = 1

  constructor(
    private readonly compiled: CompiledAdviceSet,
    private readonly inputs: ReadonlySet<number>,
    private readonly now: Date,
  ) {
    this.hasDefiningNodes = [...compiled.nodeById.values()].some((node) => node.type === 'formula' || node.type === 'variableAssignment')
  }

  /**
   * The comparisons on `path` that need solving (none for most paths: conditions on plain variables): those of its
   * conditions, and the negations of the conditions it avoids (TreePath.avoided).
   */
  probes(path: TreePath): Probe[] {
    if (!this.anyProbes()) return []
    const definitions = this.hasDefiningNodes ? this.definitionsAlong(path) : undefined
    const out: Probe[] = []
    path.nodes.forEach((node, i) => out.push(...this.conditionProbes(node, definitions?.atNodes[i], false)))
    for (const node of path.avoided) out.push(...this.conditionProbes(node, definitions?.atAvoided.get(node), true))
    return out
  }

  private conditionProbes(node: CompiledNode, inForce: InForce | undefined, negated: boolean): Probe[] {
    if (node.type !== 'condition' || !node.ast) return []
    if (inForce && (inForce.formulas.size > 0 || inForce.variables.size > 0)) return this.probesFor(node.ast, inForce, negated)
    const cache = negated ? this.negatedProbesOf : this.probesOf
    let probes = cache.get(node)
    if (probes === undefined) cache.set(node, (probes = this.probesFor(node.ast, NOTHING_IN_FORCE, negated)))
    return probes
  }

  private someProbe: boolean | undefined

  /** Whether any condition of the set has a comparison to solve; most sets compare plain variables only. */
  private anyProbes(): boolean {
    this.someProbe ??= this.hasDefiningNodes || [...this.compiled.nodeById.values()].some((node) => this.conditionProbes(node, undefined, false).length > 0)
    return this.someProbe
  }

  /**
   * Values to try first for the variables the path's probes read, and the anchors chosen for the others (moved to
   * the front of their lists). Returns nothing for a path without probes. In 'answers' mode (generation) a variable
   * whose answer already satisfies every comparison is left alone; 'boundaries' (compare) solves it anyway, for the
   * values on each side of each boundary.
   */
  derive(probes: readonly Probe[], choices: readonly DerivableChoice[], mode: 'answers' | 'boundaries' = 'answers'): DerivedValues[] {
    if (probes.length === 0) return []
    const key = `${mode}|${probes.map((probe) => probe.id).join(',')}|${choices.map((choice) => `${choice.slot}:${choice.fixed}:${valueKey(choice.values[0] ?? null)}:${choice.atoms.map((atom) => `${atom.op}${valueKey(atom.value)}`).join('&')}`).join('|')}`
    let derived = this.memo.get(key)
    if (derived === undefined) this.memo.set(key, (derived = this.derived(probes, choices, mode)))
    return derived
  }

  private derived(probes: readonly Probe[], choices: readonly DerivableChoice[], mode: 'answers' | 'boundaries'): DerivedValues[] {
    const bySlot = new Map(choices.map((choice) => [choice.slot, choice]))
    const scope = new ProbeScope(this.compiled, [], this.now)
    for (const choice of choices) scope.values[choice.slot] = choice.values[0]
    const found = new Map<number, Value[]>()
    const anchors = new Map<number, Value>()
    for (const probe of probes) {
      scope.inForce = probe.inForce
      for (const slot of probe.unknowns) {
        const choice = bySlot.get(slot)
        if (!choice || choice.fixed || anchors.has(slot)) continue
        // A variable whose answer already satisfies every comparison keeps it (Income stays 1 while Debts is solved).
        const current = scope.values[slot]
        if (mode === 'answers' && current !== undefined && !found.has(slot) && this.allHold(scope, probes, slot, current)) continue
        let solved = this.solve(scope, probe, choice)
        // Nothing holds with the others as they are (Debts / Income with Income 0): try the others' next answers.
        for (const other of probe.unknowns) {
          if (solved.some((s) => s.holds) || other === slot) continue
          const anchor = bySlot.get(other)
          if (!anchor || anchor.fixed || found.has(other)) continue
          const kept = scope.values[other]
          for (const value of anchor.values.slice(1, 1 + MAX_ANCHORS)) {
            scope.values[other] = value
            solved = this.solve(scope, probe, choice)
            if (solved.some((s) => s.holds)) {
              anchors.set(other, value)
              break
            }
          }
          if (!anchors.has(other)) scope.values[other] = kept
        }
        const values = found.get(slot) ?? []
        for (const s of solved) values.push(s.value)
        found.set(slot, values)
        // Go on with a value that satisfies every comparison if there is one, else this one; not negative if possible.
        const holding = solved.filter((s) => s.holds)
        const best = holding.find((s) => !isNegative(s.value) && this.allHold(scope, probes, slot, s.value))
          ?? holding.find((s) => this.allHold(scope, probes, slot, s.value))
          ?? holding.find((s) => !isNegative(s.value)) ?? holding[0]
        if (best) scope.values[slot] = best.value
      }
    }
    const out: DerivedValues[] = []
    for (const [slot, anchor] of anchors) out.push({ slot, first: [anchor], otherSide: [] })
    for (const [slot, values] of found) {
      const choice = bySlot.get(slot)!
      const first: Value[] = []
      const otherSide: Value[] = []
      for (const value of unique(values)) {
        const ok = choice.atoms.every((atom) => value !== null && atomHolds(atom, value as AtomValue)) && this.allHold(scope, probes, slot, value)
        ;(ok ? first : otherSide).push(value)
      }
      // Most quantities people are asked for are not negative: such values go first when both kinds work.
      first.sort((a, b) => Number(isNegative(a)) - Number(isNegative(b)))
      if (first.length > 0) scope.values[slot] = first[0]
      out.push({ slot, first, otherSide })
    }
    return out
  }

  /** Whether every probe reading `slot` holds with `slot` = value and the others as they are. */
  private allHold(scope: ProbeScope, probes: readonly Probe[], slot: number, value: Value): boolean {
    const kept = scope.values[slot]
    scope.values[slot] = value
    try {
      return probes.every((probe) => {
        if (!probe.unknowns.includes(slot)) return true
        scope.inForce = probe.inForce
        return scope.test(probe.holds) === true
      })
    } finally {
      scope.values[slot] = kept
    }
  }

  /** Values of one variable on both sides of the probe's boundaries, each marked with whether the probe holds. */
  private solve(scope: ProbeScope, probe: Probe, choice: DerivableChoice): Array<{ value: Value; holds: boolean }> {
    const kept = scope.values[choice.slot]
    const at = (expr: CompiledExpr, value: Value) => {
      scope.values[choice.slot] = value
      return scope.test(expr)
    }
    try {
      const dataType = this.compiled.variables[choice.slot]!.dataType
      const sample = choice.values.find((value) => value !== null)
      if (dataType === 'date' || (dataType === undefined && sample instanceof Date)) return solveDates(probe, at, this.now)
      if (dataType === 'number' || dataType === 'percent' || (dataType === undefined && typeof sample === 'number')) return solveNumbers(probe, at)
      return choice.values.flatMap((value) => {
        const holds = at(probe.holds, value)
        return holds === undefined ? [] : [{ value, holds }]
      })
    } finally {
      scope.values[choice.slot] = kept
    }
  }

  /**
   * The probes of one condition (`negated`: of its negation): its comparisons that must hold (and/not pushed in) and
   * read no plain variable alone.
   */
  private probesFor(condition: Expr, inForce: InForce, negated: boolean): Probe[] {
    const out: Probe[] = []
    const add = (holds: Expr, crossing: Expr | null) => {
      const unknowns = this.unknownsOf(holds, inForce)
      if (unknowns.length > 0) out.push({ id: this.nextProbeId++, holds: compiledOf(holds), crossing: crossing && compiledOf(crossing), unknowns, inForce })
    }
    const visit = (expr: Expr, negated: boolean): void => {
      if (expr.type === 'unary' && expr.op === '!') return visit(expr.operand, !negated)
      if (expr.type === 'ref' && this.isComputed(expr, inForce)) return add(negated ? { type: 'unary', op: '!', operand: expr, span: expr.span } : expr, null)
      if (expr.type !== 'binary') return
      if ((expr.op === '&&' && !negated) || (expr.op === '||' && negated)) {
        visit(expr.left, negated)
        visit(expr.right, negated)
        return
      }
      if (!COMPARE_OPS.has(expr.op) || this.plainAtom(expr.left, expr.right, inForce)) return
      const op = negated ? NEGATED[expr.op]! : expr.op
      const compare = (o: BinaryOp): Expr => ({ type: 'binary', op: o, left: expr.left, right: expr.right, span: expr.span })
      add(compare(op), op === '==' || op === '!=' ? compare('>=') : null)
    }
    visit(condition, negated)
    return out
  }

  private isFormula(ref: Expr & { type: 'ref' }): boolean {
    return ref.kind === 'formula' || (ref.kind === 'bare' && this.compiled.bareFormulas.has(ref.name))
  }

  /** A formula, or a variable a Variable Assignment in force has set: its value is worked out, not answered. */
  private isComputed(ref: Expr & { type: 'ref' }, inForce: InForce): boolean {
    if (this.isFormula(ref)) return true
    const slot = this.compiled.variableIndex.get(ref.name)
    return slot !== undefined && inForce.variables.has(slot)
  }

  /** A variable (not a computed one) compared with a constant: constraints.ts reads it exactly, nothing to solve. */
  private plainAtom(left: Expr, right: Expr, inForce: InForce): boolean {
    const plainRef = (e: Expr) => e.type === 'ref' && !this.isComputed(e, inForce)
    const constant = (e: Expr) => e.type === 'literal' || (e.type === 'unary' && e.op === '-' && e.operand.type === 'literal')
    return (plainRef(left) && constant(right)) || (constant(left) && plainRef(right))
  }

  /** Input variables an expression reads, directly or through the formulas and assignments in force, by slot. */
  private unknownsOf(expr: Expr, inForce: InForce): number[] {
    const slots = new Set<number>()
    const seen = new Set<number>()
    const seenAssigned = new Set<number>()
    const visit = (e: Expr): void => {
      const refs = references(e)
      for (const name of [...refs.variables, ...refs.bare.filter((n) => !this.compiled.bareFormulas.has(n))]) {
        const slot = this.compiled.variableIndex.get(name)
        if (slot === undefined) continue
        const assigned = inForce.variables.get(slot)
        if (assigned === undefined) {
          if (this.inputs.has(slot)) slots.add(slot)
        } else if (!seenAssigned.has(slot)) {
          seenAssigned.add(slot)
          visit(assigned)
        }
      }
      for (const name of [...refs.formulas, ...refs.bare.filter((n) => this.compiled.bareFormulas.has(n))]) {
        const index = this.compiled.formulaIndex.get(name)
        if (index === undefined || seen.has(index)) continue
        seen.add(index)
        const ast = inForce.formulas.get(index) ?? this.compiled.formulas[index]!.ast
        if (ast) visit(ast)
      }
    }
    visit(expr)
    return [...slots]
  }

  /**
   * For each node of the path, and each condition it avoids: the Formula nodes and Variable Assignments run before it
   * (earlier siblings on the way down, nodes above). An assignment that reads its own variable (`+=`, `{{X}} = {{X}} * 2`) or a question asking
   * the variable again leaves its value to the answers, as before any assignment.
   */
  private definitionsAlong(path: TreePath): { atNodes: InForce[]; atAvoided: Map<CompiledNode, InForce> } {
    const atNodes: InForce[] = []
    const atAvoided = new Map<CompiledNode, InForce>()
    const formulas = new Map<number, Expr>()
    const variables = new Map<number, Expr>()
    const define = (node: CompiledNode) => {
      if (node.slot < 0) return
      if (node.type === 'formula' && node.ast) formulas.set(node.slot, node.ast)
      else if (node.type === 'variableAssignment' && node.ast && !references(node.ast).variables.includes(this.compiled.variables[node.slot]!.name)) variables.set(node.slot, node.ast)
      else if (node.type === 'variableAssignment' || node.type === 'inputRequest') variables.delete(node.slot)
    }
    path.nodes.forEach((node, i) => {
      const above = path.nodes[i - 1]
      const list = above === undefined ? (this.compiled.ruleById.get(path.ruleId)?.nodes ?? [])
        : above.called?.nodes.includes(node) ? above.called.nodes : above.children
      for (const sibling of list) {
        if (sibling === node) break
        if (path.avoided.includes(sibling)) atAvoided.set(sibling, { formulas: new Map(formulas), variables: new Map(variables) })
        define(sibling)
      }
      atNodes.push({ formulas: new Map(formulas), variables: new Map(variables) })
      define(node)
    })
    return { atNodes, atAvoided }
  }
}

type At = (expr: CompiledExpr, value: Value) => boolean | undefined

/** Where `predicate` changes between neighbouring seeds, narrowed by bisection: pairs [last of one side, first of the other]. */
function crossings(seeds: readonly number[], predicate: (x: number) => boolean | undefined, narrow: (lo: number, hi: number, atLo: boolean) => [number, number]): Array<[number, number]> {
  const out: Array<[number, number]> = []
  let previous: { x: number; value: boolean } | undefined
  for (const x of seeds) {
    const value = predicate(x)
    if (value === undefined) continue
    if (previous && previous.value !== value) {
      out.push(narrow(previous.x, x, previous.value))
      if (out.length >= MAX_CROSSINGS) break
    }
    previous = { x, value }
  }
  return out
}

function solveNumbers(probe: Probe, at: At): Array<{ value: Value; holds: boolean }> {
  const out: Array<{ value: Value; holds: boolean }> = []
  for (const predicate of probe.crossing ? [probe.holds, probe.crossing] : [probe.holds]) {
    const p = (x: number) => at(predicate, x)
    const narrow = (lo: number, hi: number, atLo: boolean): [number, number] => {
      for (let i = 0; i < 80 && hi - lo > 1e-12 * Math.max(1, Math.abs(lo), Math.abs(hi)); i++) {
        const mid = lo + (hi - lo) / 2
        const value = p(mid)
        if (value === undefined) break
        if (value === atLo) lo = mid
        else hi = mid
      }
      return [lo, hi]
    }
    for (const [lo, hi] of crossings(NUMBER_SEEDS, p, narrow)) out.push(...plainNumbersAround((lo + hi) / 2, (x) => at(probe.holds, x)))
  }
  return out
}

/**
 * The plainest numbers around a boundary on each side: rounded to whole numbers first, then one decimal more at a
 * time (starting at the boundary's own scale, so 0.04 gives 0.03, 0.04, 0.05), until one where the probe holds and
 * one where it does not are found.
 */
function plainNumbersAround(boundary: number, holds: (x: number) => boolean | undefined): Array<{ value: Value; holds: boolean }> {
  const out: Array<{ value: Value; holds: boolean }> = []
  let sawTrue = false
  let sawFalse = false
  const first = boundary === 0 ? 0 : Math.max(0, -Math.floor(Math.log10(Math.abs(boundary))))
  for (let decimals = first; decimals <= Math.min(first + 12, 100) && !(sawTrue && sawFalse); decimals++) {
    const unit = 10 ** -decimals
    const rounded = Number(boundary.toFixed(decimals))
    for (const x of [rounded - unit, rounded, rounded + unit].map((v) => Number(v.toFixed(decimals)))) {
      const value = holds(x)
      if (value === undefined || (value ? sawTrue : sawFalse)) continue
      out.push({ value: x, holds: value })
      if (value) sawTrue = true
      else sawFalse = true
    }
  }
  return out
}

function solveDates(probe: Probe, at: At, now: Date): Array<{ value: Value; holds: boolean }> {
  const today = Math.floor(now.getTime() / MS_PER_DAY)
  const date = (day: number) => new Date(day * MS_PER_DAY)
  const out: Array<{ value: Value; holds: boolean }> = []
  for (const predicate of probe.crossing ? [probe.holds, probe.crossing] : [probe.holds]) {
    const p = (day: number) => at(predicate, date(day))
    const narrow = (lo: number, hi: number, atLo: boolean): [number, number] => {
      while (hi - lo > 1) {
        const mid = lo + Math.floor((hi - lo) / 2)
        const value = p(mid)
        if (value === undefined) break
        if (value === atLo) lo = mid
        else hi = mid
      }
      return [lo, hi]
    }
    for (const [lo, hi] of crossings(DAY_SEEDS.map((d) => today + d), p, narrow)) {
      for (const day of [lo, hi]) {
        const holds = at(probe.holds, date(day))
        if (holds !== undefined) out.push({ value: date(day), holds })
      }
    }
  }
  return out
}

function isNegative(value: Value): boolean {
  return typeof value === 'number' && value < 0
}

function valueKey(value: Value): string {
  return value instanceof Date ? `d${value.getTime()}` : `${typeof value}:${JSON.stringify(value)}`
}

function unique(values: readonly Value[]): Value[] {
  const seen = new Set<string>()
  return values.filter((value) => {
    const key = valueKey(value)
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
