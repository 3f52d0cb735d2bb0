// `npm run reindex`: empties the search index (PostgreSQL full-text, or Meilisearch when MEILI_URL is set) and
// indexes every live searchable entity again, with a progress bar. Uses the same environment as `npm start`.
import path from 'node:path'
import { ConfigError, loadConfig } from '../src/config.ts'
import { embeddedDataDir, openDatabase } from '../src/db/client.ts'
import { createFileStore } from '../src/files/index.ts'
import { createMailer } from '../src/services/accounts/mailer.ts'
import { reindexAll, searchRuntime } from '../src/services/search.ts'

const BAR_WIDTH = 30

function progressBar(done: number, total: number): string {
  const share = total === 0 ? 1 : done / total
  const filled = Math.round(share * BAR_WIDTH)
  return `[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${String(Math.floor(share * 100)).padStart(3)}%  ${done.toLocaleString('en')} / ${total.toLocaleString('en')} documents`
}

async function main() {
  let config
  try {
    config = loadConfig()
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    for (const problem of error.problems) console.error(`config: ${problem}`)
    process.exit(1)
  }
  const database = await openDatabase(config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl } : { kind: 'pglite', dataDir: embeddedDataDir(config.dataDir) })
  await database.migrate()
  const files = createFileStore(config)
  const deps = { db: database.db, config, files, mailer: createMailer({ smtpUrl: config.smtpUrl, outboxDir: path.join(config.dataDir, 'outbox'), log: { info: () => {} } }) }
  const { index, indexName } = searchRuntime(deps)
  console.log(`Rebuilding the search index ${index.kind === 'meilisearch' ? `"${indexName}" on Meilisearch at ${config.meiliUrl}` : `in ${database.driver === 'pglite' ? `the embedded database (${config.dataDir})` : 'PostgreSQL'}`}`)
  const started = performance.now()
  const tty = process.stdout.isTTY
  let lastTenth = -1
  const count = await reindexAll(deps, (done, total) => {
    if (tty) {
      process.stdout.write(`\r${progressBar(done, total)}`)
      return
    }
    const tenth = total === 0 ? 10 : Math.floor((done / total) * 10)
    if (tenth > lastTenth) { lastTenth = tenth; console.log(progressBar(done, total)) }
  })
  if (tty) process.stdout.write('\n')
  const stats = await index.stats()
  console.log(`Indexed ${count.toLocaleString('en')} documents in ${((performance.now() - started) / 1000).toFixed(1)} s; the index holds ${stats.documents.toLocaleString('en')}.`)
  await files.close()
  await database.close()
}

await main()
