// compareBranches: what changed between the generated branches of two sources of one advice set (the published
// version and the working draft, or any two versions): paths added, paths removed, and paths whose outcome
// changed, each with answers that show it and what those answers give on both sides.
//
// Matching paths across sources. Node ids are stable between the draft and its versions: a snapshot stores the
// set's rows with their database ids (publishing/snapshot.ts) and editing a node keeps its id, so a path is first
// matched by its sequence of node ids — an edited condition keeps its path, which then shows as changed rather
// than as removed and added. Restoring a version writes its trees as new rows (publishing/restore.ts), so ids then
// differ while the content is the same: paths left unmatched by id are matched by the sequence of their nodes'
// content (type and everything the author wrote, called rules by name), in order.
//
// "Outcome changed" is judged per path, not per run: a run with one path's answers also walks every other rule, so
// comparing whole runs would report a path as changed whenever an unrelated rule reacts to its (arbitrary) answers
// for other questions. For each matched path, every answer set found for it on either side is run on both sides,
// and the path counts as changed when, for one of them, the two runs differ on this path: one reaches it and the
// other does not, the advice its own nodes give differs (by content), or one run stops at a question on the path
// and the other does not. The whole-run outcomes are still returned, for the reader to see. When the path's own
// nodes differ between the sides (an edited condition) and neither side's answers show a difference — the edit
// may only matter for answers neither generation picked — the answers are varied one variable at a time over the
// boundaries of the comparisons on both versions of the path (at most MAX_PROBES runs) to find ones that do.
import type { CompiledAdviceSet, CompiledNode } from '../tree/compiled.ts'
import type { ApiPort } from '../tree/options.ts'
import type { EngineResult } from '../tree/result.ts'
import type { Branch, BranchProgress, BranchReport, UnreachablePath } from './index.ts'
import { outcomeOf, pathReached } from './outcome.ts'
import { byVariable } from '../checks/constraints.ts'
import type { Atom, AtomValue } from '../checks/constraints.ts'
import { usableAtoms } from '../checks/reachability.ts'
import { boundaryAnswers, fixedCandidate, inputVariables, toCandidate } from './input-values.ts'
import { Deriver } from './derived.ts'
import type { RunOutcome } from './outcome.ts'
import { NO_API_VALUE, answersRun } from './run.ts'

export interface BranchSource {
  compiled: CompiledAdviceSet
  report: BranchReport
}

/** One side of a path: reached with these branch inputs, or unreachable for this reason. */
export type PathSide = { path: string[]; ruleId: string } & ({ branch: Branch } | { unreachable: string })

export interface PathChange {
  /** The path on the base side (removed, changed) and on the next side (added, changed). */
  base: PathSide | null
  next: PathSide | null
  /** Answers that show the change (undefined when neither side can reach the path). */
  inputs?: Record<string, unknown>
  /** What those answers give on each side (whole runs). */
  baseOutcome?: RunOutcome
  nextOutcome?: RunOutcome
  /** Why the path counts as changed, in words. */
  reason: string
  /** Advice nodes of a matched path whose headline or text differs between the sides, before and after. */
  changedAdvice?: AdviceEdit[]
}

export interface AdviceText {
  headline: string
  text: string
}

export interface AdviceEdit {
  /** The node on the next side. */
  nodeId: string
  before: AdviceText
  after: AdviceText
}

export interface BranchComparison {
  added: PathChange[]
  removed: PathChange[]
  changed: PathChange[]
  /** Matched paths whose outcome is the same on both sides. */
  unchanged: number
}

export interface CompareOptions {
  now?: Date
  apiPort?: ApiPort
}

/** Most answer sets tried per edited path to find one that shows the edit. */
const MAX_PROBES = 64

export function compareBranches(base: BranchSource, next: BranchSource, options: CompareOptions = {}): BranchComparison {
  const steps = walkComparison(base, next, options)
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
  }
}

