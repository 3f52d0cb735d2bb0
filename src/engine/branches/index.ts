// generateBranches: every root-to-leaf path of the top-level rules (through the rules they call), with answers that
// reach it. Answers are derived from the comparisons on the path (interval boundaries, options, both booleans),
// then every branch is proven by running the engine and checking in the trace that the whole path ran. A path is
// reported unreachable when its conditions contradict each other, it lies after an unconditional exit, the starting
// answers rule it out, or no tried combination of answers reaches it.
//
// walkBranches is the same work as a generator that yields after every path, so a caller can spread a large set
// over many slices of time (a background task) and stop it between two paths; generateBranches runs it to the end.
import type { AdviceSetModel } from '../model.ts'
import { compileAdviceSet } from '../tree/compile.ts'
import type { CompiledAdviceSet, CompiledNode } from '../tree/compiled.ts'
import { evaluate } from '../tree/evaluate.ts'
import type { ApiPort } from '../tree/options.ts'
import type { EngineResult } from '../tree/result.ts'
import type { Atom } from '../checks/constraints.ts'
import { byVariable, describeAtom, holds } from '../checks/constraints.ts'
import type { AtomValue } from '../checks/constraints.ts'
import { contradiction, stableVariables, usableAtoms } from '../checks/reachability.ts'
import { GeneralCandidates, candidatesFor, fixedCandidate, inputVariables } from './input-values.ts'
import type { Candidate } from './input-values.ts'
import { countPaths, treePaths } from './paths.ts'
import type { TreePath } from './paths.ts'
import { outcomeOf, pathReached } from './outcome.ts'
import type { RunOutcome } from './outcome.ts'

export { pathReached, outcomeOf } from './outcome.ts'
export type { RunOutcome } from './outcome.ts'

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
}

export interface BranchReport {
  branches: Branch[]
  unreachable: UnreachablePath[]
  truncated?: { message: string }
}

export const DEFAULT_BRANCH_LIMIT = 1000
const DEFAULT_ATTEMPTS = 64
const NO_API_VALUE: ApiPort = () => null

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
  candidates: Candidate[]
}

class AnswerSearch {
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
  /** usableAtoms of each condition with the stable variables: a node's facts never change during a generation. */
  private readonly factsOf = new Map<CompiledNode, { atoms: Atom[]; alwaysFalse: boolean }>()

  constructor(
    private readonly compiled: CompiledAdviceSet,
    options: BranchOptions,
  ) {
    this.stable = stableVariables(compiled)
    this.now = options.now ?? new Date()
    this.maxAttempts = options.maxAttempts ?? DEFAULT_ATTEMPTS
    this.verify = options.verify !== false
    this.apiPort = options.apiPort ?? NO_API_VALUE
    this.inputSlots = inputVariables(compiled)
    this.fixed = options.fixed ?? {}
    // Every comparison anywhere, true or false side, so answers for variables off the path can avoid exits.
    const atoms: Atom[] = []
    for (const node of compiled.nodeById.values()) atoms.push(...usableAtoms(compiled, node, this.stable).atoms)
    const allAtoms = byVariable(atoms)
    for (const index of this.inputSlots) {
      const slot = compiled.variables[index]!
      this.general.set(index, new GeneralCandidates(slot, allAtoms.get(slot.name) ?? [], this.now))
    }
  }

