// The review gate's coverage (issue 14 part 7, issue 23 defect 1): how much of the version's generated branches the
// set's saved scenarios reach, told two ways (scenarios/coverage.ts: outcome branches and advice items), the branches
// none reaches (each with "Save as scenario"), and the branches that end in an error (a problem the gate counts). A
// version never changes, so its branches are generated once and kept (per app, the last CACHED_VERSIONS versions);
// the scenarios are run again on every look, as they change. A version with more paths than a request should walk
// (branches.ts DIRECT_PATHS) is generated as a background task of the branch tools, started by the reviewer (a GET
// never starts work), with its progress on the page; until then the page says how many paths there are to examine.
import type { AdviceSetRow } from '../../db/queries/advice-sets.ts'
import { findVersion } from '../../db/queries/versions.ts'
import type { Actor, Deps } from '../context.ts'
import { NotFoundError } from '../errors.ts'
import { MAX_BRANCH_LIMIT } from '../scenarios/branch-requests.ts'
import type { TaskStatus } from '../scenarios/branch-task.ts'
import type { BranchRow } from '../scenarios/branch-view.ts'
import { generateSetBranches, generationTask, type BranchesView, type GenerateOutcome } from '../scenarios/branches.ts'
import { scenarioCoverage, type CoverageSummary } from '../scenarios/coverage.ts'
import { compileSource } from '../scenarios/runs.ts'
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
    /** Outcome branches (up to the limit) and advice items, and how many the scenarios reach. */
    coverage: Omit<CoverageSummary, 'reached'>
    /** Paths of the version, and a note when the generation stopped at the limit. */
    paths: number; truncated: string | null
    /** Outcome branches no scenario reaches (the first LISTED_UNREACHED), and how many there are. */
    unreached: BranchRow[]; unreachedCount: number
    /** Branches that only end in an error: problems of the version. */
    errorBranches: BranchRow[]
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
/** Direct generations under way, by version: the version page's gate and coverage ask at once and share one. */
const generating = new Map<number, Promise<GenerateOutcome>>()

function directGeneration(deps: Deps, actor: Actor, set: AdviceSetRow, versionId: number): Promise<GenerateOutcome> {
  let outcome = generating.get(versionId)
  if (outcome === undefined) {
    outcome = generateSetBranches(deps, actor, { adviceSetId: set.id, source: String(versionId), limit: MAX_BRANCH_LIMIT, directOnly: true })
    generating.set(versionId, outcome)
    const forget = () => generating.delete(versionId)
    outcome.then(forget, forget)
  }
  return outcome
}

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
  const outcome = await (start ? generateSetBranches(deps, actor, { adviceSetId: set.id, source: String(versionId), limit: MAX_BRANCH_LIMIT }) : directGeneration(deps, actor, set, versionId))
  if (outcome.view) {
    remember(versionId, outcome.view)
    return outcome.view
  }
  if (outcome.pending) return { state: 'pending', paths: outcome.pending.total, examined: outcome.pending.examined }
  running.set(key, outcome.task.id)
  return { state: 'running', task: outcome.task }
}

/** The version page's coverage; `start` starts the background generation of a large version. */
export async function versionCoverage(deps: Deps, actor: Actor, adviceSetId: number, versionId: number, opts: { start?: boolean } = {}): Promise<CoverageView> {
  const set = await teamSet(deps.db, actor, adviceSetId)
  const version = await findVersion(deps.db, versionId)
  if (!version || version.adviceSetId !== set.id) throw new NotFoundError('No version with this id in this advice set')
  const branches = await branchesOf(deps, actor, set, version.id, opts.start === true)
  if (!('branches' in branches)) return branches
  const { compiled } = await compileSource(deps.db, set, version.id)
  const { reached, ...coverage } = await scenarioCoverage(deps, set, compiled, branches.branches)
  const unreached = branches.branches.filter((branch, i) => !reached[i] && branch.kind !== 'prefix')
  return {
    state: 'ready', coverage, paths: branches.total, truncated: branches.truncated,
    unreached: unreached.slice(0, LISTED_UNREACHED), unreachedCount: unreached.length,
    errorBranches: branches.branches.filter((branch) => branch.kind === 'error'),
  }
}

/**
 * How many of the version's generated branches end in an error, for the approval's review: from the generation kept
 * or made now when the version is small enough; null when it is too large and nobody has generated it yet.
 */
export async function versionErrorBranches(deps: Deps, actor: Actor, set: AdviceSetRow, versionId: number): Promise<number | null> {
  const branches = await branchesOf(deps, actor, set, versionId, false)
  return 'branches' in branches ? branches.branches.filter((branch) => branch.kind === 'error').length : null
}