/** compareBranches as a generator that yields after every path compared (see walkBranches). */
export function* walkComparison(base: BranchSource, next: BranchSource, options: CompareOptions = {}): Generator<BranchProgress, BranchComparison, undefined> {
  const baseSides = sidesOf(base.report)
  const nextSides = sidesOf(next.report)
  const pairs = matchPaths(base.compiled, baseSides, next.compiled, nextSides)
  const runner = new SideRunner(base.compiled, next.compiled, options)
  const comparison: BranchComparison = { added: [], removed: [], changed: [], unchanged: 0 }
  const total = pairs.matched.length + pairs.added.length + pairs.removed.length
  let done = 0
  for (const [b, n] of pairs.matched) {
    const change = runner.compare(b, n)
    if (change) comparison.changed.push(change)
    else comparison.unchanged++
    yield { done: ++done, total }
  }
  for (const n of pairs.added) {
    comparison.added.push(runner.oneSided(null, n))
    yield { done: ++done, total }
  }
  for (const b of pairs.removed) {
    comparison.removed.push(runner.oneSided(b, null))
    yield { done: ++done, total }
  }
  return comparison
}

function sidesOf(report: BranchReport): PathSide[] {
  const sides: PathSide[] = report.branches.map((branch) => ({ path: branch.path, ruleId: branch.ruleId, branch }))
  for (const path of report.unreachable as UnreachablePath[]) sides.push({ path: path.path, ruleId: path.ruleId, unreachable: path.reason })
  return sides
}

/** A node's own content, without its id, children or place: what "the same node" means after a restore. */
function nodeContent(compiled: CompiledAdviceSet, node: CompiledNode): string {
  const { id: _id, children: _children, calledRuleId, ...content } = node.model
  const called = calledRuleId === undefined ? undefined : (compiled.ruleById.get(calledRuleId)?.name ?? `#${calledRuleId}`)
  return JSON.stringify([content.type, content.expression, content.variable, content.headline, content.text, content.question, called, content.apiId, content.tags])
}

function contentKey(compiled: CompiledAdviceSet, side: PathSide): string {
  const rule = compiled.ruleById.get(side.ruleId)?.name ?? side.ruleId
  return JSON.stringify([rule, ...side.path.map((id) => { const node = compiled.nodeById.get(id); return node ? nodeContent(compiled, node) : id })])
}

export function matchPaths(baseCompiled: CompiledAdviceSet, base: PathSide[], nextCompiled: CompiledAdviceSet, next: PathSide[]) {
  const idKey = (side: PathSide) => side.path.join('>')
  const nextById = new Map(next.map((side) => [idKey(side), side]))
  const matched: Array<[PathSide, PathSide]> = []
  const leftBase: PathSide[] = []
  for (const side of base) {
    const other = nextById.get(idKey(side))
    if (other) {
      matched.push([side, other])
      nextById.delete(idKey(side))
    } else leftBase.push(side)
  }
  const leftNextByContent = new Map<string, PathSide[]>()
  const leftNext = next.filter((side) => nextById.has(idKey(side)))
  for (const side of leftNext) {
    const key = contentKey(nextCompiled, side)
    leftNextByContent.set(key, [...(leftNextByContent.get(key) ?? []), side])
  }
  const removed: PathSide[] = []
  const pairedNext = new Set<PathSide>()
  for (const side of leftBase) {
    const other = leftNextByContent.get(contentKey(baseCompiled, side))?.shift()
    if (other) {
      matched.push([side, other])
      pairedNext.add(other)
    } else removed.push(side)
  }
  return { matched, added: leftNext.filter((side) => !pairedNext.has(side)), removed }
}

/** What one run shows about one path, comparable across the two sides. */
interface PathView {
  reached: boolean
  advice: string[]
  stopsAt: string | null
}

class SideRunner {
  /** Per side: answers derived through the formulas and arithmetic its conditions compare (derived.ts). */
  private readonly derivers: ReadonlyMap<CompiledAdviceSet, Deriver>

