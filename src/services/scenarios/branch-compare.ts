// Compare (gen-branches/compare): the generated branches of two sources of a set — by default the published version
// (base) against the working draft (next) — as paths added, removed and changed in outcome, each with answers that
// show it and what they give on both sides. How paths are matched and what "changed" means: engine/branches/
// compare.ts. Small sets answer at once; larger ones run as a job like a generation.
import {
  compileAdviceSet, pathsToExamine, walkBranches, walkComparison, type AdviceEdit, type BranchComparison, type BranchOptions, type BranchProgress,
  type BranchReport, type CompiledAdviceSet, type PathChange, type PathSide,
} from '../../engine/index.ts'
import type { Actor, Deps } from '../context.ts'
import { ValidationError } from '../errors.ts'
import { branchLimit, runAsOf } from './branch-requests.ts'
import { BranchTasks, type TaskStatus, type TaskWalk } from './branch-task.ts'
import { PathPresenter, answersOf, type AnswerView, type OutcomeView } from './branch-view.ts'
import { DIRECT_PATHS } from './branches.ts'
import { loadSource, publishedKey, readableSet } from './sources.ts'

export interface CompareRequest {
  adviceSetId: number
  /** Default: the published version. */
  base?: string | undefined
  /** Default: the working draft. */
  next?: string | undefined
  limit?: unknown
  runAsOf?: unknown
  background?: boolean | undefined
  /** As for generations (branches.ts GenerateRequest.directOnly): a large compare comes back as `pending`. */
  directOnly?: boolean | undefined
}

export interface ChangeRow {
  rules: string[]
  /** The path's conditions in words on the side it is shown from (next, or base for a removed path). */
  when: string
  /** For a changed path whose conditions read differently before: the base side's words. */
  whenBefore: string | null
  ends: string
  reason: string
  inputs: Record<string, unknown> | null
  answers: AnswerView[]
  base: OutcomeView | null
  next: OutcomeView | null
  /** Advice on the path whose headline or text was edited: before and after. */
  changedAdvice: AdviceEdit[]
  /** Save the answers that show the change as a scenario (none when no answers reach the path). */
  saveHref: string | null
}

export interface CompareContext {
  adviceSet: { id: number; name: string }
  base: { key: string; label: string }
  next: { key: string; label: string }
  runAsOf: string | null
  limit: number
}

export interface CompareView extends CompareContext {
  changed: ChangeRow[]
  added: ChangeRow[]
  removed: ChangeRow[]
  unchanged: number
  /** Set when either side had more paths than the limit. */
  truncated: string | null
}

export type CompareOutcome =
  | { view: CompareView; task?: undefined; pending?: undefined }
  | { task: TaskStatus; view?: undefined; pending?: undefined }
  | { pending: CompareContext & { examined: [number, number] }; view?: undefined; task?: undefined }

/** What a compare job walks again. */
type CompareJobRequest = Pick<CompareRequest, 'adviceSetId' | 'base' | 'next' | 'limit' | 'runAsOf'>

export const compareTasks = new BranchTasks<CompareJobRequest, CompareContext, CompareView>('compare', 'branches.compare', 'steps')

/** The job handler of large compares (services/operations/job-kinds.ts registers it at start-up). */
export function registerCompareJob(deps: Deps): void {
  compareTasks.register(deps, async (deps, actor, request): Promise<TaskWalk<CompareResult, CompareView>> => {
    const prepared = await prepareCompare(deps, actor, request)
    return { steps: prepared.steps(), finish: prepared.present }
  })
}

interface CompareResult { comparison: BranchComparison; baseReport: BranchReport; nextReport: BranchReport }

/** Re-labels a walk's progress as part of a longer job. */
function* counted<R>(steps: Generator<BranchProgress, R, undefined>, progress: (step: BranchProgress) => BranchProgress): Generator<BranchProgress, R, undefined> {
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
    yield progress(step.value)
  }
}

/**
 * Both generations, then the comparison, as one walk. Its total is first an estimate (the comparison has at most
 * as many paths as both sides together) and becomes exact once both sides are known.
 */
function* compareSteps(base: CompiledAdviceSet, next: CompiledAdviceSet, options: BranchOptions, examined: [number, number]): Generator<BranchProgress, CompareResult, undefined> {
  const [a, b] = examined
  let total = a + b + a + b
  const baseReport = yield* counted(walkBranches(base, options), (step) => ({ done: step.done, total }))
  const nextReport = yield* counted(walkBranches(next, options), (step) => ({ done: a + step.done, total }))
  const compareOptions = options.now ? { now: options.now } : {}
  const comparison = yield* counted(walkComparison({ compiled: base, report: baseReport }, { compiled: next, report: nextReport }, compareOptions), (step) => {
    total = a + b + step.total
    return { done: a + b + step.done, total }
  })
  return { comparison, baseReport, nextReport }
}

