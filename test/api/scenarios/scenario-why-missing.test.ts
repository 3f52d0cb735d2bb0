// Issue 27 point 2: a failing scenario's "Missing advice" line gets the debugger's explanation on the scenario's page:
// the condition that stopped its run, with the values it read, and the answers nearest to the scenario's that give the
// advice, linked to the debugger.
import t from 'tap'
import { eq } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { retirementSet } from '../../helpers/scenarios.ts'
import { ruleNodes } from '../../../src/db/schema/index.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const owner = await createOwner(db, { name: 'Acme' })
const author = await signedInAgent(app, await createUser(db, { ownerId: owner, role: 'author' }))
const { set, ids } = await retirementSet(db, owner)

t.test('the scenario page explains its missing advice', async (t) => {
  const created = await author.api('POST', '/api/advicescenario', { adviceSetId: set.id, name: 'Retired at 70', inputs: { Age: 70 } })
  t.equal(created.statusCode, 201)
  const scenarioId = (created.json() as { data: { id: number } }).data.id
  const page = `/adviceset/${set.id}/advicescenario/${scenarioId}/show`
  await author.api('POST', '/api/advicescenario/test', { adviceSetId: set.id })
  t.notMatch((await author.get(page)).body, 'Why the missing advice was not given', 'a passing scenario has nothing to explain')

  await db.update(ruleNodes).set({ expression: '{{Age}} >= 75' }).where(eq(ruleNodes.id, Number(ids.old)))
  const run = await author.api('POST', '/api/advicescenario/test', { adviceSetId: set.id })
  t.equal(run.statusCode, 200)
  const body = (await author.get(page)).body
  t.match(body, 'Missing advice: Retire')
  t.match(body, '<h2 id="debug-not-given-title">Why the missing advice was not given</h2>')
  t.match(body, new RegExp(`<li id="not-given-${ids.retire}" data-not-given="${ids.retire}">`))
  t.match(body, /The condition at node \d+ was false: <a href="#debug-node-\d+"><code>\{\{Age\}\} &gt;= 75<\/code><\/a>/, 'the condition that stopped it')
  t.match(body, /<code>\{\{Age\}\}<\/code> = <strong>70<\/strong> <span class="hint">answered at node/, 'with the value it read')
  t.match(body, /<code>\{\{Age\}\}: 70 → 7\d<\/code>/, 'the one answer to change')
  const link = /href="([^"]+)" data-use-answers="\d+">Try these answers in the debugger/.exec(body)?.[1]?.replace(/&amp;/g, '&')
  t.match(link, `/adviceset/${set.id}/rule/debug?input.Age=7`)
  const debugged = await author.get(link!)
  t.match(debugged.body, /<div class="debug-headline"><span class="debug-body prewrap">Retire<\/span>/, 'the debugger gives the advice with them')
})
