// A worker process for the jobs kill test (test/api/operations/jobs-kill.test.ts). Argument: a JSON object
// { pgliteDir? | url?, enqueue?: boolean, marks: file }. It opens the database, works the queue with one kind,
// `test.slow` (20 steps of real work, each announced on stdout as `step <jobId> <attempt> <n>`), and when told to,
// enqueues one such job first. A completed attempt appends `completed <jobId> <attempt>` to the marks file, prints
// `done <jobId>` and exits.
import { appendFileSync } from 'node:fs'
import { openDatabase } from '../../src/db/client.ts'
import { JobQueue } from '../../src/jobs/queue.ts'

const args = JSON.parse(process.argv[2]!) as { pgliteDir?: string; url?: string; enqueue?: boolean; ownerId: string; marks: string }
const database = await openDatabase(args.url ? { kind: 'postgres', url: args.url } : { kind: 'pglite', dataDir: args.pgliteDir! })
const quiet = { info: () => {}, warn: () => {}, error: (obj: object, msg: string) => console.error(msg, obj) }
const jobs = new JobQueue(database.db, quiet)
jobs.register('test.slow', async (_payload, { progress, job }) => {
  for (let step = 1; step <= 20; step++) {
    await progress(step * 5, `Step ${step}`)
    console.log(`step ${job.id} ${job.attempt} ${step}`)
    // The job's work: a little real time per step, so the test can kill the process midway.
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  appendFileSync(args.marks, `completed ${job.id} ${job.attempt}\n`)
  setImmediate(() => { console.log(`done ${job.id}`); void jobs.stop().then(() => database.close()).then(() => process.exit(0)) })
  return { steps: 20 }
}, { attempts: 3, retryDelaySeconds: 1 })
await jobs.start()
if (args.enqueue) {
  const job = await jobs.enqueue(database.db, { kind: 'test.slow', ownerId: args.ownerId, userId: null, title: 'Slow test job', payload: {} })
  console.log(`enqueued ${job.id}`)
}
console.log('ready')
