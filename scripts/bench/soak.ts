// Soak (issue 18 point 5): the Advice API flat out for 60 s (autocannon, its own process) while 10 authors edit rules
// of the same advice set through the HTTP API (their own process: signed in, CSRF token, PATCH a node's headline,
// now and then add a node and delete it again). The server runs here with its job worker, as `npm start` runs it: on
// embedded PGlite, or with BENCH_DATABASE_URL on PostgreSQL (a database of its own, dropped after). Every 10 s it
// reports the server's heap (after a full collection, so what is retained), external memory (PGlite's WebAssembly
// memory and its in-memory data directory are there) and RSS. Targets: 0 errors and 0 non-2xx answers on both sides; heap and
// RSS flat after warm-up: the last sample at most 10 % above the first one after warm-up (memory handed back to the
// system, as RSS often is once the warm-up's peak passes, is not growth).
// `--seconds N` shortens or lengthens the loaded part (default 60).
import { execFile, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { loadConfig } from '../../src/config.ts'
import { buildApp } from '../../src/app.ts'
import { openBenchDatabase } from './bench-database.ts'
import { createApiKey } from '../../test/helpers/api-keys.ts'
import { createOwner, createUser } from '../../test/helpers/factories.ts'
import { HttpAgent, type HttpResponse } from '../../test/helpers/http-agent.ts'
import { buildRule } from '../../test/helpers/rules.ts'
import { syntheticInputs } from './fixtures/synthetic.ts'
import { seedPublishedSet } from './published-set.ts'

const NODES = 500
const WRITERS = 10
const WARM_UP_SECONDS = 10
const SAMPLE_SECONDS = 10
const secondsArg = process.argv.indexOf('--seconds')
const LOADED_SECONDS = secondsArg > 0 ? Number(process.argv[secondsArg + 1]) : 60
const AUTOCANNON = createRequire(import.meta.url).resolve('autocannon/autocannon.js')
const run = promisify(execFile)

interface Writer { email: string; password: string; ruleId: number; nodeIds: number[] }
interface WriterReport { writes: number; failures: Array<{ status: number; what: string; body: string }>; perWriter: number[] }

// ---------------------------------------------------------------------------------------------------------------
// The writers' process: each author signs in as a browser does and edits its rule until the time is up.

async function writersProcess(base: string, writers: Writer[], seconds: number): Promise<WriterReport> {
  const report: WriterReport = { writes: 0, failures: [], perWriter: writers.map(() => 0) }
  const until = Date.now() + seconds * 1000
  await Promise.all(writers.map(async (writer, w) => {
    const agent = new HttpAgent(base)
    await agent.signIn(writer.email, writer.password)
    const nodeUrl = `/api/rule/${writer.ruleId}/node`
    const check = (res: HttpResponse, what: string): unknown => {
      if (res.status >= 300) report.failures.push({ status: res.status, what, body: res.text.slice(0, 200) })
      else { report.writes++; report.perWriter[w]!++ }
      return res.status < 300 ? (res.json() as { data: unknown }).data : null
    }
    for (let i = 0; Date.now() < until; i++) {
      const nodeId = writer.nodeIds[i % writer.nodeIds.length]!
      check(await agent.api('PATCH', `${nodeUrl}/${nodeId}`, { headline: `Edit ${i} by writer ${w + 1}`, text: `Saved at ${new Date().toISOString()}` }), 'edit a node')
      if (i % 5 === 4) {
        const made = check(await agent.api('POST', nodeUrl, { type: 'advice', headline: `Added ${i}`, parentId: writer.nodeIds[0] }), 'add a node') as { id: number } | null
        if (made) check(await agent.api('DELETE', `${nodeUrl}/${made.id}`), 'delete the added node')
      }
    }
  }))
  return report
}

if (process.argv[2] === '--writers') {
  console.log(JSON.stringify(await writersProcess(process.argv[3]!, JSON.parse(process.argv[4]!) as Writer[], Number(process.argv[5]))))
  process.exit(0)
}

// ---------------------------------------------------------------------------------------------------------------
// The server, the load and the samples.

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}

