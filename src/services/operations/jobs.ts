// Jobs as users see them (SPEC §7 `job`, `job/{id}/cancel`): their own jobs, and for admins their owner's (provider
// admins: every owner's); the jobs panel's props; the download a finished job left. The queue itself is src/jobs.
import { readJobFile } from '../../jobs/job-files.ts'
import { ACTIVE_JOB_STATES, findJob, findJobFile, listJobs, requestJobCancel, type JobRow } from '../../db/queries/jobs.ts'
import type { JobState } from '../../db/schema/index.ts'
import { audit } from '../audit/audit.ts'
import { isProviderAdmin, type Actor, type Deps } from '../context.ts'
import { ConflictError, NotFoundError } from '../errors.ts'

export interface JobView {
  id: number
  kind: string
  title: string
  subject: string | null
  state: JobState
  progress: number
  progressText: string
  result: unknown
  error: string | null
  attempt: number
  maxAttempts: number
  startedBy: string | null
  createdAt: string
  startedAt: string | null
  finishedAt: string | null
  /** Shown while the job may still be cancelled. */
  cancellable: boolean
}

function viewOf(job: JobRow, startedBy: string | null = null): JobView {
  return {
    id: job.id, kind: job.kind, title: job.title, subject: job.subject, state: job.state, progress: job.progress,
    progressText: job.progressText, result: job.result, error: job.error, attempt: job.attempt, maxAttempts: job.maxAttempts,
    startedBy, createdAt: job.createdAt.toISOString(), startedAt: job.startedAt?.toISOString() ?? null,
    finishedAt: job.finishedAt?.toISOString() ?? null,
    cancellable: (ACTIVE_JOB_STATES as string[]).includes(job.state) && job.cancelRequestedAt === null,
  }
}

/** The starter, admins of the job's owner, provider admins. Others get a 404: the job's existence is not told. */
function canSeeJob(actor: Actor, job: JobRow): boolean {
  return job.userId === actor.userId || isProviderAdmin(actor) || (actor.role === 'admin' && job.ownerId === actor.ownerId)
}

async function visibleJob(deps: Deps, actor: Actor, id: number): Promise<JobRow> {
  const job = await findJob(deps.db, id)
  if (!job || !canSeeJob(actor, job)) throw new NotFoundError('No job with this id')
  return job
}

export const JOB_LIST_LIMIT = 50

export interface JobListFilter { subject?: string; active?: boolean }

/** The actor's own jobs, newest first; `all` adds the jobs admins may see (their owner's, or every owner's). */
export async function listMyJobs(deps: Deps, actor: Actor, filter: JobListFilter & { all?: boolean } = {}): Promise<JobView[]> {
  const ownerIds = !filter.all || actor.role !== 'admin' ? undefined : isProviderAdmin(actor) ? null : [actor.ownerId]
  const rows = await listJobs(deps.db, {
    userId: actor.userId, ownerIds, subject: filter.subject, states: filter.active ? ACTIVE_JOB_STATES : undefined, limit: JOB_LIST_LIMIT,
  })
  return rows.map((r) => viewOf(r.job, r.userName))
}

export async function getJob(deps: Deps, actor: Actor, id: number): Promise<JobView> {
  return viewOf(await visibleJob(deps, actor, id))
}

/** A queued job is cancelled at once; a running one stops within a second (its worker checks). Audited. */
export async function cancelJob(deps: Deps, actor: Actor, id: number): Promise<JobView> {
  const job = await visibleJob(deps, actor, id)
  return deps.db.transaction(async (tx) => {
    const cancelled = await requestJobCancel(tx, id)
    if (!cancelled) throw new ConflictError('id', `This job has already ${job.state === 'completed' ? 'completed' : job.state === 'failed' ? 'failed' : 'been cancelled'}.`)
    await audit(tx, actor, { ownerId: job.ownerId, action: 'update', entityType: 'job', entityId: id, before: { state: job.state }, after: { state: cancelled.state, cancelRequested: true } })
    return viewOf(cancelled)
  })
}

/** The file a finished job made (an export), for whoever may see the job. */
export async function jobDownload(deps: Deps, actor: Actor, id: number) {
  await visibleJob(deps, actor, id)
  const file = await findJobFile(deps.db, id)
  if (!file) throw new NotFoundError('This job has no file to download.')
  return { name: file.name, contentType: file.contentType, size: file.size, stream: readJobFile(deps.db, id) }
}

/**
 * Props of the jobs panel (islands/jobs-panel) for a page that starts jobs: the actor's jobs about `subject` that
 * are running, or finished in the last hour (so a finished export's download is still there after a reload).
 */
export async function jobsPanel(deps: Deps, actor: Actor, subject: string): Promise<{ subject: string; jobs: JobView[] }> {
  const hourAgo = Date.now() - 60 * 60 * 1000
  const jobs = (await listMyJobs(deps, actor, { subject }))
    .filter((j) => (ACTIVE_JOB_STATES as string[]).includes(j.state) || Date.parse(j.finishedAt ?? j.createdAt) > hourAgo)
    .slice(0, 10)
  return { subject, jobs }
}
