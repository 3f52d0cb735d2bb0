// Job test helpers: waiting on a job's state (never on time), and test job kinds driven by the test.
import type { Db } from '../../src/db/client.ts'
import { findJob, type JobRow } from '../../src/db/queries/jobs.ts'

/** Polls `check` until it returns a value (not undefined), or fails after `timeoutMs`. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** Waits until the job's row satisfies `test`; returns that row. */
export function waitForJob(db: Db, id: number, test: (job: JobRow) => boolean, timeoutMs?: number): Promise<JobRow> {
  return waitFor(`job ${id}`, async () => {
    const job = await findJob(db, id)
    return job && test(job) ? job : undefined
  }, timeoutMs)
}

/** A promise the test resolves by hand: a handler awaits it to stay "running" until the test lets it go. */
export function gate(): { promise: Promise<void>; open(): void } {
  let open!: () => void
  const promise = new Promise<void>((resolve) => { open = resolve })
  return { promise, open }
}
