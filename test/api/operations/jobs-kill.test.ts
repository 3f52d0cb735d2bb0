// A worker process SIGKILLed in the middle of a job: after a restart the job runs again and completes exactly once.
import t from 'tap'
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { openDatabase, type Database } from '../../../src/db/client.ts'
import { findJob } from '../../../src/db/queries/jobs.ts'
import { createOwner } from '../../helpers/factories.ts'
import { openTestDatabase, testDriver } from '../../helpers/database.ts'

const CHILD = path.resolve(import.meta.dirname, '../../helpers/jobs-child.ts')
const dir = mkdtempSync(path.join(os.tmpdir(), 'jobs-kill-'))
const marks = path.join(dir, 'marks.txt')
writeFileSync(marks, '')
t.teardown(() => rmSync(dir, { recursive: true, force: true }))

interface Worker { child: ChildProcess; lines: string[]; waitForLine(test: RegExp): Promise<RegExpMatchArray>; exited: Promise<number | null> }

function startWorker(args: object): Worker {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, JSON.stringify(args)], { stdio: ['ignore', 'pipe', 'inherit'] })
  const lines: string[] = []
  const waiters: Array<{ test: RegExp; resolve: (m: RegExpMatchArray) => void }> = []
  createInterface({ input: child.stdout! }).on('line', (line) => {
    lines.push(line)
    for (const w of [...waiters]) {
      const m = w.test.exec(line)
      if (m) { waiters.splice(waiters.indexOf(w), 1); w.resolve(m) }
    }
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return {
    child, lines, exited,
    waitForLine: (test) => {
      const seen = lines.map((l) => test.exec(l)).find(Boolean)
      return seen ? Promise.resolve(seen) : new Promise((resolve, reject) => {
        waiters.push({ test, resolve })
        void exited.then((code) => reject(new Error(`worker exited (${code}) before printing ${test}`)))
      })
    },
  }
}

// The database both worker processes use: a PGlite data directory (one process at a time, as in embedded mode)
// or a PostgreSQL database.
let target: { pgliteDir?: string; url?: string }
let pgDatabase: (Database & { url?: string }) | undefined
let ownerId: string
if (testDriver() === 'postgres') {
  pgDatabase = await openTestDatabase()
  target = { url: pgDatabase.url }
  ownerId = await createOwner(pgDatabase.db, { name: 'Acme' })
  t.teardown(() => pgDatabase!.close())
} else {
  const template = await openTestDatabase()
  const pgliteDir = path.join(dir, 'pglite')
  const dumped = await template.dump!()
  await template.close()
  const seeded = await openDatabase({ kind: 'pglite', dataDir: pgliteDir, loadDataDir: dumped })
  ownerId = await createOwner(seeded.db, { name: 'Acme' })
  await seeded.close()
  target = { pgliteDir }
}

t.test('the job finishes after the restart, exactly once', async (t) => {
  const first = startWorker({ ...target, ownerId, marks, enqueue: true })
  const [, jobId] = (await first.waitForLine(/^enqueued (\d+)$/))
  await first.waitForLine(new RegExp(`^step ${jobId} 1 5$`))
  first.child.kill('SIGKILL')
  t.equal(await first.exited, null, 'the first worker was killed')
  t.notMatch(readFileSync(marks, 'utf8'), 'completed', 'it did not get to the end')

  const second = startWorker({ ...target, ownerId, marks })
  await second.waitForLine(new RegExp(`^done ${jobId}$`))
  t.equal(await second.exited, 0)
  t.ok(second.lines.includes(`step ${jobId} 2 1`), 'the second attempt ran the job from its start')
  t.equal(readFileSync(marks, 'utf8'), `completed ${jobId} 2\n`, 'one completion, by the second attempt')

  const database = pgDatabase ?? await openDatabase({ kind: 'pglite', dataDir: target.pgliteDir! })
  const job = await findJob(database.db, Number(jobId))
  if (!pgDatabase) await database.close()
  t.match(job, { state: 'completed', attempt: 2, progress: 100, result: { steps: 20 } })
})