/** The request checked, both sources loaded and compiled: the walk to run and how its result is shown. */
async function prepareCompare(deps: Deps, actor: Actor, request: CompareJobRequest) {
  const set = await readableSet(deps, actor, request.adviceSetId)
  const limit = branchLimit(request.limit)
  const asOf = runAsOf(request.runAsOf)
  const baseKey = request.base?.trim() || await publishedKey(deps, actor, set)
  if (baseKey === null) throw new ValidationError('base', 'base: nothing of this advice set is published yet: choose a version to compare with.')
  const base = await loadSource(deps, actor, set, baseKey, 'base')
  const next = await loadSource(deps, actor, set, request.next, 'next')
  const baseCompiled = compileAdviceSet(base.model)
  const nextCompiled = compileAdviceSet(next.model)
  const context: CompareContext = {
    adviceSet: { id: set.id, name: set.nameAlt || set.name }, base: { key: base.key, label: base.label }, next: { key: next.key, label: next.label },
    runAsOf: asOf?.text ?? null, limit,
  }
  const examined: [number, number] = [pathsToExamine(baseCompiled, limit).examined, pathsToExamine(nextCompiled, limit).examined]
  return {
    set, context, examined,
    steps: () => compareSteps(baseCompiled, nextCompiled, { limit, now: asOf?.date ?? new Date() }, examined),
    present: (result: CompareResult) => presentComparison(context, baseCompiled, nextCompiled, result),
  }
}

export async function compareSources(deps: Deps, actor: Actor, request: CompareRequest): Promise<CompareOutcome> {
  const { set, context, examined, steps, present } = await prepareCompare(deps, actor, request)
  const direct = Math.max(...examined) <= DIRECT_PATHS && request.background !== true
  if (request.directOnly && !direct) return { pending: { ...context, examined } }
  if (direct) {
    const walk = steps()
    let step = walk.next()
    while (!step.done) step = walk.next()
    return { view: present(step.value) }
  }
  const { adviceSetId, base, next, limit, runAsOf } = request
  return {
    task: await compareTasks.start(deps, actor, set.ownerId, {
      // The sources as resolved now: "published" is pinned to the version published when the compare was asked.
      adviceSetId: set.id, request: { adviceSetId, base: context.base.key, next: context.next.key, limit, runAsOf }, context,
      total: 2 * (examined[0] + examined[1]),
      title: `Compare the branches of “${context.adviceSet.name}”: ${context.base.label} and ${context.next.label}`,
    }),
  }
}

function presentComparison(context: CompareContext, baseCompiled: CompiledAdviceSet, nextCompiled: CompiledAdviceSet, result: CompareResult): CompareView {
  const basePresenter = new PathPresenter(baseCompiled, context.adviceSet.id, context.runAsOf)
  const nextPresenter = new PathPresenter(nextCompiled, context.adviceSet.id, context.runAsOf)
  const row = (kind: string) => (change: PathChange): ChangeRow => {
    const shown: { presenter: PathPresenter; side: PathSide } = change.next ? { presenter: nextPresenter, side: change.next } : { presenter: basePresenter, side: change.base! }
    const view = shown.presenter.path(0, shown.side)
    const before = change.next && change.base ? basePresenter.path(0, change.base).when : null
    const next = change.nextOutcome ? nextPresenter.outcome(change.nextOutcome) : null
    return {
      rules: view.rules, when: view.when, whenBefore: before !== null && before !== view.when ? before : null, ends: view.ends, reason: change.reason,
      inputs: change.inputs ?? null, answers: change.inputs ? answersOf(change.inputs) : [],
      base: change.baseOutcome ? basePresenter.outcome(change.baseOutcome) : null, next, changedAdvice: change.changedAdvice ?? [],
      saveHref: change.inputs ? nextPresenter.saveHref(nextPresenter.scenarioName(kind, view, next), change.inputs) : null,
    }
  }
  const truncated = [result.baseReport.truncated && `${context.base.label}: ${result.baseReport.truncated.message}`, result.nextReport.truncated && `${context.next.label}: ${result.nextReport.truncated.message}`]
    .filter((text): text is string => typeof text === 'string')
  return {
    ...context,
    changed: result.comparison.changed.map(row('Changed')), added: result.comparison.added.map(row('Added')), removed: result.comparison.removed.map(row('Removed')),
    unchanged: result.comparison.unchanged,
    truncated: truncated.length > 0 ? truncated.join(' ') : null,
  }
}

/** A compare task's page data (null view while it runs). */
export async function comparisonTask(deps: Deps, actor: Actor, taskId: string): Promise<{ status: TaskStatus; context: CompareContext; view: CompareView | null }> {
  const task = await compareTasks.read(deps, actor, taskId)
  return { status: task.status, context: task.context, view: task.result ?? null }
}
