// Issue 23 defect 5: formula values show where variable values show. The debugger lists them (table and trace), a
// node whose evaluation failed is marked on the painted tree, and a scenario may check a formula's value.
import t from 'tap'
import { eq } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInTeam } from '../../helpers/team.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { buildRule, createFormula, createVariable } from '../../helpers/rules.ts'
import { adviceScenarios } from '../../../src/db/schema/index.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const { ownerId, agent } = await signedInTeam(app, db)
const set = await createAdviceSet(db, { ownerId, name: 'Mortgage' })
await createVariable(db, ownerId, 'Income', { dataType: 'number' })
await createVariable(db, ownerId, 'Debts', { dataType: 'number' })
await createFormula(db, ownerId, 'Ratio', '{{Debts}} / {{Income}}')
const { rule, nodes } = await buildRule(db, set.id, 'Afford', [
  { type: 'inputRequest', variable: 'Income', question: 'Your income?' },
  { type: 'inputRequest', variable: 'Debts', question: 'Your debts?' },
  { type: 'formula', variable: 'Share', expression: '{{Debts}} / {{Income}} * 100' },
  { type: 'condition', expression: '[[Ratio]] > 0.4', children: [{ type: 'advice', headline: 'Too much debt' }] },
  { type: 'condition', expression: '[[Ratio]] <= 0.4', children: [{ type: 'advice', headline: 'Fine' }] },
])
await createFormula(db, ownerId, 'Share', '0')
const [, , shareNode, high, , low, fine] = nodes.map((n) => String(n.id))
const debug = `/adviceset/${set.id}/rule/debug?ruleId=${rule.id}`
const scenarios = `/adviceset/${set.id}/advicescenario`

t.test('the debugger shows formula values in the table and on the Formula node', async (t) => {
  const page = await agent.get(`${debug}&input.Income=60000&input.Debts=12000&run=1`)
  t.match(page.body, /<tr data-variable="Ratio" data-kind="formula"><td><code>\[\[Ratio\]\]<\/code><\/td><td><code>0.2<\/code><\/td><td>0.2<\/td><\/tr>/, 'the variables table lists the formula')
  t.match(page.body, new RegExp(`data-node-id="${shareNode}"[^>]*><div class="debug-node-row">[\\s\\S]*?<span class="debug-node-value" title="Value">= 20</span>`), 'the Formula node shows its value')
  const api = (await agent.api('POST', '/api/rule/debug', { ruleId: rule.id, inputs: { Income: 60000, Debts: 12000 } })).json().data
  t.same(api.formulas.Ratio, { value: 0.2, valueFormatted: '0.2' }, '/api/rule/debug sends them beside the result')
})

t.test('a node whose evaluation failed is marked on the tree', async (t) => {
  const page = await agent.get(`${debug}&input.Income=0&input.Debts=12000&run=1`)
  t.match(page.body, new RegExp(`<li id="debug-node-${high}" class="debug-node is-visited is-error" data-node-id="${high}"[^>]*data-error="true">`), 'the condition that failed is marked')
  t.match(page.body, /<span class="debug-node-flag debug-node-error">Error: Cannot divide by zero\.<\/span>/i, 'with what went wrong there')
  t.notMatch(page.body, new RegExp(`id="debug-node-${low}" class="[^"]*is-error`), 'nodes that did not fail are not')
})

t.test('a scenario checks a formula\'s value', async (t) => {
  const form = await agent.get(`${scenarios}/new`)
  t.match(form.body, /<tr data-variable="Ratio" data-kind="formula">[\s\S]*?<code>\[\[Ratio\]\]<\/code>/, '"Variables to check" offers the formula')
  const post = {
    name: 'Checks the ratio', 'input.Income': '60000', 'input.Debts': '12000', 'expected.advice': fine!, 'expected.focus': 'complete',
    'expected.var.Ratio': '1', 'expected.value.Ratio': '',
  }
  const filled = await agent.postForm(`${scenarios}/new`, { ...post, action: 'fill' })
  t.match(filled.body, /name="expected.value.Ratio" value="0.2"/, 'filling from a run gives its value')
  const saved = await agent.postForm(`${scenarios}/new`, { ...post, 'expected.value.Ratio': '0.2' })
  t.equal(saved.statusCode, 303, saved.body.slice(0, 200))
  const [row] = await db.select().from(adviceScenarios).where(eq(adviceScenarios.name, 'Checks the ratio'))
  t.same(row!.expected.variables, { Ratio: 0.2 })
  const run = await agent.postForm(`${scenarios}/test`, { scenarioId: String(row!.id), back: 'show' })
  t.match((await agent.get(run.headers.location as string)).body, 'data-status="pass"', 'a run checks it')

  const wrong = await agent.api('POST', '/api/advicescenario', {
    adviceSetId: set.id, name: 'Wrong ratio', inputs: { Income: 60000, Debts: 12000 }, expected: { advice: [fine], focus: 'complete', variables: { Ratio: 0.3 } },
  })
  t.equal(wrong.statusCode, 201)
  const tested = await agent.api('POST', '/api/advicescenario/test', { adviceSetId: set.id, scenarioIds: [wrong.json().data.id] })
  t.match(tested.json().data.results[0], { status: 'fail', differences: { variables: [{ name: 'Ratio', expected: 0.3, actual: 0.2 }] } }, 'and fails it on a difference')
  const shown = await agent.get(`${scenarios}/${wrong.json().data.id}/show`)
  t.match(shown.body, '[[Ratio]]: expected 0.3, got 0.2', 'written as a formula')
  const unknown = await agent.api('POST', '/api/advicescenario', { adviceSetId: set.id, name: 'x', expected: { variables: { Nope: 1 } } })
  t.equal(unknown.statusCode, 400)
  t.match(unknown.json().error.message, 'expected.variables.Nope: there is no variable {{Nope}} or formula [[Nope]] in this advice set.')
})
