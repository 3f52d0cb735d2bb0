// /api/external-api: definitions (owner-scoped, soft delete, activity), test requests, where-used and the 221 delete;
// secret header values never in a response, a log line or an activity row.
import t from 'tap'
import { eq } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { Agent, signedInAgent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { buildRule, createVariable } from '../../helpers/rules.ts'
import { startLocalServer } from '../../helpers/outbound.ts'
import { activity, externalApis } from '../../../src/db/schema/index.ts'

const SECRET = 'sk-live-0123456789-very-secret'

const rates = await startLocalServer(t, (req, res) => {
  const url = new URL(req.url ?? '/', 'http://x')
  if (url.pathname === '/rates') {
    if (req.headers.authorization !== `Bearer ${SECRET}`) return void res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}')
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ currency: url.searchParams.get('currency'), data: { rate: 4.25, updated: '2026-01-31' } }))
  } else if (url.pathname === '/text') {
    res.writeHead(200, { 'content-type': 'text/plain' }).end('not json')
  } else res.writeHead(404).end()
})
const logLines: string[] = []
const { app, database } = await buildTestApp(t, { OUTBOUND_ALLOW: `127.0.0.1:${rates.port}` }, { logStream: { write: (line) => { logLines.push(line) } } })
const db = database.db
const acme = await createOwner(db, { name: 'Acme' })
const author = await createUser(db, { ownerId: acme, role: 'author' })
const viewer = await createUser(db, { ownerId: acme, role: 'viewer' })
const other = await createUser(db, { role: 'admin' })
const authorAgent = await signedInAgent(app, author)
const viewerAgent = await signedInAgent(app, viewer)
const otherAgent = await signedInAgent(app, other)

const definition = (overrides: Record<string, unknown> = {}) => ({
  name: 'Rates', method: 'GET', urlTemplate: `${rates.url}/rates?currency={{Currency}}`,
  headers: [{ name: 'Authorization', value: `Bearer ${SECRET}`, secret: true }, { name: 'Accept', value: 'application/json', secret: false }],
  timeoutMs: 2000, cacheTtlSeconds: 60,
  responseMapping: [{ path: '/data/rate', variable: 'Rate', dataType: 'number' }, { path: 'currency', variable: 'Currency_Echo', dataType: 'freetext' }],
  sampleResponse: '{"data":{"rate":1}}',
  ...overrides,
})

let apiId = 0

t.test('create: the secret is stored sealed and answered masked', async (t) => {
  const res = await authorAgent.api('POST', '/api/external-api', definition())
  t.equal(res.statusCode, 201)
  const data = res.json().data
  apiId = data.id
  t.equal(data.name, 'Rates')
  t.same(data.headers, [{ name: 'Authorization', value: '••••••', secret: true }, { name: 'Accept', value: 'application/json', secret: false }])
  const [row] = await db.select().from(externalApis).where(eq(externalApis.id, apiId))
  t.equal(row!.ownerId, acme)
  t.notMatch(JSON.stringify(row!.headers), SECRET, 'not stored in clear')
  t.notMatch(JSON.stringify(row!.headers), 'Bearer', 'the whole value is sealed')
  t.notMatch(res.body, SECRET)
})

t.test('read: list and {id} to the owner’s users; others get 404', async (t) => {
  const list = await viewerAgent.api('GET', '/api/external-api/list', undefined, { csrf: false })
  t.equal(list.statusCode, 200)
  t.same(list.json().data.map((d: { id: number }) => d.id), [apiId])
  t.notMatch(list.body, SECRET)
  const one = await viewerAgent.api('GET', `/api/external-api/${apiId}`, undefined, { csrf: false })
  t.equal(one.json().data.headers[0].value, '••••••')
  t.equal((await otherAgent.api('GET', `/api/external-api/${apiId}`, undefined, { csrf: false })).statusCode, 404)
  t.same((await otherAgent.api('GET', '/api/external-api/list', undefined, { csrf: false })).json().data, [])
  t.equal((await new Agent(app).api('GET', '/api/external-api/list', undefined, { csrf: false })).statusCode, 401)
  t.equal((await viewerAgent.api('GET', '/api/external-api/abc', undefined, { csrf: false })).json().error.message, 'Invalid item id format.')
})

