import { pgTable, text, timestamp, bigserial, bigint, integer, jsonb, index, pgEnum, customType, primaryKey } from 'drizzle-orm/pg-core'
import { owners } from './owners.ts'
import { users } from './users.ts'

export const jobState = pgEnum('job_state', ['queued', 'running', 'completed', 'failed', 'cancelled'])
export type JobState = (typeof jobState.enumValues)[number]

/**
 * What users see of the durable queue (src/jobs): one row per job with its owner, progress, result or error.
 * pg-boss delivers the work (claiming, retries with backoff, recovery after a crash); this row is the product's
 * record of it and the fence that lets exactly one attempt finish it (`attempt`).
 */
export const jobs = pgTable('jobs', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  kind: text('kind').notNull(),
  ownerId: text('owner_id').notNull().references(() => owners.id),
  /** Who started it; null for jobs the server starts on its own. */
  userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
  /** What the job is about, e.g. `adviceset:12`: pages about that thing show its jobs. */
  subject: text('subject'),
  /** A short line for people: "Export of questions (XLSX)". */
  title: text('title').notNull(),
  payload: jsonb('payload').notNull().default({}),
  state: jobState('state').notNull().default('queued'),
  progress: integer('progress').notNull().default(0),
  progressText: text('progress_text').notNull().default(''),
  result: jsonb('result'),
  error: text('error'),
  /** Attempts started so far; the running attempt's number fences progress and completion writes. */
  attempt: integer('attempt').notNull().default(0),
  maxAttempts: integer('max_attempts').notNull(),
  /** The job's id in pg-boss (its delivery). */
  bossJobId: text('boss_job_id'),
  cancelRequestedAt: timestamp('cancel_requested_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  startedAt: timestamp('started_at', { withTimezone: true }),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  index('jobs_user_idx').on(t.userId, t.createdAt),
  index('jobs_owner_idx').on(t.ownerId, t.createdAt),
  index('jobs_subject_idx').on(t.subject, t.createdAt),
])

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.isBuffer(value) ? value : Buffer.from(value),
})

/**
 * Files a job made for download (an export), kept with the job and removed with it: the name and type here, the
 * bytes in order in job_file_chunks. An export of a million decision records is most of a gigabyte, more than one
 * bytea value or one Node.js string may hold; written and read a chunk at a time, neither end holds it whole.
 */
export const jobFiles = pgTable('job_files', {
  jobId: bigint('job_id', { mode: 'number' }).primaryKey().references(() => jobs.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  contentType: text('content_type').notNull(),
  size: bigint('size', { mode: 'number' }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
})

export const jobFileChunks = pgTable('job_file_chunks', {
  jobId: bigint('job_id', { mode: 'number' }).notNull().references(() => jobs.id, { onDelete: 'cascade' }),
  seq: integer('seq').notNull(),
  bytes: bytea('bytes').notNull(),
}, (t) => [primaryKey({ columns: [t.jobId, t.seq] })])
