// `npm test`: unit, API and browser tests on PGlite; with TEST_DATABASE_URL set, the API tests again on PostgreSQL.
// Ends with one line "N passed, N failed" over every suite.
import { spawn } from 'node:child_process'
import { readdirSync } from 'node:fs'
import path from 'node:path'
import { prepareTemplates, type TestDriver } from '../test/helpers/database.ts'
import { buildIslandsIfStale } from './build-islands.ts'

interface SuiteResult { name: string; passed: number; failed: number; skipped: number; exitCode: number }

/** tap's closing line, e.g. `# { total: 12, pass: 10, fail: 1, skip: 1 }`. */
const SUMMARY = /^# \{ (total: \d+(?:, \w+: \d+)*) \}/gm

function countsOf(summary: string): Record<string, number> {
  return Object.fromEntries(summary.split(', ').map((pair) => {
    const [key, value] = pair.split(': ')
    return [key!, Number(value)]
  }))
}

/** Every *.test.ts under `dir` (Node 20 has no fs.glob). */
function testFilesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => path.join(dir, f))
    .sort()
}

function runTap(name: string, testFiles: string[], env: Record<string, string>): Promise<SuiteResult> {
  return new Promise((resolve) => {
    console.log(`\n=== ${name}: ${testFiles.length} files ===`)
    const child = spawn('npx', ['tap', ...process.argv.slice(2), ...testFiles], {
      env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'],
    })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => { output += chunk; process.stdout.write(chunk) })
    child.on('close', (code) => {
      const last = [...output.matchAll(SUMMARY)].at(-1)
      const counts = last ? countsOf(last[1]!) : {}
      const passed = counts.pass ?? 0
      const failed = counts.fail ?? 0
      const skipped = counts.skip ?? 0
      // A suite that crashed before reporting counts as one failure, never as a pass.
      resolve({ name, passed, failed: code !== 0 && failed === 0 ? 1 : failed, skipped, exitCode: code ?? 1 })
    })
  })
}

async function main() {
  const withPostgres = Boolean(process.env.TEST_DATABASE_URL)
  const drivers: TestDriver[] = withPostgres ? ['pglite', 'postgres'] : ['pglite']
  await prepareTemplates(drivers)
  // Once here, so the browser test files never race to rebuild the bundles.
  await buildIslandsIfStale()

  const results: SuiteResult[] = []
  results.push(await runTap('unit + api + browser (PGlite)', testFilesUnder('test'), { TEST_DRIVER: 'pglite' }))
  if (withPostgres) {
    results.push(await runTap('api (PostgreSQL)', testFilesUnder('test/api'), { TEST_DRIVER: 'postgres' }))
  } else {
    console.log('\nTEST_DATABASE_URL is not set: the API tests ran on PGlite only (CI also runs them on PostgreSQL).')
  }

  console.log('')
  for (const r of results) console.log(`${r.name}: ${r.passed} passed, ${r.failed} failed, ${r.skipped} skipped`)
  const passed = results.reduce((n, r) => n + r.passed, 0)
  const failed = results.reduce((n, r) => n + r.failed, 0)
  const skipped = results.reduce((n, r) => n + r.skipped, 0)
  console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`)
  process.exit(failed > 0 || results.some((r) => r.exitCode !== 0) ? 1 : 0)
}

await main()
