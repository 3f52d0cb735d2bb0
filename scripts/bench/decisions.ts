// bench:decisions (issue 26): what decision records cost the Advice API. On the demo set ("Retirement readiness",
// published on first run, asked with the printed curl line's answers), in one run and in alternating rounds:
//   1. flat out (autocannon, the better of 16 and 64 connections) with records off, best effort and durable: req/s and the ratios
//      best-effort/off (target ≥ 0.85) and durable/off (target ≥ 0.6);
//   2. paced at 1,000 req/s, after a checkpoint: p99 of each mode (target: durable ≤ 2 × off), and the server's CPU
//      an answer (the app, and on PostgreSQL its backends too), which gives the ratios where the load generator has
//      cores of its own;
//   3. the size on disk of a record (table and indexes, per record; target ≤ 400 bytes);
//   4. the decisions list page with many records (1,000,000 on PostgreSQL, 200,000 on PGlite): server p95 of the
//      first page, a filtered page and a deep page (targets < 50 ms on PostgreSQL, < 150 ms on PGlite).
// On embedded PGlite by default; BENCH_DATABASE_URL for PostgreSQL. `--seconds N` per round (default 6),
// `--rounds N` (default 3), `--records N` for part 4, `--without-counts` to leave out the counts' trigger.
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { eq, sql } from 'drizzle-orm'
import { loadConfig } from '../../src/config.ts'
import { buildApp } from '../../src/app.ts'
import { owners } from '../../src/db/schema/index.ts'
import { seedFirstRun } from '../../src/services/library/demo.ts'
import { DEMO_QUESTION } from '../../src/services/library/demo-delivery.ts'
import { HttpAgent } from '../../test/helpers/http-agent.ts'
import { openBenchDatabase } from './bench-database.ts'

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? Number(process.argv[i + 1]) : fallback
}
const SECONDS = arg('seconds', 6)
const ROUNDS = arg('rounds', 3)
/**
 * Flat out is as many answers as a mode can give, and how many connections that takes depends on the mode. With 16,
 * each durable connection waits for its record's commit, the commits group about four records each, and the machine is
 * not busy (1.4 of its 2 cores counted, PostgreSQL): in one round durable gave 9,312 req/s with 16 and 15,919 with 64,
 * and off 30,237 with 16 and 29,189 with 64. So each round runs each mode with both and keeps its better, and the
 * ratios compare the modes' bests. The paced phase keeps 16: its rate is fixed, and more connections only spread it.
 */
const FLAT_OUT_CONNECTIONS = [16, 64]
const PACED_CONNECTIONS = 16
const AUTOCANNON = createRequire(import.meta.url).resolve('autocannon/autocannon.js')
const run = promisify(execFile)
const MODES = ['off', 'best_effort', 'durable'] as const
type Mode = (typeof MODES)[number]

