// Search benchmark (issue 6): 100,000 documents; server time of type-ahead searches (1–3 words, the last one a
// prefix being typed, some with one typo) through the search service on PGlite, and on PostgreSQL when
// TEST_DATABASE_URL is set. Targets: p95 < 30 ms embedded, < 20 ms on PostgreSQL.
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import postgres from 'postgres'
import { loadConfig } from '../../src/config.ts'
import { openDatabase, type Database } from '../../src/db/client.ts'
import type { Deps } from '../../src/services/context.ts'
import { DOCUMENTS, documents, loadLibrary, printTable, queries, QUERIES, runScenarios, WARMUP, type Row } from './search-library.ts'
import type { SearchDocument } from '../../src/search/types.ts'
import { dropDatabase } from '../../test/helpers/drop-database.ts'

async function bench(label: string, database: Database, docs: SearchDocument[], typed: string[]): Promise<Row[]> {
  await database.migrate()
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-search-'))
  const deps = { db: database.db, config: loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', SESSION_SECRET: 'x'.repeat(32) }) } as unknown as Deps
  try {
    const started = performance.now()
    await loadLibrary(database, deps, docs, label)
    console.log(`  ${label}: ${docs.length.toLocaleString('en')} documents indexed in ${((performance.now() - started) / 1000).toFixed(0)} s`)
    return await runScenarios(deps, label, typed)
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

const { docs } = documents()
const typed = queries(docs)
console.log(`search bench: ${DOCUMENTS.toLocaleString('en')} documents, ${QUERIES} type-ahead queries (after ${WARMUP} warm-up), e.g. ${typed.slice(WARMUP, WARMUP + 6).map((q) => JSON.stringify(q)).join(', ')}`)
const rows: Row[] = []

const pglite = await openDatabase({ kind: 'pglite' })
rows.push(...await bench('PGlite', pglite, docs, typed))
await pglite.close()

const url = process.env.TEST_DATABASE_URL
if (url) {
  const name = 'advice_studio_bench_search'
  const admin = postgres(url, { max: 1, onnotice: () => {} })
  await dropDatabase(admin, name)
  await admin.unsafe(`CREATE DATABASE ${name}`)
  const target = new URL(url)
  target.pathname = `/${name}`
  const pg = await openDatabase({ kind: 'postgres', url: target.toString() })
  try {
    rows.push(...await bench('PostgreSQL', pg, docs, typed))
  } finally {
    await pg.close()
    await dropDatabase(admin, name)
    await admin.end()
  }
} else {
  console.log('TEST_DATABASE_URL is not set: PostgreSQL skipped.')
}

printTable(rows)

