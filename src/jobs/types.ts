// What a job kind's handler sees, and what other domains pass to enqueue one (README "Adding a job kind").
import type { JobFileContent } from './job-files.ts'

export interface JobContext {
  /**
   * Reports progress: a percentage 0–100 and a line of text for the jobs panel. Writes are spaced out, so call it
   * as often as is natural. It throws once the job was cancelled (or another worker took it over), so a handler
   * that reports progress stops by itself.
   */
  progress(percent: number, text?: string): Promise<void>
  /** Aborted when someone cancels the job, the app shuts down, or this worker lost the job to another one. */
  signal: AbortSignal
  job: { id: number; ownerId: string; userId: number | null; attempt: number; maxAttempts: number }
  /**
   * Keeps a file with the job for download (an export); the job's result links to it. The content is written as it
   * comes (src/jobs/job-files.ts), so a stream of any length is never held whole.
   */
  saveFile(file: JobFileContent): Promise<{ downloadUrl: string }>
}

/** Returns the job's result (JSON: shown to the user, e.g. counts or a download link). */
export type JobHandler<P> = (payload: P, context: JobContext) => Promise<unknown>

export interface JobKindOptions {
  /** Attempts in all before the job is failed (1: never retried). Default 3. */
  attempts?: number
  /** First retry delay in seconds; doubled on each retry. Default 2. */
  retryDelaySeconds?: number
}

export interface EnqueueRequest<P> {
  kind: string
  ownerId: string
  /** Who started it (null: the server on its own). */
  userId: number | null
  /** What it is about (e.g. `adviceset:12`): pages about that thing list its jobs. */
  subject?: string | null
  /** A short line for people: "Export of questions (XLSX)". */
  title: string
  payload: P
}

/** Thrown inside a handler (by progress()) once its job must stop. */
export class JobAbortedError extends Error {
  override name = 'JobAbortedError'
}
