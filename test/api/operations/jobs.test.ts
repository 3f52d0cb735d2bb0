// The job queue through /api/job: who sees and cancels which job, progress, cancel within a second, retries with
// backoff, failure after the last attempt, and two workers never running one job.
import t from 'tap'
import { eq, sql } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { gate, waitForJob } from '../../helpers/jobs.ts'
import { activity, jobFileChunks } from '../../../src/db/schema/index.ts'
import { JOB_FILE_CHUNK_BYTES } from '../../../src/jobs/job-files.ts'
import { JobQueue } from '../../../src/jobs/queue.ts'
import { rowsOf } from '../../../src/db/queries/rule-nodes.ts'

const gates = new Map<number, ReturnType<typeof gate>>()
// The job and the test may reach a gate in either order: whoever comes first creates it.
function gateOf(jobId: number) {
  let g = gates.get(jobId)
  if (!g) { g = gate(); gates.set(jobId, g) }
  return g
}
let flakyFailures = 0

const { app, database } = await buildTestApp(t, {}, {
  beforeReady: (app) => {
    const jobs = app.deps.jobs
    jobs.register<{ steps: number }>('test.gated', async (payload, { progress, job }) => {
      await progress(10, 'Waiting for the test')
      await gateOf(job.id).promise
      for (let step = 1; step <= payload.steps; step++) await progress(10 + (90 * step) / payload.steps, `Step ${step} of ${payload.steps}`)
      return { steps: payload.steps }
    })
    jobs.register('test.until-cancelled', async (_payload, { progress, signal }) => {
      await progress(5, 'Working until cancelled')
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }))
      return null
    })
    jobs.register('test.flaky', async (_payload, { job }) => {
      if (job.attempt === 1) { flakyFailures++; throw new Error('The first attempt always fails') }
      return { attempt: job.attempt }
    }, { attempts: 3, retryDelaySeconds: 1 })
    jobs.register('test.broken', async () => { throw new Error('Nothing works') }, { attempts: 1 })
    jobs.register<{ pieces: number }>('test.file', async (payload, { saveFile }) => {
      // Pieces of 100,000 bytes, each of its own digit, so a chunk out of order or lost shows.
      const content = (async function* pieces() { for (let i = 0; i < payload.pieces; i++) yield String(i % 10).repeat(100_000) })()
      return saveFile({ name: 'big.txt', contentType: 'text/plain', content })
    })
    jobs.register<{ calls: number }>('test.chatty', async (payload, { progress }) => {
      for (let n = 1; n <= payload.calls; n++) await progress((n / payload.calls) * 99, `${n} of ${payload.calls} rows`)
      return { calls: payload.calls }
    })
  },
})
const db = database.db
const provider = await createOwner(db, { id: 'TF', name: 'Advice Studio' })
const providerAdmin = await createUser(db, { ownerId: provider, role: 'admin' })
const acme = await createOwner(db, { name: 'Acme' })
const starter = await createUser(db, { ownerId: acme, role: 'author' })
const teammate = await createUser(db, { ownerId: acme, role: 'author' })
const acmeAdmin = await createUser(db, { ownerId: acme, role: 'admin' })
const stranger = await createUser(db, { role: 'admin' })
const agents = {
  starter: await signedInAgent(app, starter),
  teammate: await signedInAgent(app, teammate),
  acmeAdmin: await signedInAgent(app, acmeAdmin),
  providerAdmin: await signedInAgent(app, providerAdmin),
  stranger: await signedInAgent(app, stranger),
}

function enqueue(kind: string, payload: object = {}, subject = 'test:1') {
  return app.deps.jobs.enqueue(db, { kind, ownerId: acme, userId: starter.id, subject, title: `A ${kind} job`, payload })
}

