// Replay at the review gate and on the compare page (issue 27 point 3): the published version's recorded answers run
// on a version under review, or on the working draft (decisions/replay-batch.ts). The gate shows the latest replay a
// job made for that target (up to REPLAY_MAX answers, with progress, cancellable), else replays the last
// REPLAY_DEFAULT answers while the page is made; an approval weighs the same replay, and changed outcomes need the
// same explicit confirmation as failing scenarios.
import type { AdviceSetRow } from '../../db/queries/advice-sets.ts'
import { findLatestCompletedJob } from '../../db/queries/jobs.ts'
import { findUserById } from '../../db/queries/users.ts'
import type { VersionRow } from '../../db/queries/versions.ts'
import { actorForUser } from '../accounts/users.ts'
import { audit } from '../audit/audit.ts'
import type { Actor, Deps } from '../context.ts'
import { ConflictError, ValidationError } from '../errors.ts'
import { getJob, jobsPanel, type JobView } from '../operations/jobs.ts'
import { compileSource, type CompiledSource } from '../scenarios/runs.ts'
import { publishedOf, replayRecorded, REPLAY_DEFAULT, REPLAY_MAX, type ReplaySummary } from '../decisions/replay-batch.ts'
import { teamSet } from './versions.ts'

export const REPLAY_JOB = 'decisions.replay'

export type ReplayTargetId = number | 'draft'

interface ReplayPayload { adviceSetId: number; target: ReplayTargetId; limit: number }

/** The page that shows a target's replay: the version's review gate, or the compare page for the draft. */
export function replayPage(adviceSetId: number, target: ReplayTargetId): string {
  return target === 'draft' ? `/adviceset/${adviceSetId}/advicescenario/gen-branches/compare#replay` : `/adviceset/${adviceSetId}/publish/versions/${target}#replay`
}

/** The subject of a target's replay jobs: the page that shows the replay shows their progress. */
export function replaySubject(adviceSetId: number, target: ReplayTargetId): string {
  return target === 'draft' ? `adviceset:${adviceSetId}:replay:draft` : `adviceset:${adviceSetId}:replay:version:${target}`
}

export interface GateReplay {
  summary: ReplaySummary
  /** The summary is a job's (its size chosen), not the default replay made for the page. */
  fromJob: boolean
  subject: string
}

/** What an approval records of the replay. */
export interface ReplayReview { replayed: number; changed: number; notReplayable: number }

function countOf(raw: unknown): number {
  const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim().replace(/[,\s]/g, '') : ''
  const n = Number(text)
  if (!/^\d+$/.test(text) || n < 1 || n > REPLAY_MAX) {
    throw new ValidationError('count', `count: give a whole number of recorded answers from 1 to ${REPLAY_MAX.toLocaleString('en-GB')}.`)
  }
  return n
}

/**
 * The replay to show for `target`: the latest one a job completed against the version published now, else the last
 * REPLAY_DEFAULT recorded answers replayed now (nothing stored). Null when nothing is published, or `target` is the
 * published version itself.
 */
export async function gateReplay(deps: Deps, set: AdviceSetRow, target: CompiledSource, published?: VersionRow | null): Promise<GateReplay | null> {
  const baseline = published === undefined ? await publishedOf(deps, set) : published
  if (!baseline || baseline.id === target.versionId) return null
  const subject = replaySubject(set.id, target.versionId ?? 'draft')
  const job = await findLatestCompletedJob(deps.db, REPLAY_JOB, subject)
  const stored = job?.result as ReplaySummary | null | undefined
  // A draft changes after its replay: a job's replay of the draft is kept only while nothing was published since.
  if (stored && stored.baseline.versionId === baseline.id) return { summary: stored, fromJob: true, subject }
  return { summary: await replayRecorded(deps, set, baseline, target), fromJob: false, subject }
}

