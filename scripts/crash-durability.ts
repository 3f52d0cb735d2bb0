// `npm run test:crash`: crash durability on PostgreSQL (issue 18). Starts the app as `npm start` does, in a child
// process, on a fresh database it creates; signs in as an author and writes through the HTTP API from several
// concurrent writers (rules, rule nodes, scenarios, versions), logging every acknowledged (2xx) write with the id it
// returned; SIGKILLs the server at random moments, restarts it, and after each restart checks that every acknowledged
// write is in the database as written. At the end it waits for the search index to catch up (the outbox the app
// applies after commit, and again at start) and compares the PostgreSQL full-text index with the documents the rows
// make. Prints a summary; exits 1 on any loss or a search index that does not converge.
//
// Decision records (issue 26): askers call the Advice API throughout, on a published version, with the owner's records
// durable in odd phases (between restarts) and best effort in even ones. After each restart: every Decision-Id a
// client received in a durable phase must be in the database; in a best-effort phase the records lost are counted and
// must not exceed one flush interval of traffic (what was answered in the last second before the kill, plus the
// batch the kill may have caught being written).
//
//   CRASH_DATABASE_URL=postgres://role:pw@127.0.0.1:5432/db npm run test:crash -- [--kills 20] [--seed 42] [--writers 4] [--keep]
//
// The URL names a role that may CREATE DATABASE (TEST_DATABASE_URL or DATABASE_URL are used when it is not set);
// the database the run creates is dropped at the end unless --keep.
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import postgres from 'postgres'
import { openDatabase, type Db } from '../src/db/client.ts'
import { DOCUMENT_MAPPERS } from '../src/search/documents.ts'
import { createUser } from '../test/helpers/factories.ts'
import { createApiKey } from '../test/helpers/api-keys.ts'
import { publishVersion } from '../test/helpers/publishing.ts'
import { HttpAgent } from '../test/helpers/http-agent.ts'
import { freePort, sharedAppEnv, startAppProcess, type AppProcess } from '../test/helpers/app-process.ts'
import { dropDatabase } from '../test/helpers/drop-database.ts'

export interface CrashOptions {
  /** A PostgreSQL URL whose role may create databases; the run makes its own database beside it. */
  databaseUrl: string
  kills: number
  seed: number
  writers: number
  /** How long the server runs before each kill: a random time in this range (ms), drawn from the seed. */
  upMs: [number, number]
  keep: boolean
  log: (line: string) => void
}

type WriteKind = 'rule' | 'node' | 'scenario' | 'version'

export interface DecisionSummary {
  /** Answers received with a Decision-Id, by mode. */
  answered: { durable: number; best_effort: number }
  /** Durable answers whose record is not in the database after the restart: each is a loss. */
  durableMissing: string[]
  /** Per best-effort kill: records lost, and the traffic of one flush interval before the kill. */
  bestEffortKills: Array<{ kill: number; lost: number; allowed: number }>
}

interface Answered { id: string; at: number }

/** The flush interval best effort promises (services/decisions/recorder.ts writes twice as often, to keep it). */
const FLUSH_INTERVAL_MS = 1_000
/** About 50 answers a second: a flush interval's worth of records in flight at every kill, and the writers keep their share. */
const ASK_EVERY_MS = 20

interface AcknowledgedWrite { kind: WriteKind; id: number; marker: string }

export interface CrashSummary {
  kills: number
  acknowledged: Record<WriteKind, number>
  /** Writes that got no answer because the server died under them (neither acknowledged nor refused). */
  interrupted: number
  /** Writes answered with an error status: each is a bug of the app or of this script. */
  refused: string[]
  /** Acknowledged writes not found as written after a restart. */
  missing: string[]
  decisions: DecisionSummary
  search: { expected: number; indexed: number; missing: number; extra: number; stale: number; pendingTasks: number }
  seconds: number
}

