// Advice API benchmark (issue 7): the app on embedded PGlite with a published 500-node advice set and a key;
// autocannon (in its own process, so it does not share the server's event loop) against /api/advice/{id} and a
// hello-world route of the same app in the same run: flat out, then at 1,000 req/s. autocannon's rate option sends
// each second's quota at the start of the second, so the rate is also held by this file run as a paced client
// (`--paced`, its own process too): one request every millisecond, each timed from when it was due.
// Targets: advice req/s ≥ 0.5 × hello-world's (flat out, in alternating rounds; the median round's ratio);
// p99 < 20 ms at 1,000 req/s (2 cores).
// The API Call case (issue 17): the same set plus a rule whose API Call node reads a rate from an external API (a
// local server, allow-listed) whose answer is cached, so the case shows what a cached call adds to a request.
// The 5,000-node set (issue 18): flat out in the same rounds and paced, beside the 500-node set.
// Interview events (issue 16): the paced advice run again in alternating rounds with event recording off and on —
// on, the API's own events (one per request here) plus 9,000 a second recorded in the server process as if from
// embeds, so 10,000 events/s, written every 2 s in batches. Target: p99 with events ≤ 1.1 × without.
// `--events-only` runs just that part.
// Where the CPU goes (issue 29, part 1): last, a CPU profile of the thread serving HTTP during a flat-out run splits an
// advice request's CPU by stage (stage-split.ts), with decision records on (best effort, the default) and off, and
// hello world's beside it. `--stages` runs just that part.
// The hello-world route is registered on the app's root, as partner routes are: it gets the app-wide plumbing
// (security headers, request id, error handler) and, like them, no session. Besides req/s (which on 2 cores also
// depends on how fast autocannon runs beside the server), the server's CPU time per request is reported: the
// steadier figure.
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import http from 'node:http'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { promisify } from 'node:util'
import { loadConfig } from '../../src/config.ts'
import { buildApp } from '../../src/app.ts'
import { eq } from 'drizzle-orm'
import { owners, type DecisionMode } from '../../src/db/schema/index.ts'
import { openBenchDatabase } from './bench-database.ts'
import { formatStageSplit, mainThreadCpuMicros, profileStages } from './stage-split.ts'
import { recordInterviewEvent, setInterviewEventsEnabled } from '../../src/services/delivery/interview-events.ts'
import { insertEntity } from '../../src/db/queries/entities.ts'
import { ENTITY_TYPES } from '../../src/engine/index.ts'
import { createApiKey } from '../../test/helpers/api-keys.ts'
import { createOwner } from '../../test/helpers/factories.ts'
import { syntheticInputs } from './fixtures/synthetic.ts'
import { seedPublishedSet } from './published-set.ts'
import { createExternalApiDefinition } from '../../test/helpers/external-apis.ts'

const NODES = 500
/** The large set (issue 18): flat out and paced beside the 500-node one, to show a large set served as fast. */
const LARGE_NODES = 5000
/** Flat out in alternating rounds, so a change in the machine's speed during the run hits both routes alike. */
const FLAT_OUT = { connections: 16, seconds: 5 }
const ROUNDS = 5
const FIXED_RATE = { connections: 16, seconds: 10, perSecond: 1000 }
const PACED = { perSecond: 1000, seconds: 10 }
const WARM_UP_SECONDS = 3
/**
 * Work added to hello world's handler, in µs. On 2 cores shared with the load generator, a request costs its server more
 * than the work added: fewer requests a second means fewer answers per wake-up on each side, and the kernel's share per
 * request grows (a plain Fastify server: 30 µs of work cost 37 more in all, 15 of it the kernel's, against 6 with none).
 * So the ratio advice / hello world depends on how much work advice adds, as the machine charges for it.
 */
const BUSY_MICROS = [10, 20, 30]
const EVENT_ROUNDS = 3
/** Events a second recorded in-process on top of the API's own, to reach 10,000 a second in all. */
const EXTRA_EVENTS_PER_SECOND = 9_000
const EVENTS_ONLY = process.argv.includes('--events-only')
/** `--stages`: only the split of an advice request's CPU by stage (and hello world's beside it). */
const STAGES_ONLY = process.argv.includes('--stages')

const run = promisify(execFile)
const AUTOCANNON = createRequire(import.meta.url).resolve('autocannon/autocannon.js')

