// Requests for advice and interview analytics: the embed's box (only for keys that offer it, rate-limited), the
// team's API and page forms, statuses with the answering rule; events from the Advice API and the embed, batched,
// read back through google-analytics/getEvents and drawn on the set’s page (interviews per embed interview, Advice API
// calls apart as runs: never more completed than started); other owners see none of it.
import t from 'tap'
import { eq } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent } from '../../helpers/agent.ts'
import { createUser } from '../../helpers/factories.ts'
import { adminCast } from '../../helpers/team.ts'
import { createApiKey } from '../../helpers/api-keys.ts'
import { publishVersion } from '../../helpers/publishing.ts'
import { buildPensionSet, createPensionVariables } from '../delivery/advice-api-setup.ts'
import { adviceRequests, interviewEventCounts, rules } from '../../../src/db/schema/index.ts'
import { flushInterviewEvents } from '../../../src/services/delivery/interview-events.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const { providerAdmin, acme, acmeAuthor: author, acmeViewer: viewer, otherAdmin: stranger } = await adminCast(db)
await createPensionVariables(db, acme)
const { set } = await buildPensionSet(db, acme, { isPublic: true })
await publishVersion(db, { adviceSetId: set.id })
const [profileRule] = await db.select().from(rules).where(eq(rules.adviceSetId, set.id))
const { secret: askKey } = await createApiKey(db, { ownerId: acme, adviceRequests: true })
const { secret: plainKey } = await createApiKey(db, { ownerId: acme })

function partner(method: 'GET' | 'POST', url: string, key: string, body?: unknown, ip = '10.9.9.9') {
  return app.inject({ method, url, remoteAddress: ip, headers: { authorization: `Bearer ${key}`, accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) }, payload: body === undefined ? undefined : JSON.stringify(body) })
}

t.test('the embed sends a request for advice only with a key that offers the box, at most 5 a minute per visitor', async (t) => {
  const refused = await partner('POST', `/api/advice/${set.id}/ai-user-request`, plainKey, { text: 'Can I retire at 55?' })
  t.equal(refused.statusCode, 403)
  const sent = await partner('POST', `/api/advice/${set.id}/ai-user-request`, askKey, { text: 'Can I retire at 55?' })
  t.equal(sent.statusCode, 201)
  t.match(sent.json().data, { status: 'open' })
  t.equal((await partner('POST', `/api/advice/${set.id}/ai-user-request`, askKey, { text: '  ' })).statusCode, 400, 'empty text is named')
  for (let i = 0; i < 3; i++) t.equal((await partner('POST', `/api/advice/${set.id}/ai-user-request`, askKey, { text: `Question ${i}` })).statusCode, 201)
  const limited = await partner('POST', `/api/advice/${set.id}/ai-user-request`, askKey, { text: 'One too many' })
  t.equal(limited.statusCode, 429)
  t.ok(Number(limited.headers['retry-after']) >= 1)
  t.equal((await partner('POST', `/api/advice/${set.id}/ai-user-request`, askKey, { text: 'Another visitor' }, '10.9.9.10')).statusCode, 201, 'another visitor is not limited')
  t.equal((await partner('POST', `/api/advice/999999/ai-user-request`, askKey, { text: 'Unknown set' })).statusCode, 404)
  const rows = await db.select().from(adviceRequests).where(eq(adviceRequests.adviceSetId, set.id))
  t.equal(rows.length, 5)
  t.ok(rows.every((r) => r.source === 'embed' && r.status === 'open'))
})

