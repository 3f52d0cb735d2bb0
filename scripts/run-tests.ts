// `npm test`: unit, API and browser tests on PGlite; with TEST_DATABASE_URL set, the API tests again on PostgreSQL.
// `npm test -- test/api/x.test.ts …` runs only the files named. Ends with one line "N passed, N failed" over every
// suite. Files run compiled (scripts/build-tests.ts) in a pool of plain node processes (scripts/test-pool.ts).
import { readdirSync } from 'node:fs'
import path from 'node:path'
import { prepareTemplates, type TestDriver } from '../test/helpers/database.ts'
import { buildIslandsIfStale } from './build-islands.ts'
import { buildTests, compiledTestFile } from './build-tests.ts'
import { runFiles, type FileResult } from './test-pool.ts'

interface SuiteResult { name: string; passed: number; failed: number; skipped: number; seconds: number }

/** The files that take minutes: started first, so that no long file is left running alone at the end. */
const LONGEST = ['test/api/app/authorization-matrix.test.ts', 'test/api/app/fuzz-routes.test.ts']

/** Every *.test.ts under `dir` (Node 20 has no fs.glob). */
function testFilesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => path.join(dir, f))
    .sort()
}

async function runSuite(name: string, files: string[], env: Record<string, string>): Promise<SuiteResult> {
  console.log(`\n=== ${name}: ${files.length} files ===`)
  const started = performance.now()
  const results: FileResult[] = await runFiles(files.map(compiledTestFile), {
    nodeArgs: ['--enable-source-maps'], env, first: LONGEST.map(compiledTestFile),
  })
  const sum = (key: 'passed' | 'failed' | 'skipped') => results.reduce((n, r) => n + r[key], 0)
  const seconds = (performance.now() - started) / 1000
  console.log(`# ${name}: ${sum('passed')} passed, ${sum('failed')} failed, ${sum('skipped')} skipped in ${seconds.toFixed(0)} s`)
  return { name, passed: sum('passed'), failed: sum('failed'), skipped: sum('skipped'), seconds }
}

async function main() {
  const named = process.argv.slice(2)
  const chosen = (files: string[]) => (named.length ? files.filter((f) => named.some((n) => path.normalize(n) === f)) : files)
  const withPostgres = Boolean(process.env.TEST_DATABASE_URL)
  const drivers: TestDriver[] = withPostgres ? ['pglite', 'postgres'] : ['pglite']
  await prepareTemplates(drivers)
  // Once here, so the browser test files never race to rebuild the bundles.
  await buildIslandsIfStale()
  await buildTests()

  const results: SuiteResult[] = []
  results.push(await runSuite('unit + api + browser (PGlite)', chosen(testFilesUnder('test')), { TEST_DRIVER: 'pglite' }))
  if (withPostgres) {
    results.push(await runSuite('api (PostgreSQL)', chosen(testFilesUnder('test/api')), { TEST_DRIVER: 'postgres' }))
  } else {
    console.log('\nTEST_DATABASE_URL is not set: the API tests ran on PGlite only (CI also runs them on PostgreSQL).')
  }

  console.log('')
  for (const r of results) console.log(`${r.name}: ${r.passed} passed, ${r.failed} failed, ${r.skipped} skipped (${r.seconds.toFixed(0)} s)`)
  const passed = results.reduce((n, r) => n + r.passed, 0)
  const failed = results.reduce((n, r) => n + r.failed, 0)
  const skipped = results.reduce((n, r) => n + r.skipped, 0)
  console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`)
  process.exit(failed > 0 || passed === 0 ? 1 : 0)
}

await main()
