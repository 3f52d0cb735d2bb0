// generateBranches: every root-to-leaf path of the top-level rules, with answers that reach it. Answers are
// derived from the comparisons on the path (interval boundaries, options, both booleans), then every branch is
// proven by running the engine and checking in the trace that the whole path ran. A path is reported
// unreachable when its conditions contradict each other, it lies after an unconditional exit, or no tried
// combination of answers reaches it.
import type { AdviceSetModel } from '../model.ts'
import { compileAdviceSet } from '../tree/compile.ts'
import type { CompiledAdviceSet, CompiledNode } from '../tree/compiled.ts'
import { evaluate } from '../tree/evaluate.ts'
import type { ApiPort } from '../tree/options.ts'
import type { Atom } from '../checks/constraints.ts'
import { byVariable } from '../checks/constraints.ts'
import { contradiction, stableVariables, usableAtoms } from '../checks/reachability.ts'
import { candidatesFor, inputVariables } from './input-values.ts'
import type { Candidate } from './input-values.ts'
import { countPaths, forEachPath } from './paths.ts'
import type { TreePath } from './paths.ts'

export interface Branch {
  ruleId: string
  /** Node ids from the rule's root to the leaf. */
  path: string[]
  /** Raw answers, as an API caller would send them. */
  inputs: Record<string, unknown>
  /** A run with these inputs visited every node of the path (false only when verification was turned off). */
  verified: boolean
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
}

export interface BranchReport {
  branches: Branch[]
  unreachable: UnreachablePath[]
  truncated?: { message: string }
}

const DEFAULT_LIMIT = 1000
const DEFAULT_ATTEMPTS = 64
const NO_API_VALUE: ApiPort = () => null

export function generateBranches(model: AdviceSetModel, options: BranchOptions = {}): BranchReport {
  const compiled = compileAdviceSet(model)
  const limit = options.limit ?? DEFAULT_LIMIT
  const total = countPaths(compiled.rules)
  const examined = Math.min(total, limit)
  const search = new AnswerSearch(compiled, options)
  const report: BranchReport = { branches: [], unreachable: [] }
  let done = 0
  forEachPath(compiled.rules, (path) => {
    if (done >= limit) return false
    search.examine(path, report)
    done++
    options.onProgress?.({ done, total: examined })
    return true
  })
  if (total > limit) {
    report.truncated = {
      message: `Only the first ${limit} of ${total} paths were examined. Raise the limit or split the advice set to see the rest.`,
    }
  }
  return report
}