t.test('the team lists, records and answers requests; viewers read; other owners get 404', async (t) => {
  const agent = await signedInAgent(app, author)
  const list = await agent.api('GET', `/api/adviceset/${set.id}/ai-user-request`)
  t.equal(list.statusCode, 200)
  t.equal(list.json().data.length, 5)
  const created = await agent.api('POST', `/api/adviceset/${set.id}/ai-user-request`, { text: 'A client asked about early retirement' })
  t.equal(created.statusCode, 201)
  const id = created.json().data.id
  t.equal((await agent.api('PATCH', `/api/adviceset/${set.id}/ai-user-request/${id}`, { status: 'answered' })).statusCode, 400, 'answered needs a rule')
  const answered = await agent.api('PATCH', `/api/adviceset/${set.id}/ai-user-request/${id}`, { status: 'answered', answeredByRuleId: String(profileRule!.id) })
  t.equal(answered.statusCode, 200)
  t.match(answered.json().data, { status: 'answered', answeredByRuleId: profileRule!.id })
  t.equal((await agent.api('PATCH', `/api/adviceset/${set.id}/ai-user-request/${id}`, { status: 'closed' })).statusCode, 400)
  t.equal((await agent.api('GET', `/api/adviceset/${set.id}/ai-user-request?status=answered`)).json().data.length, 1)

  const viewerAgent = await signedInAgent(app, viewer)
  t.equal((await viewerAgent.api('GET', `/api/adviceset/${set.id}/ai-user-request`)).statusCode, 200)
  t.equal((await viewerAgent.api('POST', `/api/adviceset/${set.id}/ai-user-request`, { text: 'x' })).statusCode, 403)
  t.equal((await viewerAgent.api('PATCH', `/api/adviceset/${set.id}/ai-user-request/${id}`, { status: 'open' })).statusCode, 403)

  const strangerAgent = await signedInAgent(app, stranger)
  const leak = await strangerAgent.api('GET', `/api/adviceset/${set.id}/ai-user-request`)
  t.equal(leak.statusCode, 404, 'a public set’s requests stay with its team')
  t.notMatch(leak.body, 'retire')
  t.equal((await strangerAgent.api('DELETE', `/api/adviceset/${set.id}/ai-user-request/${id}`)).statusCode, 404)
  t.notMatch((await strangerAgent.get(`/adviceset/${set.id}/show`)).body, 'Requests for advice', 'the set page shows them only to the team')
  t.equal((await (await signedInAgent(app, providerAdmin)).api('GET', `/api/adviceset/${set.id}/ai-user-request`)).statusCode, 200)

  const form = await agent.postForm(`/adviceset/${set.id}/ai-user-request`, { text: 'Recorded from the page' }, { page: `/adviceset/${set.id}/show` })
  t.equal(form.statusCode, 303)
  const page = await agent.get(`/adviceset/${set.id}/show`)
  t.match(page.body, 'Recorded from the page')
  t.match(page.body, /data-open-requests>6 open/)
  t.match((await agent.get('/library')).body, 'data-open-requests="6"', 'the library counts the open requests')
  t.notMatch((await (await signedInAgent(app, stranger)).get('/explore')).body, 'open request', 'not for other owners')
  t.equal((await agent.api('DELETE', `/api/adviceset/${set.id}/ai-user-request/${id}`)).statusCode, 200)
  t.equal((await agent.api('GET', `/api/adviceset/${set.id}/ai-user-request/${id}`)).statusCode, 404)

  const exported = await (await signedInAgent(app, await createUser(db, { ownerId: acme, role: 'admin' }))).api('GET', '/api/export/ai-user-requests/data.json')
  t.equal(exported.json().length, 6, 'the export lists the live requests')
})

