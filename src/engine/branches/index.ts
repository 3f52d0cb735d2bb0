// generateBranches: every root-to-leaf path of the top-level rules (through the rules they call), with answers that
// reach it. Answers are derived from the comparisons on the path (interval boundaries, options, both booleans),
// then every branch is proven by a run — the same run the debugger and the Advice API make (run.ts) — checking in
// the trace that the whole path ran; the branch's outcome is that run's. Among answers that reach a path, ones whose
// run reports no error are preferred; a path only reached with an error in its own rules is an error branch. A path
// is reported unreachable when its conditions contradict each other, it lies after an unconditional exit, the
// starting answers rule it out, or no tried combination of answers reaches it.
//
// walkBranches is the same work as a generator that yields after every path, so a caller can spread a large set
// over many slices of time (a background task) and stop it between two paths; generateBranches runs it to the end.
import type { AdviceSetModel } from '../model.ts'
import { compileAdviceSet } from '../tree/compile.ts'
import type { CompiledAdviceSet, CompiledNode } from '../tree/compiled.ts'
import type { ApiPort } from '../tree/options.ts'
import type { EngineResult } from '../tree/result.ts'
import type { Atom } from '../checks/constraints.ts'
import { byVariable, describeAtom, holds } from '../checks/constraints.ts'
import type { AtomValue } from '../checks/constraints.ts'
import { contradiction, stableVariables, usableAtoms } from '../checks/reachability.ts'
import { GeneralCandidates, candidatesFor, divisorVariables, fixedCandidate, inputVariables, toCandidate } from './input-values.ts'
import type { Candidate } from './input-values.ts'
import { countPaths, isStep, treePaths } from './paths.ts'
import type { TreePath } from './paths.ts'
import { outcomeOf, pathReached } from './outcome.ts'
import type { RunOutcome } from './outcome.ts'
import { NO_API_VALUE, answersRun } from './run.ts'
import { Deriver } from './derived.ts'

export { pathReached, outcomeOf } from './outcome.ts'
export type { OutcomeError, RunOutcome } from './outcome.ts'

export interface Branch {
  ruleId: string
  /** Node ids from the rule's root to the leaf (through called rules). */
  path: string[]
  /** Raw answers, as an API caller would send them. */
  inputs: Record<string, unknown>
  /** A run with these inputs visited every node of the path (false only when verification was turned off). */
  verified: boolean
  /** What the proving run with these inputs gave (absent without verification). */
  outcome?: RunOutcome
  /**
   * The path ends at a step that decides nothing — a question, a formula, an assignment, an API call, an empty
   * "Always" — after which the run simply goes on: a prefix of the runs through it, not an outcome of its own.
   */
  prefix: boolean
  /** No answers tried reach the path without an error in its own rules (the proving run's errors say which). */
  endsInError: boolean
}

export interface UnreachablePath {
  ruleId: string
  path: string[]
  reason: string
}

export interface BranchProgress {
  done: number
  total: number
}

export interface BranchOptions {
  /** Most paths to examine (default 1,000). */
  limit?: number
  /** Most runs spent searching answers for one path (default 64). */
  maxAttempts?: number
  /** Run the engine to prove each branch (default true). */
  verify?: boolean
  onProgress?: (progress: BranchProgress) => void
  now?: Date
  /** Answers for API calls during verification; by default every API call answers "no value". */
  apiPort?: ApiPort
  /**
   * Starting answers (raw, by variable name) every branch keeps: only paths these answers allow are explored, and
   * each branch's inputs include them.
   */
  fixed?: Record<string, unknown>
  /**
   * Answers (raw, by variable name) to keep where a path allows them: each is tried first for its variable, so the
   * answers found change as few of these as the search can (why-not.ts's nearest answers).
   */
  prefer?: Record<string, unknown>
}

export interface BranchReport {
  branches: Branch[]
  unreachable: UnreachablePath[]
  truncated?: { message: string }
}

export const DEFAULT_BRANCH_LIMIT = 1000
const DEFAULT_ATTEMPTS = 64

export function generateBranches(model: AdviceSetModel, options: BranchOptions = {}): BranchReport {
  const steps = walkBranches(compileAdviceSet(model), options)
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
    options.onProgress?.(step.value)
  }
}

