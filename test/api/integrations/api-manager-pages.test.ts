// The API manager pages without JavaScript: list, new, edit (save and "Send test request" as form posts), where-used
// and delete (221 while used); rights by role and owner.
import t from 'tap'
import { eq } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { buildRule } from '../../helpers/rules.ts'
import { startLocalServer } from '../../helpers/outbound.ts'
import { externalApis } from '../../../src/db/schema/index.ts'

const server = await startLocalServer(t, (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":{"rate":4.5}}'))
const { app, database } = await buildTestApp(t, { OUTBOUND_ALLOW: `127.0.0.1:${server.port}` })
const db = database.db
const owner = await createOwner(db)
const author = await signedInAgent(app, await createUser(db, { ownerId: owner, role: 'author' }))
const viewer = await signedInAgent(app, await createUser(db, { ownerId: owner, role: 'viewer' }))
const stranger = await signedInAgent(app, await createUser(db, { role: 'admin' }))

const form = (extra: Record<string, string> = {}) => ({
  name: 'Rates', method: 'GET', urlTemplate: `${server.url}/rates/{{Currency}}`, timeoutMs: '2000', cacheTtlSeconds: '60', bodyTemplate: '', sampleResponse: '',
  'headers.0.name': 'X-Key', 'headers.0.value': 'page-secret-123', 'headers.0.secret': 'on', 'headers.1.name': '', 'headers.1.value': '',
  'responseMapping.0.path': '/data/rate', 'responseMapping.0.variable': 'Rate', 'responseMapping.0.dataType': 'number',
  'responseMapping.1.path': '', 'responseMapping.1.variable': '', 'responseMapping.1.dataType': 'number',
  ...extra,
})

let id = 0

t.test('create from the form; the list shows it; viewers see no New button and get 403 on new', async (t) => {
  await author.get('/api-manager/new')
  const created = await author.postForm('/api-manager/new', form())
  t.equal(created.statusCode, 303)
  id = Number(/\/api-manager\/(\d+)\/edit/.exec(created.headers.location as string)?.[1])
  const [row] = await db.select().from(externalApis).where(eq(externalApis.id, id))
  t.equal(row!.name, 'Rates')
  t.same(row!.responseMapping, [{ path: '/data/rate', variable: 'Rate', dataType: 'number' }])
  t.equal(row!.headers[0]!.secret, true)
  const list = await author.get('/api-manager')
  t.match(list.body, `data-external-api-id="${id}"`)
  t.match(list.body, 'New external API')
  const viewed = await viewer.get('/api-manager')
  t.equal(viewed.statusCode, 200)
  t.notMatch(viewed.body, 'New external API')
  t.equal((await viewer.get('/api-manager/new')).statusCode, 403)
  t.equal((await stranger.get(`/api-manager/${id}/edit`)).statusCode, 404)
})

t.test('edit shows the secret masked (never the value); a bad field is named and the typed values are kept', async (t) => {
  const page = await author.get(`/api-manager/${id}/edit`)
  t.equal(page.statusCode, 200)
  t.notMatch(page.body, 'page-secret-123')
  t.match(page.body, 'stored; leave empty to keep')
  await author.get(`/api-manager/${id}/edit`)
  const bad = await author.postForm(`/api-manager/${id}/edit`, form({ name: 'Renamed', timeoutMs: '99999', 'headers.0.value': '' }))
  t.equal(bad.statusCode, 400)
  t.match(bad.body, 'Timeout (ms): a whole number from 100 to 30000.')
  t.match(bad.body, 'value="Renamed"', 'typed values are kept')
  const [row] = await db.select().from(externalApis).where(eq(externalApis.id, id))
  t.equal(row!.name, 'Rates', 'nothing saved')
})

t.test('“Send test request” without JavaScript shows status, body and mapped values, keeping the stored secret', async (t) => {
  await author.get(`/api-manager/${id}/edit`)
  const sent = await author.postForm(`/api-manager/${id}/edit`, form({ action: 'send', 'headers.0.value': '', 'input.Currency': 'EUR' }))
  t.equal(sent.statusCode, 200)
  t.match(sent.body, 'data-test-outcome="ok"')
  t.match(sent.body, /data-test-status>200</)
  t.match(sent.body, /data-mapped-variable="Rate"[\s\S]*?<code>4.5<\/code>/)
  t.equal(server.requests.at(-1)!.headers['x-key'], 'page-secret-123')
  t.equal(server.requests.at(-1)!.url, '/rates/EUR')
  t.notMatch(sent.body, 'page-secret-123')
})

t.test('where used, and delete: 221 with the nodes while used; deleted once free', async (t) => {
  const set = await createAdviceSet(db, { ownerId: owner, name: 'Loans' })
  const { nodes: [node] } = await buildRule(db, set.id, 'Rate rule', [{ type: 'apiCall', apiId: String(id), variable: 'Rate' }])
  const page = await author.get(`/api-manager/${id}/edit`)
  t.match(page.body, `data-use-node="${node!.id}"`)
  const blocked = await author.postForm(`/api-manager/${id}/delete`, {})
  t.equal(blocked.statusCode, 221)
  t.match(blocked.body, 'data-delete-blocked')
  t.match(blocked.body, 'Loans › Rate rule')
  t.equal((await viewer.postForm(`/api-manager/${id}/delete`, {}, { page: '/api-manager' })).statusCode, 403)
  await author.get('/api-manager/new')
  const spare = await author.postForm('/api-manager/new', form({ name: 'Spare' }))
  const spareId = Number(/\/api-manager\/(\d+)\/edit/.exec(spare.headers.location as string)?.[1])
  const deleted = await author.postForm(`/api-manager/${spareId}/delete`, {})
  t.equal(deleted.statusCode, 303)
  t.equal(deleted.headers.location, '/api-manager')
  t.notMatch((await author.get('/api-manager')).body, `data-external-api-id="${spareId}"`)
})