t.test('writes: viewers get 403, other owners 404; nothing changes', async (t) => {
  t.equal((await viewerAgent.api('POST', '/api/external-api', definition({ name: 'Viewer' }))).statusCode, 403)
  t.equal((await viewerAgent.api('PATCH', `/api/external-api/${apiId}`, definition({ name: 'Renamed' }))).statusCode, 403)
  t.equal((await otherAgent.api('PATCH', `/api/external-api/${apiId}`, definition({ name: 'Taken' }))).statusCode, 404)
  t.equal((await otherAgent.api('POST', `/api/external-api/${apiId}/delete`)).statusCode, 404)
  t.equal((await viewerAgent.api('POST', `/api/external-api/${apiId}/send`, { inputs: { Currency: 'EUR' } })).statusCode, 403)
  const [row] = await db.select().from(externalApis).where(eq(externalApis.id, apiId))
  t.equal(row!.name, 'Rates')
})

t.test('bad input is refused naming the field', async (t) => {
  const cases: Array<[Record<string, unknown>, string, RegExp]> = [
    [{ name: '  ' }, 'name', /Name is required/],
    [{ method: 'TRACE' }, 'method', /Method: one of GET, POST/],
    [{ urlTemplate: 'ftp://x/{{A}}' }, 'urlTemplate', /http:\/\/ or https:\/\//],
    [{ urlTemplate: 'https://{{Host}}/x' }, 'urlTemplate', /host cannot come from a placeholder/],
    [{ urlTemplate: 'https://api.example/[[Formula]]' }, 'urlTemplate', /formula/],
    [{ headers: [{ name: 'Bad Header', value: 'x' }] }, 'headers.0', /not a header name/],
    [{ headers: [{ name: 'Host', value: 'evil.example' }] }, 'headers.0', /set by the connection/],
    [{ headers: [{ name: 'X-Key', value: '', secret: true }] }, 'headers.0', /give the secret value of X-Key/],
    [{ timeoutMs: 60_000 }, 'timeoutMs', /from 100 to 30000/],
    [{ cacheTtlSeconds: -1 }, 'cacheTtlSeconds', /0 to 86400/],
    [{ responseMapping: [{ path: '/a', variable: 'not a name' }] }, 'responseMapping.0', /variable name/],
    [{ responseMapping: [{ path: '/a', variable: 'A', dataType: 'money' }] }, 'responseMapping.0', /data type must be one of/],
    [{ responseMapping: [{ path: 'a..b', variable: 'A' }] }, 'responseMapping.0', /cannot read/],
    [{ sampleResponse: '{not json' }, 'sampleResponse', /must be JSON/],
  ]
  for (const [change, field, message] of cases) {
    const res = await authorAgent.api('POST', '/api/external-api', definition(change))
    t.equal(res.statusCode, 400, field)
    t.equal(res.json().error.field, field)
    t.match(res.json().error.message, message)
  }
  const unknown = await authorAgent.api('POST', '/api/external-api', { ...definition(), extra: 1 })
  t.equal(unknown.statusCode, 400)
  t.equal(unknown.json().error.field, 'extra')
})

t.test('update: an empty secret keeps the stored one; the test request uses it', async (t) => {
  const res = await authorAgent.api('PATCH', `/api/external-api/${apiId}`, definition({
    name: 'Exchange rates', headers: [{ name: 'Authorization', value: '', secret: true }, { name: 'Accept', value: 'application/json' }],
  }))
  t.equal(res.statusCode, 200)
  t.equal(res.json().data.name, 'Exchange rates')
  const sent = await authorAgent.api('POST', `/api/external-api/${apiId}/send`, { inputs: { Currency: 'EUR' } })
  t.equal(sent.statusCode, 200)
  const data = sent.json().data
  t.equal(data.response.status, 200)
  t.equal(data.error, null)
  t.equal(data.request.url, `${rates.url}/rates?currency=EUR`)
  t.equal(data.request.headers.Authorization, '••••••', 'the request is shown masked')
  t.same(data.mapped.map((m: { variable: string; value: unknown }) => [m.variable, m.value]), [['Rate', 4.25], ['Currency_Echo', 'EUR']])
  t.notMatch(sent.body, SECRET)
  t.equal(rates.requests.at(-1)!.headers.authorization, `Bearer ${SECRET}`, 'the API got the real secret')
})

t.test('verify/send: an unsaved definition; values are escaped into the URL; failures are reasons, not 500s', async (t) => {
  const sent = await authorAgent.api('POST', '/api/external-api/verify/send', { definition: definition(), inputs: { Currency: 'E&R=1' } })
  t.equal(sent.statusCode, 200)
  t.equal(sent.json().data.request.url, `${rates.url}/rates?currency=E%26R%3D1`)
  const kept = await authorAgent.api('POST', '/api/external-api/verify/send', { id: apiId, definition: definition({ headers: [{ name: 'Authorization', value: '', secret: true }] }), inputs: { Currency: 'USD' } })
  t.equal(kept.json().data.response.status, 200, 'the stored secret fills the empty one')
  const notJson = await authorAgent.api('POST', '/api/external-api/verify/send', { definition: definition({ urlTemplate: `${rates.url}/text` }) })
  t.equal(notJson.json().data.error.code, 'API_RESPONSE')
  const refused = await authorAgent.api('POST', '/api/external-api/verify/send', { definition: definition({ urlTemplate: 'http://169.254.169.254/latest/{{Currency}}' }), inputs: { Currency: 'x' } })
  t.equal(refused.statusCode, 200)
  t.equal(refused.json().data.error.code, 'API_REFUSED_ADDRESS')
  t.equal(refused.json().data.response, null)
  const missing = await authorAgent.api('POST', '/api/external-api/verify/send', { definition: definition() })
  t.equal(missing.statusCode, 400)
  t.equal(missing.json().error.field, 'inputs.Currency')
})

t.test('where used; delete refused with 221 while a node uses it; then delete and restore', async (t) => {
  const set = await createAdviceSet(db, { ownerId: acme, name: 'Mortgage' })
  await createVariable(db, acme, 'Rate')
  const { rule, nodes: [node] } = await buildRule(db, set.id, 'Rate rule', [{ type: 'apiCall', apiId: String(apiId), variable: 'Rate' }])
  const uses = await authorAgent.api('GET', `/api/external-api/${apiId}/list-uses`, undefined, { csrf: false })
  t.same(uses.json().data.map((u: { nodeId: number; uri: string }) => [u.nodeId, u.uri]), [[node!.id, `/adviceset/${set.id}/rule/${rule.id}/part/${node!.id}`]])
  const blocked = await authorAgent.api('POST', `/api/external-api/${apiId}/delete`)
  t.equal(blocked.statusCode, 221)
  t.equal(blocked.json().error.name, 'Delete Not Allowed')
  t.equal(blocked.json().error.dependents[0].id, node!.id)

  const spare = (await authorAgent.api('POST', '/api/external-api', definition({ name: 'Spare' }))).json().data.id
  t.equal((await authorAgent.api('POST', `/api/external-api/${spare}/delete`)).statusCode, 200)
  t.equal((await authorAgent.api('GET', `/api/external-api/${spare}`, undefined, { csrf: false })).statusCode, 404)
  const restored = await authorAgent.api('POST', `/api/external-api/${spare}/restore`)
  t.equal(restored.statusCode, 200)
  t.equal(restored.json().data.deleted, false)
})

t.test('the secret is in no activity row and no log line', async (t) => {
  const rows = await db.select().from(activity).where(eq(activity.entityType, 'externalapi'))
  t.ok(rows.length >= 4, `${rows.length} activity rows`)
  for (const row of rows) {
    const text = JSON.stringify(row)
    t.notMatch(text, SECRET, `activity ${row.action} has no secret`)
    t.notMatch(text, 'Bearer', `activity ${row.action} has no sealed or clear value`)
  }
  const created = rows.find((r) => r.action === 'create')!
  t.same((created.after as { headers: unknown }).headers, [{ name: 'Authorization', secret: true }, { name: 'Accept', value: 'application/json', secret: false }])
  t.ok(logLines.length > 20, `${logLines.length} log lines read`)
  t.notOk(logLines.some((line) => line.includes(SECRET)), 'no log line holds the secret')
})

t.test('the activity log restores a definition as it was, its secret kept', async (t) => {
  const rows = await db.select().from(activity).where(eq(activity.entityType, 'externalapi'))
  const rename = rows.find((r) => r.action === 'update' && String(r.entityId) === String(apiId))!
  const res = await authorAgent.api('POST', `/api/activity/${rename.id}/restore`)
  t.equal(res.statusCode, 200)
  const [row] = await db.select().from(externalApis).where(eq(externalApis.id, apiId))
  t.equal(row!.name, 'Rates', 'the name before the rename is back')
  const sent = await authorAgent.api('POST', `/api/external-api/${apiId}/send`, { inputs: { Currency: 'EUR' } })
  t.equal(sent.json().data.response.status, 200, 'the stored secret still authorizes')
  const latest = (await db.select().from(activity).where(eq(activity.entityType, 'externalapi'))).at(-1)!
  t.equal(latest.action, 'restore')
  t.notMatch(JSON.stringify(latest), SECRET)
})
