// Generated branches of an advice set (gen-branches, POST /api/adviceset/generate-branches): every path through a
// source of the set (draft or a version) with the answers that reach it and its outcome. A generation that examines
// at most DIRECT_PATHS paths answers at once; a larger one runs as a job (branch-task.ts) whose result is read when
// it is done.
import { compileAdviceSet, pathsToExamine, walkBranches, type BranchOptions, type BranchReport } from '../../engine/index.ts'
import type { Actor, Deps } from '../context.ts'
import { branchLimit, runAsOf, startingAnswers } from './branch-requests.ts'
import { BranchTasks, type TaskStatus, type TaskWalk } from './branch-task.ts'
import { PathPresenter, answersOf, type AnswerView, type BranchRow, type UnreachableRow } from './branch-view.ts'
import { scenarioCoverage, type CoverageSummary } from './coverage.ts'
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

/** What a generation job walks again: the request as checked, without the page's switches. */
type GenerateJobRequest = Pick<GenerateRequest, 'adviceSetId' | 'source' | 'inputs' | 'limit' | 'runAsOf'>

export const generateTasks = new BranchTasks<GenerateJobRequest, GenerateContext, BranchesView>('generate', 'branches.generate', 'paths')

/** The job handler of large generations (services/operations/job-kinds.ts registers it at start-up). */
export function registerGenerateJob(deps: Deps): void {
  generateTasks.register(deps, async (deps, actor, request): Promise<TaskWalk<BranchReport, BranchesView>> => {
    const { context, compiled, options, total, examined } = await prepare(deps, actor, request)
    return {
      steps: walkBranches(compiled, options),
      finish: (report) => presentBranches(context, new PathPresenter(compiled, context.adviceSet.id, context.runAsOf), report, total, examined),
    }
  })
}

/** The request checked and its source loaded and compiled, ready to walk. */
async function prepare(deps: Deps, actor: Actor, request: GenerateJobRequest) {
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
  return { set, context, compiled, options, ...pathsToExamine(compiled, limit) }
}

export async function generateSetBranches(deps: Deps, actor: Actor, request: GenerateRequest): Promise<GenerateOutcome> {
  const { set, context, compiled, options, total, examined } = await prepare(deps, actor, request)
  if (request.directOnly && (examined > DIRECT_PATHS || request.background === true)) return { pending: { ...context, total, examined } }
  if (examined <= DIRECT_PATHS && request.background !== true) {
    const steps = walkBranches(compiled, options)
    let step = steps.next()
    while (!step.done) step = steps.next()
    return { view: presentBranches(context, new PathPresenter(compiled, context.adviceSet.id, context.runAsOf), step.value, total, examined) }
  }
  const { adviceSetId, source, inputs, limit, runAsOf } = request
  return {
    task: await generateTasks.start(deps, actor, set.ownerId, {
      adviceSetId: set.id, request: { adviceSetId, source, inputs, limit, runAsOf }, context, total: examined,
      title: `Generate the branches of “${context.adviceSet.name}” (${context.source.label})`,
    }),
  }
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
export async function generationTask(deps: Deps, actor: Actor, taskId: string): Promise<{ status: TaskStatus; context: GenerateContext; view: BranchesView | null }> {
  const task = await generateTasks.read(deps, actor, taskId)
  return { status: task.status, context: task.context, view: task.result ?? null }
}

/** How far the set's saved scenarios cover a generation's branches (its source compiled again, the scenarios run now). */
export async function coverageOfBranches(deps: Deps, actor: Actor, view: BranchesView): Promise<Omit<CoverageSummary, 'reached'>> {
  const set = await readableSet(deps, actor, view.adviceSet.id)
  const source = await loadSource(deps, actor, set, view.source.key)
  const { reached: _reached, ...coverage } = await scenarioCoverage(deps, set, compileAdviceSet(source.model), view.branches)
  return coverage
}

/**
 * The summary page's coverage of a source: its branches generated while the page waits and covered by the saved
 * scenarios; for a source with more paths than that, only how many paths it has (the branch tools generate those).
 */
export async function sourceCoverage(deps: Deps, actor: Actor, request: { adviceSetId: number; source?: string | undefined }): Promise<
  { coverage: Omit<CoverageSummary, 'reached'>; paths?: undefined } | { coverage?: undefined; paths: number }
> {
  const outcome = await generateSetBranches(deps, actor, { ...request, directOnly: true })
  if (outcome.view) return { coverage: await coverageOfBranches(deps, actor, outcome.view) }
  return { paths: outcome.pending?.total ?? 0 }
}
