// The route authorization matrix (issue 18.1): every registered route has a row (test/api/app/authorization-rows.ts);
// each row is asked by eight principals about A's object, B's object, a public one and B's starter set's (issue 22),
// and answers the status its access profile expects. No answer to a principal outside B ever carries B's marker (nor A's to B's principals).
import t from 'tap'
import { writeFileSync } from 'node:fs'
import type { RouteOptions } from 'fastify'
import type { LightMyRequestResponse } from 'fastify'
import { buildTestApp } from '../../helpers/app.ts'
import type { Agent } from '../../helpers/agent.ts'
import { multipartBody, type UploadFile } from '../../helpers/uploads.ts'
import { A_MARKER, B_MARKER, PRINCIPALS, actorOf, buildWorld, spawn, type ObjectKind, type Principal } from './authorization-world.ts'
import { expected, factsOf, isKey, type Expect } from './authorization-access.ts'
import { Filler } from './authorization-fill.ts'
import { EXCLUDED, ROWS, publicKindOf, starterKindOf, type Row } from './authorization-rows.ts'

// About 9,500 requests (four object columns): ~70 s of CPU on PGlite, many minutes on a busy shared machine.
t.setTimeout(1_200_000)

interface Registered { method: string; url: string; schema: RouteOptions['schema']; tokenScope: boolean }
const registered = new Map<string, Registered>()
const { app, database, config } = await buildTestApp(t, {}, {
  onRoute: (route) => {
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
      // Fastify adds a HEAD route for every GET (answered by the GET handler): the GET row covers it.
      if (method === 'HEAD') continue
      registered.set(`${method} ${route.url}`, { method, url: route.url, schema: route.schema, tokenScope: route.config?.tokenScope !== undefined })
    }
  },
})

const world = await buildWorld(app, database.db, config.secretKey)

t.test('every registered route has a row, and every row a route', async (t) => {
  const missing = [...registered.keys()].filter((k) => !(k in ROWS) && !EXCLUDED.has(k))
  const stale = Object.keys(ROWS).filter((k) => !registered.has(k))
  t.same(missing, [], 'routes without a row in test/api/app/authorization-rows.ts')
  t.same(stale, [], 'rows whose route no longer exists')
})

function statusOk(res: LightMyRequestResponse, want: Expect, api: boolean): boolean {
  const s = res.statusCode
  const location = String(res.headers.location ?? '')
  if (want === 'signin') return api ? s === 401 : (s === 302 || s === 303) && location.startsWith('/login')
  if (Array.isArray(want)) return want.includes(s)
  // 409: the object's state refuses the action (a job already finished, a version not published), after every check of who asks.
  if (want === 'ok') return s < 300 || s === 304 || ((s === 302 || s === 303) && !location.startsWith('/login')) || s === 409
  return s === want
}

async function send(agent: Agent, who: Principal, method: string, url: string, body: unknown, api: boolean, file?: UploadFile): Promise<LightMyRequestResponse> {
  if (file) return sendUpload(agent, who, method, url, body, api, file)
  if (isKey(who)) {
    const headers: Record<string, string> = { authorization: `Bearer ${world.keys[who as 'ownerKey' | 'otherKey']}`, accept: api ? 'application/json' : 'text/html' }
    if (body !== undefined) headers['content-type'] = 'application/json'
    return agent.request({ method, url, headers, payload: body === undefined ? undefined : JSON.stringify(body) })
  }
  if (api) return agent.api(method, url, body)
  if (method === 'GET') return agent.get(url)
  return agent.request({ method, url, form: { _csrf: agent.csrfToken, ...(body as Record<string, string> | undefined) } })
}

/** A multipart upload as the uploader sends it: its CSRF token in a header (/api) or in the form's query (pages). */
async function sendUpload(agent: Agent, who: Principal, method: string, url: string, body: unknown, api: boolean, file: UploadFile): Promise<LightMyRequestResponse> {
  const { payload, contentType } = await multipartBody(file, body as Record<string, string> | undefined)
  const headers: Record<string, string> = { 'content-type': contentType, accept: api ? 'application/json' : 'text/html' }
  if (isKey(who)) headers.authorization = `Bearer ${world.keys[who as 'ownerKey' | 'otherKey']}`
  else if (api) headers['x-csrf-token'] = agent.csrfToken
  const csrf = !isKey(who) && !api ? `${url.includes('?') ? '&' : '?'}_csrf=${encodeURIComponent(agent.csrfToken)}` : ''
  return agent.request({ method, url: url + csrf, headers, payload })
}