t.test('a job is seen by its starter, its owner’s admins and provider admins; others get 404', async (t) => {
  const job = await enqueue('test.gated', { steps: 4 })
  await waitForJob(db, job.id, (j) => j.state === 'running' && j.progress === 10)
  for (const who of ['starter', 'acmeAdmin', 'providerAdmin'] as const) {
    const res = await agents[who].api('GET', `/api/job/${job.id}`)
    t.equal(res.statusCode, 200, `${who} reads the job`)
    t.match(res.json().data, { id: job.id, state: 'running', progress: 10, progressText: 'Waiting for the test', title: 'A test.gated job', cancellable: true })
  }
  for (const who of ['teammate', 'stranger'] as const) {
    const res = await agents[who].api('GET', `/api/job/${job.id}`)
    t.equal(res.statusCode, 404, `${who} is not told the job exists`)
    t.notMatch(res.body, 'test.gated')
    t.equal((await agents[who].api('POST', `/api/job/${job.id}/cancel`)).statusCode, 404, `${who} cannot cancel it`)
  }
  const mine = (await agents.starter.api('GET', '/api/job?state=active')).json().data
  t.same(mine.map((j: { id: number }) => j.id), [job.id], 'the starter lists it among their active jobs')
  t.same((await agents.teammate.api('GET', '/api/job')).json().data, [], 'a teammate lists none')
  t.same((await agents.acmeAdmin.api('GET', '/api/job')).json().data, [], 'an admin’s own list holds only their jobs …')
  t.equal((await agents.acmeAdmin.api('GET', '/api/job?scope=all')).json().data.length, 1, '… and scope=all adds the team’s')
  t.same((await agents.stranger.api('GET', '/api/job?scope=all')).json().data, [], 'another owner’s admin sees none of them')
  t.equal((await agents.providerAdmin.api('GET', '/api/job?scope=all')).json().data.length, 1)

  gateOf(job.id).open()
  const done = await waitForJob(db, job.id, (j) => j.state === 'completed')
  t.equal(done.progress, 100)
  t.same(done.result, { steps: 4 })
  t.equal(done.attempt, 1)
  const res = (await agents.starter.api('GET', `/api/job/${job.id}`)).json().data
  t.match(res, { state: 'completed', progress: 100, cancellable: false, result: { steps: 4 } })
  t.equal((await agents.starter.api('POST', `/api/job/${job.id}/cancel`)).statusCode, 409, 'a finished job cannot be cancelled')
})

t.test('cancel stops a running job within a second, and is audited', async (t) => {
  const job = await enqueue('test.until-cancelled')
  await waitForJob(db, job.id, (j) => j.state === 'running' && j.progress === 5)
  const asked = Date.now()
  const res = await agents.starter.api('POST', `/api/job/${job.id}/cancel`)
  t.equal(res.statusCode, 200)
  t.match(res.json().data, { state: 'running', progressText: 'Cancelling', cancellable: false })
  const cancelled = await waitForJob(db, job.id, (j) => j.state === 'cancelled', 1_000)
  t.ok(Date.now() - asked < 1_000, `stopped ${Date.now() - asked} ms after the request`)
  t.equal(cancelled.progressText, 'Cancelled')
  const [row] = await db.select().from(activity).where(eq(activity.entityType, 'job'))
  t.match(row, { actorId: starter.id, action: 'update', entityId: String(job.id), after: { cancelRequested: true } })
})

t.test('a queued job cancelled before it runs never runs', async (t) => {
  const blocker1 = await enqueue('test.gated', { steps: 1 })
  const blocker2 = await enqueue('test.gated', { steps: 1 })
  await waitForJob(db, blocker1.id, (j) => j.state === 'running')
  await waitForJob(db, blocker2.id, (j) => j.state === 'running')
  const job = await enqueue('test.gated', { steps: 1 })
  const res = await agents.acmeAdmin.api('POST', `/api/job/${job.id}/cancel`)
  t.equal(res.statusCode, 200, 'an admin of the owner may cancel a teammate’s job')
  t.equal(res.json().data.state, 'cancelled')
  gateOf(blocker1.id).open()
  gateOf(blocker2.id).open()
  await waitForJob(db, blocker2.id, (j) => j.state === 'completed')
  await waitForJob(db, blocker1.id, (j) => j.state === 'completed')
  // Both workers are free again; the cancelled job's delivery must find it cancelled and not start it.
  const after = await enqueue('test.gated', { steps: 1 })
  await waitForJob(db, after.id, (j) => j.state === 'running')
  gateOf(after.id).open()
  await waitForJob(db, after.id, (j) => j.state === 'completed')
  const still = await waitForJob(db, job.id, (j) => j.state === 'cancelled')
  t.equal(still.attempt, 0, 'no attempt of the cancelled job was started')
  t.notOk(gates.has(job.id))
})

