// Soak (issue 18 point 5, issue 29 part 0): the Advice API flat out (autocannon, its own process) while 10 authors
// edit rules of the same advice set through the HTTP API (their own process: signed in, CSRF token, PATCH a node's
// headline, now and then add a node and delete it again). After a 10 s warm-up with both, the loaded part runs in
// phases of 10 s, the Advice API alone and with the writers in turn, so the two rates are measured side by side.
// The server runs here with its job worker, as `npm start` runs it: on embedded PGlite (on its worker thread), or
// with BENCH_DATABASE_URL on PostgreSQL (a database of its own, dropped after). Every 10 s it reports the server's
// heap (after a full collection, so what is retained), external memory and RSS (the worker thread's PGlite memory is
// in RSS). Targets: 0 errors and 0 non-2xx answers on both sides; the Advice API with writers at least half as fast
// as without (median of the phases); writers' p99 < 200 ms; heap and RSS flat after warm-up: the last sample at most
// 10 % above the first one after warm-up (memory handed back to the system, as RSS often is once the warm-up's peak
// passes, is not growth).
// `--seconds N` shortens or lengthens the loaded part (default 60: three phases of each). `--writes-per-second N` paces
// the writers to N writes a second in all; by default 59, the load issue 29 measured and set its target against ("10
// authors editing, 59 writes/s"). `--writes-per-second max`: each writer writes again as soon as its last write is
// answered, so the cheaper a write, the more of them (on PostgreSQL about 300 a second), and the ratio then measures how
// two cores are shared by the server, its database and both load generators rather than what a write costs.
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
const PHASE_SECONDS = 10
const secondsArg = process.argv.indexOf('--seconds')
const LOADED_SECONDS = secondsArg > 0 ? Number(process.argv[secondsArg + 1]) : 60
const rateArg = process.argv.indexOf('--writes-per-second')
/** Issue 29's load: 10 authors, 59 writes a second in all. */
const ISSUE_WRITES_PER_SECOND = 59
/** The writers' pace in all, in writes a second; null: as fast as answers come. */
const WRITES_PER_SECOND = writesPerSecondOf(rateArg > 0 ? process.argv[rateArg + 1] : undefined)

function writesPerSecondOf(arg: string | undefined): number | null {
  if (arg === undefined) return ISSUE_WRITES_PER_SECOND
  if (arg === 'max') return null
  const rate = Number(arg)
  if (!(rate > 0)) throw new Error(`--writes-per-second: give a number of writes a second above 0, or max (got ${arg})`)
  return rate
}
const AUTOCANNON = createRequire(import.meta.url).resolve('autocannon/autocannon.js')
const run = promisify(execFile)

interface Writer { email: string; password: string; ruleId: number; nodeIds: number[] }
interface WriterReport {
  writes: number
  failures: Array<{ status: number; what: string; body: string }>
  perWriter: number[]
  /** Each write's time (ms) in the loaded phases with writers, by kind of write ('edit a node', 'add a node', …). */
  latenciesByKind: Record<string, number[]>
}
/**
 * When the writers write, by the clock both processes share: during the warm-up, then in every second phase of the
 * loaded part (the phases between, the Advice API runs alone).
 */
interface Schedule { startAt: number; warmUpMs: number; phaseMs: number; phases: number; writesPerSecond: number | null }

/** Where `now` falls: 'warm-up', a loaded phase with or without writers, or 'done'. */
function phaseAt(schedule: Schedule, now: number): { kind: 'before' } | { kind: 'warm-up' } | { kind: 'done' } | { kind: 'phase'; index: number; writers: boolean; endsAt: number } {
  if (now < schedule.startAt) return { kind: 'before' }
  const loadedAt = schedule.startAt + schedule.warmUpMs
  if (now < loadedAt) return { kind: 'warm-up' }
  const index = Math.floor((now - loadedAt) / schedule.phaseMs)
  if (index >= schedule.phases) return { kind: 'done' }
  return { kind: 'phase', index, writers: index % 2 === 1, endsAt: loadedAt + (index + 1) * schedule.phaseMs }
}

// ---------------------------------------------------------------------------------------------------------------
// The writers' process: each author signs in as a browser does and edits its rule until the time is up.

