// Issue 18 input fuzzing: every JSON route (/api/…) gets params, queries and bodies built from its own schema plus
// hostile variants, as an admin and as an author of the owner whose real objects the ids name (partner routes with
// the owner's key). Issue 22: every route that takes multipart bodies (pages too) gets hostile ones: cut off, NUL and
// control characters in fields and file names, broken boundaries, oversized declared lengths. Every answer is below
// 500, carries no stack trace or internals, a 4xx changes no row (a trigger counts every row written), and
// Object.prototype stays clean.
import t from 'tap'
import { sql } from 'drizzle-orm'
import { Readable } from 'node:stream'
import { decisionIdAt } from '../../../src/services/decisions/decision-id.ts'
import { insertDecisionRecords } from '../../../src/db/queries/decisions.ts'
import type { FastifyInstance, RouteOptions } from 'fastify'
import { buildTestApp } from '../../helpers/app.ts'
import { Agent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { buildRule, createVariable } from '../../helpers/rules.ts'
import { createApiKey } from '../../helpers/api-keys.ts'
import { waitFor } from '../../helpers/jobs.ts'
import { publishVersion } from '../../helpers/publishing.ts'
import { createExternalApiDefinition } from '../../helpers/external-apis.ts'
import { createAdviceSet } from '../../../src/services/library/advice-sets.ts'
import { createScenario } from '../../../src/services/scenarios/scenarios.ts'
import { createKeywordMap } from '../../../src/services/library/keyword-maps.ts'
import { createLinkSupplement } from '../../../src/services/files/supplements.ts'
import { uploadSupplement } from '../../../src/services/files/uploads.ts'
import {
  HOSTILE_PARAMS, HOSTILE_QUERY_VALUES, HUGE_TEXT, hostileBodies, hostileFieldValues, hostileSample, seededRandom, validValue,
  type GenContext, type JsonSchema, type RawBody,
} from '../../helpers/schema-fuzz.ts'
import { hostileMultipartBodies, type MultipartBody } from '../../helpers/multipart-fuzz.ts'

// About 8,000 requests: ~1.5 min alone on PGlite, more beside other test files on two cores.
t.setTimeout(900_000)

interface FuzzRoute { method: string; url: string; params?: JsonSchema; querystring?: JsonSchema; body?: JsonSchema }

const routes: FuzzRoute[] = []
/** Routes (pages too) registered where a multipart parser is: they may be sent multipart bodies. */
const multipartRoutes: FuzzRoute[] = []
const { app, database, config } = await buildTestApp(t, {}, {
  onRoute: function (this: FastifyInstance, route: RouteOptions) {
    const schema = (route.schema ?? {}) as { params?: JsonSchema; querystring?: JsonSchema; body?: JsonSchema }
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
      if (method === 'HEAD') continue
      if (route.url.startsWith('/api/')) routes.push({ method, url: route.url, params: schema.params, querystring: schema.querystring, body: schema.body })
      if (method !== 'GET' && this.hasContentTypeParser('multipart/form-data')) multipartRoutes.push({ method, url: route.url, params: schema.params })
    }
  },
})
const db = database.db
const rowsOf = <T>(result: unknown): T[] => (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[]

// --- Every row written, counted per table by a trigger (a rolled-back write counts nothing) -------------------------
/**
 * Rows nobody would call data: a session touched by any request from a browser, and (on PostgreSQL) the rate-limit
 * windows every keyed or limited request leases from, refused or not.
 */
const NOT_DATA = new Set(['sessions', 'rate_windows'])
/**
 * Tables written behind the requests, so a write there lands during whichever request runs then: usage counts and
 * interview events flushed every 2 s (api-usage.ts), the job rows the worker updates, the search index worker's. What a
 * job writes elsewhere is waited for (jobsSettled) before the next request is judged.
 */
const WRITTEN_IN_BACKGROUND = new Set(['api_keys', 'api_key_usage', 'interview_event_counts', 'jobs', 'search_index_tasks', 'search_documents', 'search_terms'])
/**
 * Decision records are written by the recorder's flush, into the month's partition (decision_records_y…m…), and their
 * triggers count them in decision_counts.
 */
function writtenInBackground(table: string): boolean {
  return WRITTEN_IN_BACKGROUND.has(table) || table.startsWith('decision_records') || table === 'decision_counts'
}
await db.execute(sql.raw('CREATE TABLE fuzz_writes (tbl text PRIMARY KEY, n bigint NOT NULL)'))
await db.execute(sql.raw(`
  CREATE FUNCTION fuzz_count_write() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO fuzz_writes VALUES (TG_TABLE_NAME, 1) ON CONFLICT (tbl) DO UPDATE SET n = fuzz_writes.n + 1;
    RETURN NULL;
  END $$
`))
const tables = rowsOf<{ table_name: string }>(await db.execute(sql.raw(
  "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> 'fuzz_writes'"
    // A trigger on a partitioned table is made on each of its partitions too (they report their own names).
    + " AND table_name NOT IN (SELECT relname FROM pg_class WHERE relispartition)",
)))
for (const { table_name: table } of tables) {
  if (NOT_DATA.has(table)) continue
  await db.execute(sql.raw(`CREATE TRIGGER fuzz_count_write AFTER INSERT OR UPDATE OR DELETE ON "${table}" FOR EACH ROW EXECUTE FUNCTION fuzz_count_write()`))
}
async function writeCounts(): Promise<Map<string, number>> {
  return new Map(rowsOf<{ tbl: string; n: string }>(await db.execute(sql.raw('SELECT tbl, n FROM fuzz_writes'))).map((r) => [r.tbl, Number(r.n)]))
}
function changedTables(before: Map<string, number>, after: Map<string, number>): string[] {
  return [...after].filter(([table, n]) => !writtenInBackground(table) && (before.get(table) ?? 0) !== n).map(([table]) => table)
}

// --- Real objects of one owner, so ids resolve and handlers go past their lookups ------------------------------------
const acme = await createOwner(db, { name: 'Acme' })
const admin = await createUser(db, { ownerId: acme, role: 'admin', name: 'Ann Admin' })
const author = await createUser(db, { ownerId: acme, role: 'author', name: 'Art Author' })
const actor = { userId: admin.id, ownerId: acme, role: 'admin' as const, impersonatorId: null }
const adviceSet = await createAdviceSet(app.deps, actor, { name: 'Fuzz set' })
const { rule, nodes } = await buildRule(db, adviceSet.id, 'Fuzz rule', [
  { type: 'condition', expression: '{{Age}} >= 65', children: [{ type: 'advice', headline: 'Retire' }] },
  { type: 'variableAssignment', expression: '{{Score}} = {{Age}} * 2' },
  { type: 'ruleExit' },
])
const variable = await createVariable(db, acme, 'Age', { dataType: 'number' })
const { key, secret } = await createApiKey(db, { ownerId: acme, rateLimit: 100_000 })
const version = await publishVersion(db, { adviceSetId: adviceSet.id })
const externalApi = await createExternalApiDefinition(db, config.secretKey, { ownerId: acme, urlTemplate: 'https://api.example/rates' })
const scenario = await createScenario(app.deps, actor, { adviceSetId: adviceSet.id, name: 'Fuzz scenario' })
const keywordMap = await createKeywordMap(app.deps, actor, { name: 'Fuzz map', phrases: ['fuzz'], adviceSetId: adviceSet.id })
const link = await createLinkSupplement(app.deps, actor, { url: 'https://example.com/guide', name: 'Fuzz link' })
await uploadSupplement(app.deps, actor, (async function* () {
  yield { kind: 'file' as const, field: 'file', filename: 'chart.html', stream: Readable.from([Buffer.from('<!doctype html><p>Chart</p>')]) }
})())
// A decision record the key caused, so the partner's read-back goes past its lookup.
const decisionAt = new Date()
const decision = decisionIdAt(decisionAt.getTime())
await insertDecisionRecords(db, [{
  id: decision, receivedAt: decisionAt, ownerId: acme, adviceSetId: adviceSet.id, versionId: version.id, versionNumber: version.number,
  apiKeyId: key.id, environment: 'production', endpoint: 'api', contentType: 'text', inputs: { Age: 70 }, status: 'complete',
  outcome: { items: [], errors: [] }, engineMicros: 10,
}])
const adminAgent = new Agent(app)
await adminAgent.signIn(admin.email, admin.password)
const authorAgent = new Agent(app)
await authorAgent.signIn(author.email, author.password)
const created = async (url: string, body: unknown) => {
  const res = await adminAgent.api('POST', url, body)
  if (res.statusCode >= 300) throw new Error(`fixture ${url}: ${res.statusCode} ${res.body}`)
  return res.json().data
}
const tag = (await created('/api/tags', { label: 'Fuzz tag' })).tag
const category = (await created('/api/adviceset/category', { name: 'Fuzz category' })).category
const audience = (await created(`/api/owner/${acme}/audience`, { name: 'Fuzz audience' })).audience
const comment = (await created(`/api/comment/${nodes[0]!.id}`, { body: 'Fuzz comment' })).comment

/** A real id for a parameter or field name; `:id` depends on the family the route belongs to. */
function idForName(name: string, url: string): unknown {
  switch (name) {
    case 'adviceSetId': case 'ruleSetId': case 'targetId': return adviceSet.id
    case 'ruleId': case 'calledRuleId': case 'answeredByRuleId': return rule.id
    case 'nodeId': case 'ruleNodeId': case 'parentId': return nodes[0]!.id
    case 'versionId': return version.id
    case 'decisionId': return decision
    case 'keyId': return key.id
    case 'scenarioId': case 'adviceScenarioId': return scenario.id
    case 'scenarioIds': return [scenario.id]
    case 'entityId': return variable.id
    case 'audienceId': return audience?.id
    case 'ownerId': return acme
    case 'categoryId': return category?.id
    case 'addTagId': case 'removeTagId': case 'into': return tag?.id
    case 'ids': return [adviceSet.id]
    case 'entityType': return 'variable'
    case 'resFormat': return 'csv'
    case 'id': {
      const family: Array<[string, unknown]> = [
        ['/api/user/', admin.id], ['/api/adviceset/category/', category?.id], ['/api/adviceset/:ruleSetId/ai-user-request/', 1],
        ['/api/adviceset/', adviceSet.id], ['/api/tags/', tag?.id], ['/api/rule/', rule.id], ['/api/entity/type/', variable.entityTypeId],
        ['/api/entity/', variable.id], ['/api/comment/', comment?.id], ['/api/owner/', acme], ['/api/external-api/', externalApi.id],
        ['/api/advicescenario/', scenario.id], ['/api/keywordmap/', keywordMap.id], ['/api/supplements/', link.id],
        ['/api/rule/copy', rule.id], ['/api/adviceset/copy', adviceSet.id],
      ]
      return family.find(([prefix]) => url.startsWith(prefix))?.[1] ?? 1
    }
    default: return undefined
  }
}

/** Waits (on the jobs table, never on time alone) until no job is queued or running. */
async function jobsSettled(): Promise<void> {
  await waitFor('the job queue to settle', async () => {
    const [row] = rowsOf<{ n: string }>(await db.execute(sql.raw("SELECT count(*) AS n FROM jobs WHERE state IN ('queued', 'running')")))
    return Number(row!.n) === 0 ? true : undefined
  }, 60_000)
}

/** The partner API takes a key, never a session. */
const isPartnerRoute = (url: string) => /^\/api\/(advice\/:adviceSetId|dictionary|docs|decision\/)/.test(url)

// --- Sending and judging ----------------------------------------------------------------------------------------------
const STACK_OR_INTERNALS = [
  /\n\s+at .+[(:]/, /\/src\//, /node_modules/, /\.ts:\d+/, /Cannot read propert/, /is not a function/, /is not defined/,
  /Maximum call stack/, /duplicate key/, /violates .* constraint/, /syntax error at/, /relation "/, /PostgresError/,
  /invalid input syntax/, /out of range for type/, /\[object Object\]/, /invalid byte sequence/, /unsupported Unicode/,
]
interface Failure { route: string; who: string; variant: string; status: number; problem: string }
let requestsSent = 0
const statusCounts = new Map<number, number>()

async function send(agent: Agent | null, method: string, url: string, body?: RawBody | MultipartBody): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = { accept: 'application/json' }
  if (agent) headers['x-csrf-token'] = agent.csrfToken
  else headers.authorization = `Bearer ${secret}`
  if (body) headers['content-type'] = body.contentType ?? 'application/json'
  if (body && 'headers' in body) Object.assign(headers, body.headers)
  requestsSent++
  if (agent) {
    const res = await agent.request({ method, url, headers, payload: body?.payload })
    return { status: res.statusCode, text: res.body }
  }
  const res = await app.inject({ method: method as 'GET', url, headers, payload: body?.payload, remoteAddress: '10.99.0.1' })
  return { status: res.statusCode, text: res.body }
}

function concreteUrl(route: FuzzRoute, override: Record<string, string> = {}): string {
  return route.url.replace(/:([A-Za-z]+)/g, (_, name: string) => override[name] ?? encodeURIComponent(String(idForName(name, route.url) ?? 1)))
}

function queryString(values: Record<string, unknown>): string {
  const parts: string[] = []
  for (const [k, v] of Object.entries(values)) {
    if (v === undefined) continue
    for (const item of Array.isArray(v) ? v : [v]) parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(typeof item === 'object' && item !== null ? JSON.stringify(item) : String(item))}`)
  }
  return parts.length ? `?${parts.join('&')}` : ''
}

/**
 * Judges the answers to one route as one user, in the order sent: below 500 (502 is an upstream's failure, reported
 * as such), no internals in the body, no row written by a 4xx, Object.prototype clean. Failures go into `failures`.
 */
function judgeOf(routeName: string, who: string, failures: Failure[]) {
  let counts: Map<string, number> | null = null
  return async (variant: string, sent: () => Promise<{ status: number; text: string }>) => {
    counts ??= await writeCounts()
    const { status, text } = await sent()
    statusCounts.set(status, (statusCounts.get(status) ?? 0) + 1)
    const fail = (problem: string) => failures.push({ route: routeName, who, variant, status, problem })
    if (status >= 500 && status !== 502) fail(`status ${status}: ${text.slice(0, 200)}`)
    // A success echoes the caller's own data, which may say anything; only a stack frame is wrong there too.
    const internal = (status >= 400 ? STACK_OR_INTERNALS : STACK_OR_INTERNALS.slice(0, 1)).find((re) => re.test(text))
    if (internal) fail(`internals in body (${internal}): ${text.slice(0, 200)}`)
    let after = await writeCounts()
    // A success may have queued a job; its rows land later, so wait for the queue before judging the next request.
    if (status < 300 && (after.get('jobs') ?? 0) !== (counts.get('jobs') ?? 0)) {
      await jobsSettled()
      after = await writeCounts()
    }
    if (status >= 400 && status < 500) {
      const changed = changedTables(counts, after)
      if (changed.length) fail(`a ${status} wrote rows in ${changed.join(', ')}`)
    }
    counts = after
    if (({} as Record<string, unknown>).polluted !== undefined || (Object.prototype as Record<string, unknown>).polluted !== undefined) {
      fail('Object.prototype polluted')
      delete (Object.prototype as Record<string, unknown>).polluted
    }
  }
}

/** Whole fuzz of one route as one user; returns what went wrong. */
async function fuzzRoute(route: FuzzRoute, who: 'admin' | 'author' | 'key', seed: number, full: boolean): Promise<Failure[]> {
  const agent = who === 'admin' ? adminAgent : who === 'author' ? authorAgent : null
  const random = seededRandom(seed)
  const ctx: GenContext = { random, idFor: (name) => idForName(name, route.url) }
  const failures: Failure[] = []
  const judge = judgeOf(`${route.method} ${route.url}`, who, failures)
  const attempt = (variant: string, url: string, body?: RawBody) => judge(variant, () => send(agent, route.method, url, body))

  const paramNames = Object.keys(route.params?.properties ?? {})
  const queryProps = route.querystring?.properties ?? {}
  const validQuery = () => (route.querystring ? (validValue(route.querystring, ctx) as Record<string, unknown>) : {})
  const validBody = () => (route.body ? validValue(route.body, ctx) : undefined)
  const asJson = (value: unknown): RawBody | undefined => (route.body ? { label: 'valid', payload: JSON.stringify(value ?? {}) } : undefined)

  // Well-formed requests from the schema.
  for (let i = 0; i < (full ? 4 : 2); i++) await attempt(`valid #${i}`, concreteUrl(route) + queryString(validQuery()), asJson(validBody()))
  if (!full) return failures

  // Hostile path parameters, one parameter at a time.
  for (const name of paramNames) {
    for (const value of hostileSample(random, HOSTILE_PARAMS, 5, 3)) await attempt(`param ${name}=${value.slice(0, 20)}`, concreteUrl(route, { [name]: value }), asJson(validBody()))
  }
  // Hostile query values, one field at a time, plus repeated and prototype-named keys.
  for (const name of Object.keys(queryProps)) {
    for (const value of hostileSample(random, HOSTILE_QUERY_VALUES, 4, 3)) {
      const rest = queryString(validQuery()).replace(/^\?/, '')
      await attempt(`query ${name}=${value.slice(0, 20)}`, `${concreteUrl(route)}?${[rest, `${encodeURIComponent(name)}=${value}`].filter(Boolean).join('&')}`, asJson(validBody()))
    }
    await attempt(`query ${name} twice`, `${concreteUrl(route)}?${name}=1&${name}=2`, asJson(validBody()))
  }
  for (const q of ['__proto__[polluted]=yes', 'constructor[prototype][polluted]=yes', '__proto__=x', 'a[b][c][d][e][f]=1', '%00=%00', '%FF=%FF']) {
    await attempt(`query ${q}`, `${concreteUrl(route)}?${q}`, asJson(validBody()))
  }
  // Hostile body fields: each top-level field takes each hostile value, the rest stay valid.
  if (route.body) {
    const base = validBody()
    const baseObject = base && typeof base === 'object' && !Array.isArray(base) ? (base as Record<string, unknown>) : {}
    const fields = Object.entries(route.body.properties ?? {})
    for (const [field, schema] of fields) {
      for (const value of hostileFieldValues(schema, random, 4)) {
        const others = JSON.stringify(Object.fromEntries(Object.entries(baseObject).filter(([k]) => k !== field))).slice(1, -1)
        const payload = `{${others ? `${others},` : ''}${JSON.stringify(field)}:${value}}`
        await attempt(`body ${field}=${value.slice(0, 30)}`, concreteUrl(route), { label: field, payload })
      }
    }
    const huge = fields.find(([, s]) => s.type === 'string' || (Array.isArray(s.type) && s.type.includes('string')))
    if (huge) {
      await attempt(`body ${huge[0]} = 1 MB`, concreteUrl(route), { label: 'huge', payload: JSON.stringify({ ...baseObject, [huge[0]]: HUGE_TEXT }) })
    }
    await attempt('body with an unknown field', concreteUrl(route), { label: 'unknown', payload: JSON.stringify({ ...baseObject, notAField: 1 }) })
    for (const raw of hostileSample(random, hostileBodies(base), 11, 4)) await attempt(`raw body: ${raw.label}`, concreteUrl(route), raw)
  } else if (route.method !== 'GET' && route.method !== 'DELETE') {
    for (const raw of hostileSample(random, hostileBodies({}), 11, 4)) await attempt(`raw body: ${raw.label}`, concreteUrl(route), raw)
  }
  return failures
}

/** Reads first, then writes, deletes and moves last, so objects stay in place for as long as possible. */
const orderOf = (r: FuzzRoute) => (r.method === 'GET' ? 0 : r.method === 'DELETE' || /delete|transfer|unpublish|merge/.test(r.url) ? 2 : 1)
const ordered = [...routes].sort((a, b) => orderOf(a) - orderOf(b))

t.test(`every JSON route survives schema-built and hostile input (${routes.length} routes)`, { timeout: 900_000 }, async (t) => {
  t.ok(routes.length > 150, `${routes.length} routes collected`)
  const failures: Failure[] = []
  let seed = 18
  for (const route of ordered) {
    if (isPartnerRoute(route.url)) {
      failures.push(...await fuzzRoute(route, 'key', seed++, true))
    } else {
      failures.push(...await fuzzRoute(route, 'admin', seed++, true))
      failures.push(...await fuzzRoute(route, 'author', seed++, false))
    }
  }
  const byRoute = new Map<string, Failure[]>()
  for (const f of failures) byRoute.set(f.route, [...(byRoute.get(f.route) ?? []), f])
  for (const [route, list] of byRoute) t.fail(`${route}: ${list.length} failures`, { first: list.slice(0, 3) })
  t.equal(failures.length, 0, `${requestsSent} requests; statuses ${JSON.stringify(Object.fromEntries([...statusCounts].sort()))}`)
  t.equal(({} as Record<string, unknown>).polluted, undefined, 'Object.prototype is clean')
})

/** The routes that read a multipart body (the uploads) get every hostile body; the others a sample of them. */
const readsMultipart = (url: string) => /^\/api\/supplements\/upload$|^\/api\/adviceset\/import\/table$|^\/(media|visualizations)\/new$/.test(url)

t.test(`every route that takes multipart bodies survives hostile ones (${multipartRoutes.length} routes)`, { timeout: 600_000 }, async (t) => {
  t.ok(multipartRoutes.filter((r) => readsMultipart(r.url)).length === 4, 'the four upload routes are among them')
  const failures: Failure[] = []
  const bodies = hostileMultipartBodies()
  let seed = 22
  for (const route of multipartRoutes) {
    const judge = judgeOf(`${route.method} ${route.url}`, 'admin', failures)
    // The libraries' plain upload form sends its CSRF token in the query (its body is read only after the check).
    const url = concreteUrl(route) + (route.url.startsWith('/api/') ? '' : `?_csrf=${encodeURIComponent(adminAgent.csrfToken)}`)
    const sample = readsMultipart(route.url) ? bodies : hostileSample(seededRandom(seed++), bodies, 1, 8)
    for (const body of sample) await judge(`multipart: ${body.label}`, () => send(adminAgent, route.method, url, body))
  }
  const byRoute = new Map<string, Failure[]>()
  for (const f of failures) byRoute.set(f.route, [...(byRoute.get(f.route) ?? []), f])
  for (const [route, list] of byRoute) t.fail(`${route}: ${list.length} failures`, { first: list.slice(0, 5) })
  t.equal(failures.length, 0, `statuses ${JSON.stringify(Object.fromEntries([...statusCounts].sort()))}`)
})

t.test('what the fuzz found is refused with a 400 that names the problem', async (t) => {
  const raw = (payload: string | Buffer) => adminAgent.request({
    method: 'POST', url: '/api/tags', payload, headers: { accept: 'application/json', 'content-type': 'application/json', 'x-csrf-token': adminAgent.csrfToken },
  })
  const cases: Array<[string, Promise<{ statusCode: number; json(): { error: { message: string; field?: string } } }>, string, RegExp]> = [
    ['NUL in a field', raw('{"label":"a\\u0000b"}'), 'label', /label: must not contain NUL characters/],
    ['a lone surrogate', raw('{"label":"\\ud800"}'), 'label', /label: is not valid Unicode text/],
    ['NUL in a nested field', adminAgent.api('POST', '/api/advicescenario', { adviceSetId: adviceSet.id, inputs: { Age: 'x\u0000' } }), 'inputs.Age', /inputs\.Age: must not contain NUL/],
    ['invalid UTF-8', raw(Buffer.from([0x7b, 0x22, 0x6c, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d])), 'body', /not valid UTF-8/],
    ['deep nesting', raw('['.repeat(65) + ']'.repeat(65)), 'body', /nested too deeply \(more than 64 levels\)/],
    ['a __proto__ key', raw('{"label":"proto-check","__proto__":{"polluted":1}}'), 'body', /reserved field name \(__proto__/],
    ['NUL in a query', adminAgent.api('GET', '/api/entity/typeahead?q=a%00b'), 'q', /q: must not contain NUL/],
    ['NUL in a path parameter', adminAgent.api('GET', '/api/rule/1%00'), 'id', /id: must not contain NUL/],
    ['a whole number past PostgreSQL integer', adminAgent.api('GET', '/api/adviceset/show?tag=99999999999999999999'), 'tag', /tag: must be <= 2147483647/],
  ]
  for (const [what, pending, field, message] of cases) {
    const res = await pending
    t.equal(res.statusCode, 400, `${what}: 400`)
    t.equal(res.json().error.field, field, `${what}: names ${field}`)
    t.match(res.json().error.message, message, `${what}: ${res.json().error.message}`)
  }
  t.ok(rowsOf(await db.execute(sql.raw("SELECT 1 FROM tags WHERE label = 'proto-check'"))).length === 0, 'nothing was saved')
  t.equal(({} as Record<string, unknown>).polluted, undefined)
})