/** Heap after a full collection (what is retained); `external` holds PGlite's WebAssembly memory, which only grows. */
function sample(): { heap: number; external: number; rss: number } {
  globalThis.gc?.()
  const usage = process.memoryUsage()
  return { heap: usage.heapUsed, external: usage.external, rss: usage.rss }
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-soak-'))
const bench = await openBenchDatabase('soak')
const database = bench.database
const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' })
const app = await buildApp({ config, db: database.db, logger: false })
await app.listen({ port: 0, host: '127.0.0.1' })
const address = app.server.address()
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`

try {
  const ownerId = await createOwner(database.db, { name: 'Soak partner' })
  const adviceSetId = await seedPublishedSet(database.db, ownerId, { nodes: NODES, entities: true })
  const writers: Writer[] = []
  for (let w = 1; w <= WRITERS; w++) {
    const user = await createUser(database.db, { ownerId, role: 'author', name: `Writer ${w}` })
    const advice = Array.from({ length: 5 }, (_, i) => ({ type: 'advice', headline: `Advice ${i + 1} of writer ${w}` }))
    const { rule, nodes } = await buildRule(database.db, adviceSetId, `Edited by writer ${w}`, [{ type: 'condition', expression: 'true', children: advice }])
    writers.push({ email: user.email, password: user.password, ruleId: rule.id, nodeIds: nodes.filter((n) => n.type === 'advice').map((n) => n.id) })
  }
  const { secret } = await createApiKey(database.db, { ownerId, rateLimit: 1_000_000_000 })
  const answers = new URLSearchParams(Object.entries(syntheticInputs(1)[0]!).map(([k, v]) => [k, String(v)]))
  const adviceUrl = `${base}/api/advice/${adviceSetId}?${answers}`
  const first = await fetch(adviceUrl, { headers: { authorization: `Bearer ${secret}`, accept: 'application/json' } })
  if (first.status !== 200) throw new Error(`the Advice API answered ${first.status}: ${await first.text()}`)

  const total = WARM_UP_SECONDS + LOADED_SECONDS
  console.log(`Soak: ${NODES}-node published set on ${bench.driver}, ${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(1)}; ` +
    `Advice API flat out (autocannon, 16 connections) and ${WRITERS} writers for ${total} s (the first ${WARM_UP_SECONDS} s warm-up)`)
  const cannon = run(process.execPath, [AUTOCANNON, '-j', '-c', '16', '-d', String(total), '-H', `authorization=Bearer ${secret}`, '-H', 'accept=application/json', adviceUrl], { maxBuffer: 16 * 1024 * 1024 })
  const writerProcess = spawn(process.execPath, [...process.execArgv, import.meta.filename, '--writers', base, JSON.stringify(writers), String(total)], { stdio: ['ignore', 'pipe', 'inherit'] })
  let writerOut = ''
  writerProcess.stdout.on('data', (chunk: Buffer) => { writerOut += chunk.toString() })
  const writersDone = new Promise<WriterReport>((resolve, reject) => writerProcess.on('close', (code) => {
    if (code === 0) resolve(JSON.parse(writerOut) as WriterReport)
    else reject(new Error(`the writers' process exited with ${code}`))
  }))

  const samples: Array<{ at: number; heap: number; external: number; rss: number }> = []
  const started = Date.now()
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const at = Math.round((Date.now() - started) / 1000)
      const s = sample()
      samples.push({ at, ...s })
      console.log(`t=${String(at).padStart(3)} s   heap ${mb(s.heap).padStart(9)}   external ${mb(s.external).padStart(9)}   RSS ${mb(s.rss).padStart(9)}${at <= WARM_UP_SECONDS ? '   (warm-up)' : ''}`)
      if (at >= total) { clearInterval(timer); resolve() }
    }, SAMPLE_SECONDS * 1000)
  })
  const [{ stdout }, writerReport] = await Promise.all([cannon, writersDone])
  const advice = JSON.parse(stdout) as { requests: { average: number; total: number }; latency: { p50: number; p99: number; max: number }; non2xx: number; errors: number; timeouts: number }

  console.log(`Advice API: ${advice.requests.total.toLocaleString('en')} requests, ${advice.requests.average.toFixed(0)} req/s, p50 ${advice.latency.p50} ms, p99 ${advice.latency.p99} ms, max ${advice.latency.max} ms; ` +
    `${advice.non2xx} non-2xx, ${advice.errors} errors, ${advice.timeouts} timeouts`)
  console.log(`writers: ${writerReport.writes.toLocaleString('en')} acknowledged writes (${(writerReport.writes / total).toFixed(0)}/s; per writer ${writerReport.perWriter.join(', ')}), ${writerReport.failures.length} failed`)
  for (const failure of writerReport.failures.slice(0, 5)) console.log(`  ${failure.what}: ${failure.status} ${failure.body}`)
  const afterWarmUp = samples.filter((s) => s.at > WARM_UP_SECONDS)
  const firstSample = afterWarmUp[0]!
  const lastSample = afterWarmUp.at(-1)!
  const growth = (key: 'heap' | 'rss') => (lastSample[key] - firstSample[key]) / firstSample[key]
  const flat = (key: 'heap' | 'rss') => growth(key) <= 0.1
  console.log(`after warm-up (t=${firstSample.at} s → t=${lastSample.at} s): heap ${mb(firstSample.heap)} → ${mb(lastSample.heap)} (${(growth('heap') * 100).toFixed(1)} %), ` +
    `RSS ${mb(firstSample.rss)} → ${mb(lastSample.rss)} (${(growth('rss') * 100).toFixed(1)} %); max heap ${mb(Math.max(...afterWarmUp.map((s) => s.heap)))}, max RSS ${mb(Math.max(...afterWarmUp.map((s) => s.rss)))}`)
  const errors = advice.non2xx + advice.errors + advice.timeouts + writerReport.failures.length
  const met = errors === 0 && flat('heap') && flat('rss')
  console.log(`targets (0 errors; heap and RSS grow at most 10 % after warm-up): ${met ? 'met' : 'NOT met'}`)
  process.exitCode = met ? 0 : 1
} finally {
  await app.close()
  await bench.close()
  rmSync(dataDir, { recursive: true, force: true })
}
