// `npm test`: unit, API and browser tests on PGlite; with TEST_DATABASE_URL set, the API tests again on PostgreSQL.
// Ends with one line "N passed, N failed" over every suite.
import { spawn } from 'node:child_process'
import { readdirSync } from 'node:fs'
import path from 'node:path'
import { prepareTemplates, type TestDriver } from '../test/helpers/database.ts'
import { buildIslandsIfStale } from './build-islands.ts'

interface SuiteResult { name: string; passed: number; failed: number; exitCode: number }

const SUMMARY = /^# \{ total: (\d+), pass: (\d+)(?:, fail: (\d+))?/m

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
      const summaries = [...output.matchAll(new RegExp(SUMMARY, 'gm'))]
      const last = summaries.at(-1)
      const total = last ? Number(last[1]) : 0
      const passed = last ? Number(last[2]) : 0
      const failed = last ? Number(last[3] ?? total - passed) : 0
      // A suite that crashed before reporting counts as one failure, never as a pass.
      resolve({ name, passed, failed: code !== 0 && failed === 0 ? 1 : failed, exitCode: code ?? 1 })
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
  for (const r of results) console.log(`${r.name}: ${r.passed} passed, ${r.failed} failed`)
  const passed = results.reduce((n, r) => n + r.passed, 0)
  const failed = results.reduce((n, r) => n + r.failed, 0)
  console.log(`${passed} passed, ${failed} failed`)
  process.exit(failed > 0 || results.some((r) => r.exitCode !== 0) ? 1 : 0)
}

await main()
