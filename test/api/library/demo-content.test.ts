// First start in embedded mode: the printed logins work and the author finds a demo advice set whose rule runs.
import t from 'tap'
import { buildTestApp } from '../../helpers/app.ts'
import { Agent } from '../../helpers/agent.ts'
import { eq } from 'drizzle-orm'
import { seedFirstRun } from '../../../src/services/library/demo.ts'
import { demoCurlLine } from '../../../src/services/library/demo-delivery.ts'
import { decisionRecords } from '../../../src/db/schema/index.ts'

const { app } = await buildTestApp(t)

t.test('a first run seeds two logins and the author’s demo advice set', async (t) => {
  const deps = (app as unknown as { deps: Parameters<typeof seedFirstRun>[0] }).deps
  const { logins, served } = await seedFirstRun(deps, { demo: true })
  t.same(logins.map((l) => l.role), ['admin', 'author'])
  t.same(await seedFirstRun(deps, { demo: true }), { logins: [], served: null }, 'a second start seeds nothing')
  const author = logins.find((l) => l.role === 'author')!
  const agent = new Agent(app)
  await agent.signIn(author.email, author.password)
  const library = await agent.get('/library')
  t.match(library.body, 'Retirement readiness')
  const shown = (await agent.api('GET', '/api/adviceset/show')).json()
  const set = shown.data.entries.find((item: { name: string }) => item.name === 'Retirement readiness')
  t.ok(set, 'the demo set is in the author’s library')
  const onTrack = await agent.api('POST', '/api/rule/debug', { adviceSetId: set.id, inputs: { Age: 50, Annual_Income: 40000, Savings: 500000 } })
  t.equal(onTrack.statusCode, 200)
  t.same(onTrack.json().data.result.advice.map((a: { headline: string }) => a.headline), ['You are on track'])
  const short = await agent.api('POST', '/api/rule/debug', { adviceSetId: set.id, inputs: { Age: 40, Annual_Income: 50000, Savings: 1000, Has_Pension: false } })
  t.same(short.json().data.result.advice.map((a: { headline: string }) => a.headline), ['Join a workplace pension'])
  t.same(short.json().data.result.assumptions.map((a: { headline: string }) => a.headline), ['Save a little more each month'])
  t.same(onTrack.json().data.issues ?? [], [], 'the demo has no static-check issues')

  const scenarios = (await agent.api('GET', `/api/advicescenario/adviceset/${set.id}`)).json().data as Array<{ name: string; status: string; expected: unknown }>
  t.ok(scenarios.length >= 3, `the demo set has ${scenarios.length} scenarios`)
  t.same(scenarios.map((s) => s.status), scenarios.map(() => 'pass'), 'every demo scenario has run and passes')
  t.equal(new Set(scenarios.map((s) => JSON.stringify(s.expected))).size, scenarios.length, 'each covers another outcome')
  const rerun = (await agent.api('POST', '/api/advicescenario/test', { adviceSetId: set.id })).json().data
  t.same(rerun.counts, { pass: scenarios.length, fail: 0, error: 0 }, 'and they pass when run again')
  const page = await agent.get(`/adviceset/${set.id}/show`)
  t.match(page.body, `Scenarios (${scenarios.length})`, 'the set page links them with their count')

  // Issue 26, first run: version 1 is published and the printed curl line gets an answer and its record.
  t.equal(served?.adviceSetId, set.id, 'the demo set is the one served')
  t.equal(served?.versionNumber, 1)
  const line = demoCurlLine('http://localhost:3000', served!)
  const [, secret, url] = /^curl -i -H 'Authorization: Bearer ([^']+)' 'http:\/\/localhost:3000([^']+)'$/.exec(line) ?? []
  t.ok(secret && url, `the line is a ready curl command: ${line}`)
  const answer = await app.inject({ method: 'GET', url: url!, headers: { authorization: `Bearer ${secret}` } })
  t.equal(answer.statusCode, 200, 'the Advice API answers it')
  t.same(answer.json().data.advice.map((a: { headline: string }) => a.headline), ['Join a workplace pension'], 'with the demo’s advice')
  const decisionId = String(answer.headers['decision-id'])
  await app.partner.recorder.flush()
  const [record] = await deps.db.select().from(decisionRecords).where(eq(decisionRecords.id, decisionId))
  t.equal(record?.versionNumber, 1, 'and its decision record names version 1')
})
