// API Call nodes in runs (issue 17 point 3): the Advice API of a published set answers with the mapped value from a
// local (allow-listed) server; a server slower than the timeout gives a per-item error and the rest of the advice;
// answers are cached per definition and inputs; the debugger shows each call's request and response; scenario runs
// can pin recorded responses.
import t from 'tap'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { createApiKey } from '../../helpers/api-keys.ts'
import { publishVersion } from '../../helpers/publishing.ts'
import { buildRule, createVariable } from '../../helpers/rules.ts'
import { startLocalServer } from '../../helpers/outbound.ts'
import { createExternalApiDefinition } from '../../helpers/external-apis.ts'
import { insertEntity } from '../../../src/db/queries/entities.ts'
import { ENTITY_TYPES } from '../../../src/engine/index.ts'
import { buildAdviceSetModel } from '../../../src/services/authoring/advice-set-model.ts'
import { runModelWithApis } from '../../../src/services/integrations/api-runtime.ts'

let slowMs = 0
const server = await startLocalServer(t, (req, res) => {
  const url = new URL(req.url ?? '/', 'http://x')
  const answer = () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ rate: url.pathname === '/rates/EUR' ? 4.25 : 3.5, score: 720 }))
  if (url.pathname.startsWith('/slow')) setTimeout(answer, slowMs).unref()
  else answer()
})
const { app, database, config } = await buildTestApp(t, { OUTBOUND_ALLOW: `127.0.0.1:${server.port}` })
const db = database.db
const owner = await createOwner(db, { name: 'Lender' })
const author = await createUser(db, { ownerId: owner, role: 'author' })
const { secret } = await createApiKey(db, { ownerId: owner })

async function freetext(name: string) {
  return insertEntity(db, {
    ownerId: owner, adviceSetId: null, entityTypeId: ENTITY_TYPES.variable.id, reservedName: name, dataType: 'freetext',
    validOptions: [], isClosedSet: false, displayFormat: null, defaultValue: null, expression: null, isConstant: false, description: '', createdBy: null,
  })
}
await freetext('Currency')
await createVariable(db, owner, 'Rate')
await createVariable(db, owner, 'Score')

const rates = await createExternalApiDefinition(db, config.secretKey, {
  ownerId: owner, name: 'Rates', urlTemplate: `${server.url}/rates/{{Currency}}`, cacheTtlSeconds: 300,
  headers: [{ name: 'X-Api-Key', value: 'rates-secret-value', secret: true }],
  responseMapping: [{ path: '/rate', variable: 'Rate', dataType: 'number' }],
})
const scores = await createExternalApiDefinition(db, config.secretKey, {
  ownerId: owner, name: 'Scores', urlTemplate: `${server.url}/slow/score`, timeoutMs: 2000, cacheTtlSeconds: 0,
  responseMapping: [{ path: 'score', variable: 'Score', dataType: 'number' }],
})

const set = await createAdviceSet(db, { ownerId: owner, name: 'Mortgage' })
const { rule: rateRule } = await buildRule(db, set.id, 'Rate', [
  { type: 'inputRequest', variable: 'Currency', question: 'Which currency?' },
  { type: 'apiCall', apiId: String(rates.id), variable: 'Rate', children: [
    { type: 'advice', headline: 'Rate is {{Rate}}', text: 'Sources: {{Data_Api_Sources}}' },
  ] },
])
await buildRule(db, set.id, 'Score', [
  { type: 'apiCall', apiId: String(scores.id), variable: 'Score' },
  { type: 'condition', expression: '{{Score}} > 700', children: [{ type: 'advice', headline: 'Good score' }] },
])
await buildRule(db, set.id, 'Always', [{ type: 'advice', headline: 'Compare offers' }])
await publishVersion(db, { adviceSetId: set.id })

const advice = (currency: string) => app.inject({
  method: 'GET', url: `/api/advice/${set.id}?Currency=${currency}`, headers: { authorization: `Bearer ${secret}`, accept: 'application/json' },
})
const headlines = (body: { data: { advice: Array<{ headline: string }> } }) => body.data.advice.map((a) => a.headline)