/** A page form's refusal shown as a flashed error after a 303 (the follow-up page carries the error notice). */
async function refusedByFlash(who: Principal, res: LightMyRequestResponse, api: boolean): Promise<boolean> {
  const location = String(res.headers.location ?? '')
  if (api || res.statusCode !== 303 || !location.startsWith('/') || location.startsWith('/login')) return false
  return (await world.agents[who].get(location.replace(/#.*/, ''))).body.includes('notice notice-error')
}

/** Whether a row's own body or query names an object of its side (then it gets the own/other/public columns too). */
function namesObject(row: Row): boolean {
  let named = false
  const side = new Proxy(world.sides.own, { get: (target, key) => { if (key !== 'marker') named = true; return target[key as keyof typeof target] } })
  const context = { base: side, who: 'ownerAdmin' as const, world }
  row.body?.(side, context)
  row.query?.(side, context)
  return named
}

let cells = 0
const failures: string[] = []
const kinds: ObjectKind[] = ['own', 'other', 'public', 'starter']

/** MATRIX_ONLY=<regexp> runs only the matching rows (while working on them). */
const only = process.env.MATRIX_ONLY ? new RegExp(process.env.MATRIX_ONLY) : null
// Rows that rewrite their set's content (a version restored into the draft) run after all others.
for (const [key, row] of (Object.entries(ROWS) as Array<[string, Row]>).sort(([, a], [, b]) => Number(!!a.last) - Number(!!b.last))) {
  const route = registered.get(key)
  if (!route || (only && !only.test(key))) continue
  t.test(key, async (t) => {
    const api = route.url.startsWith('/api/')
    const probe = new Filler(world.sides.own, row.id)
    probe.path(route.url)
    probe.object(route.schema?.querystring as never, route.url)
    probe.object(route.schema?.body as never, route.url)
    const objectKinds: ObjectKind[] = probe.usedObject || namesObject(row) ? kinds : ['none']
    const pending: Array<{ line: string; r: { want: Expect; status: number; refusedByFlash: boolean } }> = []
    for (const kind of objectKinds) {
      for (const who of PRINCIPALS) {
        const want = row.expect?.[who]?.[kind] ?? expected(row.access, who, factsOf(kind, publicKindOf(route.url, row), starterKindOf(route.url, row)), { method: route.method, api, tokenScope: route.tokenScope })
        const base = world.sides[kind === 'none' ? 'own' : kind]
        const side = row.fresh && want === 'ok' ? await spawn(app, world, kind, row.fresh, { deleted: row.deleted }) : base
        if (row.prepare && want === 'ok' && who in world.users) await row.prepare(app.deps, actorOf(world.users[who as keyof typeof world.users]), side)
        const fill = new Filler(side, row.id)
        const context = { base, who, world }
        const query = row.query ? row.query(side, context) : fill.object(route.schema?.querystring as never, route.url)
        const body = route.method === 'GET' || route.method === 'DELETE' && !route.schema?.body ? undefined
          : row.body ? row.body(side, context) : route.schema?.body ? fill.object(route.schema.body as never, route.url) : undefined
        const qs = new URLSearchParams(Object.entries(query ?? {}).map(([k, v]) => [k, String(v)])).toString()
        const url = fill.path(route.url, await row.params?.(app.deps)) + (qs ? `?${qs}` : '')
        const agent = row.freshAgent ? await world.newAgent(who) : world.agents[who]
        if (row.prepareAgent && want === 'ok') await row.prepareAgent(agent, side)
        const res = await send(agent, who, route.method, url, body, api, row.upload?.(side))
        cells += 1
        const result = { want, status: res.statusCode, refusedByFlash: await refusedByFlash(who, res, api) }
        if (!statusOk(res, want, api)) pending.push({ r: result, line: `${key} ${who} ${kind}: ${res.statusCode} (want ${want}) ${route.method} ${url} ${res.headers.location ?? ''} ${res.body.slice(0, 160).replace(/\s+/g, ' ')}` })
        if (res.statusCode >= 500 && want !== res.statusCode) t.fail(`${who} ${kind} ${url}: ${res.statusCode}`)
        const foreign = who === 'otherAdmin' || who === 'otherKey' ? A_MARKER : who === 'providerAdmin' ? null : B_MARKER
        const leak = foreign ? res.body.indexOf(foreign) : -1
        if (leak >= 0) t.fail(`${who} ${kind} ${route.method} ${url} shows another owner's object: …${res.body.slice(Math.max(0, leak - 120), leak + 40)}…`)
      }
    }
    // Every allowed cell's body is valid for who asks (a 400 there fails), so a refused cell's status is the refusal's.
    for (const { line, r } of pending) {
      // Publishing forms refuse by flashing the reason and redirecting back (303), as a form without JavaScript must.
      if (r.refusedByFlash && r.want !== 'ok' && r.want !== 'signin') continue
      // A create whose body names another owner's object may refuse it as a bad field (400, naming it): nothing is revealed or written.
      if (row.deny400 && r.status === 400 && r.want !== 'ok' && r.want !== 'signin') continue
      failures.push(line)
    }
    t.pass(`${objectKinds.length} column(s)`)
  })
}

t.test('every cell answers as expected', async (t) => {
  t.comment(`${registered.size} routes (HEAD twins not counted), ${Object.keys(ROWS).length} rows, ${EXCLUDED.size} excluded, ${cells} cells`)
  if (process.env.MATRIX_REPORT) writeFileSync(process.env.MATRIX_REPORT, failures.join('\n'))
  t.same(failures, [], 'cells whose status differs from the expected one')
})
