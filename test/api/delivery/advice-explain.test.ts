// Issue 27 point 1: explain=true on the Advice API (query or body, JSON shape only) gives each advice item and the
// focus their reasons — the same reasons the debugger shows for the same answers — to keys allowed to ask (preview
// keys by default, production keys when an admin allows it; 403 otherwise).
import t from 'tap'
import { eq } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent } from '../../helpers/agent.ts'
import { createUser } from '../../helpers/factories.ts'
import { apiKeys } from '../../../src/db/schema/index.ts'
import { partnerCall, partnerFixture, query, RICH_ANSWERS } from './advice-api-setup.ts'

const ctx = await buildTestApp(t)
const f = await partnerFixture(ctx)
const admin = await createUser(f.db, { ownerId: f.ownerId, role: 'admin' })
const author = await createUser(f.db, { ownerId: f.ownerId, role: 'author' })
const url = `/api/advice/${f.set.id}`

interface Reason { nodeId: string; type: string; expression?: string; result: unknown; reads: Array<{ name: string; value: unknown; from: { kind: string; nodeId?: string } }> }
interface Item { nodeId: string; headline: string; reasons?: Reason[] }
interface Data { advice: Item[]; assumptions: Item[]; examples: Item[]; currentFocus: { variable: string; reasons?: Reason[] } | null }
const dataOf = (res: { json(): unknown }) => (res.json() as { data: Data }).data

t.test('a production key is refused explain by default; answers without it carry no reasons', async (t) => {
  const call = partnerCall(ctx, f.production.secret)
  const plain = await call({ url: `${url}?${query(RICH_ANSWERS)}` })
  t.equal(plain.statusCode, 200)
  t.notOk(plain.body.includes('"reasons"'), 'no reasons unless asked')
  const refused = await call({ url: `${url}?${query(RICH_ANSWERS)}&explain=true` })
  t.equal(refused.statusCode, 403)
  t.match(refused.json(), { error: { status: 403, message: /^explain: this API key may not ask for explanations/ } })
  const viaBody = await call({ url, body: { inputs: RICH_ANSWERS, explain: true } })
  t.equal(viaBody.statusCode, 403, 'in the body too')
  t.equal((await call({ url: `${url}?${query(RICH_ANSWERS)}&explain=false` })).statusCode, 200, 'explain=false is always allowed')
  const bad = await call({ url: `${url}?${query(RICH_ANSWERS)}&explain=maybe` })
  t.equal(bad.statusCode, 400)
  t.match(bad.body, /explain/, 'a bad value names the parameter')
})

t.test('a preview key gets reasons on each item and on the focus, the same the debugger shows', async (t) => {
  const call = partnerCall(ctx, f.preview.secret)
  const res = await call({ url: `${url}?${query(RICH_ANSWERS)}&explain=true` })
  t.equal(res.statusCode, 200)
  const data = dataOf(res)
  const max = data.advice.find((item) => item.headline === 'Max out your pension')!
  t.same(max.reasons!.map((r) => r.expression), ['{{Employed}}', '{{Income}} > 50000'], 'the conditions from the root, in order')
  t.same(max.reasons!.map((r) => r.result), [true, true])
  t.same(max.reasons![1]!.reads.map((r) => [r.name, r.value, r.from.kind, r.from.nodeId]), [['Income', 60000, 'answer', String(f.questions.Income.id)]],
    'each read with its value and the question that gave it')
  t.same(data.assumptions[0]!.reasons, [], 'an item at its rule\'s root has no conditions')
  t.ok(data.examples.every((item) => Array.isArray(item.reasons)), 'examples are explained too')

  const agent = await signedInAgent(ctx.app, author)
  const debug = await agent.api('POST', '/api/rule/debug', { adviceSetId: f.set.id, inputs: RICH_ANSWERS })
  t.equal(debug.statusCode, 200)
  const debugged = (debug.json() as { data: { result: Data } }).data.result
  for (const group of ['advice', 'assumptions', 'examples'] as const) {
    t.same(data[group].map((item) => [item.nodeId, item.reasons]), debugged[group].map((item) => [item.nodeId, item.reasons]), `${group}: the debugger's reasons`)
  }

  const { Income: _income, ...withoutIncome } = RICH_ANSWERS
  const asked = dataOf(await call({ url, body: { inputs: withoutIncome, explain: true } }))
  t.equal(asked.currentFocus?.variable, 'Income')
  t.same(asked.currentFocus?.reasons?.map((r) => [r.expression, r.result]), [['{{Employed}}', true]], 'the path that made Income the next question')
  const overridden = await call({ url: `${url}?explain=true`, body: { inputs: RICH_ANSWERS, explain: false } })
  t.notOk(overridden.body.includes('"reasons"'), 'the body\'s explain wins over the query\'s')
  const sparse = dataOf(await call({ url: `${url}?${query(RICH_ANSWERS)}&explain=true&fields[advice]=nodeId,reasons` }))
  t.same(Object.keys(sparse.advice[0]!), ['nodeId', 'reasons'], 'reasons is a field of the sparse fieldsets')
})

t.test('admins allow or refuse explanations per key, through the API and the key\'s form', async (t) => {
  const agent = await signedInAgent(ctx.app, admin)
  const created = await agent.api('POST', '/api/admin/apikey/create', { name: 'Explained production', explain: true })
  t.equal(created.statusCode, 201)
  const { id, secret, explain } = (created.json() as { data: { id: number; secret: string; explain: boolean } }).data
  t.equal(explain, true)
  const call = partnerCall(ctx, secret)
  t.equal((await call({ url: `${url}?${query(RICH_ANSWERS)}&explain=true` })).statusCode, 200, 'allowed on creation')
  const defaults = await agent.api('POST', '/api/admin/apikey/create', { name: 'Default preview', environment: 'preview' })
  t.equal((defaults.json() as { data: { explain: boolean } }).data.explain, true, 'preview keys allow it by default')
  const production = await agent.api('POST', '/api/admin/apikey/create', { name: 'Default production' })
  t.equal((production.json() as { data: { explain: boolean } }).data.explain, false, 'production keys refuse it by default')

  const form = await agent.get(`/admin/apikey/${id}/edit`)
  t.match(form.body, /<option value="allow" selected>Allowed<\/option>/, 'the form shows the setting')
  const saved = await agent.postForm(`/admin/apikey/${id}/edit`, { name: 'Explained production', explain: 'refuse', rateLimit: '600' })
  t.equal(saved.statusCode, 303)
  t.equal((await f.db.select({ explain: apiKeys.explain }).from(apiKeys).where(eq(apiKeys.id, id)))[0]!.explain, false, 'stored')
  t.equal((await call({ url: `${url}?${query(RICH_ANSWERS)}&explain=true` })).statusCode, 403, 'refused at once')
  const activity = await agent.get('/activity')
  t.match(activity.body, 'Explanations', 'the change is in the activity log')
  const bad = await agent.postForm(`/admin/apikey/${id}/edit`, { name: 'Explained production', explain: 'sometimes', rateLimit: '600' })
  t.equal(bad.statusCode, 400)
  t.match(bad.body, 'Explanations: choose Allowed or Refused.')
})