t.test('the Advice API answers with the mapped values; calls of one run go out together', async (t) => {
  const before = server.requests.length
  const res = await advice('EUR')
  t.equal(res.statusCode, 200)
  const body = res.json()
  t.same(headlines(body), ['Rate is 4.25', 'Good score', 'Compare offers'])
  t.equal(body.data.variables.Rate.value, 4.25)
  t.same(body.data.errors, [])
  const sources = body.data.variables.Data_Api_Sources.value as string[]
  t.equal(sources.length, 2)
  t.match(sources[0], /^Rates \(fetched [A-Z][a-z]{2} \d{1,2}, \d{4} \d\d:\d\d UTC\)$/, 'the fetch time as the app writes dates, not ISO')
  t.match(sources[1], /^Scores \(fetched /)
  const made = server.requests.slice(before)
  t.same(made.map((r) => r.url).sort(), ['/rates/EUR', '/slow/score'], 'one request per API')
  t.equal(made.find((r) => r.url === '/rates/EUR')!.headers['x-api-key'], 'rates-secret-value', 'the secret header was sent')
})

t.test('answers are cached per definition and inputs for the TTL', async (t) => {
  const before = server.requests.length
  t.same(headlines((await advice('EUR')).json()), ['Rate is 4.25', 'Good score', 'Compare offers'])
  t.same(server.requests.slice(before).map((r) => r.url), ['/slow/score'], 'Rates came from the cache; Scores (TTL 0) was asked again')
  t.same(headlines((await advice('USD')).json()), ['Rate is 3.5', 'Good score', 'Compare offers'])
  t.ok(server.requests.slice(before).some((r) => r.url === '/rates/USD'), 'other inputs are another request')
})

t.test('a server slower than the timeout: a per-item error and the rest of the advice, never a 500', async (t) => {
  slowMs = 5000
  t.teardown(() => { slowMs = 0 })
  const res = await advice('EUR')
  t.equal(res.statusCode, 200)
  const body = res.json()
  t.same(headlines(body), ['Rate is 4.25', 'Compare offers'])
  t.equal(body.data.errors.length, 1)
  t.match(body.data.errors[0], {
    code: 'INCOMPLETE_ADVICE', cause: { code: 'API_TIMEOUT', message: 'The external API "Scores" did not answer within 2000 ms' },
    message: 'Incomplete advice: the rule "Score" could not finish. The external API "Scores" did not answer within 2000 ms.',
  })
})

t.test('the debugger shows each call’s request (secrets masked) and response in the trace', async (t) => {
  const agent = await signedInAgent(app, author)
  const res = await agent.api('POST', '/api/rule/debug', { ruleId: rateRule.id, inputs: { Currency: 'EUR' } })
  t.equal(res.statusCode, 200)
  const entry = res.json().data.result.trace.find((e: { type: string }) => e.type === 'apiCall')
  t.equal(entry.value, 4.25)
  t.equal(entry.api.request.url, `${server.url}/rates/EUR`)
  t.equal(entry.api.request.headers['X-Api-Key'], '••••••')
  t.equal(entry.api.response.status, 200)
  t.same(JSON.parse(entry.api.response.body), { rate: 4.25, score: 720 })
  t.notMatch(res.body, 'rates-secret-value')
  const page = await agent.get(`/adviceset/${set.id}/rule/debug?ruleId=${rateRule.id}&input.Currency=EUR&run=1`)
  t.equal(page.statusCode, 200)
  t.match(page.body, `data-api-call="${rates.id}"`)
  t.match(page.body, `GET ${server.url}/rates/EUR`)
  t.notMatch(page.body, 'rates-secret-value')
  t.match(page.body, /, fetched [A-Z][a-z]{2} \d{1,2}, \d{4} \d\d:\d\d</, 'the fetch time as the app writes dates')
  t.notMatch(page.body, /fetched \d{4}-\d\d-\d\dT/, 'never a raw ISO string')
})

t.test('pinned responses: a run with a recorded answer sends nothing', async (t) => {
  const before = server.requests.length
  const model = await buildAdviceSetModel(db, set.id)
  const run = await runModelWithApis(app.deps, {
    ownerId: owner, model, inputs: { Currency: 'EUR' }, options: { render: true },
    pinned: new Map([[String(rates.id), { body: { rate: 9.99 } }], [String(scores.id), { body: '{"score": 100}' }]]),
  })
  t.same(run.result.advice.map((a) => a.headline), ['Rate is 9.99', 'Compare offers'])
  t.equal(server.requests.length, before, 'no request was made')
  t.same(run.exchanges.map((e) => [e.answer.name, e.answer.pinned, e.value]), [['Rates', true, 9.99], ['Scores', true, 100]])
})

t.test('a call to another owner’s definition or an unknown id is a per-item error', async (t) => {
  const stranger = await createOwner(db)
  const theirs = await createExternalApiDefinition(db, config.secretKey, { ownerId: stranger, urlTemplate: `${server.url}/rates/X`, responseMapping: [{ path: '/rate', variable: 'Rate', dataType: 'number' }] })
  const other = await createAdviceSet(db, { ownerId: owner, name: 'Borrowed' })
  await buildRule(db, other.id, 'Borrow', [{ type: 'apiCall', apiId: String(theirs.id), variable: 'Rate' }, { type: 'advice', headline: 'After {{Rate}}' }])
  const model = await buildAdviceSetModel(db, other.id)
  const run = await runModelWithApis(app.deps, { ownerId: owner, model, inputs: {}, options: {} })
  t.same(run.result.advice, [])
  t.equal(run.result.errors[0]!.cause?.code, 'API_UNKNOWN')
})
