// Issue 23 defect 6: numbers are read one way everywhere. The debugger's form and the scenario form take what the
// embed takes ("60,000", "$60,000", "4.2%"), say so with the embed's hint, and read it with the engine's parser.
import t from 'tap'
import { eq } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInTeam } from '../../helpers/team.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { buildRule, createVariable } from '../../helpers/rules.ts'
import { adviceScenarios } from '../../../src/db/schema/index.ts'
import { INPUT_TYPES } from '../../../src/engine/index.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const { ownerId, agent } = await signedInTeam(app, db)
const set = await createAdviceSet(db, { ownerId, name: 'Mortgage' })
await createVariable(db, ownerId, 'Income', { dataType: 'number' })
await createVariable(db, ownerId, 'Rate', { dataType: 'percent' })
const { rule, nodes } = await buildRule(db, set.id, 'Afford', [
  { type: 'inputRequest', variable: 'Income', question: 'Your income?' },
  { type: 'inputRequest', variable: 'Rate', question: 'The rate?' },
  { type: 'condition', expression: '{{Income}} == 60000 && {{Rate}} == 0.042', children: [{ type: 'advice', headline: 'Read right' }] },
])
const readRight = String(nodes[3]!.id)
const debug = `/adviceset/${set.id}/rule/debug`
const scenarios = `/adviceset/${set.id}/advicescenario`

/** The answer control of a variable on a page, as rendered. */
function control(body: string, variable: string): string {
  return new RegExp(`<input id="debug-input-${variable}"[^>]*>`).exec(body)?.[0] ?? ''
}

t.test('the debug form: a text box for numbers, with the embed\'s hint', async (t) => {
  const page = await agent.get(`${debug}?ruleId=${rule.id}`)
  t.equal(page.statusCode, 200)
  for (const variable of ['Income', 'Rate']) {
    t.match(control(page.body, variable), 'type="text"', `${variable}: typed as text, so "60,000" is not refused by the browser`)
    t.match(control(page.body, variable), 'inputmode="decimal"')
    t.notMatch(control(page.body, variable), 'type="number"')
  }
  t.match(page.body, INPUT_TYPES.number.description, 'the number hint is the embed\'s')
  t.match(page.body, INPUT_TYPES.percent.description, 'so is the percent hint')
  t.match(page.body, /<input id="debug-input-Rate"[^>]*><span class="debug-percent-sign" aria-hidden="true">%<\/span>/, 'a percent shows its sign, as in the embed')
})

t.test('the debugger runs "$60,000" and "4.2%" as the embed does', async (t) => {
  const query = new URLSearchParams({ ruleId: String(rule.id), 'input.Income': '$60,000', 'input.Rate': '4.2%', run: '1' })
  const page = await agent.get(`${debug}?${query}`)
  t.match(page.body, 'Read right', 'the page run')
  t.match(control(page.body, 'Income'), 'value="$60,000"', 'the answer is kept as typed')
  const api = await agent.api('POST', '/api/rule/debug', { adviceSetId: set.id, inputs: { Income: '60,000', Rate: '4.2%' } })
  t.equal(api.statusCode, 200)
  t.same(api.json().data.result.advice.map((a: { nodeId: string }) => a.nodeId), [readRight], 'and the API run')
})

t.test('the scenario form saves typed numbers as the numbers they are', async (t) => {
  const form = { name: 'Typed', 'input.Income': '$60,000', 'input.Rate': '4.2%', 'expected.advice': readRight, 'expected.focus': 'complete' }
  const saved = await agent.postForm(`${scenarios}/new`, form, { page: `${scenarios}/new` })
  t.equal(saved.statusCode, 303, saved.body.slice(0, 300))
  const [row] = await db.select().from(adviceScenarios).where(eq(adviceScenarios.name, 'Typed'))
  t.same(row?.inputs, { Income: 60000, Rate: 4.2 }, 'stored as an API caller sends them')
  const run = await agent.postForm(`${scenarios}/test`, { scenarioId: String(row!.id), back: 'show' })
  t.match((await agent.get(run.headers.location as string)).body, 'data-status="pass"', 'and the run passes')
  const edit = await agent.get(`${scenarios}/${row!.id}/edit`)
  t.match(control(edit.body, 'Income'), 'type="text"', 'the edit form types numbers as text too')

  const wrong = await agent.postForm(`${scenarios}/new`, { ...form, name: 'Wrong', 'input.Income': '60k' })
  t.equal(wrong.statusCode, 400)
  t.match(wrong.body, /inputs.Income: The answer for \{\{Income\}\} cannot be used: Enter a number, like 42 or 3.5 \(&quot;k&quot; is not part of a number\)/, 'a typo is named as the embed names it')
  t.match(control(wrong.body, 'Income'), 'value="60k"', 'and what was typed is kept')
})