t.test('interviews come from the embed, one per interview; Advice API calls are counted apart as runs', async (t) => {
  await flushInterviewEvents(db)
  await db.delete(interviewEventCounts)
  const ask = (inputs: object, headers: Record<string, string> = {}) => app.inject({
    method: 'POST', url: `/api/advice/${set.id}`, remoteAddress: '10.9.9.9', payload: JSON.stringify({ inputs }),
    headers: { authorization: `Bearer ${plainKey}`, accept: 'application/json', 'content-type': 'application/json', ...headers },
  })
  // A partner sends all answers at once, seven times: seven runs that reached advice, and no interview.
  for (let i = 0; i < 7; i++) t.equal((await ask({ Age: 40, Employed: true, Income: 60000, Region: 'North' })).statusCode, 200)
  await ask({}) // a partner's run that stops at the first question
  // The embed's interview: its calls are steps (not runs), and it reports the interview itself.
  const embed = { 'x-advice-client': 'embed' }
  await ask({}, embed)
  await ask({ Age: 40, Employed: true, Income: 60000, Region: 'North' }, embed)
  const events = await partner('POST', `/api/advice/${set.id}/events`, plainKey, { events: [
    { event: 'started' },
    { event: 'question_shown', question: 'Age' }, { event: 'question_answered', question: 'Age' },
    { event: 'question_shown', question: 'Employed' }, { event: 'question_answered', question: 'Employed' },
    { event: 'question_shown', question: 'Income' }, { event: 'question_answered', question: 'Income' },
    { event: 'question_shown', question: 'Region' }, { event: 'question_answered', question: 'Region' },
    { event: 'advice_reached' },
    // A second interview, left at the first question.
    { event: 'started' }, { event: 'question_shown', question: 'Age' }, { event: 'abandoned', question: 'Age' },
  ] })
  t.equal(events.statusCode, 202)
  t.equal((await partner('POST', `/api/advice/${set.id}/events`, plainKey, { events: [{ event: 'started', question: 'Age' }] })).statusCode, 400, 'an interview-wide event names no question')
  t.equal((await partner('POST', `/api/advice/${set.id}/events`, plainKey, { events: [{ event: 'question_shown' }] })).statusCode, 400, 'a question event names its question')
  t.equal((await partner('POST', `/api/advice/${set.id}/events`, plainKey, { events: [{ event: 'api_run' }] })).statusCode, 400, 'runs are the server’s to count')
  // Written now, unless the app's two-second timer wrote them first (seen on a slow machine): the totals below read them.
  await flushInterviewEvents(db)

  const agent = await signedInAgent(app, author)
  const res = await agent.api('GET', `/api/google-analytics/getEvents?adviceSetId=${set.id}&days=5`)
  t.equal(res.statusCode, 200)
  const data = res.json().data
  t.same(data.totals, { started: 2, completed: 1, abandoned: 1, questionsShown: 5, questionsAnswered: 4, apiRuns: 8, apiRunsComplete: 7 })
  t.ok(data.totals.completed <= data.totals.started, 'never more completed than started')
  t.equal(data.perDay.length, 5)
  t.same(data.perDay.at(-1), { day: data.perDay.at(-1).day, started: 2, completed: 1, apiRuns: 8 })
  t.same(data.funnel.find((q: { question: string }) => q.question === 'Age'), { question: 'Age', shown: 2, answered: 1, abandoned: 1 })
  t.match(data.funnel.map((q: { question: string }) => q.question), ['Age', 'Employed', 'Income', 'Region'])
  t.equal((await agent.api('GET', `/api/google-analytics/getEvents?adviceSetId=${set.id}&days=7`)).statusCode, 400, 'days outside the timeframes is named')
  t.equal((await (await signedInAgent(app, stranger)).api('GET', `/api/google-analytics/getEvents?adviceSetId=${set.id}`)).statusCode, 404)

  const page = await agent.get(`/adviceset/${set.id}/show?days=15`)
  t.match(page.body, /<dd data-total="started">2<\/dd>/)
  t.match(page.body, /<dd data-total="completed">1<\/dd>/)
  t.match(page.body, /<dd data-total="apiRuns">8<\/dd>/)
  t.match(page.body, /<dd data-total="apiRunsComplete">7<\/dd>/)
  t.match(page.body, /<tr data-question="Age">\s*<th scope="row">Age<\/th><td>2<\/td><td>1<\/td><td>1<\/td>/)
  t.match(page.body, /aria-current="true">15 days/)
  t.match(page.body, /<rect [^>]*data-value="1"/)
})
