// "Run all" as a job on the durable queue (src/jobs): the batch of runs.ts (slices that yield to the event loop, each
// slice's rows stored in one statement) with its progress reported to the job's row, which the page's jobs panel
// shows; cancel stops it at the next slice and keeps what already ran. Rights are checked when it is started and
// again when it runs, as the person who started it.
import { findUserById } from '../../db/queries/users.ts'
import { actorForUser } from '../accounts/users.ts'
import { audit } from '../audit/audit.ts'
import type { Actor, Deps } from '../context.ts'
import { getJob, type JobView } from '../operations/jobs.ts'
import { executePlan, planRun, type RunCounts, type RunRequest } from './runs.ts'

export const RUN_ALL_JOB = 'scenarios.run-all'

/** The subject of a set's scenario jobs: the scenario list shows their progress. */
export function scenarioJobSubject(adviceSetId: number): string {
  return `adviceset:${adviceSetId}:scenarios`
}

export function runProgressLine(done: number, total: number, counts: RunCounts): string {
  return `${done} of ${total} scenarios run · ${counts.pass} passed, ${counts.fail} failed, ${counts.error} could not run`
}

export function registerRunAllJob(deps: Deps): void {
  deps.jobs.register<RunRequest>(RUN_ALL_JOB, async (request, { progress, signal, job }) => {
    const user = job.userId === null ? undefined : await findUserById(deps.db, job.userId)
    if (!user) throw new Error('The person who started this run no longer has an account.')
    const actor = actorForUser(user)
    const batch = await executePlan(deps, actor, await planRun(deps, actor, request), {
      onProgress: (done, total, counts) => progress(total === 0 ? 100 : (done / total) * 100, runProgressLine(done, total, counts)),
      isCancelled: () => signal.aborted,
    })
    return { adviceSetId: request.adviceSetId, source: batch.source.label, total: batch.results.length, counts: batch.counts }
  }, { attempts: 2 })
}

/**
 * Starts running one, several or all scenarios of a set in the background. What the run needs is checked now (rights,
 * the scenarios, the source), so a bad request fails at once; the answer is the job as /api/job shows it.
 */
export async function startRunAllJob(deps: Deps, actor: Actor, request: RunRequest): Promise<JobView> {
  const plan = await planRun(deps, actor, request)
  const set = plan.set
  const on = plan.source.versionId === null ? 'the draft' : plan.source.label
  const row = await deps.db.transaction(async (tx) => {
    const job = await deps.jobs.enqueue(tx, {
      kind: RUN_ALL_JOB, ownerId: set.ownerId, userId: actor.userId, subject: scenarioJobSubject(set.id),
      title: `Run ${plan.scenarios.length} scenario${plan.scenarios.length === 1 ? '' : 's'} of “${set.nameAlt || set.name}” on ${on}`,
      payload: { adviceSetId: set.id, source: request.source, ...(request.scenarioIds ? { scenarioIds: request.scenarioIds } : {}) } satisfies RunRequest,
    })
    await audit(tx, actor, { ownerId: set.ownerId, action: 'create', entityType: 'job', entityId: job.id, after: { kind: RUN_ALL_JOB, adviceSetId: set.id } })
    return job
  })
  return getJob(deps, actor, row.id)
}
