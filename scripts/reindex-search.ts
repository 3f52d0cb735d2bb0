// `npm run reindex`: indexes every live searchable entity again, with a progress bar, and removes what is gone
// (PostgreSQL full-text keeps answering searches meanwhile; Meilisearch, when MEILI_URL is set, is emptied first). Uses the same environment as `npm start`.
// The rebuild is the `search.reindex` job: this script enqueues it and works the queue until the job ends, so it
// runs exactly as when support starts it from /admin/support (and a crash midway is resumed by the next worker).
import path from 'node:path'
import { configOrExit } from '../src/config.ts'
import { embeddedDataDir, openDatabase } from '../src/db/client.ts'
import { findJob } from '../src/db/queries/jobs.ts'
import { JobQueue } from '../src/jobs/queue.ts'
import { createFileStore } from '../src/files/index.ts'
import { createMailer } from '../src/services/accounts/mailer.ts'
import { AllowList, createOutbound } from '../src/net/index.ts'
import { PROVIDER_OWNER_ID, type Deps } from '../src/services/context.ts'
import { REINDEX_JOB, registerReindexJob, searchRuntime } from '../src/services/search.ts'

const BAR_WIDTH = 30
const POLL_MS = 200

function progressBar(percent: number, text: string): string {
  const filled = Math.round((percent / 100) * BAR_WIDTH)
  return `[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${String(percent).padStart(3)}%  ${text}`
}

async function main() {
  const config = configOrExit()
  const database = await openDatabase(config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl } : { kind: 'pglite', dataDir: embeddedDataDir(config.dataDir) })
  await database.migrate()
  const jobs = new JobQueue(database.db, { info: () => {}, warn: (obj, msg) => console.warn(msg, obj), error: (obj, msg) => console.error(msg, obj) })
  const files = createFileStore(config)
  const deps: Deps = {
    db: database.db, config, jobs, files, outbound: createOutbound({ allow: new AllowList(config.outboundAllow) }),
    mailer: createMailer({ smtpUrl: config.smtpUrl, outboxDir: path.join(config.dataDir, 'outbox'), log: { info: () => {} } }),
  }
  registerReindexJob(deps)
  await jobs.start()
  const { index, indexName } = searchRuntime(deps)
  console.log(`Rebuilding the search index ${index.kind === 'meilisearch' ? `"${indexName}" on Meilisearch at ${config.meiliUrl}` : `in ${database.driver === 'pglite' ? `the embedded database (${config.dataDir})` : 'PostgreSQL'}`}`)
  const started = performance.now()
  const job = await jobs.enqueue(database.db, { kind: REINDEX_JOB, ownerId: PROVIDER_OWNER_ID, userId: null, subject: 'support', title: 'Rebuild the search index', payload: {} })
  const tty = process.stdout.isTTY
  let lastTenth = -1
  let row = job
  while (row.state === 'queued' || row.state === 'running') {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
    row = (await findJob(database.db, job.id))!
    if (tty) process.stdout.write(`\r${progressBar(row.progress, row.progressText)}`)
    else if (Math.floor(row.progress / 10) > lastTenth) { lastTenth = Math.floor(row.progress / 10); console.log(progressBar(row.progress, row.progressText)) }
  }
  if (tty) process.stdout.write('\n')
  await jobs.stop()
  if (row.state !== 'completed') {
    console.error(`The rebuild ${row.state}${row.error ? `: ${row.error}` : ''}`)
    await database.close()
    process.exit(1)
  }
  const stats = await index.stats()
  const count = (row.result as { documents: number }).documents
  console.log(`Indexed ${count.toLocaleString('en')} documents in ${((performance.now() - started) / 1000).toFixed(1)} s (job ${job.id}); the index holds ${stats.documents.toLocaleString('en')}.`)
  await files.close()
  await database.close()
}

await main()