interface Cannon { requests: { average: number; total: number }; latency: { p50: number; p99: number }; non2xx: number; errors: number; timeouts: number }

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-decisions-'))
const bench = await openBenchDatabase('decisions')
const db = bench.database.db
// `--without-counts`: the set page's counts not kept (their trigger off), to see what keeping them costs a record.
if (process.argv.includes('--without-counts')) await db.execute(sql`alter table decision_records disable trigger decision_counts_added`)
const RECORDS = arg('records', bench.driver === 'PostgreSQL' ? 1_000_000 : 200_000)
const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' })
const app = await buildApp({ config, db, logger: false })
await app.listen({ port: 0, host: '127.0.0.1' })
const address = app.server.address()
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`

const rowsOf = <T>(result: unknown): T[] => (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[]
/** Linux's clock ticks a second, the unit of /proc/<pid>/stat's CPU times (getconf CLK_TCK). */
const CLOCK_TICKS = 100

/** User and system CPU, in µs, of the process or thread whose /proc stat file this is. */
function procStatCpu(statFile: string): number {
  const fields = readFileSync(statFile, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) * (1e6 / CLOCK_TICKS)
}

/** User and system CPU, in µs, of this process's ended children (the load generator, once it has exited). */
function childrenCpu(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[13]) + Number(fields[14])) * (1e6 / CLOCK_TICKS)
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

try {
  const { logins, served } = await seedFirstRun(app.deps, { demo: true })
  if (!served) throw new Error('the first run served no demo set')
  await db.execute(sql`update api_keys set rate_limit = 1000000000`)
  const ownerId = 'acme'
  const query = new URLSearchParams(Object.entries(DEMO_QUESTION).map(([k, v]) => [k, String(v)])).toString()
  const url = `${base}/api/advice/${served.adviceSetId}?${query}`
  const headers = ['-H', `authorization=Bearer ${served.secret}`, '-H', 'accept=application/json']

  async function setMode(mode: Mode) {
    await db.update(owners).set({ decisionMode: mode }).where(eq(owners.id, ownerId))
    app.partner.recorder.settings.forgetOwner(ownerId)
    const probe = await fetch(url, { headers: { authorization: `Bearer ${served!.secret}` } })
    if (probe.status !== 200) throw new Error(`the Advice API answered ${probe.status}`)
    if ((probe.headers.get('decision-id') !== null) !== (mode !== 'off')) throw new Error(`mode ${mode} not in force`)
  }
  async function cannon(connections: number, extra: string[] = []): Promise<Cannon> {
    const { stdout } = await run(process.execPath, [AUTOCANNON, '-j', '-c', String(connections), '-d', String(SECONDS), ...extra, ...headers, url], { maxBuffer: 16 * 1024 * 1024 })
    const result = JSON.parse(stdout) as Cannon
    if (result.non2xx + result.errors + result.timeouts > 0) throw new Error(`errors under load: ${JSON.stringify({ non2xx: result.non2xx, errors: result.errors, timeouts: result.timeouts })}`)
    return result
  }

  /**
   * CPU the server has used since `mark` (serverCpuMark), in µs: this process (the app, and PGlite with it) and, on
   * PostgreSQL, the backends serving the bench's database (from /proc; the load generator is a process of its own and
   * is not counted). What a mode costs an answer in CPU says what its req/s ratio would be where the API had its cores to
   * itself; on this machine the load generator and the database take the same two cores.
   */
  async function serverCpuMark() {
    const usage = process.cpuUsage()
    return { process: usage.user + usage.system, backends: await backendsCpu() }
  }

  async function serverCpuSince(mark: Awaited<ReturnType<typeof serverCpuMark>>): Promise<number> {
    const usage = process.cpuUsage()
    return usage.user + usage.system - mark.process + await backendsCpuSince(mark.backends)
  }

  /** CPU of each PostgreSQL backend serving the bench's database so far, in µs, by pid (none on PGlite). */
  async function backendsCpu(): Promise<Map<number, number>> {
    const micros = new Map<number, number>()
    if (bench.driver !== 'PostgreSQL') return micros
    const backends = rowsOf<{ pid: number }>(await db.execute(sql`select pid from pg_stat_activity where datname = current_database()`))
    for (const { pid } of backends) {
      try {
        micros.set(pid, procStatCpu(`/proc/${pid}/stat`))
      } catch { /* a backend that has just ended */ }
    }
    return micros
  }

  /**
   * The backends' CPU since `before`, each backend's own difference: one that started meanwhile counts whole, and one
   * that ended meanwhile (an autovacuum worker) counts nothing, where the sums' difference had taken its whole past off
   * (off's paced CPU once came out at 21 µs an answer).
   */
  async function backendsCpuSince(before: Map<number, number>): Promise<number> {
    let micros = 0
    for (const [pid, now] of await backendsCpu()) micros += now - (before.get(pid) ?? 0)
    return micros
  }

  /**
   * Where the CPU of a flat-out phase went, in µs: the thread serving HTTP, the rest of this process (PGlite's thread,
   * the collector's helpers, libuv's pool), the PostgreSQL backends, and the load generator. Read before and after.
   */
  async function cpuParts() {
    const usage = process.cpuUsage()
    const serving = servingThreadCpu()
    return { serving, otherThreads: usage.user + usage.system - serving, backends: await backendsCpu(), loadGenerator: childrenCpu() }
  }

  /** Each part's CPU since `before` (cpuParts). */
  async function cpuPartsSince(before: Awaited<ReturnType<typeof cpuParts>>) {
    const after = await cpuParts()
    return {
      serving: after.serving - before.serving, otherThreads: after.otherThreads - before.otherThreads,
      backends: await backendsCpuSince(before.backends), loadGenerator: after.loadGenerator - before.loadGenerator,
    }
  }

  /**
   * CPU of the thread serving HTTP alone, in µs (/proc's entry for the main thread). With the embedded database on a
   * thread of its own, this is what bounds the Advice API's rate where the database's thread has a core to itself.
   */
  function servingThreadCpu(): number {
    return procStatCpu(`/proc/self/task/${process.pid}/stat`)
  }

  /**
   * Writes out the WAL of the flat-out phase just run before the paced one starts. A durable flat-out phase commits
   * some 40,000 records; the checkpoint they call for fell inside the next 10 s paced at 1,000 req/s and held every
   * answer waiting for its commit: durable's p99 came out 17–56 ms in some rounds and 10 ms in others (12, 10 and
   * 13 ms with this). At a steady 1,000 req/s a checkpoint falls every few minutes, far below one answer in a hundred.
   */
  let canCheckpoint = true
  async function checkpoint(): Promise<void> {
    if (!canCheckpoint) return
    try {
      await db.execute(sql`checkpoint`)
    } catch (err) {
      // On a PostgreSQL server, CHECKPOINT needs a superuser or pg_checkpoint; the rounds then run without it.
      canCheckpoint = false
      console.log(`(no checkpoint between phases: ${err instanceof Error ? err.message : String(err)})`)
    }
  }

  console.log(`bench:decisions on ${bench.driver}, ${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(1)}; demo set, ${ROUNDS} rounds of ${SECONDS} s per mode, flat out with ${FLAT_OUT_CONNECTIONS.join(' and ')} connections (the better kept)`)
  const flat: Record<Mode, number[]> = { off: [], best_effort: [], durable: [] }
  const paced: Record<Mode, number[]> = { off: [], best_effort: [], durable: [] }
  const cpuPerAnswer: Record<Mode, number[]> = { off: [], best_effort: [], durable: [] }
  const servingCpuPerAnswer: Record<Mode, number[]> = { off: [], best_effort: [], durable: [] }
  const flatCpu: Record<Mode, Array<Record<'serving' | 'otherThreads' | 'backends' | 'loadGenerator', number>>> = { off: [], best_effort: [], durable: [] }
  await setMode('off')
  await cannon(FLAT_OUT_CONNECTIONS.at(-1)!) // warm-up: compiled set, JIT, connections
  for (let round = 1; round <= ROUNDS; round++) {
    for (const mode of MODES) {
      await setMode(mode)
      let best: { result: Cannon; cpu: Awaited<ReturnType<typeof cpuPartsSince>> } | undefined
      const tried: string[] = []
      for (const connections of FLAT_OUT_CONNECTIONS) {
        const before = await cpuParts()
        const tryResult = await cannon(connections)
        const used = await cpuPartsSince(before)
        tried.push(`${connections} connections ${tryResult.requests.average.toFixed(0)}`)
        if (best && best.result.requests.average >= tryResult.requests.average) continue
        const split = (Object.keys(used) as Array<keyof typeof used>).map((part) => [part, used[part] / tryResult.requests.total] as const)
        best = { result: tryResult, cpu: Object.fromEntries(split) as typeof used }
      }
      const result = best!.result
      flat[mode].push(result.requests.average)
      flatCpu[mode].push(best!.cpu)
      await checkpoint()
      const cpu = await serverCpuMark()
      const serving = servingThreadCpu()
      const pacedResult = await cannon(PACED_CONNECTIONS, ['-R', '1000'])
      // The records of the paced phase are written before its CPU is read, so each mode pays for its own.
      await app.partner.recorder.flush()
      const micros = await serverCpuSince(cpu)
      const servingMicros = servingThreadCpu() - serving
      servingCpuPerAnswer[mode].push(servingMicros / pacedResult.requests.total)
      paced[mode].push(pacedResult.latency.p99)
      cpuPerAnswer[mode].push(micros / pacedResult.requests.total)
      console.log(`round ${round} ${mode.padEnd(11)} flat out ${result.requests.average.toFixed(0).padStart(6)} req/s (p99 ${result.latency.p99} ms; ${tried.join(', ')})   paced 1,000 req/s: p99 ${pacedResult.latency.p99} ms, server CPU ${(micros / pacedResult.requests.total).toFixed(0)} µs an answer (serving thread ${(servingMicros / pacedResult.requests.total).toFixed(0)})`)
    }
  }
  await app.partner.recorder.flush()
  const off = median(flat.off)
  const ratio = (mode: Mode) => median(flat[mode]) / off
  console.log(`median req/s: off ${off.toFixed(0)}, best effort ${median(flat.best_effort).toFixed(0)} (ratio ${ratio('best_effort').toFixed(2)}, target ≥ 0.85), durable ${median(flat.durable).toFixed(0)} (ratio ${ratio('durable').toFixed(2)}, target ≥ 0.6)`)
  const cpuOff = median(cpuPerAnswer.off)
  const cpuOf = (mode: Mode) => `${median(cpuPerAnswer[mode]).toFixed(0)} µs (off/this ${(cpuOff / median(cpuPerAnswer[mode])).toFixed(2)})`
  console.log(`median server CPU an answer at 1,000 req/s${bench.driver === 'PostgreSQL' ? ' (the app and its database backends)' : ''}: off ${cpuOff.toFixed(0)} µs, best effort ${cpuOf('best_effort')}, durable ${cpuOf('durable')}`)
  const servingOff = median(servingCpuPerAnswer.off)
  const servingOf = (mode: Mode) => `${median(servingCpuPerAnswer[mode]).toFixed(0)} µs (off/this ${(servingOff / median(servingCpuPerAnswer[mode])).toFixed(2)})`
  console.log(`median CPU an answer of the thread serving HTTP alone: off ${servingOff.toFixed(0)} µs, best effort ${servingOf('best_effort')}, durable ${servingOf('durable')}`)
  // Flat out, the two cores are shared by every part: what each took an answer says which part the ratio is paid to.
  for (const mode of MODES) {
    const part = (name: keyof (typeof flatCpu)[Mode][number]) => median(flatCpu[mode].map((cpu) => cpu[name]))
    const total = part('serving') + part('otherThreads') + part('backends') + part('loadGenerator')
    console.log(`flat out, median CPU an answer, ${mode}: serving thread ${part('serving').toFixed(1)} µs, the process's other threads ${part('otherThreads').toFixed(1)}${bench.driver === 'PostgreSQL' ? `, backends ${part('backends').toFixed(1)}` : ''}, load generator ${part('loadGenerator').toFixed(1)}; in all ${total.toFixed(1)} µs`)
  }
  const p99 = (mode: Mode) => median(paced[mode])
  console.log(`median p99 at 1,000 req/s: off ${p99('off')} ms, best effort ${p99('best_effort')} ms, durable ${p99('durable')} ms (durable/off ${(p99('durable') / Math.max(1, p99('off'))).toFixed(2)}, target ≤ 2)`)

  async function recordSize(when: string) {
    const [size] = rowsOf<{ records: number; heap: number; total: number }>(await db.execute(sql`
      select count(*)::int as records,
        (select sum(pg_relation_size(i.inhrelid))::bigint from pg_inherits i join pg_class p on p.oid = i.inhparent where p.relname = 'decision_records') as heap,
        (select sum(pg_total_relation_size(i.inhrelid))::bigint from pg_inherits i join pg_class p on p.oid = i.inhparent where p.relname = 'decision_records') as total
      from decision_records`))
    console.log(`record size on disk ${when}: ${size!.records.toLocaleString('en')} records, ${(Number(size!.heap) / size!.records).toFixed(0)} bytes each in the table, ${(Number(size!.total) / size!.records).toFixed(0)} with its indexes (target ≤ 400)`)
    return size!
  }
  await recordSize('as written')
  // What PostgreSQL's autovacuum does of itself (PGlite has none, and the GIN index's pending list then holds its
  // entries uncompressed until it reaches gin_pending_list_limit, 4 MB, and is merged by an insert).
  await db.execute(sql`vacuum analyze decision_records`)
  const size = await recordSize('after a vacuum')
  const [columns] = rowsOf<Record<string, number>>(await db.execute(sql`
    select avg(pg_column_size(d.*))::int as "whole row", avg(pg_column_size(inputs))::int as inputs, avg(pg_column_size(outcome))::int as outcome,
      avg(pg_column_size(advice_node_ids))::int as "advice node ids", avg(pg_column_size(personal_hashes))::int as "personal hashes",
      avg(pg_column_size(content_type) + pg_column_size(endpoint) + pg_column_size(environment) + pg_column_size(status) + pg_column_size(owner_id))::int as "short texts"
    from decision_records d`))
  const indexes = rowsOf<{ name: string; bytes: number }>(await db.execute(sql`
    select regexp_replace(regexp_replace(ic.relname, '^decision_records_(default|y[0-9]{4}m[0-9]{2})_', ''), 'idx[0-9]*$', 'idx') as name, sum(pg_relation_size(ic.oid))::bigint as bytes
    from pg_inherits i join pg_class p on p.oid = i.inhparent join pg_index x on x.indrelid = i.inhrelid join pg_class ic on ic.oid = x.indexrelid
    where p.relname = 'decision_records' group by 1 order by 1`))
  console.log(`  index bytes per record: ${indexes.map((index) => `${index.name} ${(Number(index.bytes) / size.records).toFixed(0)}`).join(', ')}`)
  console.log(`  average bytes per column: ${Object.entries(columns!).map(([name, bytes]) => `${name} ${bytes}`).join(', ')}`)

  // Part 4: many records of the set (copies of a recorded one, spread over the last 300 days), then the list page.
  const started = performance.now()
  await db.execute(sql`
    insert into decision_records (id, received_at, owner_id, advice_set_id, version_id, version_number, api_key_id, environment, endpoint,
      content_type, inputs, personal_hashes, status, advice_node_ids, has_errors, outcome, engine_micros)
    select gen_random_uuid(), now() - (g * (interval '300 days' / ${RECORDS})), r.owner_id, r.advice_set_id, r.version_id, r.version_number, r.api_key_id,
      r.environment, r.endpoint, r.content_type, r.inputs, r.personal_hashes, r.status, r.advice_node_ids, r.has_errors, r.outcome, r.engine_micros
    from generate_series(1, ${RECORDS}) g, (select * from decision_records limit 1) r`)
  await db.execute(sql`analyze decision_records`)
  console.log(`inserted ${RECORDS.toLocaleString('en')} records in ${((performance.now() - started) / 1000).toFixed(1)} s`)
  const author = logins.find((l) => l.role === 'author')!
  const agent = new HttpAgent(base)
  await agent.signIn(author.email, author.password)
  const listUrl = `/adviceset/${served.adviceSetId}/decisions`
  const first = await agent.request('GET', listUrl)
  if (first.status !== 200) throw new Error(`${listUrl} answered ${first.status}`)
  const older = /href="([^"]*before=[^"]+)"/.exec(first.text)?.[1]?.replace(/&amp;/g, '&')
  const pages: Array<[string, string]> = [['first page', listUrl], ['errors only', `${listUrl}?errors=yes`], ['a month back', `${listUrl}?to=${new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10)}`]]
  if (older) pages.push(['the next page (keyset)', older])
  for (const [name, pageUrl] of pages) {
    const times: number[] = []
    // Two fetches first, not counted: the first reads of a page after a million rows were written find cold caches.
    for (let i = 0; i < 2; i++) await agent.request('GET', pageUrl)
    for (let i = 0; i < 60; i++) {
      const t0 = performance.now()
      const res = await agent.request('GET', pageUrl)
      times.push(performance.now() - t0)
      if (res.status !== 200) throw new Error(`${pageUrl} answered ${res.status}`)
    }
    times.sort((a, b) => a - b)
    console.log(`list page, ${name}: p50 ${times[30]!.toFixed(1)} ms, p95 ${times[57]!.toFixed(1)} ms (target < ${bench.driver === 'PostgreSQL' ? 50 : 150} ms)`)
  }
} finally {
  await app.close()
  await bench.close()
  rmSync(dataDir, { recursive: true, force: true })
}
