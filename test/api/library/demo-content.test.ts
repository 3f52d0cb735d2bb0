// First start in embedded mode: the printed logins work and the author finds a demo advice set whose rule runs.
import t from 'tap'
import { buildTestApp } from '../../helpers/app.ts'
import { Agent } from '../../helpers/agent.ts'
import { seedFirstRun } from '../../../src/services/library/demo.ts'

const { app } = await buildTestApp(t)

t.test('a first run seeds two logins and the author’s demo advice set', async (t) => {
  const deps = (app as unknown as { deps: Parameters<typeof seedFirstRun>[0] }).deps
  const logins = await seedFirstRun(deps, { demo: true })
  t.same(logins.map((l) => l.role), ['admin', 'author'])
  t.same(await seedFirstRun(deps, { demo: true }), [], 'a second start seeds nothing')
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
})