/** The compare page's replay: the published version's recorded answers on the working draft, for the set's team. */
export async function draftReplay(deps: Deps, actor: Actor, adviceSetId: number): Promise<{ replay: GateReplay | null; jobs: Awaited<ReturnType<typeof jobsPanel>> }> {
  const set = await teamSet(deps.db, actor, adviceSetId)
  const [replay, jobs] = await Promise.all([gateReplay(deps, set, await compileSource(deps.db, set, 'draft')), jobsPanel(deps, actor, replaySubject(set.id, 'draft'))])
  return { replay, jobs }
}

/** What a replay the actor asks for runs: the set, its published version and the target; 409 when there is none to run. */
async function replayPlan(deps: Deps, actor: Actor, adviceSetId: number, target: ReplayTargetId) {
  const set = await teamSet(deps.db, actor, adviceSetId)
  const baseline = await publishedOf(deps, set)
  if (!baseline) throw new ConflictError('target', 'Nothing is published yet: there are no recorded answers to replay.')
  const source = await compileSource(deps.db, set, target)
  if (source.versionId === baseline.id) throw new ConflictError('target', 'This is the published version: its recorded answers were made by it.')
  return { set, baseline, source }
}

/** A replay while the caller waits (up to REPLAY_DEFAULT answers): the API's replay without a job. */
export async function replayNow(deps: Deps, actor: Actor, adviceSetId: number, target: ReplayTargetId, limit: number): Promise<ReplaySummary> {
  const { set, baseline, source } = await replayPlan(deps, actor, adviceSetId, target)
  return replayRecorded(deps, set, baseline, source, { limit })
}

export function replayReview(replay: GateReplay | null): ReplayReview | null {
  if (!replay) return null
  const { replayed, changed, notReplayable } = replay.summary
  return { replayed, changed, notReplayable }
}

export function registerReplayJob(deps: Deps): void {
  deps.jobs.register<ReplayPayload>(REPLAY_JOB, async (payload, { progress, signal, job }) => {
    const user = job.userId === null ? undefined : await findUserById(deps.db, job.userId)
    if (!user) throw new Error('The person who started this replay no longer has an account.')
    const set = await teamSet(deps.db, actorForUser(user), payload.adviceSetId)
    const baseline = await publishedOf(deps, set)
    if (!baseline) throw new Error('Nothing is published any more: there are no recorded answers to replay against.')
    const target = await compileSource(deps.db, set, payload.target)
    const summary = await replayRecorded(deps, set, baseline, target, {
      limit: payload.limit,
      onProgress: (done, total) => progress(total === 0 ? 100 : (done / total) * 100, `${done.toLocaleString('en-GB')} of ${total.toLocaleString('en-GB')} recorded answers replayed`),
      isCancelled: () => signal.aborted,
    })
    return { ...summary, resultUrl: replayPage(set.id, payload.target) }
  }, { attempts: 2 })
}

/** Starts replaying up to `count` recorded answers of the published version on `target`, as a job. */
export async function startReplayJob(deps: Deps, actor: Actor, adviceSetId: number, target: ReplayTargetId, rawCount: unknown): Promise<JobView> {
  const limit = rawCount === undefined || rawCount === '' ? REPLAY_DEFAULT : countOf(rawCount)
  const { set, baseline, source } = await replayPlan(deps, actor, adviceSetId, target)
  const row = await deps.db.transaction(async (tx) => {
    const job = await deps.jobs.enqueue(tx, {
      kind: REPLAY_JOB, ownerId: set.ownerId, userId: actor.userId, subject: replaySubject(set.id, target),
      title: `Replay up to ${limit.toLocaleString('en-GB')} recorded answers of version ${baseline.number} on ${target === 'draft' ? 'the working draft' : source.label.toLowerCase()}`,
      payload: { adviceSetId: set.id, target, limit } satisfies ReplayPayload,
    })
    await audit(tx, actor, { ownerId: set.ownerId, action: 'create', entityType: 'job', entityId: job.id, after: { kind: REPLAY_JOB, adviceSetId: set.id, target, limit } })
    return job
  })
  return getJob(deps, actor, row.id)
}
