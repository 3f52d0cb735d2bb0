// `npm test`: unit, API and browser tests on PGlite; with TEST_DATABASE_URL set, the API tests again on PostgreSQL.
// `npm test -- test/api/x.test.ts …` runs only the files named. Ends with one line "N passed, N failed" over every
// suite. Files run compiled (scripts/build-tests.ts) in a pool of plain node processes (scripts/test-pool.ts).
import { readdirSync } from 'node:fs'
import path from 'node:path'
import { prepareTemplates, type TestDriver } from '../test/helpers/database.ts'
import { buildIslandsIfStale } from './build-islands.ts'
import { buildTests, compiledTestFile } from './build-tests.ts'
import { runFiles, type FileResult } from './test-pool.ts'

interface SuiteResult { name: string; passed: number; failed: number; skipped: number; seconds: number; wall: number }

/** The files that take minutes: started first, so that no long file is left running alone at the end. */
const LONGEST = ['test/api/app/authorization-matrix.test.ts', 'test/api/app/fuzz-routes.test.ts']

/** Every *.test.ts under `dir` (Node 20 has no fs.glob). */
function testFilesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => path.join(dir, f))
    .sort()
}

interface Suite { name: string; files: string[]; env: Record<string, string> }

/**
 * V8 settings for short processes on a machine whose cores are all busy (CI: 2 cores, 2 test processes at a time).
 * - --liftoff-only: each process would otherwise compile PGlite's hot WebAssembly again with the optimising
 *   compiler, in background threads that compete with the tests; a process lives seconds to minutes, too short for
 *   that to pay back.
 * - --single-threaded-gc: parallel GC helpers only take cores from the other test process.
 * Measured side by side on this machine (12 API files on both databases): 119 and 139 s of wall time without them,
 * 106 and 106 s with them; the authorization matrix's PGlite rows: 87 s of CPU → 78 s.
 * - test/helpers/without-async-domains.ts: tap's per-test async hook, about a seventh of an API file's CPU (it says why
 *   errors still fail their file).
 */
const TEST_NODE_ARGS = ['--enable-source-maps', '--liftoff-only', '--single-threaded-gc', '--import', `./${compiledTestFile('test/helpers/without-async-domains.ts')}`]

/**
 * The order files start in: the longest first (the matrix and the fuzz, then the browser tests, seconds to a minute
 * each), the many short ones after, the unit tests last; the suites' files interleaved, so that both databases' long
 * files are under way early and no suite leaves a long file running alone at the end.
 */
function startOrder(file: string): number {
  if (LONGEST.includes(file)) return 0
  if (file.startsWith('test/e2e/')) return 1
  if (file.startsWith('test/unit/')) return 3
  return 2
}

/** Every suite's files in one pool: a file of one suite runs beside a file of the other, with its own environment. */
async function runSuites(suites: Suite[]): Promise<SuiteResult[]> {
  console.log(`\n=== ${suites.map((s) => `${s.name}: ${s.files.length} files`).join('; ')} ===`)
  const started = performance.now()
  const items = suites.flatMap((suite) => suite.files.map((file, i) => ({ file, suite, i })))
    .sort((a, b) => startOrder(a.file) - startOrder(b.file) || a.i - b.i)
    .map(({ file, suite }) => ({ file: compiledTestFile(file), suite: suite.name, env: suite.env }))
  const results: FileResult[] = await runFiles(items, { nodeArgs: TEST_NODE_ARGS })
  const seconds = (performance.now() - started) / 1000
  return suites.map((suite) => {
    const mine = results.filter((r) => r.suite === suite.name)
    const sum = (key: 'passed' | 'failed' | 'skipped') => mine.reduce((n, r) => n + r[key], 0)
    // The suites share the pool's time: each one's seconds are the time its files ran, summed over the jobs.
    const busy = mine.reduce((n, r) => n + r.ms, 0) / 1000
    console.log(`# ${suite.name}: ${sum('passed')} passed, ${sum('failed')} failed, ${sum('skipped')} skipped; ${busy.toFixed(0)} s of file time`)
    return { name: suite.name, passed: sum('passed'), failed: sum('failed'), skipped: sum('skipped'), seconds: busy, wall: seconds }
  })
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

  const suites: Suite[] = [{ name: 'unit + api + browser (PGlite)', files: chosen(testFilesUnder('test')), env: { TEST_DRIVER: 'pglite' } }]
  if (withPostgres) suites.push({ name: 'api (PostgreSQL)', files: chosen(testFilesUnder('test/api')), env: { TEST_DRIVER: 'postgres' } })
  const results = await runSuites(suites)
  if (!withPostgres) console.log('\nTEST_DATABASE_URL is not set: the API tests ran on PGlite only (CI also runs them on PostgreSQL).')

  console.log('')
  for (const r of results) console.log(`${r.name}: ${r.passed} passed, ${r.failed} failed, ${r.skipped} skipped (${r.seconds.toFixed(0)} s of file time)`)
  console.log(`all suites together: ${results[0]!.wall.toFixed(0)} s`)
  const passed = results.reduce((n, r) => n + r.passed, 0)
  const failed = results.reduce((n, r) => n + r.failed, 0)
  const skipped = results.reduce((n, r) => n + r.skipped, 0)
  console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`)
  process.exit(failed > 0 || passed === 0 ? 1 : 0)
}

await main()
