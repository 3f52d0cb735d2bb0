// Where dictionary entries are used, read from the names kept beside each node (migration 0041): the pages say the same
// whether every node is stale (parsed again on reading, as after the upgrade) or filled in, and a node changed by a write
// that does not refresh its names is stale, not wrong. The JavaScript hash of a node's fields is the database's.
import t from 'tap'
import { eq, sql } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { buildRule, createFormula, createVariable } from '../../helpers/rules.ts'
import { ruleNodes } from '../../../src/db/schema/index.ts'
import { rowsOf } from '../../../src/db/queries/rule-nodes.ts'
import { storeNodeReferences } from '../../../src/db/queries/node-references.ts'
import { fillAllNodeReferences, nodeFieldsHash, nodeReferenceKeys } from '../../../src/services/authoring/node-references.ts'
import { USES_LISTED } from '../../../src/services/authoring/dictionary-page.ts'
import { updateEntity } from '../../../src/services/authoring/entities.ts'
import { createNode, updateNodeContent } from '../../../src/services/authoring/rule-nodes.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
await createOwner(db, { id: 'TF', name: 'Advice Studio' })
const ownerId = await createOwner(db, { name: 'Acme' })
const author = await createUser(db, { ownerId, role: 'author' })
const agent = await signedInAgent(app, author)

const set = await createAdviceSet(db, { ownerId, name: 'Loans' })
const otherSet = await createAdviceSet(db, { ownerId, name: 'Savings' })
const income = await createVariable(db, ownerId, 'Income')
const rate = await createVariable(db, ownerId, 'Rate', { adviceSetId: otherSet.id })
const age = await createVariable(db, ownerId, 'Возраст')
const tax = await createFormula(db, ownerId, 'Tax', '{{Income}} * [[Share]]')
const share = await createFormula(db, ownerId, 'Share', '0.2')
const country = await createVariable(db, 'TF', 'Country')
const { nodes } = await buildRule(db, set.id, 'Eligibility', [
  { type: 'inputRequest', variable: 'Income', question: 'What is your income?' },
  { type: 'condition', expression: 'Income > 1000 && {{Country}} == "NL"', children: [
    { type: 'advice', headline: 'High', text: 'With {{Income}} you pay [[Tax]].' },
  ] },
  { type: 'variableAssignment', expression: 'Rate = 2' },
  { type: 'condition', expression: '{{Income}} >', children: [] },
  { type: 'condition', expression: '{{Возраст}} >= 18 && {{Income}} == {{Income}}' },
])
await buildRule(db, otherSet.id, 'Interest', [{ type: 'condition', expression: '{{Rate}} > 1 && {{Income}} > 0' }])
// More uses of Share than the full list shows with an entry.
await buildRule(db, set.id, 'Shares', Array.from({ length: USES_LISTED + 5 }, (_, i) => ({ type: 'condition' as const, expression: `[[Share]] > ${i}` })))
const entries = [income, rate, age, tax, share, country]

const staleCount = async () => Number(rowsOf(await db.execute(sql`select count(*) as n from rule_nodes
  where ref_hash is distinct from rule_node_ref_hash(type, expression, variable, headline, text, question)`))[0]!.n)
const between = (html: string, from: string, to: string) => html.slice(html.indexOf(from), html.indexOf(to, html.indexOf(from)))

/** What the pages say of uses: the full list's rows (by uses) and each card's where-used section. */
async function whereUsed(): Promise<string[]> {
  const seen: string[] = []
  const index = await agent.get('/admin/dictionary')
  t.equal(index.statusCode, 200)
  seen.push(...entries.map((e) => new RegExp(`<tr data-entity-row="${e.id}">[\\s\\S]*?<td data-cell="uses">(\\d+)</td>`).exec(index.body)?.[1] ?? 'missing'))
  const list = await agent.get('/admin/dictionary/list?sort=uses&dir=desc')
  t.equal(list.statusCode, 200)
  seen.push(between(list.body, '<tbody>', '</tbody>'))
  for (const e of entries) {
    const card = await agent.get(`/card/${e.entityTypeId === 5 ? 'formula' : 'variable'}/${e.id}`)
    t.equal(card.statusCode, 200)
    seen.push(between(card.body, '<section class="entity-card__uses"', '</section>'))
  }
  return seen
}

t.test('the pages say the same with every node stale and with every node filled in', async (t) => {
  t.equal(await staleCount(), nodes.length + 1 + USES_LISTED + 5, 'every new node is stale until filled in')
  const stale = await whereUsed()
  t.same(stale.slice(0, entries.length), ['7', '1', '1', '1', String(USES_LISTED + 5 + 1), '1'],
    'Income: the question, the bare condition, the advice text, the unparsable condition (by its tag), the Cyrillic node, the other set’s condition, Tax')
  t.match(stale[entries.length]!, `data-uses-not-listed="6"`, 'Share lists its first uses and links to the other 6 (5 nodes and the formula Tax)')
  t.equal(await fillAllNodeReferences(db), nodes.length + 1 + USES_LISTED + 5)
  t.equal(await staleCount(), 0)
  const stored = await db.select({ keys: ruleNodes.refKeys }).from(ruleNodes).where(eq(ruleNodes.id, nodes[1]!.id))
  t.same(stored[0]!.keys, ['bare:Income', 'variable:Country'], 'a condition keeps the names it refers to, bare or tagged, sorted')
  t.same(await whereUsed(), stale, 'filled in, every count and list is the same')
})