t.test('a failing attempt is retried with backoff; the last failure fails the job with its message', async (t) => {
  const flaky = await enqueue('test.flaky')
  const done = await waitForJob(db, flaky.id, (j) => j.state === 'completed')
  t.equal(done.attempt, 2)
  t.same(done.result, { attempt: 2 })
  t.equal(done.error, null)
  t.equal(flakyFailures, 1)
  const broken = await enqueue('test.broken')
  const failed = await waitForJob(db, broken.id, (j) => j.state === 'failed')
  t.equal(failed.error, 'Nothing works')
  t.equal(failed.attempt, 1, 'a kind with one attempt is not retried')
  const res = (await agents.starter.api('GET', `/api/job/${broken.id}`)).json().data
  t.match(res, { state: 'failed', error: 'Nothing works', cancellable: false })
})

t.test('two workers on one database never run the same job', async (t) => {
  const ranBy = new Map<number, string[]>()
  const second = new JobQueue(db, app.log)
  const handler = (worker: string) => async (_p: unknown, { job, progress }: { job: { id: number }; progress: (n: number) => Promise<void> }) => {
    ranBy.set(job.id, [...(ranBy.get(job.id) ?? []), worker])
    await progress(50)
    return { worker }
  }
  app.deps.jobs.register('test.count', handler('first'))
  second.register('test.count', handler('second'))
  await second.start()
  t.teardown(() => second.stop())
  const ids = []
  for (let i = 0; i < 30; i++) ids.push((await enqueue('test.count')).id)
  for (const id of ids) await waitForJob(db, id, (j) => j.state === 'completed')
  t.same(ids.filter((id) => ranBy.get(id)?.length !== 1), [], 'every job ran exactly once')
  const workers = new Set([...ranBy.values()].flat())
  t.ok(workers.size >= 1, `ran on: ${[...workers].join(', ')}`)
})

t.test('a job’s file bigger than a chunk is kept in chunks and downloaded whole, in order', async (t) => {
  const pieces = Math.ceil((2.5 * JOB_FILE_CHUNK_BYTES) / 100_000)
  const job = await enqueue('test.file', { pieces })
  await waitForJob(db, job.id, (j) => j.state === 'completed')
  const chunks = await db.select({ seq: jobFileChunks.seq }).from(jobFileChunks).where(eq(jobFileChunks.jobId, job.id)).orderBy(jobFileChunks.seq)
  t.same(chunks.map((c) => c.seq), [0, 1, 2], 'three chunks')
  const res = await agents.starter.request({ method: 'GET', url: `/api/job/${job.id}/download` })
  t.equal(res.statusCode, 200)
  t.equal(res.headers['content-length'], String(pieces * 100_000))
  t.match(res.headers['content-disposition'], /attachment; filename="big.txt"/)
  const body = res.rawPayload
  t.equal(body.length, pieces * 100_000)
  const wrong = Array.from({ length: pieces }, (_, i) => i).filter((i) => body.subarray(i * 100_000, (i + 1) * 100_000).toString() !== String(i % 10).repeat(100_000))
  t.same(wrong, [], 'every piece in its place')
  t.equal((await agents.stranger.request({ method: 'GET', url: `/api/job/${job.id}/download` })).statusCode, 404, 'others get 404')
})

t.test('progress that counts rows at every call is written a few times, not at every call', async (t) => {
  // Each write of a new line is counted by a trigger made for this test.
  await db.execute(sql`create table progress_writes (job_id bigint not null)`)
  await db.execute(sql`create function count_progress_write() returns trigger language plpgsql as $$ begin insert into progress_writes values (new.id); return new; end $$`)
  await db.execute(sql`create trigger count_progress_write after update of progress_text on jobs for each row when (old.progress_text is distinct from new.progress_text) execute function count_progress_write()`)
  t.teardown(async () => {
    await db.execute(sql`drop trigger count_progress_write on jobs`)
    await db.execute(sql`drop function count_progress_write()`)
    await db.execute(sql`drop table progress_writes`)
  })
  const job = await enqueue('test.chatty', { calls: 2_000 })
  const done = await waitForJob(db, job.id, (j) => j.state === 'completed')
  t.equal(done.progress, 100)
  const writes = Number(rowsOf(await db.execute(sql`select count(*)::int as n from progress_writes where job_id = ${job.id}`))[0]!.n)
  t.ok(writes < 100, `2,000 calls, ${writes} writes of the line`)
})

t.test('bad ids are named', async (t) => {
  const res = await agents.starter.api('GET', '/api/job/abc')
  t.equal(res.statusCode, 400)
  t.match(res.json().error, { message: 'Invalid item id format.' })
  t.equal((await agents.starter.api('GET', '/api/job?state=done')).statusCode, 400)
})