async function writersProcess(base: string, writers: Writer[], schedule: Schedule): Promise<WriterReport> {
  const report: WriterReport = { writes: 0, failures: [], perWriter: writers.map(() => 0), latenciesByKind: {} }
  await Promise.all(writers.map(async (writer, w) => {
    const agent = new HttpAgent(base)
    await agent.signIn(writer.email, writer.password)
    const nodeUrl = `/api/rule/${writer.ruleId}/node`
    // Paced: this writer's writes start a fixed interval apart, each writer offset so that together they are even.
    const interval = schedule.writesPerSecond ? (writers.length * 1000) / schedule.writesPerSecond : 0
    let nextAt = performance.now() + (interval * w) / writers.length
    const timed = async (what: string, send: () => Promise<HttpResponse>): Promise<unknown> => {
      if (interval > 0) {
        const wait = nextAt - performance.now()
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
        nextAt = Math.max(nextAt + interval, performance.now() - interval)
      }
      const t0 = performance.now()
      const res = await send()
      const phase = phaseAt(schedule, Date.now())
      if (phase.kind === 'phase') {
        const ms = Math.round((performance.now() - t0) * 10) / 10
        ;(report.latenciesByKind[what] ??= []).push(ms)
      }
      if (res.status >= 300) report.failures.push({ status: res.status, what, body: res.text.slice(0, 200) })
      else { report.writes++; report.perWriter[w]!++ }
      return res.status < 300 ? (res.json() as { data: unknown }).data : null
    }
    for (let i = 0; ; i++) {
      const phase = phaseAt(schedule, Date.now())
      if (phase.kind === 'done') break
      if (phase.kind === 'before' || (phase.kind === 'phase' && !phase.writers)) {
        // The Advice API runs alone now: wait for the next phase with writers.
        const until = phase.kind === 'before' ? schedule.startAt : phase.endsAt
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, until - Date.now())))
        continue
      }
      const nodeId = writer.nodeIds[i % writer.nodeIds.length]!
      await timed('edit a node', () => agent.api('PATCH', `${nodeUrl}/${nodeId}`, { headline: `Edit ${i} by writer ${w + 1}`, text: `Saved at ${new Date().toISOString()}` }))
      if (i % 5 === 4) {
        const made = await timed('add a node', () => agent.api('POST', nodeUrl, { type: 'advice', headline: `Added ${i}`, parentId: writer.nodeIds[0] })) as { id: number } | null
        if (made) await timed('delete the added node', () => agent.api('DELETE', `${nodeUrl}/${made.id}`))
      }
    }
  }))
  return report
}