/** mulberry32: a small seeded generator, so a run can be repeated with --seed. */
function seededRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url)
  u.pathname = `/${name}`
  return u.toString()
}

const TABLES: Record<WriteKind, { table: string; marker: string }> = {
  rule: { table: 'rules', marker: 'name' },
  node: { table: 'rule_nodes', marker: 'headline' },
  scenario: { table: 'advice_scenarios', marker: 'name' },
  version: { table: 'versions', marker: 'notes' },
}

/** The acknowledged writes of each kind not found live and as written. */
async function missingWrites(sql: postgres.Sql, writes: AcknowledgedWrite[]): Promise<string[]> {
  const missing: string[] = []
  for (const [kind, { table, marker }] of Object.entries(TABLES) as Array<[WriteKind, { table: string; marker: string }]>) {
    const mine = writes.filter((w) => w.kind === kind)
    if (mine.length === 0) continue
    const deletedColumn = kind === 'version' ? sql`null::timestamptz` : sql`deleted_at`
    const rows = await sql<Array<{ id: number; marker: string | null; deleted: Date | null }>>`
      select id, ${sql(marker)} as marker, ${deletedColumn} as deleted from ${sql(table)} where id in ${sql(mine.map((w) => w.id))}`
    const found = new Map(rows.map((r) => [Number(r.id), r]))
    for (const w of mine) {
      const row = found.get(w.id)
      if (!row) missing.push(`${kind} ${w.id}: not in ${table}`)
      else if (row.deleted !== null) missing.push(`${kind} ${w.id}: deleted`)
      else if (row.marker !== w.marker) missing.push(`${kind} ${w.id}: ${marker} is ${JSON.stringify(row.marker)}, written ${JSON.stringify(w.marker)}`)
    }
  }
  return missing
}