/** How many paths a generation with this limit examines (the `total` its progress counts to). */
export function pathsToExamine(compiled: CompiledAdviceSet, limit = DEFAULT_BRANCH_LIMIT): { total: number; examined: number } {
  const total = countPaths(compiled.rules)
  return { total, examined: Math.min(total, limit) }
}

/** Yields progress after every path examined; returns the report. `options.onProgress` is not called here. */
export function* walkBranches(compiled: CompiledAdviceSet, options: BranchOptions = {}): Generator<BranchProgress, BranchReport, undefined> {
  const limit = options.limit ?? DEFAULT_BRANCH_LIMIT
  const { total, examined } = pathsToExamine(compiled, limit)
  const search = new AnswerSearch(compiled, options)
  const report: BranchReport = { branches: [], unreachable: [] }
  let done = 0
  for (const path of treePaths(compiled.rules)) {
    if (done >= limit) break
    search.examine(path, report)
    done++
    yield { done, total: Math.max(examined, done) }
  }
  if (total > limit) {
    report.truncated = {
      message: `Only the first ${limit} of ${total} paths were examined. Raise the limit or split the advice set to see the rest.`,
    }
  }
  return report
}

interface Choice {
  name: string
  slot: number
  candidates: Candidate[]
  /** A starting answer, kept as given. */
  fixed: boolean
}

interface SetFacts {
  stable: Set<string>
  inputSlots: number[]
  /** Every comparison anywhere, by variable, so answers for variables off a path can avoid exits. */
  allAtoms: Map<string, Atom[]>
  divisors: Set<string>
}

const setFactsOf = new WeakMap<CompiledAdviceSet, SetFacts>()

/** What a search needs of the whole set, worked out once per compiled set (why-not searches one node at a time). */
function setFacts(compiled: CompiledAdviceSet): SetFacts {
  let facts = setFactsOf.get(compiled)
  if (facts === undefined) {
    const stable = stableVariables(compiled)
    const atoms: Atom[] = []
    for (const node of compiled.nodeById.values()) atoms.push(...usableAtoms(compiled, node, stable).atoms)
    facts = { stable, inputSlots: inputVariables(compiled), allAtoms: byVariable(atoms), divisors: divisorVariables(compiled) }
    setFactsOf.set(compiled, facts)
  }
  return facts
}

export class AnswerSearch {
  private readonly stable: Set<string>
  /** Per input variable: its candidates from the whole set, worked out once. */
  private readonly general = new Map<number, GeneralCandidates>()
  /** Candidates per variable and path constraints: paths under the same conditions ask the same question again. */
  private readonly candidateMemo = new Map<string, Candidate[]>()
  private readonly now: Date
  private readonly maxAttempts: number
  private readonly verify: boolean
  private readonly apiPort: ApiPort
  private readonly inputSlots: number[]
  private readonly fixed: Record<string, unknown>
  private readonly prefer: Record<string, unknown>
  /** usableAtoms of each condition with the stable variables: a node's facts never change during a generation. */
  private readonly factsOf = new Map<CompiledNode, { atoms: Atom[]; alwaysFalse: boolean }>()
  private readonly avoidedFactsOf = new Map<CompiledNode, { atoms: Atom[]; alwaysFalse: boolean }>()
  /** Answers for comparisons of computed values (formulas, arithmetic), which atoms cannot express. */
  private readonly deriver: Deriver

  constructor(
    private readonly compiled: CompiledAdviceSet,
    options: BranchOptions,
  ) {
    const { stable, inputSlots, allAtoms, divisors } = setFacts(compiled)
    this.stable = stable
    this.now = options.now ?? new Date()
    this.maxAttempts = options.maxAttempts ?? DEFAULT_ATTEMPTS
    this.verify = options.verify !== false
    this.apiPort = options.apiPort ?? NO_API_VALUE
    this.inputSlots = inputSlots
    this.fixed = options.fixed ?? {}
    this.prefer = options.prefer ?? {}
    this.deriver = new Deriver(compiled, new Set(this.inputSlots), this.now)
    for (const index of this.inputSlots) {
      const slot = compiled.variables[index]!
      this.general.set(index, new GeneralCandidates(slot, allAtoms.get(slot.name) ?? [], this.now, divisors.has(slot.name)))
    }
  }