t.test('a node changed by a write that does not refresh its names is read again, not believed', async (t) => {
  await fillAllNodeReferences(db)
  await db.update(ruleNodes).set({ expression: '{{Rate}} > 3' }).where(eq(ruleNodes.id, nodes[1]!.id))
  t.equal(await staleCount(), 1, 'the changed node is stale')
  const res = await agent.get('/admin/dictionary')
  t.match(res.body, new RegExp(`<tr data-entity-row="${income.id}">[\\s\\S]*?<td data-cell="uses">6</td>`), 'Income lost the use the condition no longer has')
  t.match(res.body, new RegExp(`<tr data-entity-row="${rate.id}">[\\s\\S]*?<td data-cell="uses">1</td>`), 'Rate is limited to the other set: the Loans condition is not its use')
  // Keys stored for the fields as they were before a change stay untrusted: the hash is of the old fields.
  const before = { type: 'condition', expression: '{{Rate}} > 3', variable: null, headline: null, text: null, question: null }
  await db.update(ruleNodes).set({ expression: '{{Rate}} > 4' }).where(eq(ruleNodes.id, nodes[1]!.id))
  await storeNodeReferences(db, [{ id: nodes[1]!.id, keys: [...nodeReferenceKeys(before)], hash: nodeFieldsHash(before) }])
  t.equal(await staleCount(), 1, 'keys of older fields leave the node stale')
  await fillAllNodeReferences(db)
  t.equal(await staleCount(), 0)
})

t.test('a node edited or added by an author is trusted at once, without waiting to be filled in', async (t) => {
  await fillAllNodeReferences(db)
  const actor = { userId: author.id, ownerId, role: 'author' as const, impersonatorId: null }
  await updateNodeContent(app.deps, actor, nodes[0]!.ruleId, nodes[1]!.id, { type: 'condition', expression: '{{Возраст}} > 21' })
  const added = await createNode(app.deps, actor, nodes[0]!.ruleId, { type: 'advice', headline: 'Pay [[Tax]]', text: 'Now.' })
  t.equal(await staleCount(), 0)
  const [row] = await db.select({ keys: ruleNodes.refKeys }).from(ruleNodes).where(eq(ruleNodes.id, added.id))
  t.same(row!.keys, ['formula:Tax'])
  const res = await agent.get('/admin/dictionary')
  t.match(res.body, new RegExp(`<tr data-entity-row="${age.id}">[\\s\\S]*?<td data-cell="uses">2</td>`), 'the edited condition now uses Возраст')
  t.match(res.body, new RegExp(`<tr data-entity-row="${tax.id}">[\\s\\S]*?<td data-cell="uses">2</td>`), 'the new advice uses Tax')
})

t.test('the hash of a node’s fields is the same in JavaScript and in the database', async (t) => {
  const samples = [
    { type: 'advice', expression: null, variable: null, headline: 'Ünïcødé ✓ 😀', text: '', question: null },
    { type: 'condition', expression: 'a\u001fb', variable: '', headline: null, text: 'line\nbreak "quoted" \\ back', question: 'Q?' },
  ]
  for (const s of samples) {
    const [row] = rowsOf(await db.execute(sql`select rule_node_ref_hash(${s.type}, ${s.expression}, ${s.variable}, ${s.headline}, ${s.text}, ${s.question}) as h`))
    t.equal(row!.h, nodeFieldsHash(s))
  }
})

t.test('renaming an entry rewrites every node that uses it, filled in or stale', async (t) => {
  await fillAllNodeReferences(db)
  // One of Share's uses changed by SQL: stale, its names read again.
  const shares = await db.select({ id: ruleNodes.id, expression: ruleNodes.expression }).from(ruleNodes).where(sql`${ruleNodes.expression} like '[[Share]] >%'`)
  await db.update(ruleNodes).set({ expression: '[[Share]] >= 100' }).where(eq(ruleNodes.id, shares[0]!.id))
  const { rewritten } = await updateEntity(app.deps, { userId: author.id, ownerId, role: 'author', impersonatorId: null }, share.id, { reservedName: 'Portion' })
  t.equal(rewritten.nodes.length, USES_LISTED + 5, 'every node that used Share')
  t.same(rewritten.entities, [tax.id], 'and the formula Tax')
  const left = await db.select({ id: ruleNodes.id }).from(ruleNodes).where(sql`${ruleNodes.expression} like '%[[Share]]%'`)
  t.same(left, [], 'no node still names Share')
  t.equal(await staleCount(), 0, 'the rewritten nodes name what they refer to now (the stale one too): none waits for the filler')
})
