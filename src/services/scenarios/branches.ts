// Generated branches of an advice set (gen-branches, POST /api/adviceset/generate-branches): every path through a
// source of the set (draft or a version) with the answers that reach it and its outcome. A generation that examines
// at most DIRECT_PATHS paths answers at once; a larger one runs as a background task (branch-task.ts) whose result
// is read when it is done.
import { compileAdviceSet, pathsToExamine, walkBranches, type BranchOptions, type BranchReport } from '../../engine/index.ts'
import type { Actor, Deps } from '../context.ts'
import { branchLimit, runAsOf, startingAnswers } from './branch-requests.ts'
import { TaskRegistry, type TaskStatus } from './branch-task.ts'
import { PathPresenter, answersOf, type AnswerView, type BranchRow, type UnreachableRow } from './branch-view.ts'
import { loadSource, readableSet } from './sources.ts'

/** At most this many paths are generated while the request waits (a few milliseconds); more run in the background. */
export const DIRECT_PATHS = 200

export interface GenerateRequest {
  adviceSetId: number
  /** `draft` (default), `published` or a version id. */
  source?: string | undefined
  /** Starting answers every branch keeps: an object, or its JSON text. */
  inputs?: unknown
  limit?: unknown
  /** YYYY-MM-DD: the runs are as of this date (today() and date maths). */
  runAsOf?: unknown
  /** Run in the background even when the set is small. */
  background?: boolean | undefined
  /**
   * Never start a background task: a generation too large to answer at once comes back as `pending` (what it would
   * examine), for a page to offer to start it. Pages use this on GET, which must not start work.
   */
  directOnly?: boolean | undefined
}

export interface BranchesView {
  adviceSet: { id: number; name: string }
  source: { key: string; label: string }
  startingInputs: Record<string, unknown>
  startingAnswers: AnswerView[]
  runAsOf: string | null
  limit: number
  /** Paths in the source, and how many of them were examined (the limit may stop earlier). */
  total: number
  examined: number
  branches: BranchRow[]
  unreachable: UnreachableRow[]
  truncated: string | null
}

/** What a generation task remembers of its request, to show its page again. */
export interface GenerateContext {
  adviceSet: { id: number; name: string }
  source: { key: string; label: string }
  startingInputs: Record<string, unknown>
  runAsOf: string | null
  limit: number
}

export type GenerateOutcome =
  | { view: BranchesView; task?: undefined; pending?: undefined }
  | { task: TaskStatus; view?: undefined; pending?: undefined }
  | { pending: GenerateContext & { total: number; examined: number }; view?: undefined; task?: undefined }

export const generateTasks = new TaskRegistry<GenerateContext, BranchesView>('generate')

/** The request checked and its source loaded and compiled, ready to walk. */
async function prepare(deps: Deps, actor: Actor, request: GenerateRequest) {
  const set = await readableSet(deps, actor, request.adviceSetId)
  const limit = branchLimit(request.limit)
  const asOf = runAsOf(request.runAsOf)
  const source = await loadSource(deps, actor, set, request.source)
  const fixed = startingAnswers(request.inputs, source.model)
  const compiled = compileAdviceSet(source.model)
  const context: GenerateContext = {
    adviceSet: { id: set.id, name: set.nameAlt || set.name }, source: { key: source.key, label: source.label },
    startingInputs: fixed, runAsOf: asOf?.text ?? null, limit,
  }
  const options: BranchOptions = { limit, now: asOf?.date ?? new Date(), fixed }
  return { context, compiled, options, ...pathsToExamine(compiled, limit) }
}

export async function generateSetBranches(deps: Deps, actor: Actor, request: GenerateRequest): Promise<GenerateOutcome> {
  const { context, compiled, options, total, examined } = await prepare(deps, actor, request)
  const present = (report: BranchReport) => presentBranches(context, new PathPresenter(compiled, context.adviceSet.id, context.runAsOf), report, total, examined)
  if (request.directOnly && (examined > DIRECT_PATHS || request.background === true)) return { pending: { ...context, total, examined } }
  const steps = walkBranches(compiled, options)
  if (examined <= DIRECT_PATHS && request.background !== true) {
    let step = steps.next()
    while (!step.done) step = steps.next()
    return { view: present(step.value) }
  }
  return { task: generateTasks.start(actor, context.adviceSet.id, context, steps, present) }
}

/** Branches are numbered 1… in walk order (rule order, depth first); unreachable paths are listed apart, numbered the same way. */
export function presentBranches(context: GenerateContext, presenter: PathPresenter, report: BranchReport, total: number, examined: number): BranchesView {
  return {
    ...context,
    startingAnswers: answersOf(context.startingInputs),
    total, examined,
    branches: report.branches.map((branch, i) => presenter.branch(i + 1, branch)),
    unreachable: report.unreachable.map((path, i) => presenter.unreachable(i + 1, path)),
    truncated: report.truncated?.message ?? null,
  }
}

/** A finished generation task's page data; a task still running (or stopped) has none yet. */
export function generationTask(actor: Actor, taskId: string): { status: TaskStatus; context: GenerateContext; view: BranchesView | null } {
  const task = generateTasks.read(actor, taskId)
  return { status: task.status, context: task.context, view: task.result ?? null }
}