class AnswerSearch {
  private readonly stable: Set<string>
  private readonly allAtoms: Map<string, Atom[]>
  private readonly now: Date
  private readonly maxAttempts: number
  private readonly verify: boolean
  private readonly apiPort: ApiPort
  private readonly inputSlots: number[]

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
    // Every comparison anywhere, true or false side, so answers for variables off the path can avoid exits.
    const atoms: Atom[] = []
    for (const node of compiled.nodeById.values()) atoms.push(...usableAtoms(compiled, node, this.stable).atoms)
    this.allAtoms = byVariable(atoms)
  }

  examine(path: TreePath, report: BranchReport): void {
    const ids = path.nodes.map((node) => node.id)
    const broken = path.nodes.find((node) => node.error !== null)
    if (broken) {
      report.unreachable.push({ ruleId: path.ruleId, path: ids, reason: `Node ${broken.id} has an error: ${broken.error!.message}` })
      return
    }
    if (path.afterExit) {
      report.unreachable.push({ ruleId: path.ruleId, path: ids, reason: 'The rule always exits before this path.' })
      return
    }
    const pathAtoms: Atom[] = []
    for (const node of path.nodes) {
      const facts = usableAtoms(this.compiled, node, this.stable)
      if (facts.alwaysFalse) {
        report.unreachable.push({ ruleId: path.ruleId, path: ids, reason: `The condition of node ${node.id} is always false.` })
        return
      }
      pathAtoms.push(...facts.atoms)
    }
    const conflict = contradiction(pathAtoms)
    if (conflict !== undefined) {
      report.unreachable.push({ ruleId: path.ruleId, path: ids, reason: `The conditions on this path contradict each other: ${conflict}.` })
      return
    }
    const choices = this.choices(byVariable(pathAtoms))
    if (choices === undefined) {
      report.unreachable.push({ ruleId: path.ruleId, path: ids, reason: 'No answer satisfies the conditions on this path.' })
      return
    }
    const base = new Array<number>(choices.length).fill(0)
    if (!this.verify) {
      report.branches.push({ ruleId: path.ruleId, path: ids, inputs: this.inputs(choices, base), verified: false })
      return
    }
    const found = this.searchAnswers(path.nodes, choices, base)
    if (found) report.branches.push({ ruleId: path.ruleId, path: ids, inputs: found, verified: true })
    else {
      report.unreachable.push({
        ruleId: path.ruleId,
        path: ids,
        reason: `None of the ${this.maxAttempts} combinations of answers tried reaches this path.`,
      })
    }
  }

  /** Candidate answers for every input variable, or undefined when a path-constrained one has none. */
  private choices(pathAtoms: Map<string, Atom[]>): Array<{ name: string; candidates: Candidate[] }> | undefined {
    const out: Array<{ name: string; candidates: Candidate[] }> = []
    for (const index of this.inputSlots) {
      const slot = this.compiled.variables[index]!
      const candidates = candidatesFor(slot, pathAtoms.get(slot.name) ?? [], this.allAtoms.get(slot.name) ?? [], this.now)
      if (candidates.length === 0) {
        if (pathAtoms.has(slot.name)) return undefined
        continue
      }
      out.push({ name: slot.name, candidates })
    }
    return out
  }

  private inputs(choices: Array<{ name: string; candidates: Candidate[] }>, picks: number[]): Record<string, unknown> {
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
  private searchAnswers(
    nodes: CompiledNode[],
    choices: Array<{ name: string; candidates: Candidate[] }>,
    base: number[],
  ): Record<string, unknown> | undefined {
    let attempts = 0
    const attempt = (picks: number[]): Record<string, unknown> | undefined => {
      attempts++
      const inputs = this.inputs(choices, picks)
      return this.reaches(nodes, inputs) ? this.trimmed(nodes, inputs) : undefined
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

  /** Keeps only the answers the run actually used, if the path is still reached without the others. */
  private trimmed(nodes: CompiledNode[], inputs: Record<string, unknown>): Record<string, unknown> {
    const result = this.run(inputs)
    const used = result.variables
    const kept: Record<string, unknown> = {}
    for (const [name, raw] of Object.entries(inputs)) if (name in used) kept[name] = raw
    return this.reaches(nodes, kept) ? kept : inputs
  }

  private run(inputs: Record<string, unknown>): ReturnType<typeof evaluate> {
    return evaluate(this.compiled, inputs, {
      context: 'genbranches',
      render: false,
      trace: true,
      now: this.now,
      apiPort: this.apiPort,
    })
  }

  reaches(nodes: CompiledNode[], inputs: Record<string, unknown>): boolean {
    return pathReached(this.run(inputs).trace ?? [], nodes.map((node) => node.id), nodes[nodes.length - 1]!.type === 'condition')
  }
}

/** Whether a trace visited every node of the path, and, when the path ends in a condition, found it true. */
export function pathReached(trace: ReadonlyArray<{ nodeId: string; value: unknown }>, path: readonly string[], leafIsCondition: boolean): boolean {
  const visited = new Map<string, unknown>()
  for (const entry of trace) if (!visited.has(entry.nodeId) || entry.value === true) visited.set(entry.nodeId, entry.value)
  if (!path.every((id) => visited.has(id))) return false
  return !leafIsCondition || visited.get(path[path.length - 1]!) === true
}