  /** What a condition on the path says when it holds, or, `negated`, when it does not (its children exit the rule). */
  private facts(node: CompiledNode, negated = false): { atoms: Atom[]; alwaysFalse: boolean } {
    const cache = negated ? this.avoidedFactsOf : this.factsOf
    let facts = cache.get(node)
    if (facts === undefined) cache.set(node, (facts = usableAtoms(this.compiled, node, this.stable, negated)))
    return facts
  }

  examine(path: TreePath, report: BranchReport): void {
    const ids = path.nodes.map((node) => node.id)
    const unreachable = (reason: string) => report.unreachable.push({ ruleId: path.ruleId, path: ids, reason })
    const broken = path.nodes.find((node) => node.error !== null)
    if (broken) return void unreachable(`Node ${broken.id} has an error: ${broken.error!.message}`)
    if (path.afterExit) return void unreachable('The rule always exits before this path.')
    const pathAtoms: Atom[] = []
    for (const node of path.nodes) {
      const facts = this.facts(node)
      if (facts.alwaysFalse) return void unreachable(`The condition of node ${node.id} is always false.`)
      pathAtoms.push(...facts.atoms)
    }
    for (const node of path.avoided) {
      const facts = this.facts(node, true)
      if (facts.alwaysFalse) return void unreachable(`The rule always exits at node ${node.id} before this path.`)
      pathAtoms.push(...facts.atoms)
    }
    const conflict = contradiction(pathAtoms)
    if (conflict !== undefined) return void unreachable(`The conditions on this path contradict each other: ${conflict}.`)
    const atomsByVariable = byVariable(pathAtoms)
    const choices = this.choices(atomsByVariable)
    if (typeof choices === 'string') return void unreachable(choices)
    this.deriveThroughFormulas(path, choices, atomsByVariable)
    this.preferGiven(choices, atomsByVariable)
    const base = new Array<number>(choices.length).fill(0)
    const prefix = isStep(path.nodes[path.nodes.length - 1]!)
    if (!this.verify) {
      report.branches.push({ ruleId: path.ruleId, path: ids, inputs: this.inputs(choices, base), verified: false, prefix, endsInError: false })
      return
    }
    const { found, attempts } = this.searchAnswers(path, choices, base)
    if (found) {
      report.branches.push({
        ruleId: path.ruleId, path: ids, inputs: found.inputs, verified: true, outcome: outcomeOf(found.result), prefix, endsInError: found.score === IN_PATH_RULES,
      })
    } else unreachable(attempts === 1 ? 'The one combination of answers tried does not reach this path.' : `None of the ${attempts} combinations of answers tried reaches this path.`)
  }

  /** Candidate answers for every input variable, or why the path cannot have any. */
  private choices(pathAtoms: Map<string, Atom[]>): Choice[] | string {
    const out: Choice[] = []
    for (const index of this.inputSlots) {
      const slot = this.compiled.variables[index]!
      const atoms = pathAtoms.get(slot.name) ?? []
      if (Object.hasOwn(this.fixed, slot.name)) {
        const candidate = fixedCandidate(slot, this.fixed[slot.name])
        const broken = candidate === undefined ? undefined : atoms.find((atom) => candidate.value === null || !holds(atom, candidate.value as AtomValue))
        if (candidate === undefined || broken !== undefined) {
          return `The starting answer for {{${slot.name}}} rules this path out${broken ? ` (it needs ${describeAtom(broken)})` : ''}.`
        }
        out.push({ name: slot.name, slot: index, candidates: [candidate], fixed: true })
        continue
      }
      const candidates = this.candidates(index, atoms)
      if (candidates.length === 0) {
        if (pathAtoms.has(slot.name)) return 'No answer satisfies the conditions on this path.'
        continue
      }
      out.push({ name: slot.name, slot: index, candidates, fixed: false })
    }
    return out
  }

