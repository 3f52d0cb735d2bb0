// Pinned API responses in scenarios (issue 17, with issue 14): a scenario of a set with API Call nodes may pin a
// recorded answer per API, and its runs then use it without calling out; an API it does not pin is called live. The
// form pins, edits and records ("Record from a live call") answers; bad input is named by field.
import t from 'tap'
import { and, eq } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInTeam } from '../../helpers/team.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { buildRule, createVariable } from '../../helpers/rules.ts'
import { startLocalServer } from '../../helpers/outbound.ts'
import { createExternalApiDefinition } from '../../helpers/external-apis.ts'
import { activity, adviceScenarios } from '../../../src/db/schema/index.ts'
import { externalApiRuntime } from '../../../src/services/integrations/api-runtime.ts'

let liveRate = 3.5
const server = await startLocalServer(t, (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { rate: liveRate } })))
const { app, database, config } = await buildTestApp(t, { OUTBOUND_ALLOW: `127.0.0.1:${server.port}` })
const db = database.db
const { ownerId, agent, viewerAgent } = await signedInTeam(app, db)
await createVariable(db, ownerId, 'Amount')
await createVariable(db, ownerId, 'Rate')
const rates = await createExternalApiDefinition(db, config.secretKey, {
  ownerId, name: 'Rates', urlTemplate: `${server.url}/rates?amount={{Amount}}`, cacheTtlSeconds: 300,
  responseMapping: [{ path: '/data/rate', variable: 'Rate', dataType: 'number' }],
})
const set = await createAdviceSet(db, { ownerId, name: 'Loans' })
const { nodes } = await buildRule(db, set.id, 'Loan', [
  { type: 'inputRequest', variable: 'Amount', question: 'How much?' },
  { type: 'apiCall', apiId: String(rates.id), variable: 'Rate', children: [
    { type: 'condition', expression: '{{Rate}} > 4', children: [{ type: 'advice', headline: 'Rates are high' }] },
    { type: 'condition', expression: '{{Rate}} <= 4', children: [{ type: 'advice', headline: 'Rates are low' }] },
  ] },
])
const high = String(nodes.find((n) => n.headline === 'Rates are high')!.id)
const low = String(nodes.find((n) => n.headline === 'Rates are low')!.id)
const apiId = String(rates.id)
const base = `/adviceset/${set.id}/advicescenario`

async function run(scenarioId: number) {
  const res = await agent.api('POST', '/api/advicescenario/test', { adviceSetId: set.id, scenarioIds: [scenarioId] })
  t.equal(res.statusCode, 200)
  return res.json().data.results[0]
}

t.test('a pinned answer is used instead of calling the API; an unpinned API is called live', async (t) => {
  const calls = server.requests.length
  const pinned = await agent.api('POST', '/api/advicescenario', {
    adviceSetId: set.id, name: 'Pinned high', inputs: { Amount: 1000 }, pinnedResponses: { [apiId]: { status: 200, body: { data: { rate: 5 } } } },
  })
  t.equal(pinned.statusCode, 201)
  t.same(pinned.json().data.expected.advice, [high], 'the expected outcome comes from a run with the pinned answer')
  t.same(pinned.json().data.pinnedResponses, { [apiId]: { status: 200, body: { data: { rate: 5 } } } })
  t.match(await run(pinned.json().data.id), { status: 'pass' })
  t.equal(server.requests.length, calls, 'no call went out')

  const live = (await agent.api('POST', '/api/advicescenario', { adviceSetId: set.id, name: 'Live', inputs: { Amount: 2000 } })).json().data
  t.same(live.expected.advice, [low], 'without a pin the API is called: 3.5 is low')
  t.equal(server.requests.length, calls + 1)
  t.match(await run(live.id), { status: 'pass' })
  liveRate = 6
  externalApiRuntime(app.deps).forget(apiId) // the answer is cached for 5 minutes: a new one is fetched now
  t.match(await run(live.id), { status: 'fail', differences: { missingAdvice: [low], unexpectedAdvice: [high] } }, 'a live answer that changed fails the scenario')
  t.match(await run(pinned.json().data.id), { status: 'pass' }, 'the pinned one still passes')
  liveRate = 3.5
  const [row] = await db.select().from(activity).where(and(eq(activity.entityType, 'advicescenario'), eq(activity.entityId, String(pinned.json().data.id))))
  t.match(row!.after, { pinnedResponses: { [apiId]: { status: 200 } } }, 'pins are in the activity log')
})