interface Figures { perSecond: number; p50: number; p99: number; non2xx: number; errors: number; cpuMicros?: number; total?: number }

async function autocannon(url: string, headers: Record<string, string>, opts: { connections: number; seconds: number; perSecond?: number }): Promise<Figures> {
  // Each measurement starts from a collected heap, so no run pays for the garbage of the one before it.
  globalThis.gc?.()
  const cpuBefore = process.cpuUsage()
  const args = [AUTOCANNON, '-j', '-c', String(opts.connections), '-d', String(opts.seconds)]
  if (opts.perSecond !== undefined) args.push('-R', String(opts.perSecond))
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}=${value}`)
  args.push(url)
  const { stdout } = await run(process.execPath, args, { maxBuffer: 16 * 1024 * 1024 })
  const cpu = process.cpuUsage(cpuBefore)
  // The decision records of the run written before the next one starts: the database's thread catching up would
  // otherwise take its cores from the next run (hello world's rounds slowed from 30,000 to 12,000 req/s).
  await app.partner.recorder.flush()
  const result = JSON.parse(stdout) as { requests: { average: number; total: number }; latency: { p50: number; p99: number }; non2xx: number; errors: number }
  return {
    perSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors,
    cpuMicros: (cpu.user + cpu.system) / Math.max(1, result.requests.total), total: result.requests.total,
  }
}

function percentile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? Number.NaN
}

/** The paced client: requests sent on a fixed schedule whatever the answers' speed, latency counted from the schedule. */
async function pacedLoad(url: string, headers: Record<string, string>, perSecond: number, seconds: number): Promise<Figures> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 })
  const total = perSecond * seconds
  const gapMs = 1000 / perSecond
  const latencies: number[] = []
  let non2xx = 0
  let errors = 0
  const started = performance.now()
  await new Promise<void>((resolve) => {
    let sent = 0
    let finished = 0
    const settle = () => { if (++finished === total) resolve() }
    const tick = () => {
      const due = Math.min(total, Math.floor((performance.now() - started) / gapMs) + 1)
      for (; sent < due; sent++) {
        const scheduledAt = started + sent * gapMs
        http.get(url, { agent, headers }, (res) => {
          if (res.statusCode !== 200) non2xx++
          res.resume()
          res.on('end', () => { latencies.push(performance.now() - scheduledAt); settle() })
        }).on('error', () => { errors++; settle() })
      }
      if (sent < total) setTimeout(tick, 1)
    }
    tick()
  })
  const elapsed = (performance.now() - started) / 1000
  agent.destroy()
  latencies.sort((a, b) => a - b)
  return { perSecond: total / elapsed, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), non2xx, errors }
}

/** The paced run, and how long the server's event loop was held up meanwhile (a slow client shows as latency only). */
async function paced(url: string, headers: Record<string, string>): Promise<Figures & { loopP99: number; loopMax: number }> {
  const args = [...process.execArgv, import.meta.filename, '--paced', url, JSON.stringify(headers)]
  const loop = monitorEventLoopDelay({ resolution: 1 })
  loop.enable()
  const { stdout } = await run(process.execPath, args, { maxBuffer: 1024 * 1024 })
  loop.disable()
  return { ...JSON.parse(stdout) as Figures, loopP99: loop.percentile(99) / 1e6, loopMax: loop.max / 1e6 }
}

/** Paced advice runs with interview events off and on (10,000 events/s in all), alternating; medians compared. */
async function eventsComparison(adviceUrl: string, adviceHeaders: Record<string, string>, adviceSetId: number): Promise<void> {
  const questions = Array.from({ length: 40 }, (_, i) => `Question_${i}`)
  const startExtraEvents = () => {
    const perTick = EXTRA_EVENTS_PER_SECOND / 100
    let n = 0
    const timer = setInterval(() => {
      for (let i = 0; i < perTick; i++) recordInterviewEvent(adviceSetId, i % 2 === 0 ? 'question_answered' : 'question_shown', questions[n++ % questions.length])
    }, 10)
    return () => clearInterval(timer)
  }
  const off: number[] = []
  const on: number[] = []
  console.log(`\ninterview events, paced ${PACED.perSecond} req/s, ${EVENT_ROUNDS} alternating rounds (on: the API's events + ${EXTRA_EVENTS_PER_SECOND.toLocaleString('en')}/s more = ${(PACED.perSecond + EXTRA_EVENTS_PER_SECOND).toLocaleString('en')} events/s, written every 2 s)`)
  for (let round = 1; round <= EVENT_ROUNDS; round++) {
    setInterviewEventsEnabled(false)
    const without = await paced(adviceUrl, adviceHeaders)
    off.push(without.p99)
    console.log(`${row(`round ${round}  events off`, without)}   server loop delay p99 ${without.loopP99.toFixed(1)} ms`)
    setInterviewEventsEnabled(true)
    const stop = startExtraEvents()
    const withEvents = await paced(adviceUrl, adviceHeaders)
    stop()
    on.push(withEvents.p99)
    console.log(`${row(`round ${round}  events on`, withEvents)}   server loop delay p99 ${withEvents.loopP99.toFixed(1)} ms`)
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
  const ratio = median(on) / median(off)
  console.log(`advice p99 at ${PACED.perSecond} req/s, median of the rounds: events off ${median(off).toFixed(2)} ms, on ${median(on).toFixed(2)} ms; ratio ${ratio.toFixed(2)} (target ≤ 1.10) ${ratio <= 1.1 ? 'met' : 'NOT met'}`)
}

/** Where the serving thread's CPU goes, per request: the advice request by stage, hello world's total beside it. */
async function stageSplit(adviceUrl: string, adviceHeaders: Record<string, string>, helloUrl: string, busyUrl: string, ownerId: string): Promise<void> {
  const load = (url: string, headers: Record<string, string>) => async () => {
    const figures = await autocannon(url, headers, FLAT_OUT)
    if (figures.non2xx + figures.errors > 0) throw new Error(`the split's load was answered ${figures.non2xx} non-2xx and ${figures.errors} errors`)
    return figures.total!
  }
  const recordsOf = async (mode: DecisionMode) => {
    await database.db.update(owners).set({ decisionMode: mode }).where(eq(owners.id, ownerId))
    app.partner.recorder.settings.forgetOwner(ownerId)
  }
  const hello = await profileStages(load(helloUrl, {}))
  await recordsOf('off')
  const withoutRecords = await profileStages(load(adviceUrl, adviceHeaders))
  await recordsOf('best_effort')
  const advice = await profileStages(load(adviceUrl, adviceHeaders))
  console.log(`\nthe thread serving HTTP, CPU per request by stage: a CPU profile (a sample every 100 µs) of ${FLAT_OUT.seconds} s flat out; each sample goes to the stage whose entry function is nearest on its stack`)
  console.log('decision records best effort (the default, as in the rounds above):')
  for (const line of formatStageSplit(advice)) console.log(line)
  console.log('decision records off:')
  for (const line of formatStageSplit(withoutRecords)) console.log(line)
  console.log(`  hello world on the same thread: ${hello.unprofiledMicros.toFixed(1)} µs per request without the profiler; its profile's rest, by function:`)
  for (const entry of hello.rest.slice(0, 8)) console.log(`      ${entry.name.slice(0, 70).padEnd(70)} ${entry.micros.toFixed(1).padStart(6)} µs`)
  console.log(`  advice / hello world in the serving thread's CPU, without the profiler: ${(hello.unprofiledMicros / advice.unprofiledMicros).toFixed(2)} with records, ${(hello.unprofiledMicros / withoutRecords.unprofiledMicros).toFixed(2)} without (the req/s ratio where the load generator and the database have cores of their own; target ≥ 0.50)`)
  console.log(`  hello world with busy work in its handler (the same thread's CPU, without the profiler): what a known amount of work costs a request on this machine`)
  const busy: Array<{ work: number; ratio: number }> = []
  for (const work of BUSY_MICROS) {
    const cpu = mainThreadCpuMicros()
    const requests = await load(`${busyUrl}?us=${work}`, {})()
    const micros = (mainThreadCpuMicros() - cpu) / requests
    const ratio = hello.unprofiledMicros / micros
    busy.push({ work, ratio })
    console.log(`      ${String(work).padStart(3)} µs of work: ${micros.toFixed(1)} µs a request, ${(micros - hello.unprofiledMicros).toFixed(1)} more than hello world; hello world / this ${ratio.toFixed(2)}`)
  }
  const at = busy.findIndex((b) => b.ratio < 0.5)
  const reach = at <= 0 ? null : busy[at - 1]!.work + (busy[at - 1]!.ratio - 0.5) / (busy[at - 1]!.ratio - busy[at]!.ratio) * (busy[at]!.work - busy[at - 1]!.work)
  console.log(`  so 0.50 leaves ${reach === null ? `a budget outside ${BUSY_MICROS[0]}–${BUSY_MICROS.at(-1)} µs` : `about ${reach.toFixed(0)} µs`} of work on top of hello world's; advice without records costs ${(withoutRecords.unprofiledMicros - hello.unprofiledMicros).toFixed(1)} µs more than hello world in all`)
}

function row(name: string, f: Figures): string {
  const failures = f.non2xx + f.errors > 0 ? `   (${f.non2xx} non-2xx, ${f.errors} errors)` : ''
  const cpu = f.cpuMicros === undefined ? '' : `   server CPU ${f.cpuMicros.toFixed(0).padStart(4)} µs/request`
  return `${name.padEnd(44)} ${f.perSecond.toFixed(0).padStart(7)} req/s   p50 ${f.p50.toFixed(1).padStart(5)} ms   p99 ${f.p99.toFixed(1).padStart(5)} ms${cpu}${failures}`
}

if (process.argv[2] === '--paced') {
  console.log(JSON.stringify(await pacedLoad(process.argv[3]!, JSON.parse(process.argv[4]!) as Record<string, string>, PACED.perSecond, PACED.seconds)))
  process.exit(0)
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-api-'))
// BENCH_DATABASE_URL: on PostgreSQL instead, where a key's rate limit is counted in the shared database (several
// instances), so the bench shows what that costs.
const bench = await openBenchDatabase('api')
const database = bench.database
const driverName = bench.driver === 'PGlite' ? 'PGlite' : 'PostgreSQL (rate limit counted in the database)'
// The external API of the API Call case: a local server (allow-listed), asked once and then answered from the cache.
let ratesRequests = 0
const ratesServer = http.createServer((_req, res) => (ratesRequests++, res).writeHead(200, { 'content-type': 'application/json' }).end('{"data":{"rate":4.25}}'))
await new Promise<void>((resolve) => ratesServer.listen(0, '127.0.0.1', resolve))
const ratesPort = (ratesServer.address() as { port: number }).port
const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', OUTBOUND_ALLOW: `127.0.0.1:${ratesPort}` })
// No job worker: its polling would be load that neither route causes.
const app = await buildApp({ config, db: database.db, logger: false, jobs: false })
app.get('/bench/hello', async () => ({ hello: 'world' }))
// For reading the ratio: hello world answering with a copy of the advice response's body, so what the body's size
// costs (writing 2.5 KB to the socket) shows apart from what producing it costs.
let adviceBodyCopy = ''
app.get('/bench/hello-advice-body', async (_request, reply) => reply.type('application/json').send(adviceBodyCopy))
// For reading the ratio too: hello world whose handler first spins for `us` µs, so what a known amount of work costs a
// request in all (the kernel's share grows with it, see BUSY_MICROS) shows beside what advice costs.
app.get<{ Querystring: { us?: string } }>('/bench/hello-busy', async (request) => {
  const until = performance.now() + Number(request.query.us ?? 0) / 1000
  while (performance.now() < until) { /* the work */ }
  return { hello: 'world' }
})
await app.listen({ port: 0, host: '127.0.0.1' })
const address = app.server.address()
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`

try {
  const ownerId = await createOwner(database.db, { name: 'Bench partner' })
  const adviceSetId = await seedPublishedSet(database.db, ownerId, { nodes: NODES, entities: true })
  await insertEntity(database.db, {
    ownerId, adviceSetId: null, entityTypeId: ENTITY_TYPES.variable.id, reservedName: 'Live_Rate', dataType: 'number', validOptions: [], isClosedSet: false,
    displayFormat: null, defaultValue: null, expression: null, isConstant: false, description: '', createdBy: null,
  })
  const rates = await createExternalApiDefinition(database.db, config.secretKey, {
    ownerId, name: 'Rates', urlTemplate: `http://127.0.0.1:${ratesPort}/rates`, cacheTtlSeconds: 3600,
    responseMapping: [{ path: '/data/rate', variable: 'Live_Rate', dataType: 'number' }],
  })
  const apiSetId = await seedPublishedSet(database.db, ownerId, {
    nodes: NODES, entities: false,
    extraRule: { name: 'Live rate', nodes: [{ type: 'apiCall', apiId: String(rates.id), variable: 'Live_Rate', children: [{ type: 'advice', headline: 'Today’s rate is {{Live_Rate}}' }] }] },
  })
  const largeSetId = await seedPublishedSet(database.db, ownerId, { nodes: LARGE_NODES, entities: false })
  const { secret } = await createApiKey(database.db, { ownerId, rateLimit: 1_000_000_000 })
  const answers = new URLSearchParams(Object.entries(syntheticInputs(1)[0]!).map(([k, v]) => [k, String(v)]))
  const adviceUrl = `${base}/api/advice/${adviceSetId}?${answers}`
  const apiAdviceUrl = `${base}/api/advice/${apiSetId}?${answers}`
  const largeAdviceUrl = `${base}/api/advice/${largeSetId}?${answers}`
  const adviceHeaders = { authorization: `Bearer ${secret}`, accept: 'application/json' }
  const helloUrl = `${base}/bench/hello`
  const busyUrl = `${base}/bench/hello-busy`

  const timed = async () => {
    const started = performance.now()
    const res = await fetch(adviceUrl, { headers: adviceHeaders })
    const body = await res.json() as { data: { advice: unknown[] } }
    if (res.status !== 200) throw new Error(`advice request answered ${res.status}`)
    return { body, ms: performance.now() - started }
  }
  const cold = await timed()
  const warm = await timed()
  const apiFirst = await fetch(apiAdviceUrl, { headers: adviceHeaders })
  const apiBody = await apiFirst.json() as { data: { advice: Array<{ headline: string }>; errors: unknown[] } }
  if (apiFirst.status !== 200 || !apiBody.data.advice.some((a) => a.headline === 'Today’s rate is 4.25') || apiBody.data.errors.length > 0) {
    throw new Error(`the API Call case did not answer with the rate: ${JSON.stringify(apiBody).slice(0, 300)}`)
  }
  const body = cold.body
  adviceBodyCopy = JSON.stringify(body)
  console.log(`Advice API bench: ${NODES}-node published set, complete answers (${body.data.advice.length} advice items, ${(adviceBodyCopy.length / 1024).toFixed(1)} KB), text content type, ${driverName}, ${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(1)}`)

  console.log(`first request (served-version lookup and compile of the version) ${cold.ms.toFixed(1)} ms; the next (both from memory) ${warm.ms.toFixed(1)} ms`)

  if (STAGES_ONLY) {
    await autocannon(helloUrl, {}, { connections: FLAT_OUT.connections, seconds: WARM_UP_SECONDS })
    await autocannon(adviceUrl, adviceHeaders, { connections: FLAT_OUT.connections, seconds: WARM_UP_SECONDS })
    await stageSplit(adviceUrl, adviceHeaders, helloUrl, busyUrl, ownerId)
  } else if (EVENTS_ONLY) {
    await autocannon(adviceUrl, adviceHeaders, { connections: FLAT_OUT.connections, seconds: WARM_UP_SECONDS })
    await eventsComparison(adviceUrl, adviceHeaders, adviceSetId)
  } else {
    await autocannon(helloUrl, {}, { connections: FLAT_OUT.connections, seconds: WARM_UP_SECONDS })
    await autocannon(adviceUrl, adviceHeaders, { connections: FLAT_OUT.connections, seconds: WARM_UP_SECONDS })
    await autocannon(apiAdviceUrl, adviceHeaders, { connections: FLAT_OUT.connections, seconds: WARM_UP_SECONDS })
    await autocannon(largeAdviceUrl, adviceHeaders, { connections: FLAT_OUT.connections, seconds: WARM_UP_SECONDS })
    const rounds: Array<{ hello: Figures; helloBody: Figures; advice: Figures; apiAdvice: Figures; large: Figures }> = []
    for (let i = 0; i < ROUNDS; i++) {
      const hello = await autocannon(helloUrl, {}, FLAT_OUT)
      const helloBody = await autocannon(`${base}/bench/hello-advice-body`, {}, FLAT_OUT)
      const advice = await autocannon(adviceUrl, adviceHeaders, FLAT_OUT)
      const apiAdvice = await autocannon(apiAdviceUrl, adviceHeaders, FLAT_OUT)
      const large = await autocannon(largeAdviceUrl, adviceHeaders, FLAT_OUT)
      rounds.push({ hello, helloBody, advice, apiAdvice, large })
    }
    const rateHello = await autocannon(helloUrl, {}, FIXED_RATE)
    const rateAdvice = await autocannon(adviceUrl, adviceHeaders, FIXED_RATE)
    const pacedHello = await paced(helloUrl, {})
    const pacedAdvice = await paced(adviceUrl, adviceHeaders)
    const pacedLarge = await paced(largeAdviceUrl, adviceHeaders)

    console.log(`\nflat out, ${FLAT_OUT.connections} connections, ${ROUNDS} rounds of ${FLAT_OUT.seconds} s each`)
    const ratios: number[] = []
    const apiRatios: number[] = []
    for (const [i, round] of rounds.entries()) {
      console.log(`round ${i + 1}`)
      console.log(row('  GET /bench/hello (hello world)', round.hello))
      console.log(row('  hello world with the advice body', round.helloBody))
      console.log(row(`  GET /api/advice/${adviceSetId}`, round.advice))
      console.log(row(`  GET /api/advice/${apiSetId} (+ cached API Call)`, round.apiAdvice))
      console.log(row(`  GET /api/advice/${largeSetId} (${LARGE_NODES.toLocaleString('en')} nodes)`, round.large))
      const ratio = round.advice.perSecond / round.hello.perSecond
      ratios.push(ratio)
      apiRatios.push(round.apiAdvice.perSecond / round.advice.perSecond)
      console.log(`  ratio advice / hello world ${ratio.toFixed(2)}; ${LARGE_NODES.toLocaleString('en')} nodes / ${NODES} nodes ${(round.large.perSecond / round.advice.perSecond).toFixed(2)}; server CPU per request, hello world / advice ${(round.hello.cpuMicros! / round.advice.cpuMicros!).toFixed(2)}; API Call case / advice ${apiRatios.at(-1)!.toFixed(2)}`)
    }
    const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!
    const ratio = median(ratios)
    console.log(`ratio advice / hello world, median of the rounds: ${ratio.toFixed(2)} (target ≥ 0.50) ${ratio >= 0.5 ? 'met' : 'NOT met'}`)
    console.log(`ratio API Call case (one cached call) / plain advice, median of the rounds: ${median(apiRatios).toFixed(2)}; the rates server was asked ${ratesRequests} time(s)`)
    console.log(`\nautocannon -R ${FIXED_RATE.perSecond}, ${FIXED_RATE.connections} connections, ${FIXED_RATE.seconds} s each (each second's requests in a burst)`)
    console.log(row('GET /bench/hello (hello world)', rateHello))
    console.log(row(`GET /api/advice/${adviceSetId}`, rateAdvice))
    console.log(`\npaced, one request every ${1000 / PACED.perSecond} ms for ${PACED.seconds} s each (latency from when each was due)`)
    console.log(`${row('GET /bench/hello (hello world)', pacedHello)}   server loop delay p99 ${pacedHello.loopP99.toFixed(1)} ms, max ${pacedHello.loopMax.toFixed(0)} ms`)
    console.log(`${row(`GET /api/advice/${adviceSetId}`, pacedAdvice)}   server loop delay p99 ${pacedAdvice.loopP99.toFixed(1)} ms, max ${pacedAdvice.loopMax.toFixed(0)} ms`)
    console.log(`${row(`GET /api/advice/${largeSetId} (${LARGE_NODES.toLocaleString('en')} nodes)`, pacedLarge)}   server loop delay p99 ${pacedLarge.loopP99.toFixed(1)} ms, max ${pacedLarge.loopMax.toFixed(0)} ms`)
    console.log(`advice p99 at ${PACED.perSecond} req/s: ${pacedAdvice.p99.toFixed(1)} ms (target < 20 ms) ${pacedAdvice.p99 < 20 ? 'met' : 'NOT met'}; the ${LARGE_NODES.toLocaleString('en')}-node set ${pacedLarge.p99.toFixed(1)} ms`)
    await eventsComparison(adviceUrl, adviceHeaders, adviceSetId)
    await stageSplit(adviceUrl, adviceHeaders, helloUrl, busyUrl, ownerId)
  }
} finally {
  ratesServer.close()
  await app.close()
  await bench.close()
  rmSync(dataDir, { recursive: true, force: true })
}
