// Issue 23 defect 3: a Formula node and the dictionary formula it names are one definition. The node keeps no
// expression of its own: an expression sent must be the dictionary's (and is not kept), a different one is refused
// naming where to change it, an unknown formula is refused naming how to create it. Nodes saved before keep theirs
// until changed; the rule page says where the formula lives.
import t from 'tap'
import { eq } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInTeam } from '../../helpers/team.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { buildRule, createFormula, createVariable } from '../../helpers/rules.ts'
import { ruleNodes } from '../../../src/db/schema/index.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const { ownerId, agent } = await signedInTeam(app, db)
const set = await createAdviceSet(db, { ownerId, name: 'Mortgage' })
await createVariable(db, ownerId, 'Income', { dataType: 'number' })
await createVariable(db, ownerId, 'Debts', { dataType: 'number' })
const ratio = await createFormula(db, ownerId, 'Ratio', '{{Debts}} / {{Income}}')
const { rule } = await buildRule(db, set.id, 'Afford', [
  { type: 'inputRequest', variable: 'Income', question: 'Income?' },
  { type: 'inputRequest', variable: 'Debts', question: 'Debts?' },
])
const { rule: older, nodes: [legacy] } = await buildRule(db, set.id, 'Older', [{ type: 'formula', variable: 'Ratio', expression: '{{Debts}} * 2' }])
const url = `/api/rule/${rule.id}/node`
const olderUrl = `/api/rule/${older.id}/node`
const stored = async (id: number) => (await db.select().from(ruleNodes).where(eq(ruleNodes.id, id)))[0]!

t.test('a Formula node names its dictionary formula and keeps no expression', async (t) => {
  const named = await agent.api('POST', url, { type: 'formula', variable: 'Ratio' })
  t.equal(named.statusCode, 201, named.body)
  t.equal(named.json().data.expression, null)
  const same = await agent.api('POST', url, { type: 'formula', variable: '[[Ratio]]', expression: ' ( {{Debts}}/{{Income}} ) ' })
  t.equal(same.statusCode, 201, 'the dictionary\'s expression, however spaced, is accepted')
  t.equal((await stored(same.json().data.id)).expression, null, 'and not kept on the node')
  const run = await agent.api('POST', '/api/rule/debug', { ruleId: rule.id, inputs: { Income: 50000, Debts: 10000 } })
  const trace = run.json().data.result.trace as Array<{ nodeId: string; value: unknown }>
  t.equal(trace.find((entry) => entry.nodeId === String(named.json().data.id))?.value, 0.2, 'the node shows the dictionary formula\'s value')
})

t.test('another expression is refused, naming where the formula is defined', async (t) => {
  const other = await agent.api('POST', url, { type: 'formula', variable: 'Ratio', expression: '{{Debts}} / 12' })
  t.equal(other.statusCode, 400)
  t.equal(other.json().error.field, 'expression')
  t.equal(other.json().error.message, `expression: [[Ratio]] is defined in the dictionary as {{Debts}} / {{Income}}; change it there (PATCH /api/entity/${ratio.id}). A Formula node has no expression of its own.`)
  const unknown = await agent.api('POST', url, { type: 'formula', variable: 'Share', expression: '{{Debts}} / 12' })
  t.equal(unknown.statusCode, 400)
  t.match(unknown.json().error.message, 'expression: [[Share]] is not in the dictionary. Create it there with this expression (POST /api/entity)')
  const bad = await agent.api('POST', url, { type: 'formula', variable: 'Ratio', expression: '{{Debts}} /' })
  t.equal(bad.statusCode, 400, 'a parse error is still named with its position')
  t.match(bad.json().error.message, /^expression: .*position/)
})

t.test('a node saved with its own expression keeps it until it is changed', async (t) => {
  const tagged = await agent.api('PATCH', `${olderUrl}/${legacy!.id}`, { tags: ['needs-work'] })
  t.equal(tagged.statusCode, 200)
  t.equal((await stored(legacy!.id)).expression, '{{Debts}} * 2', 'a change to something else keeps it')
  const cleared = await agent.api('PATCH', `${olderUrl}/${legacy!.id}`, { expression: null })
  t.equal(cleared.statusCode, 200)
  t.equal((await stored(legacy!.id)).expression, null, 'sent null, it uses the dictionary\'s')
})

t.test('the rule page shows the dictionary\'s expression on the node', async (t) => {
  const page = await agent.get(`/adviceset/${set.id}/rule/${older.id}/show`)
  t.match(page.body, /\[\[<span data-entity-id="\d+" data-entity-name="Ratio">Ratio<\/span>\]\]<\/code> = <code>\{\{Debts\}\} \/ \{\{Income\}\}<\/code> <span class="hint">\(defined in the dictionary\)<\/span>/)
  const props = JSON.parse(/data-island="rule-tree" data-props="([^"]+)"/.exec(page.body)![1]!.replace(/&quot;/g, '"').replace(/&amp;/g, '&').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>')) as { entities: Array<{ name: string; expression: string | null }> }
  t.equal(props.entities.find((e) => e.name === 'Ratio')?.expression, '{{Debts}} / {{Income}}', 'the tree island gets formulas with their expressions')
})