  /**
   * Puts first, in each variable's candidates, the values derived.ts finds for the path's comparisons of computed
   * values (and the anchors it chose for the other variables those read); paths without such comparisons are left
   * as they are.
   */
  private deriveThroughFormulas(path: TreePath, choices: Choice[], atoms: ReadonlyMap<string, Atom[]>): void {
    const probes = this.deriver.probes(path)
    if (probes.length === 0) return
    const derivable = choices.map((choice) => ({
      slot: choice.slot, values: choice.candidates.map((candidate) => candidate.value), fixed: choice.fixed, atoms: atoms.get(choice.name) ?? [],
    }))
    for (const derived of this.deriver.derive(probes, derivable)) {
      const choice = choices.find((c) => c.slot === derived.slot)!
      const slot = this.compiled.variables[derived.slot]!
      const front = derived.first.flatMap((value) => toCandidate(slot, value as AtomValue) ?? [])
      const seen = new Set<string>()
      choice.candidates = [...front, ...choice.candidates].filter((candidate) => {
        const key = JSON.stringify(candidate.raw)
        return seen.has(key) ? false : (seen.add(key), true)
      }).slice(0, this.maxAttempts + 1)
    }
  }

  /** Puts first, in each variable's candidates, the preferred answer when the path's comparisons allow it. */
  private preferGiven(choices: Choice[], atoms: ReadonlyMap<string, Atom[]>): void {
    for (const choice of choices) {
      if (choice.fixed || !Object.hasOwn(this.prefer, choice.name)) continue
      const preferred = fixedCandidate(this.compiled.variables[choice.slot]!, this.prefer[choice.name])
      if (preferred === undefined || preferred.value === null) continue
      if (!(atoms.get(choice.name) ?? []).every((atom) => holds(atom, preferred.value as AtomValue))) continue
      const key = JSON.stringify(preferred.raw)
      choice.candidates = [preferred, ...choice.candidates.filter((candidate) => JSON.stringify(candidate.raw) !== key)]
    }
  }

  private candidates(index: number, atoms: readonly Atom[]): Candidate[] {
    const key = `${index}:${JSON.stringify(atoms.map((atom) => [atom.op, atom.value instanceof Date ? { date: atom.value.getTime() } : atom.value]))}`
    let candidates = this.candidateMemo.get(key)
    if (candidates === undefined) {
      const slot = this.compiled.variables[index]!
      // A search never looks past its attempt budget in one variable's list, so longer lists are never read.
      candidates = candidatesFor(slot, atoms, this.general.get(index)!, this.maxAttempts + 1)
      this.candidateMemo.set(key, candidates)
    }
    return candidates
  }

  private inputs(choices: Choice[], picks: number[]): Record<string, unknown> {
    const inputs: Record<string, unknown> = {}
    choices.forEach((choice, i) => {
      inputs[choice.name] = choice.candidates[picks[i]!]!.raw
    })
    return inputs
  }

  /**
   * First the preferred answer for every variable, then each variable's other candidates one at a time, then pairs
   * of changes, until the path is reached by a run without errors or the attempt budget is spent; when no run reached
   * it, a second budget goes to the picks of pickOrderByRank the first did not try. The best run found (fewest errors
   * where they matter, see errorScore) is kept. The orders are fixed, so the result is deterministic.
   */
  private searchAnswers(path: TreePath, choices: Choice[], base: number[]): { found: Found | undefined; attempts: number } {
    let attempts = 0
    const nodes = path.nodes
    const watched = new Set(nodes.map((node) => node.id))
    const pathRules = rulesOf(path)
    let best: Found | undefined
    const tried = new Set<string>()
    const attempt = (picks: number[]): boolean => {
      attempts++
      const inputs = this.inputs(choices, picks)
      const result = this.run(inputs, watched)
      if (!this.reaches(nodes, result)) return false
      const score = errorScore(result, pathRules)
      if (best === undefined || score < best.score) best = { inputs, result, score }
      return score === NO_ERRORS
    }
    for (const picks of pickOrder(choices, base)) {
      if (attempts >= this.maxAttempts) break
      tried.add(picks.join())
      if (attempt(picks)) break
    }
    if (best === undefined) {
      // A second budget, spent in the other order on the picks the first did not try.
      let second = 0
      for (const picks of pickOrderByRank(choices, base)) {
        if (second >= this.maxAttempts) break
        if (tried.has(picks.join())) continue
        second++
        if (attempt(picks)) break
      }
    }
    return { found: best && this.trimmed(nodes, best, watched, pathRules), attempts }
  }