if (process.argv[2] === '--writers') {
  const report = await writersProcess(process.argv[3]!, JSON.parse(process.argv[4]!) as Writer[], JSON.parse(process.argv[5]!) as Schedule)
  // Exit once the report is written: a pipe takes 64 KB at a time, and a long run's report is larger. Until then the
  // module waits here: without the wait, the server's part below began in this process too (its data directory made,
  // its database opened) before the exit.
  await new Promise<never>(() => process.stdout.write(`${JSON.stringify(report)}\n`, () => process.exit(0)))
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
// PGlite's data in files, as `npm start` keeps it: in memory, the decision records of the Advice API's answers (over
// 10,000 a second) stayed in RSS, and RSS grew 787 → 1,273 MB after warm-up.
const bench = await openBenchDatabase('soak', { dataDir: path.join(dataDir, 'pglite') })
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

  const phases = Math.max(2, Math.round(LOADED_SECONDS / PHASE_SECONDS))
  const total = WARM_UP_SECONDS + phases * PHASE_SECONDS
  console.log(`Soak: ${NODES}-node published set on ${bench.driver}, ${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(1)}; ` +
    `Advice API flat out (autocannon, 16 connections) for ${total} s: ${WARM_UP_SECONDS} s warm-up with ${WRITERS} writers${WRITES_PER_SECOND ? ` paced to ${WRITES_PER_SECOND} writes/s in all` : ' writing as fast as they are answered'}, then ${phases} phases of ${PHASE_SECONDS} s, without and with the writers in turn`)
  // The writers sign in before the schedule starts, so that the first phase with writers is all writing.
  const schedule: Schedule = { startAt: Date.now() + 3_000, warmUpMs: WARM_UP_SECONDS * 1000, phaseMs: PHASE_SECONDS * 1000, phases, writesPerSecond: WRITES_PER_SECOND }
  const writerProcess = spawn(process.execPath, [...process.execArgv, import.meta.filename, '--writers', base, JSON.stringify(writers), JSON.stringify(schedule)], { stdio: ['ignore', 'pipe', 'inherit'] })
  let writerOut = ''
  writerProcess.stdout.on('data', (chunk: Buffer) => { writerOut += chunk.toString() })
  const writersDone = new Promise<WriterReport>((resolve, reject) => writerProcess.on('close', (code) => {
    if (code === 0) resolve(JSON.parse(writerOut) as WriterReport)
    else reject(new Error(`the writers' process exited with ${code}`))
  }))

  const samples: Array<{ at: number; heap: number; external: number; rss: number }> = []
  const sampler = setInterval(() => {
    const at = Math.round((Date.now() - schedule.startAt) / 1000)
    const s = sample()
    samples.push({ at, ...s })
    console.log(`t=${String(at).padStart(3)} s   heap ${mb(s.heap).padStart(9)}   external ${mb(s.external).padStart(9)}   RSS ${mb(s.rss).padStart(9)}${at <= WARM_UP_SECONDS ? '   (warm-up)' : ''}`)
  }, SAMPLE_SECONDS * 1000)

  interface Cannon { requests: { average: number; total: number }; latency: { p50: number; p99: number; max: number }; non2xx: number; errors: number; timeouts: number }
  /** The Advice API flat out until `endsAt` (autocannon, a process of its own). */
  const cannonUntil = async (endsAt: number): Promise<Cannon> => {
    const seconds = Math.max(1, Math.round((endsAt - Date.now()) / 1000))
    const { stdout } = await run(process.execPath, [AUTOCANNON, '-j', '-c', '16', '-d', String(seconds), '-H', `authorization=Bearer ${secret}`, '-H', 'accept=application/json', adviceUrl], { maxBuffer: 16 * 1024 * 1024 })
    return JSON.parse(stdout) as Cannon
  }
  await new Promise((resolve) => setTimeout(resolve, schedule.startAt - Date.now()))
  const results: Array<{ writers: boolean; advice: Cannon }> = []
  let adviceErrors = (await cannonUntil(schedule.startAt + schedule.warmUpMs)).non2xx
  for (let index = 0; index < phases; index++) {
    const endsAt = schedule.startAt + schedule.warmUpMs + (index + 1) * schedule.phaseMs
    const advice = await cannonUntil(endsAt)
    const writersOn = index % 2 === 1
    results.push({ writers: writersOn, advice })
    adviceErrors += advice.non2xx + advice.errors + advice.timeouts
    console.log(`phase ${index + 1} ${writersOn ? 'with writers   ' : 'without writers'}: Advice API ${advice.requests.average.toFixed(0).padStart(6)} req/s, p50 ${advice.latency.p50} ms, p99 ${advice.latency.p99} ms; ` +
      `${advice.non2xx} non-2xx, ${advice.errors} errors, ${advice.timeouts} timeouts`)
  }
  clearInterval(sampler)
  const writerReport = await writersDone

  const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!
  const rate = (writersOn: boolean) => median(results.filter((r) => r.writers === writersOn).map((r) => r.advice.requests.average))
  const ratio = rate(true) / rate(false)
  const latencies = Object.values(writerReport.latenciesByKind).flat().sort((x, y) => x - y)
  const writersP99 = latencies[Math.floor(latencies.length * 0.99)] ?? 0
  console.log(`Advice API, median of the phases: ${rate(false).toFixed(0)} req/s without writers, ${rate(true).toFixed(0)} with (ratio ${ratio.toFixed(2)}, target ≥ 0.5)`)
  console.log(`writers: ${writerReport.writes.toLocaleString('en')} acknowledged writes (per writer ${writerReport.perWriter.join(', ')}), ${writerReport.failures.length} failed; ` +
    `in the loaded phases ${latencies.length.toLocaleString('en')} writes, ${(latencies.length / ((phases / 2) * PHASE_SECONDS)).toFixed(0)}/s, p50 ${(latencies[Math.floor(latencies.length / 2)] ?? 0).toFixed(0)} ms, p99 ${writersP99.toFixed(0)} ms (target < 200)`)
  for (const [kind, times] of Object.entries(writerReport.latenciesByKind)) {
    const sorted = [...times].sort((x, y) => x - y)
    console.log(`  ${kind}: ${sorted.length.toLocaleString('en')} writes, p50 ${(sorted[Math.floor(sorted.length / 2)] ?? 0).toFixed(0)} ms, p99 ${(sorted[Math.floor(sorted.length * 0.99)] ?? 0).toFixed(0)} ms`)
  }
  for (const failure of writerReport.failures.slice(0, 5)) console.log(`  ${failure.what}: ${failure.status} ${failure.body}`)
  const afterWarmUp = samples.filter((s) => s.at > WARM_UP_SECONDS)
  const firstSample = afterWarmUp[0]!
  const lastSample = afterWarmUp.at(-1)!
  const growth = (key: 'heap' | 'rss') => (lastSample[key] - firstSample[key]) / firstSample[key]
  const flat = (key: 'heap' | 'rss') => growth(key) <= 0.1
  console.log(`after warm-up (t=${firstSample.at} s → t=${lastSample.at} s): heap ${mb(firstSample.heap)} → ${mb(lastSample.heap)} (${(growth('heap') * 100).toFixed(1)} %), ` +
    `RSS ${mb(firstSample.rss)} → ${mb(lastSample.rss)} (${(growth('rss') * 100).toFixed(1)} %); max heap ${mb(Math.max(...afterWarmUp.map((s) => s.heap)))}, max RSS ${mb(Math.max(...afterWarmUp.map((s) => s.rss)))}`)
  const errors = adviceErrors + writerReport.failures.length
  const met = errors === 0 && flat('heap') && flat('rss') && ratio >= 0.5 && writersP99 < 200
  console.log(`targets (0 errors; req/s with writers ≥ 0.5 × without; writers' p99 < 200 ms; heap and RSS grow at most 10 % after warm-up): ${met ? 'met' : 'NOT met'}`)
  process.exitCode = met ? 0 : 1
} finally {
  await app.close()
  await bench.close()
  rmSync(dataDir, { recursive: true, force: true })
}
