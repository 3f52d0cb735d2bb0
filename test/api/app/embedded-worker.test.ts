// The embedded database as `npm start` runs it: PGlite on a worker thread, reached over the wire protocol with
// postgres.js (src/db/embedded-server/). On a data directory the last release made in-process, the app answers the
// Advice API and records the decision (written by the worker), its search index follows writes (NOTIFY over the one
// connection), its job queue runs jobs (pg-boss over that connection), and a dead worker is reported, not waited on.
import t from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { count, eq, sql } from 'drizzle-orm'
import { testDriver } from '../../helpers/database.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { waitFor, waitForJob } from '../../helpers/jobs.ts'
import { openDatabase } from '../../../src/db/client.ts'
import { startEmbeddedServer } from '../../../src/db/embedded-server/host.ts'
import { decisionRecords, owners, searchIndexTasks } from '../../../src/db/schema/index.ts'
import { rowsOf } from '../../../src/db/queries/rule-nodes.ts'
import { loadConfig } from '../../../src/config.ts'
import { buildApp } from '../../../src/app.ts'
import { seedFirstRun } from '../../../src/services/library/demo.ts'
import { DEMO_QUESTION } from '../../../src/services/library/demo-delivery.ts'

if (testDriver() === 'postgres') {
  t.plan(0, 'the embedded database only: PostgreSQL is a server already')
} else {
  t.test('a data directory of the last release, served from the worker thread', async (t) => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'advice-studio-worker-'))
    const pgliteDir = path.join(dataDir, 'pglite')
    t.teardown(() => rmSync(dataDir, { recursive: true, force: true }))

    // The last release opened the same directory in-process.
    const before = await openDatabase({ kind: 'pglite', dataDir: pgliteDir })
    await before.migrate()
    const earlier = await createOwner(before.db, { name: 'Made before the upgrade' })
    await before.close()

    const crashes: Error[] = []
    const database = await openDatabase({ kind: 'pglite-worker', dataDir: pgliteDir, onCrash: (reason) => crashes.push(reason) })
    await database.migrate()
    const db = database.db
    t.equal((await db.select().from(owners).where(eq(owners.id, earlier)))[0]?.name, 'Made before the upgrade', 'what the last release wrote is there')
    // PGlite's default of 128 MB held 100 MB more of the process's memory (pglite-client.ts).
    t.same(rowsOf(await db.execute(sql`select current_setting('shared_buffers') as size`)), [{ size: '32MB' }], 'a 32 MB buffer cache')

    const app = await buildApp({ config: loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), db, logger: false })
    app.deps.jobs.register<{ word: string }>('test.echo', async (payload) => ({ echoed: payload.word }))
    await app.ready()
    let closed = false
    const close = async () => {
      if (closed) return
      closed = true
      await app.close()
      await database.close()
    }
    t.teardown(close)

    const { served } = await seedFirstRun(app.deps, { demo: true })
    t.ok(served, 'the demo set is published with a production key')
    const query = new URLSearchParams(Object.entries(DEMO_QUESTION).map(([k, v]) => [k, String(v)])).toString()
    const answer = await app.inject({ method: 'GET', url: `/api/advice/${served!.adviceSetId}?${query}`, headers: { authorization: `Bearer ${served!.secret}` } })
    t.equal(answer.statusCode, 200, 'the Advice API answers')
    const decisionId = answer.headers['decision-id']
    t.type(decisionId, 'string', 'with a Decision-Id')
    await app.partner.recorder.flush()
    const [record] = await db.select().from(decisionRecords).where(eq(decisionRecords.id, String(decisionId)))
    t.equal(record?.adviceSetId, served!.adviceSetId, 'the record was written by the worker and reads back over the connection')

    // The demo content left index tasks; only a notification (or a retry much later) has them applied.
    await waitFor('the search index tasks to be applied', async () => {
      const [left] = await db.select({ n: count() }).from(searchIndexTasks)
      return left!.n === 0 ? true : undefined
    })
    t.pass('the search index followed the writes')

    const owner = await createOwner(db)
    const user = await createUser(db, { ownerId: owner, role: 'author' })
    const job = await app.deps.jobs.enqueue(db, { kind: 'test.echo', ownerId: owner, userId: user.id, subject: 'test:1', title: 'An echo', payload: { word: 'hello' } })
    const done = await waitForJob(db, job.id, (j) => j.state === 'completed' || j.state === 'failed')
    t.equal(done.state, 'completed', 'a job ran through pg-boss over the one connection')
    t.same(done.result, { echoed: 'hello' })
    t.equal((await db.select({ n: count() }).from(owners))[0]!.n >= 2, true, 'the connection is still fine')

    await close()
    t.same(crashes, [], 'closed without a crash')
  })

  t.test('a worker that dies is reported once, and what waited on it fails', async (t) => {
    const crashes: Error[] = []
    const server = await startEmbeddedServer(undefined, (reason) => crashes.push(reason))
    const stopped = new Promise((resolve) => server.worker.once('exit', resolve))
    await server.worker.terminate()
    await stopped
    await waitFor('the crash to be reported', () => (crashes.length > 0 ? true : undefined))
    t.equal(crashes.length, 1)
    t.match(crashes[0]!.message, /the embedded database stopped unexpectedly/)
    await t.rejects(server.copyDecisionRecords('[]'), /the embedded database has stopped/, 'a write after the crash fails at once')
  })
}