  private facts(node: CompiledNode): { atoms: Atom[]; alwaysFalse: boolean } {
    let facts = this.factsOf.get(node)
    if (facts === undefined) {
      facts = usableAtoms(this.compiled, node, this.stable)
      this.factsOf.set(node, facts)
    }
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
    const conflict = contradiction(pathAtoms)
    if (conflict !== undefined) return void unreachable(`The conditions on this path contradict each other: ${conflict}.`)
    const choices = this.choices(byVariable(pathAtoms))
    if (typeof choices === 'string') return void unreachable(choices)
    const base = new Array<number>(choices.length).fill(0)
    if (!this.verify) {
      report.branches.push({ ruleId: path.ruleId, path: ids, inputs: this.inputs(choices, base), verified: false })
      return
    }
    const found = this.searchAnswers(path.nodes, choices, base)
    if (found) report.branches.push({ ruleId: path.ruleId, path: ids, inputs: found.inputs, verified: true, outcome: outcomeOf(found.result) })
    else unreachable(`None of the ${this.maxAttempts} combinations of answers tried reaches this path.`)
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
        out.push({ name: slot.name, candidates: [candidate] })
        continue
      }
      const candidates = this.candidates(index, atoms)
      if (candidates.length === 0) {
        if (pathAtoms.has(slot.name)) return 'No answer satisfies the conditions on this path.'
        continue
      }
      out.push({ name: slot.name, candidates })
    }
    return out
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
   * First the preferred answer for every variable, then each variable's other candidates one at a time, then
   * pairs of changes, until the path is reached or the attempt budget is spent. The order is fixed, so the
   * result is deterministic.
   */
  private searchAnswers(nodes: CompiledNode[], choices: Choice[], base: number[]): Found | undefined {
    let attempts = 0
    const watched = new Set(nodes.map((node) => node.id))
    const attempt = (picks: number[]): Found | undefined => {
      attempts++
      const inputs = this.inputs(choices, picks)
      const result = this.run(inputs, watched)
      return this.reaches(nodes, result) ? this.trimmed(nodes, inputs, result, watched) : undefined
    }
    const first = attempt(base)
    if (first) return first
    for (let i = 0; i < choices.length; i++) {
      for (let c = 1; c < choices[i]!.candidates.length; c++) {
        if (attempts >= this.maxAttempts) return undefined
        const picks = [...base]
        picks[i] = c
        const found = attempt(picks)
        if (found) return found
      }
    }
    for (let i = 0; i < choices.length; i++) {
      for (let j = i + 1; j < choices.length; j++) {
        for (let ci = 1; ci < choices[i]!.candidates.length; ci++) {
          for (let cj = 1; cj < choices[j]!.candidates.length; cj++) {
            if (attempts >= this.maxAttempts) return undefined
            const picks = [...base]
            picks[i] = ci
            picks[j] = cj
            const found = attempt(picks)
            if (found) return found
          }
        }
      }
    }
    return undefined
  }

  /**
   * Keeps only the answers the run actually used (and the starting answers), if the path is still reached without
   * the others; `result` is the run with all of `inputs`.
   */
  private trimmed(nodes: CompiledNode[], inputs: Record<string, unknown>, result: EngineResult, watched: ReadonlySet<string>): Found {
    const kept: Record<string, unknown> = {}
    let dropped = false
    for (const [name, raw] of Object.entries(inputs)) {
      if (result.hasValue(name) || Object.hasOwn(this.fixed, name)) kept[name] = raw
      else dropped = true
    }
    if (!dropped) return { inputs, result }
    const keptResult = this.run(kept, watched)
    return this.reaches(nodes, keptResult) ? { inputs: kept, result: keptResult } : { inputs, result }
  }

  /** A run that traces only the path's nodes (`watched`): all pathReached needs, at a fraction of a full trace's cost. */
  private run(inputs: Record<string, unknown>, watched: ReadonlySet<string>): EngineResult {
    return evaluate(this.compiled, inputs, {
      context: 'genbranches',
      render: false,
      trace: 'visits',
      traceOnly: watched,
      now: this.now,
      apiPort: this.apiPort,
    })
  }

  private reaches(nodes: CompiledNode[], result: EngineResult): boolean {
    return pathReached(result.trace ?? [], nodes.map((node) => node.id), nodes[nodes.length - 1]!.type === 'condition')
  }
}

interface Found {
  inputs: Record<string, unknown>
  result: EngineResult
}