  constructor(
    private readonly base: CompiledAdviceSet,
    private readonly next: CompiledAdviceSet,
    private readonly options: CompareOptions,
  ) {
    const now = options.now ?? new Date()
    this.derivers = new Map([base, next].map((compiled) => [compiled, new Deriver(compiled, new Set(inputVariables(compiled)), now)]))
  }

  compare(b: PathSide, n: PathSide): PathChange | null {
    const witnesses = [b, n].flatMap((side) => ('branch' in side ? [side.branch.inputs] : []))
    if (witnesses.length === 0) return null
    const seen = new Set<string>()
    const tryInputs = (inputs: Record<string, unknown>): PathChange | null => {
      const key = JSON.stringify(inputs)
      if (seen.has(key)) return null
      seen.add(key)
      const baseRun = this.run(this.base, inputs, b.path)
      const nextRun = this.run(this.next, inputs, n.path)
      const reason = differs(this.view(this.base, b, baseRun), this.view(this.next, n, nextRun))
      if (reason === null) return null
      const changedAdvice = this.adviceEdits(b, n)
      const why = reason === ADVICE_DIFFERS && changedAdvice.length > 0 ? 'The text of the advice on this path changed.' : reason
      return { base: b, next: n, inputs, baseOutcome: outcomeOf(baseRun), nextOutcome: outcomeOf(nextRun), reason: why, ...(changedAdvice.length > 0 ? { changedAdvice } : {}) }
    }
    for (const inputs of witnesses) {
      const change = tryInputs(inputs)
      if (change) return change
    }
    if (this.samePathContent(b, n)) return null
    for (const probe of this.probes(b, n, witnesses)) {
      if (seen.size >= witnesses.length + MAX_PROBES) break
      const change = tryInputs(probe)
      if (change) return change
    }
    return null
  }

  /** Advice nodes at the same place on both versions of the path whose headline or text was edited. */
  private adviceEdits(b: PathSide, n: PathSide): AdviceEdit[] {
    if (b.path.length !== n.path.length) return []
    const edits: AdviceEdit[] = []
    b.path.forEach((id, i) => {
      const before = this.base.nodeById.get(id)?.model
      const after = this.next.nodeById.get(n.path[i]!)?.model
      if (before?.type !== 'advice' || after?.type !== 'advice') return
      const was = adviceText(before)
      const is = adviceText(after)
      if (was.headline !== is.headline || was.text !== is.text) edits.push({ nodeId: after.id, before: was, after: is })
    })
    return edits
  }

  private samePathContent(b: PathSide, n: PathSide): boolean {
    if (b.path.length !== n.path.length) return false
    return b.path.every((id, i) => {
      const before = this.base.nodeById.get(id)
      const after = this.next.nodeById.get(n.path[i]!)
      return before !== undefined && after !== undefined && nodeContent(this.base, before) === nodeContent(this.next, after)
    })
  }

  /** The witnesses with one variable changed to a boundary of the comparisons on either version of the path. */
  private *probes(b: PathSide, n: PathSide, witnesses: Array<Record<string, unknown>>): Generator<Record<string, unknown>> {
    const atoms: Atom[] = []
    for (const [compiled, side] of [[this.base, b], [this.next, n]] as const) {
      for (const id of side.path) {
        const node = compiled.nodeById.get(id)
        if (node) atoms.push(...usableAtoms(compiled, node).atoms)
      }
    }
    for (const [name, group] of byVariable(atoms)) {
      const slot = this.next.variables[this.next.variableIndex.get(name) ?? -1] ?? this.base.variables[this.base.variableIndex.get(name) ?? -1]
      if (!slot) continue
      for (const raw of boundaryAnswers(slot, group)) for (const witness of witnesses) yield { ...witness, [name]: raw }
    }
    for (const [compiled, side] of [[this.base, b], [this.next, n]] as const) yield* this.derivedProbes(compiled, side, witnesses)
  }

