// Why not: for every advice node a run did not give, on each path that leads to it (through the Rule Calls that reach
// its rule), what stopped the run on that path — the first condition that was false, with the values it read, or the
// question, exit or error the run ended at first — and the answers nearest to the run's own that give it: the branch
// generator's search (index.ts) over the paths to that node, trying the run's answers first, so as few change as it
// can find. The nearest answers are proven: a run with them gives the node.
import { KIND_ADVICE, KIND_CONDITION, type CompiledAdviceSet, type CompiledNode } from '../tree/compiled.ts'
import type { Evaluation, ReasonRead } from '../tree/explainer.ts'
import type { ApiPort } from '../tree/options.ts'
import type { EngineResult } from '../tree/result.ts'
import { AnswerSearch, type BranchReport } from './index.ts'
import { treePaths, type TreePath } from './paths.ts'
import { NO_API_VALUE, answersRun } from './run.ts'

/** What stopped the run on one path to the node. */
export type Blocker =
  | { kind: 'condition'; nodeId: string; expression: string; result: unknown; reads: ReasonRead[] }
  | { kind: 'question'; nodeId: string; variable: string }
  | { kind: 'exit'; nodeId: string }
  | { kind: 'error'; nodeId: string; message: string }
  | { kind: 'pendingApi'; nodeId: string; apiId: string }
  | { kind: 'notReached'; nodeId: string }

export interface NotGivenPath {
  /** Node ids from the top-level rule's root to the advice node. */
  path: string[]
  blocker: Blocker
}

export interface AnswerChange {
  variable: string
  /** The run's answer; absent when it had none. */
  from?: unknown
  /** The answer that gives the node; absent when the answer must be left out. */
  to?: unknown
}

export interface NearestAnswers {
  /** The run's answers with the changes made: a run with these gives the node. */
  inputs: Record<string, unknown>
  changes: AnswerChange[]
}

export interface NotGiven {
  nodeId: string
  ruleId: string
  headline: string
  paths: NotGivenPath[]
  /** Undefined when not worked out (see WhyNotOptions.nearestFor); null when no answers were found. */
  nearest?: NearestAnswers | null
  /** Why no answers give it, when none were found: a contradiction on its paths, an exit before it, … */
  unreachable?: string
}

export interface WhyNotOptions {
  now?: Date
  /** Answers for API calls in the search's runs (default: every call answers "no value"). */
  apiPort?: ApiPort
  /**
   * Which nodes get nearest answers (each costs a search): the first `nearestLimit` not given, in tree order, and
   * those in `nearestFor`. Default: every one.
   */
  nearestLimit?: number
  nearestFor?: ReadonlySet<string>
  /** Most paths examined per node (default 8). */
  maxPathsPerNode?: number
  /** Most paths walked in the whole set (default 20,000). */
  maxPaths?: number
  /** Explain only these advice nodes (default: every one not given). */
  only?: ReadonlySet<string>
}

const DEFAULT_PATHS_PER_NODE = 8
const DEFAULT_MAX_PATHS = 20_000

/**
 * Every advice node `result` did not give, in tree order. `result` must come from a run of `compiled` with `inputs`
 * and the options `explain: true` and `trace` (true or 'visits').
 */
export function whyNot(compiled: CompiledAdviceSet, inputs: Record<string, unknown>, result: EngineResult, options: WhyNotOptions = {}): NotGiven[] {
  const explanation = result.explanation
  if (explanation === undefined || result.trace === undefined) throw new Error('whyNot needs a run with explain and trace on.')
  const given = new Set([...result.advice, ...result.assumptions, ...result.examples].map((item) => item.nodeId))
  const pathsTo = advicePaths(compiled, options.maxPaths ?? DEFAULT_MAX_PATHS)
  const context = new RunContext(compiled, result, explanation.evaluations)
  let search: AnswerSearch | undefined
  const out: NotGiven[] = []
  for (const node of compiled.nodeById.values()) {
    if (node.kind !== KIND_ADVICE || given.has(node.id) || (options.only !== undefined && !options.only.has(node.id))) continue
    const paths = (pathsTo.get(node.id) ?? []).slice(0, options.maxPathsPerNode ?? DEFAULT_PATHS_PER_NODE)
    const entry: NotGiven = {
      nodeId: node.id, ruleId: node.ruleId, headline: node.model.headline ?? '',
      paths: paths.map((path) => ({ path: path.nodes.map((n) => n.id), blocker: context.blocker(path) })),
    }
    if (paths.length === 0) {
      entry.nearest = null
      entry.unreachable = 'No path leads to it: its rule runs only where a Rule Call calls it, and no rule that runs calls it.'
    } else if (out.length < (options.nearestLimit ?? (options.nearestFor ? 0 : Infinity)) || options.nearestFor?.has(node.id)) {
      search ??= new AnswerSearch(compiled, { prefer: inputs, apiPort: options.apiPort ?? NO_API_VALUE, ...(options.now ? { now: options.now } : {}) })
      Object.assign(entry, nearestAnswers(compiled, search, node, paths, inputs, options))
    }
    out.push(entry)
  }
  return out
}

const pathsBySet = new WeakMap<CompiledAdviceSet, { maxPaths: number; byLeaf: Map<string, TreePath[]> }>()

