// The review gate's coverage (issue 14 part 7): the share of the version's generated branches that the set's saved
// scenarios reach, and the branches none reaches (each with "Save as scenario"). A version never changes, so its
// branches are generated once and kept (per app, the last CACHED_VERSIONS versions); the scenarios are run again on
// every look, as they change. A version with more paths than a request should walk (branches.ts DIRECT_PATHS) is
// generated as a background task of the branch tools, started by the reviewer (a GET never starts work), with its
// progress on the page; until then the page says how many paths there are to examine.
import type { AdviceSetRow } from '../../db/queries/advice-sets.ts'
import { findScenariosOfSet } from '../../db/queries/scenarios.ts'
import { findVersion } from '../../db/queries/versions.ts'
import { branchCoverage, type CoverageRun } from '../../engine/index.ts'
import type { Actor, Deps } from '../context.ts'
import { NotFoundError } from '../errors.ts'
import { apiIdsOf } from '../integrations/api-runtime.ts'
import { MAX_BRANCH_LIMIT } from '../scenarios/branch-requests.ts'
import type { TaskStatus } from '../scenarios/branch-task.ts'
import type { BranchRow } from '../scenarios/branch-view.ts'
import { generateSetBranches, generationTask, type BranchesView } from '../scenarios/branches.ts'
import { compileSource, runAnswers, scenarioMoment } from '../scenarios/runs.ts'
import { teamSet } from './versions.ts'

const CACHED_VERSIONS = 20
/** Branches not reached listed on the page (all are counted). */
const LISTED_UNREACHED = 200

const generated = new Map<number, BranchesView>()
/** The background generation a person started for a version: `${versionId}:${userId}` → task id. */
const running = new Map<string, string>()

function remember(versionId: number, view: BranchesView): void {
  generated.delete(versionId)
  generated.set(versionId, view)
  if (generated.size > CACHED_VERSIONS) generated.delete(generated.keys().next().value!)
}

function recall(versionId: number): BranchesView | undefined {
  const view = generated.get(versionId)
  if (view) remember(versionId, view)
  return view
}

export type CoverageView =
  | {
    state: 'ready'
    /** Generated branches (up to the limit), and how many the scenarios reach. */
    total: number; reached: number; percent: number
    /** Paths of the version, and a note when the generation stopped at the limit. */
    paths: number; truncated: string | null
    scenarios: number
    unreached: BranchRow[]; unreachedCount: number
  }
  /** Too large to generate while the page waits: nothing started yet. */
  | { state: 'pending'; paths: number; examined: number }
  | { state: 'running' | 'cancelled' | 'failed'; task: TaskStatus }

async function readTask(deps: Deps, actor: Actor, taskId: string) {
  try {
    return await generationTask(deps, actor, taskId)
  } catch (error) {
    if (error instanceof NotFoundError) return undefined
    throw error
  }
}

/** The version's generated branches: kept, just generated, or the task that generates them (started only if `start`). */
async function branchesOf(deps: Deps, actor: Actor, set: AdviceSetRow, versionId: number, start: boolean): Promise<BranchesView | Exclude<CoverageView, { state: 'ready' }>> {
  const kept = recall(versionId)
  if (kept) return kept
  const key = `${versionId}:${actor.userId}`
  const taskId = running.get(key)
  // A finished task is kept for 30 minutes only: one forgotten since is as if never started.
  const task = taskId === undefined ? undefined : await readTask(deps, actor, taskId)
  if (taskId !== undefined && !task) running.delete(key)
  if (task) {
    if (task.view) {
      running.delete(key)
      remember(versionId, task.view)
      return task.view
    }
    if (task.status.state === 'running' || !start) return { state: task.status.state === 'done' ? 'failed' : task.status.state, task: task.status }
    running.delete(key)
  }
  const outcome = await generateSetBranches(deps, actor, { adviceSetId: set.id, source: String(versionId), limit: MAX_BRANCH_LIMIT, directOnly: !start })
  if (outcome.view) {
    remember(versionId, outcome.view)
    return outcome.view
  }
  if (outcome.pending) return { state: 'pending', paths: outcome.pending.total, examined: outcome.pending.examined }
  running.set(key, outcome.task.id)
  return { state: 'running', task: outcome.task }
}

/** How the set's live scenarios run on the version, as coverage reads them: their answers, or (with API calls) their traces. */
async function scenarioRuns(deps: Deps, set: AdviceSetRow, versionId: number) {
  const source = await compileSource(deps.db, set, versionId)
  const scenarios = await findScenariosOfSet(deps.db, set.id)
  const now = new Date()
  if (apiIdsOf(source.compiled).length === 0) {
    return { compiled: source.compiled, runs: scenarios.map((s): CoverageRun => ({ inputs: s.inputs, now: scenarioMoment(s, now) })) }
  }
  const runs: CoverageRun[] = []
  for (const s of scenarios) runs.push({ trace: (await runAnswers(deps, set.ownerId, source.compiled, s, { now, trace: true })).trace ?? [] })
  return { compiled: source.compiled, runs }
}

/** The version page's coverage; `start` starts the background generation of a large version. */
export async function versionCoverage(deps: Deps, actor: Actor, adviceSetId: number, versionId: number, opts: { start?: boolean } = {}): Promise<CoverageView> {
  const set = await teamSet(deps.db, actor, adviceSetId)
  const version = await findVersion(deps.db, versionId)
  if (!version || version.adviceSetId !== set.id) throw new NotFoundError('No version with this id in this advice set')
  const branches = await branchesOf(deps, actor, set, version.id, opts.start === true)
  if (!('branches' in branches)) return branches
  const { compiled, runs } = await scenarioRuns(deps, set, version.id)
  const coverage = branchCoverage(compiled, branches.branches, runs)
  const unreached = branches.branches.filter((_, i) => coverage.reachedBy[i]!.length === 0)
  return {
    state: 'ready', total: coverage.total, reached: coverage.reached, percent: Math.floor(coverage.ratio * 1000) / 10,
    paths: branches.total, truncated: branches.truncated, scenarios: runs.length,
    unreached: unreached.slice(0, LISTED_UNREACHED), unreachedCount: unreached.length,
  }
}