  /**
   * The witnesses with one variable changed to a value on either side of a boundary of the computed comparisons on
   * this version of the path (`[[Client_Age]] <= 70` edited from `<= 75`: ages 70 and 71).
   */
  private *derivedProbes(compiled: CompiledAdviceSet, side: PathSide, witnesses: Array<Record<string, unknown>>): Generator<Record<string, unknown>> {
    const nodes = side.path.map((id) => compiled.nodeById.get(id))
    if (nodes.some((node) => node === undefined)) return
    const deriver = this.derivers.get(compiled)!
    const probes = deriver.probes({ ruleId: side.ruleId, nodes: nodes as CompiledNode[], afterExit: false, avoided: [] })
    if (probes.length === 0) return
    for (const witness of witnesses) {
      const choices = inputVariables(compiled).flatMap((index) => {
        const slot = compiled.variables[index]!
        const answer = Object.hasOwn(witness, slot.name) ? fixedCandidate(slot, witness[slot.name]) : undefined
        return answer ? [{ slot: index, values: [answer.value], fixed: false, atoms: [] }] : []
      })
      for (const derived of deriver.derive(probes, choices, 'boundaries')) {
        const slot = compiled.variables[derived.slot]!
        for (const value of [...derived.first, ...derived.otherSide]) {
          const candidate = toCandidate(slot, value as AtomValue)
          if (candidate) yield { ...witness, [slot.name]: candidate.raw }
        }
      }
    }
  }

  /** An added (base null) or removed (next null) path, with its own answers run on both sides. */
  oneSided(b: PathSide | null, n: PathSide | null): PathChange {
    const side = (b ?? n)!
    const reason = b ? 'This path is not in the newer source.' : 'This path is new.'
    if (!('branch' in side)) return { base: b, next: n, reason: `${reason} No answers reach it: ${side.unreachable}` }
    const inputs = side.branch.inputs
    return {
      base: b, next: n, inputs, reason,
      baseOutcome: outcomeOf(this.run(this.base, inputs, side.path)), nextOutcome: outcomeOf(this.run(this.next, inputs, side.path)),
    }
  }

  /** A run tracing only `path` (all `view` reads of the trace). */
  private run(compiled: CompiledAdviceSet, inputs: Record<string, unknown>, path: readonly string[]): EngineResult {
    return answersRun(compiled, inputs, { apiPort: this.options.apiPort ?? NO_API_VALUE, watched: new Set(path), ...(this.options.now ? { now: this.options.now } : {}) })
  }

  private view(compiled: CompiledAdviceSet, side: PathSide, result: EngineResult): PathView {
    const onPath = new Set(side.path)
    const leaf = compiled.nodeById.get(side.path[side.path.length - 1]!)
    const reached = pathReached(result.trace ?? [], side.path, leaf?.type === 'condition')
    const advice: string[] = []
    for (const group of [result.advice, result.assumptions, result.examples]) {
      for (const item of group) {
        const node = compiled.nodeById.get(item.nodeId)
        if (node && onPath.has(item.nodeId)) advice.push(nodeContent(compiled, node))
      }
    }
    const focus = result.currentFocus?.nodeId
    const focusNode = focus !== undefined && onPath.has(focus) ? compiled.nodeById.get(focus) : undefined
    return { reached, advice, stopsAt: focusNode ? nodeContent(compiled, focusNode) : null }
  }
}

const ADVICE_DIFFERS = 'The advice on this path differs.'

/** An advice node's headline and text as its author wrote them. */
export function adviceText(model: { headline?: string; text?: string }): AdviceText {
  return { headline: model.headline ?? '', text: model.text ?? '' }
}

function differs(base: PathView, next: PathView): string | null {
  if (base.reached !== next.reached) return base.reached ? 'These answers reach this path before the change but not after.' : 'These answers reach this path after the change but not before.'
  if (base.stopsAt !== next.stopsAt) return 'The run stops at a different question on this path.'
  if (base.advice.length !== next.advice.length || base.advice.some((item, i) => item !== next.advice[i])) return ADVICE_DIFFERS
  return null
}