/** Waits for the index outbox to empty, then compares the index with the documents the rows make now. */
async function searchConvergence(db: Db, sql: postgres.Sql, log: (line: string) => void): Promise<CrashSummary['search']> {
  const deadline = Date.now() + 60_000
  let pendingTasks = 0
  for (;;) {
    pendingTasks = Number((await sql<Array<{ n: number }>>`select count(*)::int as n from search_index_tasks`)[0]!.n)
    if (pendingTasks === 0 || Date.now() > deadline) break
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  const expected = new Map<string, string>()
  for (const mapper of DOCUMENT_MAPPERS) {
    for await (const batch of mapper.batches(db, 500)) for (const d of batch) expected.set(d.objectID, d.name)
  }
  const indexed = new Map((await sql<Array<{ id: string; name: string }>>`select object_id as id, hit->>'name' as name from search_documents`).map((r) => [r.id, r.name]))
  let missing = 0
  let stale = 0
  for (const [id, name] of expected) {
    if (!indexed.has(id)) missing++
    else if (indexed.get(id) !== name) stale++
  }
  const extra = [...indexed.keys()].filter((id) => !expected.has(id)).length
  if (missing + stale + extra > 0) log(`search index: ${missing} missing, ${stale} stale, ${extra} extra (of ${expected.size})`)
  return { expected: expected.size, indexed: indexed.size, missing, extra, stale, pendingTasks }
}

export async function crashDurability(opts: CrashOptions): Promise<CrashSummary> {
  const started = performance.now()
  const random = seededRandom(opts.seed)
  const between = ([low, high]: [number, number]) => Math.round(low + random() * (high - low))
  const admin = postgres(opts.databaseUrl, { max: 1, onnotice: () => {} })
  const dbName = `advice_crash_${randomBytes(5).toString('hex')}`
  await admin.unsafe(`CREATE DATABASE ${dbName}`)
  const url = withDatabase(opts.databaseUrl, dbName)
  const database = await openDatabase({ kind: 'postgres', url })
  const sql = postgres(url, { max: 2, onnotice: () => {} })
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'advice-crash-'))
  const writes: AcknowledgedWrite[] = []
  const refused: string[] = []
  const missing = new Set<string>()
  let interrupted = 0
  let app: AppProcess | undefined
  try {
    await database.migrate()
    const author = await createUser(database.db, { role: 'author', name: 'Crash Author' })
    const port = await freePort()
    const start = () => startAppProcess({ env: sharedAppEnv(url), port, dataDir })
    app = await start()
    const agent = new HttpAgent(app.url)
    await agent.signIn(author.email, author.password)
    const setRes = await agent.api('POST', '/api/adviceset', { name: 'Crash durability' })
    if (setRes.status !== 201) throw new Error(`could not create the advice set: ${setRes.status} ${setRes.text}`)
    const adviceSetId: number = setRes.json().data.id
    const { set: asked, secret } = await servedSet(database.db, agent, author.ownerId)
    const decisions: DecisionSummary = { answered: { durable: 0, best_effort: 0 }, durableMissing: [], bestEffortKills: [] }
    let phaseMode: 'durable' | 'best_effort' = 'durable'
    await sql`update owners set decision_mode = ${phaseMode} where id = ${author.ownerId}`
    let phaseAnswers: Answered[] = []

    // Writers pause while the server is down and go on once it is back.
    let up: Promise<void> = Promise.resolve()
    let stopping = false
    let serial = 0
    const rulesOf = Array.from({ length: opts.writers }, () => [] as number[])

    /** One write; the id when it was acknowledged. No answer at all: the server died under it. */
    async function write(kind: WriteKind, marker: string, url: string, body: Record<string, unknown>): Promise<number | undefined> {
      let res
      try {
        res = await agent.api('POST', url, body)
      } catch {
        interrupted++
        return undefined
      }
      if (res.status < 200 || res.status >= 300) {
        refused.push(`${kind} ${url}: ${res.status} ${res.text.slice(0, 200)}`)
        return undefined
      }
      const id = Number(res.json().data.id)
      writes.push({ kind, id, marker })
      return id
    }

    async function writer(index: number): Promise<void> {
      const myRules = rulesOf[index]!
      while (!stopping) {
        await up
        if (stopping) break
        const marker = `w${index}-${++serial}`
        const roll = random()
        if (myRules.length === 0 || roll < 0.1) {
          // Each writer adds nodes only to its own rules, so writers never race for the same sibling positions.
          const ruleId = await write('rule', `Rule ${marker}`, '/api/rule', { adviceSetId, name: `Rule ${marker}` })
          if (ruleId !== undefined) myRules.push(ruleId)
        } else if (roll < 0.75) {
          const ruleId = myRules[Math.floor(random() * myRules.length)]!
          await write('node', marker, `/api/rule/${ruleId}/node`, { type: 'advice', headline: marker, text: `Written by the crash test (${marker})` })
        } else if (roll < 0.95) {
          await write('scenario', marker, '/api/advicescenario', { adviceSetId, name: marker, inputs: {} })
        } else {
          await write('version', marker, '/api/adviceset/publish', { action: 'create', adviceSetId, notes: marker })
        }
      }
    }

    /** Asks the Advice API until stopped, about every ASK_EVERY_MS (paced, so the writers keep their share of the
     * server); keeps every Decision-Id received in this phase. */
    async function asker(): Promise<void> {
      while (!stopping) {
        await up
        if (stopping) break
        await new Promise((resolve) => setTimeout(resolve, ASK_EVERY_MS))
        try {
          const res = await fetch(`${app!.url}/api/advice/${asked}?Amount=${Math.floor(random() * 200)}`, { headers: { authorization: `Bearer ${secret}` } })
          const id = res.headers.get('decision-id')
          await res.arrayBuffer()
          if (res.status !== 200 || !id) refused.push(`advice: ${res.status} ${id ?? 'no Decision-Id'}`)
          else phaseAnswers.push({ id, at: Date.now() })
        } catch {
          interrupted++
        }
      }
    }

    /** After a restart: the phase's answers checked against the records, by the phase's mode. */
    async function checkDecisions(kill: number, killedAt: number): Promise<void> {
      const ids = phaseAnswers.map((a) => a.id)
      const found = new Set(ids.length === 0 ? [] : (await sql<Array<{ id: string }>>`select id::text as id from decision_records where id in ${sql(ids)}`).map((r) => r.id))
      const lost = phaseAnswers.filter((a) => !found.has(a.id))
      decisions.answered[phaseMode] += phaseAnswers.length
      if (phaseMode === 'durable') {
        decisions.durableMissing.push(...lost.map((a) => `kill ${kill}: durable record ${a.id} missing`))
      } else {
        const allowed = phaseAnswers.filter((a) => a.at >= killedAt - FLUSH_INTERVAL_MS).length
        decisions.bestEffortKills.push({ kill, lost: lost.length, allowed })
      }
      phaseAnswers = []
      phaseMode = phaseMode === 'durable' ? 'best_effort' : 'durable'
    }

    const writers = [...Array.from({ length: opts.writers }, (_, i) => writer(i)), asker()]
    for (let kill = 1; kill <= opts.kills; kill++) {
      await new Promise((resolve) => setTimeout(resolve, between(opts.upMs)))
      let resume!: () => void
      up = new Promise((resolve) => { resume = resolve })
      await app.kill()
      const killedAt = Date.now()
      const restarting = performance.now()
      // The next phase's mode, in force from the new instance's first answer.
      await sql`update owners set decision_mode = ${phaseMode === 'durable' ? 'best_effort' : 'durable'} where id = ${author.ownerId}`
      app = await start()
      const restartMs = performance.now() - restarting
      for (const line of await missingWrites(sql, writes)) missing.add(line)
      const mode = phaseMode
      await checkDecisions(kill, killedAt)
      const last = decisions.bestEffortKills.at(-1)
      opts.log(`kill ${kill}/${opts.kills}: ${writes.length} acknowledged writes so far, ${missing.size} missing (restart ${(restartMs / 1000).toFixed(1)} s); ` +
        (mode === 'durable' ? `durable records: ${decisions.durableMissing.length} missing` : `best-effort records lost: ${last!.lost} (one flush interval: ${last!.allowed})`))
      resume()
    }
    stopping = true
    await Promise.all(writers)
    for (const line of await missingWrites(sql, writes)) missing.add(line)
    // The index catches up through the outbox; a start applies whatever a killed instance left.
    const search = await searchConvergence(database.db, sql, opts.log)
    const acknowledged = { rule: 0, node: 0, scenario: 0, version: 0 }
    for (const w of writes) acknowledged[w.kind]++
    return { kills: opts.kills, acknowledged, interrupted, refused, missing: [...missing], decisions, search, seconds: (performance.now() - started) / 1000 }
  } finally {
    await app?.stop()
    await sql.end()
    await database.close()
    if (!opts.keep) await dropDatabase(admin, dbName)
    else opts.log(`kept the database ${dbName}`)
    await admin.end()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

export function crashSummaryFailed(s: CrashSummary): boolean {
  return s.missing.length > 0 || s.refused.length > 0 || s.search.missing + s.search.extra + s.search.stale + s.search.pendingTasks > 0
    || s.decisions.durableMissing.length > 0 || s.decisions.bestEffortKills.some((k) => k.lost > k.allowed)
}

/**
 * A published set the askers ask (an advice item under a condition), made through the API as the writers' objects are
 * (so the search index knows it), and a key without a practical rate limit.
 */
async function servedSet(db: Db, agent: HttpAgent, ownerId: string): Promise<{ set: number; secret: string }> {
  const made = async (url: string, body: Record<string, unknown>): Promise<number> => {
    const res = await agent.api('POST', url, body)
    if (res.status !== 201) throw new Error(`could not make the asked set: POST ${url} answered ${res.status} ${res.text.slice(0, 200)}`)
    return Number(res.json().data.id)
  }
  const set = await made('/api/adviceset', { name: 'Crash decisions' })
  await made('/api/entity', { reservedName: 'Amount', dataType: 'number', adviceSetId: set })
  const rule = await made('/api/rule', { adviceSetId: set, name: 'Amounts' })
  await made(`/api/rule/${rule}/node`, { type: 'inputRequest', variable: 'Amount', question: 'How much?' })
  const condition = await made(`/api/rule/${rule}/node`, { type: 'condition', expression: '{{Amount}} > 100' })
  await made(`/api/rule/${rule}/node`, { type: 'advice', headline: 'A large amount', parentId: condition })
  await made(`/api/rule/${rule}/node`, { type: 'advice', headline: 'Any amount' })
  await publishVersion(db, { adviceSetId: set })
  const { secret } = await createApiKey(db, { ownerId, rateLimit: 100_000 })
  return { set, secret }
}

export function formatCrashSummary(s: CrashSummary): string {
  const total = Object.values(s.acknowledged).reduce((a, b) => a + b, 0)
  return [
    `kills: ${s.kills}`,
    `acknowledged writes: ${total} (${Object.entries(s.acknowledged).map(([k, n]) => `${n} ${k}s`).join(', ')})`,
    `interrupted (no answer, server killed): ${s.interrupted}`,
    `refused (error status): ${s.refused.length}${s.refused.length ? `\n  ${s.refused.slice(0, 10).join('\n  ')}` : ''}`,
    `missing: ${s.missing.length}${s.missing.length ? `\n  ${s.missing.slice(0, 20).join('\n  ')}` : ''}`,
    `decision records: ${s.decisions.answered.durable} durable answers, ${s.decisions.durableMissing.length} of their records missing${s.decisions.durableMissing.length ? `\n  ${s.decisions.durableMissing.slice(0, 10).join('\n  ')}` : ''}; ` +
      `${s.decisions.answered.best_effort} best-effort answers, lost per kill: ${s.decisions.bestEffortKills.map((k) => `${k.lost} (of ≤ ${k.allowed})`).join(', ') || 'none'}`,
    `search index: ${s.search.indexed} documents for ${s.search.expected} expected; ${s.search.missing} missing, ${s.search.stale} stale, ${s.search.extra} extra, ${s.search.pendingTasks} tasks pending`,
    `time: ${s.seconds.toFixed(1)} s`,
  ].join('\n')
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      kills: { type: 'string', default: '20' }, seed: { type: 'string' }, writers: { type: 'string', default: '4' },
      'min-up': { type: 'string', default: '300' }, 'max-up': { type: 'string', default: '2500' }, keep: { type: 'boolean', default: false },
    },
  })
  const databaseUrl = process.env.CRASH_DATABASE_URL || process.env.TEST_DATABASE_URL || process.env.DATABASE_URL
  if (!databaseUrl) {
    console.error('Set CRASH_DATABASE_URL (or TEST_DATABASE_URL) to a PostgreSQL URL whose role may create databases.')
    process.exit(2)
  }
  const seed = values.seed === undefined ? randomBytes(4).readUInt32LE() : Number(values.seed)
  console.log(`crash durability: ${values.kills} kills, ${values.writers} writers, seed ${seed} (repeat with --seed ${seed})`)
  const summary = await crashDurability({
    databaseUrl, kills: Number(values.kills), seed, writers: Number(values.writers),
    upMs: [Number(values['min-up']), Number(values['max-up'])], keep: values.keep, log: (line) => console.log(line),
  })
  console.log(`\n${formatCrashSummary(summary)}`)
  process.exit(crashSummaryFailed(summary) ? 1 : 0)
}

if (import.meta.url === `file://${process.argv[1]}`) await main()