  /**
   * Keeps only the answers the run actually used (and the starting answers), if the path is still reached without
   * the others and no worse for errors.
   */
  private trimmed(nodes: CompiledNode[], found: Found, watched: ReadonlySet<string>, pathRules: { has(ruleId: string): boolean }): Found {
    const kept: Record<string, unknown> = {}
    let dropped = false
    for (const [name, raw] of Object.entries(found.inputs)) {
      if (found.result.hasValue(name) || Object.hasOwn(this.fixed, name)) kept[name] = raw
      else dropped = true
    }
    if (!dropped) return found
    const keptResult = this.run(kept, watched)
    const score = errorScore(keptResult, pathRules)
    return this.reaches(nodes, keptResult) && score <= found.score ? { inputs: kept, result: keptResult, score } : found
  }

  /** A run that traces only the path's nodes (`watched`): all pathReached needs, at a fraction of a full trace's cost. */
  private run(inputs: Record<string, unknown>, watched: ReadonlySet<string>): EngineResult {
    return answersRun(this.compiled, inputs, { now: this.now, apiPort: this.apiPort, watched })
  }

  private reaches(nodes: CompiledNode[], result: EngineResult): boolean {
    return pathReached(result.trace ?? [], nodes.map((node) => node.id), nodes[nodes.length - 1]!.type === 'condition')
  }
}

interface Found {
  inputs: Record<string, unknown>
  result: EngineResult
  score: number
}

const NO_ERRORS = 0
const ELSEWHERE = 1
const IN_PATH_RULES = 2

/** The rules a path runs through: its top-level rule and each rule it enters through a Rule Call. */
function rulesOf(path: TreePath): { has(ruleId: string): boolean } {
  let rules: Set<string> | undefined
  // Worked out only when a run reports an error, which most runs do not.
  return { has: (ruleId) => (rules ??= new Set([path.ruleId, ...path.nodes.map((node) => node.ruleId)])).has(ruleId) }
}

/** How bad a run's errors are for a path: none, only in rules off the path, or in a rule the path runs through. */
function errorScore(result: EngineResult, pathRules: { has(ruleId: string): boolean }): number {
  if (result.errors.length === 0) return NO_ERRORS
  return result.errors.some((error) => pathRules.has(error.ruleId)) ? IN_PATH_RULES : ELSEWHERE
}

/** The picks a search tries first, in order: the base, each variable's other candidates alone, then pairs of changes. */
function* pickOrder(choices: Choice[], base: number[]): Generator<number[]> {
  yield base
  for (let i = 0; i < choices.length; i++) {
    for (let c = 1; c < choices[i]!.candidates.length; c++) yield changed(base, [[i, c]])
  }
  for (let i = 0; i < choices.length; i++) {
    for (let j = i + 1; j < choices.length; j++) {
      for (let ci = 1; ci < choices[i]!.candidates.length; ci++) {
        for (let cj = 1; cj < choices[j]!.candidates.length; cj++) yield changed(base, [[i, ci], [j, cj]])
      }
    }
  }
}

/**
 * The picks a second search tries when the first found nothing: changes by rank, where a change's rank is how far
 * down its variable's candidates it goes and a pair's is the sum of its two. In the first order one variable with
 * many candidates (a number compared with many constants) can spend the whole budget alone before any pair is tried,
 * and a path behind a Rule Exit nested in an earlier sibling often needs two other answers changed at once.
 */
function* pickOrderByRank(choices: Choice[], base: number[]): Generator<number[]> {
  const sizes = choices.map((choice) => choice.candidates.length)
  const deepest = Math.max(0, ...sizes) - 1
  for (let rank = 1; rank <= 2 * deepest; rank++) {
    for (let i = 0; i < choices.length; i++) if (rank < sizes[i]!) yield changed(base, [[i, rank]])
    for (let i = 0; i < choices.length; i++) {
      for (let j = i + 1; j < choices.length; j++) {
        for (let ci = Math.max(1, rank - sizes[j]! + 1); ci < Math.min(rank, sizes[i]!); ci++) yield changed(base, [[i, ci], [j, rank - ci]])
      }
    }
  }
}

function changed(base: number[], changes: Array<[number, number]>): number[] {
  const picks = [...base]
  for (const [i, c] of changes) picks[i] = c
  return picks
}
