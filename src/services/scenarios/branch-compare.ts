// Compare (gen-branches/compare): the generated branches of two sources of a set — by default the published version
// (base) against the working draft (next) — as paths added, removed and changed in outcome, each with answers that
// show it and what they give on both sides. How paths are matched and what "changed" means: engine/branches/
// compare.ts. Small sets answer at once; larger ones run as a background task like a generation.
import {
  compileAdviceSet, pathsToExamine, walkBranches, walkComparison, type BranchComparison, type BranchOptions, type BranchProgress,
  type BranchReport, type CompiledAdviceSet, type PathChange, type PathSide,
} from '../../engine/index.ts'
import type { Actor, Deps } from '../context.ts'
import { ValidationError } from '../errors.ts'
import { branchLimit, runAsOf } from './branch-requests.ts'
import { TaskRegistry, type TaskStatus } from './branch-task.ts'
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

export const compareTasks = new TaskRegistry<CompareContext, CompareView>('compare')

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

export async function compareSources(deps: Deps, actor: Actor, request: CompareRequest): Promise<CompareOutcome> {
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
  const direct = Math.max(...examined) <= DIRECT_PATHS && request.background !== true
  if (request.directOnly && !direct) return { pending: { ...context, examined } }
  const steps = compareSteps(baseCompiled, nextCompiled, { limit, now: asOf?.date ?? new Date() }, examined)
  const present = (result: CompareResult) => presentComparison(context, baseCompiled, nextCompiled, result)
  if (direct) {
    let step = steps.next()
    while (!step.done) step = steps.next()
    return { view: present(step.value) }
  }
  return { task: compareTasks.start(actor, set.id, context, steps, present) }
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
      base: change.baseOutcome ? basePresenter.outcome(change.baseOutcome) : null, next,
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
export function comparisonTask(actor: Actor, taskId: string): { status: TaskStatus; context: CompareContext; view: CompareView | null } {
  const task = compareTasks.read(actor, taskId)
  return { status: task.status, context: task.context, view: task.result ?? null }
}