t.test('bad pinned answers are refused by field', async (t) => {
  const bad = async (pinnedResponses: unknown, field: string, message: string | RegExp) => {
    const res = await agent.api('POST', '/api/advicescenario', { adviceSetId: set.id, name: 'Bad pin', inputs: { Amount: 1 }, pinnedResponses })
    t.equal(res.statusCode, 400, field)
    t.equal(res.json().error.field, field)
    t.match(res.json().error.message, message)
  }
  await bad([1], 'pinnedResponses', 'pinnedResponses: must be an object of recorded answers by external API id.')
  await bad({ 999: { body: {} } }, 'pinnedResponses.999', 'pinnedResponses.999: no API Call node of this advice set calls external API 999.')
  await bad({ [apiId]: { status: 200 } }, `pinnedResponses.${apiId}`, 'must be an object with status and body')
  await bad({ [apiId]: { status: 42, body: {} } }, `pinnedResponses.${apiId}.status`, 'must be an HTTP status from 100 to 599.')
  await bad({ [apiId]: { status: '200', body: {} } }, `pinnedResponses.${apiId}.status`, 'must be an HTTP status from 100 to 599.')
  t.equal((await db.select().from(adviceScenarios).where(eq(adviceScenarios.name, 'Bad pin'))).length, 0)
})

t.test('the form: pin by hand, record from a live call, refuse JSON that is not', async (t) => {
  const form = await agent.get(`${base}/new`)
  t.match(form.body, 'Pinned API responses')
  t.match(form.body, new RegExp(`<fieldset class="scenario-pin" data-api-id="${apiId}">\\s*<legend>Rates</legend>`))

  const calls = server.requests.length
  const recorded = await agent.postForm(`${base}/new`, { name: 'Recorded', 'input.Amount': '500', action: `record:${apiId}` })
  t.equal(recorded.statusCode, 200)
  t.equal(server.requests.length, calls + 1, 'one live call, past the cache')
  t.match(recorded.body, 'The answer of “Rates” was recorded from a live call and is pinned below.')
  t.match(recorded.body, new RegExp(`name="pinned.${apiId}.on" value="1" checked`))
  t.match(recorded.body, /&quot;rate&quot;: 3.5/, 'the answer, escaped in the textarea')

  const unreached = await agent.postForm(`${base}/new`, { name: 'Recorded', action: `record:${apiId}` })
  t.equal(unreached.statusCode, 400)
  t.match(unreached.body, `pinnedResponses.${apiId}: with these answers the run reaches no call of this API.`)

  const notJson = await agent.postForm(`${base}/new`, { name: 'Hand pinned', 'input.Amount': '500', [`pinned.${apiId}.on`]: '1', [`pinned.${apiId}.status`]: '200', [`pinned.${apiId}.body`]: '{ rate: 5 }', action: 'save' })
  t.equal(notJson.statusCode, 400)
  t.match(notJson.body, `pinnedResponses.${apiId}.body: is not JSON`)
  t.match(notJson.body, '{ rate: 5 }', 'what was typed is kept')

  const saved = await agent.postForm(`${base}/new`, {
    name: 'Hand pinned', 'input.Amount': '500', [`pinned.${apiId}.on`]: '1', [`pinned.${apiId}.status`]: '200', [`pinned.${apiId}.body`]: '{ "data": { "rate": 4.5 } }',
    'expected.advice': high, 'expected.focus': 'complete', action: 'save',
  })
  t.equal(saved.statusCode, 303)
  const [row] = await db.select().from(adviceScenarios).where(eq(adviceScenarios.name, 'Hand pinned'))
  t.same(row!.pinnedResponses, { [apiId]: { status: 200, body: { data: { rate: 4.5 } } } })
  const show = await agent.get(`${base}/${row!.id}/show`)
  t.match(show.body, /<strong>Rates<\/strong>: pinned answer, status 200/)
  const edit = await agent.get(`${base}/${row!.id}/edit`)
  t.match(edit.body, /&quot;rate&quot;: 4.5/, 'the edit form shows the pinned answer')
  const unpinned = await agent.postForm(`${base}/${row!.id}/edit`, { name: 'Hand pinned', 'input.Amount': '500', [`pinned.${apiId}.body`]: '{}', 'expected.advice': high, action: 'save' })
  t.equal(unpinned.statusCode, 303)
  t.same((await db.select().from(adviceScenarios).where(eq(adviceScenarios.id, row!.id)))[0]!.pinnedResponses, {}, 'unticked: no longer pinned')
  t.match((await agent.get(`${base}/${row!.id}/show`)).body, 'called live on each run (no pinned answer)')
  t.equal((await viewerAgent.postForm(`${base}/new`, { name: 'Viewer', 'input.Amount': '1', action: `record:${apiId}` }, { page: `${base}/index` })).statusCode, 403, 'viewers record nothing')
})
