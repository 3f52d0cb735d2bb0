import { and, desc, eq, inArray, isNotNull, or, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { jobFileChunks, jobFiles, jobs, users, type JobState } from '../schema/index.ts'

export type JobRow = typeof jobs.$inferSelect
export const ACTIVE_JOB_STATES: JobState[] = ['queued', 'running']

export async function insertJob(db: Db, p: {
  kind: string; ownerId: string; userId: number | null; subject: string | null; title: string; payload: unknown; maxAttempts: number
}): Promise<JobRow> {
  const [row] = await db.insert(jobs).values(p).returning()
  return row!
}

export async function setBossJobId(db: Db, id: number, bossJobId: string): Promise<void> {
  await db.update(jobs).set({ bossJobId }).where(eq(jobs.id, id))
}

/** pg-boss ids of the jobs shown as running: in embedded mode, at start, those are the ones a dead process left. */
export async function runningBossJobIds(db: Db): Promise<string[]> {
  const rows = await db.select({ bossJobId: jobs.bossJobId }).from(jobs).where(and(eq(jobs.state, 'running'), isNotNull(jobs.bossJobId)))
  return rows.map((r) => r.bossJobId!)
}

export async function findJob(db: Db, id: number): Promise<JobRow | undefined> {
  const [row] = await db.select().from(jobs).where(eq(jobs.id, id)).limit(1)
  return row
}

export interface JobListParams {
  /** Jobs started by this user … */
  userId?: number
  /** … or, for admins, anyone's in these owners (null: every owner). */
  ownerIds?: string[] | null
  subject?: string
  states?: JobState[]
  limit: number
}

export async function listJobs(db: Db, p: JobListParams) {
  const who: SQL[] = []
  if (p.userId !== undefined) who.push(eq(jobs.userId, p.userId))
  if (p.ownerIds === null) who.push(sql`true`)
  else if (p.ownerIds && p.ownerIds.length > 0) who.push(inArray(jobs.ownerId, p.ownerIds))
  return db.select({ job: jobs, userName: users.name }).from(jobs).leftJoin(users, eq(users.id, jobs.userId))
    .where(and(
      who.length > 0 ? or(...who) : sql`false`,
      p.subject !== undefined ? eq(jobs.subject, p.subject) : undefined,
      p.states ? inArray(jobs.state, p.states) : undefined,
    ))
    .orderBy(desc(jobs.createdAt), desc(jobs.id)).limit(p.limit)
}

/**
 * Starts attempt `attempt` of a job that is still queued or running (a running one whose worker died). Returns
 * the row, or undefined when the job already finished (a retry delivered after the completion was written) or
 * was cancelled: then the attempt must not run.
 */
export async function beginJobAttempt(db: Db, id: number, attempt: number): Promise<JobRow | undefined> {
  const [row] = await db.update(jobs)
    .set({ state: 'running', attempt, startedAt: sql`coalesce(${jobs.startedAt}, now())`, updatedAt: new Date(), progressText: sql`case when ${jobs.attempt} > 0 then 'Starting again' else 'Starting' end` })
    .where(and(eq(jobs.id, id), inArray(jobs.state, ACTIVE_JOB_STATES), sql`${jobs.cancelRequestedAt} is null`))
    .returning()
  return row
}

/** Progress of the running attempt only; false when another attempt took the job over (or it was cancelled). */
export async function updateJobProgress(db: Db, id: number, attempt: number, progress: number, text: string): Promise<boolean> {
  const rows = await db.update(jobs).set({ progress, progressText: text, updatedAt: new Date() })
    .where(and(eq(jobs.id, id), eq(jobs.attempt, attempt), eq(jobs.state, 'running')))
    .returning({ id: jobs.id })
  return rows.length === 1
}

/** Ends the job from its running attempt; false when that attempt no longer holds it, so nothing was written. */
export async function finishJob(db: Db, id: number, attempt: number, p: { state: JobState; result?: unknown; error?: string | null; progress?: number; progressText?: string }): Promise<boolean> {
  const terminal = p.state === 'completed' || p.state === 'failed' || p.state === 'cancelled'
  const rows = await db.update(jobs).set({
    state: p.state,
    ...(p.result !== undefined ? { result: p.result } : {}),
    ...(p.error !== undefined ? { error: p.error } : {}),
    ...(p.progress !== undefined ? { progress: p.progress } : {}),
    ...(p.progressText !== undefined ? { progressText: p.progressText } : {}),
    finishedAt: terminal ? new Date() : null,
    updatedAt: new Date(),
  }).where(and(eq(jobs.id, id), eq(jobs.attempt, attempt), eq(jobs.state, 'running'))).returning({ id: jobs.id })
  return rows.length === 1
}

/** A queued job is cancelled at once; a running one is asked to stop (its worker sees it within a second). */
export async function requestJobCancel(db: Db, id: number): Promise<JobRow | undefined> {
  const [row] = await db.update(jobs).set({
    cancelRequestedAt: sql`coalesce(${jobs.cancelRequestedAt}, now())`,
    state: sql`case when ${jobs.state} = 'queued' then 'cancelled'::job_state else ${jobs.state} end`,
    finishedAt: sql`case when ${jobs.state} = 'queued' then now() else ${jobs.finishedAt} end`,
    progressText: sql`case when ${jobs.state} = 'queued' then 'Cancelled' else 'Cancelling' end`,
    updatedAt: new Date(),
  }).where(and(eq(jobs.id, id), inArray(jobs.state, ACTIVE_JOB_STATES))).returning()
  return row
}

/** Ends as cancelled a job someone asked to cancel while its worker was gone (no attempt will ever see the request). */
export async function settleCancelledJob(db: Db, id: number): Promise<void> {
  await db.update(jobs).set({ state: 'cancelled', progressText: 'Cancelled', finishedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(jobs.id, id), inArray(jobs.state, ACTIVE_JOB_STATES), isNotNull(jobs.cancelRequestedAt)))
}

/** Of these job ids, the ones someone asked to cancel. */
export async function cancelRequestedJobIds(db: Db, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return []
  const rows = await db.select({ id: jobs.id }).from(jobs).where(and(inArray(jobs.id, ids), isNotNull(jobs.cancelRequestedAt)))
  return rows.map((r) => r.id)
}

/** Forgets what an earlier attempt of the job wrote of its file, before this one writes it again. */
export async function deleteJobFile(db: Db, jobId: number): Promise<void> {
  await db.delete(jobFiles).where(eq(jobFiles.jobId, jobId))
  await db.delete(jobFileChunks).where(eq(jobFileChunks.jobId, jobId))
}

export async function insertJobFileChunk(db: Db, p: { jobId: number; seq: number; bytes: Buffer }): Promise<void> {
  await db.insert(jobFileChunks).values(p)
}

/** The file's name, type and size, once all its chunks are written: a download finds it only then. */
export async function insertJobFile(db: Db, p: { jobId: number; name: string; contentType: string; size: number }): Promise<void> {
  await db.insert(jobFiles).values(p)
}

export async function findJobFile(db: Db, jobId: number) {
  const [row] = await db.select().from(jobFiles).where(eq(jobFiles.jobId, jobId)).limit(1)
  return row
}

/** The file's bytes from chunk `seq`, or undefined past its last. */
export async function findJobFileChunk(db: Db, jobId: number, seq: number): Promise<Buffer | undefined> {
  const [row] = await db.select({ bytes: jobFileChunks.bytes }).from(jobFileChunks).where(and(eq(jobFileChunks.jobId, jobId), eq(jobFileChunks.seq, seq)))
  return row?.bytes
}

/** The last job of this kind about `subject` that completed, whoever started it (a replay at the review gate). */
export async function findLatestCompletedJob(db: Db, kind: string, subject: string): Promise<JobRow | undefined> {
  const [row] = await db.select().from(jobs)
    .where(and(eq(jobs.kind, kind), eq(jobs.subject, subject), eq(jobs.state, 'completed')))
    .orderBy(desc(jobs.finishedAt), desc(jobs.id)).limit(1)
  return row
}