/** The paths of the set's rules that end at each advice node, in tree order; worked out once per compiled set. */
function advicePaths(compiled: CompiledAdviceSet, maxPaths: number): Map<string, TreePath[]> {
  const known = pathsBySet.get(compiled)
  if (known?.maxPaths === maxPaths) return known.byLeaf
  const byLeaf = new Map<string, TreePath[]>()
  pathsBySet.set(compiled, { maxPaths, byLeaf })
  let walked = 0
  for (const path of treePaths(compiled.rules)) {
    if (++walked > maxPaths) break
    const leaf = path.nodes[path.nodes.length - 1]!
    if (leaf.kind !== KIND_ADVICE) continue
    const list = byLeaf.get(leaf.id)
    if (list) list.push(path)
    else byLeaf.set(leaf.id, [path])
  }
  return byLeaf
}

/** What the explained run says about each node: decided how, visited or not, and where the run ended. */
class RunContext {
  private readonly visited: Set<string>
  /** Rule Exits the run took, by rule. */
  private readonly exits = new Map<string, string>()

  constructor(
    private readonly compiled: CompiledAdviceSet,
    private readonly result: EngineResult,
    private readonly evaluations: ReadonlyMap<string, Evaluation>,
  ) {
    this.visited = new Set(result.trace!.map((entry) => entry.nodeId))
    for (const entry of result.trace!) {
      if (entry.type === 'ruleExit') this.exits.set(compiled.nodeById.get(entry.nodeId)!.ruleId, entry.nodeId)
    }
  }

  blocker(path: TreePath): Blocker {
    for (const node of path.nodes) {
      if (node.kind === KIND_CONDITION) {
        const evaluation = this.evaluations.get(node.id)
        if (evaluation === undefined) return this.stoppedBefore(node, path)
        if (evaluation.result !== true) {
          return { kind: 'condition', nodeId: node.id, expression: node.model.expression ?? '', result: evaluation.result, reads: evaluation.reads }
        }
      } else if (!this.visited.has(node.id)) return this.stoppedBefore(node, path)
    }
    return this.stoppedBefore(path.nodes[path.nodes.length - 1]!, path)
  }

  /** Why the run never got to `node` though everything above it on the path held. */
  private stoppedBefore(node: CompiledNode, path: TreePath): Blocker {
    const exit = this.exits.get(node.ruleId)
    if (exit !== undefined) return { kind: 'exit', nodeId: exit }
    const error = this.result.errors.find((e) => e.ruleId === node.ruleId || e.ruleId === path.ruleId)
    if (error) return { kind: 'error', nodeId: error.nodeId, message: error.message }
    const focus = this.result.currentFocus
    if (focus) return { kind: 'question', nodeId: focus.nodeId, variable: focus.variable }
    const pending = this.result.pendingApiCalls[0]
    if (pending) return { kind: 'pendingApi', nodeId: pending.nodeId, apiId: pending.apiId }
    return { kind: 'notReached', nodeId: node.id }
  }
}

/** The fewest changes to `inputs` found on any path to `node`, proven by a run; or why none were found. */
function nearestAnswers(
  compiled: CompiledAdviceSet, search: AnswerSearch, node: CompiledNode, paths: TreePath[], inputs: Record<string, unknown>, options: WhyNotOptions,
): Pick<NotGiven, 'nearest' | 'unreachable'> {
  let best: NearestAnswers | null = null
  const reasons: string[] = []
  for (const path of paths) {
    const report: BranchReport = { branches: [], unreachable: [] }
    search.examine(path, report)
    for (const unreachable of report.unreachable) if (!reasons.includes(unreachable.reason)) reasons.push(unreachable.reason)
    const branch = report.branches[0]
    if (branch === undefined) continue
    const candidate = proven(compiled, node, inputs, branch.inputs, options)
    if (candidate !== null && (best === null || candidate.changes.length < best.changes.length)) best = candidate
    if (best?.changes.length === 0) break
  }
  if (best !== null) return { nearest: best }
  return { nearest: null, unreachable: reasons.length > 0 ? reasons.join(' ') : 'No answers tried give it.' }
}

/**
 * The run's answers changed to the branch's, where they differ, if a run with them gives the node; else the branch's
 * answers alone (leaving out the run's other answers), if that does.
 */
function proven(compiled: CompiledAdviceSet, node: CompiledNode, inputs: Record<string, unknown>, found: Record<string, unknown>, options: WhyNotOptions): NearestAnswers | null {
  const changes: AnswerChange[] = []
  for (const [variable, to] of Object.entries(found)) {
    if (JSON.stringify(inputs[variable]) !== JSON.stringify(to)) changes.push(Object.hasOwn(inputs, variable) ? { variable, from: inputs[variable], to } : { variable, to })
  }
  const merged = { ...inputs, ...found }
  if (gives(compiled, node, merged, options)) return { inputs: merged, changes }
  if (!gives(compiled, node, found, options)) return null
  const left = Object.keys(inputs).filter((name) => !Object.hasOwn(found, name)).map((variable) => ({ variable, from: inputs[variable] }))
  return { inputs: { ...found }, changes: [...changes, ...left] }
}

function gives(compiled: CompiledAdviceSet, node: CompiledNode, inputs: Record<string, unknown>, options: WhyNotOptions): boolean {
  const result = answersRun(compiled, inputs, { apiPort: options.apiPort ?? NO_API_VALUE, watched: new Set([node.id]), ...(options.now ? { now: options.now } : {}) })
  return [...result.advice, ...result.assumptions, ...result.examples].some((item) => item.nodeId === node.id)
}
