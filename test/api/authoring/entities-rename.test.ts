// Issue 5 acceptance: a variable used in 3 conditions, 2 advice texts and 1 formula is renamed; all 6 are rewritten
// in one transaction (each audited) and the engine gives the same advice before and after. Switching a variable to a
// formula rewrites {{X}} to [[X]].
import t from 'tap'
import { and, eq, inArray } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { Agent, signedInAgent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { lockHeldElsewhere, ON_POSTGRES_ONLY, someoneWaitsForALock } from '../../helpers/concurrency.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { buildRule, createFormula, createVariable } from '../../helpers/rules.ts'
import { activity, adviceSets, entities, ruleNodes } from '../../../src/db/schema/index.ts'
import { REWRITE_BATCH } from '../../../src/services/authoring/entities.ts'
import { referencesOf } from '../../../src/services/authoring/node-references.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const ownerId = await createOwner(db, { name: 'Acme' })
const author = await createUser(db, { ownerId, role: 'author' })
const agent = await signedInAgent(app, author)

async function adviceFor(adviceSetId: number, inputs: Record<string, unknown>) {
  const res = await agent.api('POST', '/api/rule/debug', { adviceSetId, inputs })
  t.equal(res.statusCode, 200)
  return res.json().data.result.advice.map((a: { headline: string; text: string }) => [a.headline, a.text])
}

t.test('rename a variable used in 3 conditions, 2 advice texts and 1 formula', async (t) => {
  const set = await createAdviceSet(db, { ownerId })
  const income = await createVariable(db, ownerId, 'Income')
  const tax = await createFormula(db, ownerId, 'Tax', '{{Income}} * 0.2')
  const unrelated = await createFormula(db, ownerId, 'Fee', '10')
  const { nodes } = await buildRule(db, set.id, 'Income advice', [
    { type: 'condition', expression: '{{Income}} > 1000', children: [
      { type: 'advice', headline: 'High', text: 'Your income of {{Income}} is high.' },
      { type: 'advice', headline: 'Tax', text: 'Tax: [[Tax]] plus [[Fee]]' },
    ] },
    { type: 'condition', expression: 'Income < 500', children: [{ type: 'advice', headline: 'Low', text: 'Only {{ Income }} a month.' }] },
    { type: 'condition', expression: '{{Income}} >= 500 && {{Income}} <= 1000', children: [{ type: 'advice', headline: 'Middle', text: 'In between.' }] },
  ])
  const users = (await agent.api('GET', `/api/entity/${income.id}/list-uses`)).json().data
  t.equal(users.length, 6, 'six places use it')
  t.same(users.filter((u: { type: string }) => u.type === 'entity').map((u: { id: number }) => u.id), [tax.id])
  t.same((await agent.api('GET', `/api/entity/${income.id}/used`)).json().data, { used: true, count: 6 })

  const high = await adviceFor(set.id, { Income: 2000 })
  const low = await adviceFor(set.id, { Income: 300 })
  t.same(high, [['High', 'Your income of 2,000 is high.'], ['Tax', 'Tax: 400 plus 10']])
  t.same(low, [['Low', 'Only 300 a month.']])

  const renamed = await agent.api('PATCH', `/api/entity/${income.id}`, { reservedName: 'Monthly_Income' })
  t.equal(renamed.statusCode, 200)
  const data = renamed.json().data
  t.equal(data.entity.reservedName, 'Monthly_Income')
  t.equal(data.rewritten.nodes.length, 5, 'three conditions and two advice nodes')
  t.same(data.rewritten.entities, [tax.id], 'and the formula')

  const stored = await db.select().from(ruleNodes).where(inArray(ruleNodes.id, nodes.map((n) => n.id))).orderBy(ruleNodes.id)
  t.same(stored.map((n) => n.expression ?? n.text), [
    '{{Monthly_Income}} > 1000', 'Your income of {{Monthly_Income}} is high.', 'Tax: [[Tax]] plus [[Fee]]',
    'Monthly_Income < 500', 'Only {{Monthly_Income}} a month.', '{{Monthly_Income}} >= 500 && {{Monthly_Income}} <= 1000', 'In between.',
  ])
  const [taxRow] = await db.select().from(entities).where(eq(entities.id, tax.id))
  t.equal(taxRow!.expression, '{{Monthly_Income}} * 0.2')
  const [feeRow] = await db.select().from(entities).where(eq(entities.id, unrelated.id))
  t.equal(feeRow!.expression, '10', 'formulas that do not use it are untouched')

  t.same(await adviceFor(set.id, { Monthly_Income: 2000 }), high, 'same advice after the rename')
  t.same(await adviceFor(set.id, { Monthly_Income: 300 }), low)
  t.equal((await agent.api('GET', `/api/entity/${income.id}/list-uses`)).json().data.length, 6, 'the uses follow the new name')

  const nodeRows = await db.select().from(activity).where(and(eq(activity.entityType, 'rulenode'), inArray(activity.entityId, data.rewritten.nodes.map(String))))
  t.equal(nodeRows.length, 5, 'each rewritten node has its activity row')
  t.match(nodeRows[0]!.after, { renamed: { from: 'Income', to: 'Monthly_Income' } })
  const entityRows = await db.select().from(activity).where(and(eq(activity.entityType, 'entity'), eq(activity.entityId, String(income.id))))
  t.equal(entityRows.length, 1)
  t.match(entityRows[0]!.before, { reservedName: 'Income' })
  t.match(entityRows[0]!.after, { reservedName: 'Monthly_Income' })
})

t.test('a name used by more nodes than a rename rewrites at a time: every one, each audited, both sets marked', async (t) => {
  const first = await createAdviceSet(db, { ownerId, name: 'Batch one' })
  const second = await createAdviceSet(db, { ownerId, name: 'Batch two' })
  const variable = await createVariable(db, ownerId, 'Batch_Var')
  const many = await buildRule(db, first.id, 'Many', Array.from({ length: REWRITE_BATCH - 2 }, (_, i) => ({ type: 'condition' as const, expression: `{{Batch_Var}} > ${i}` })))
  const more = await buildRule(db, second.id, 'More', [
    ...Array.from({ length: 6 }, (_, i) => ({ type: 'advice' as const, headline: `Keep {{Other}} ${i}`, text: `Has {{Batch_Var}} (${i})` })),
    { type: 'condition', expression: '{{Unrelated}} > 1' },
  ])
  const using = [...many.nodes, ...more.nodes.slice(0, 6)].map((n) => n.id)
  const longAgo = new Date('2020-01-01T00:00:00Z')
  await db.update(adviceSets).set({ updatedAt: longAgo }).where(inArray(adviceSets.id, [first.id, second.id]))

  const res = await agent.api('PATCH', `/api/entity/${variable.id}`, { reservedName: 'Batch_Renamed' })
  t.equal(res.statusCode, 200)
  t.same(res.json().data.rewritten.nodes, using, `all ${using.length} nodes, past the first ${REWRITE_BATCH}, in id order`)
  const stored = await db.select().from(ruleNodes).where(inArray(ruleNodes.id, [...many.nodes, ...more.nodes].map((n) => n.id))).orderBy(ruleNodes.id)
  t.equal(stored.filter((n) => `${n.expression ?? ''}${n.text ?? ''}`.includes('Batch_Var')).length, 0, 'no node keeps the old name')
  t.equal(stored.at(-1)!.expression, '{{Unrelated}} > 1', 'a node that does not use it is untouched')
  t.same(stored.slice(-7, -1).map((n) => [n.headline, n.text]), Array.from({ length: 6 }, (_, i) => [`Keep {{Other}} ${i}`, `Has {{Batch_Renamed}} (${i})`]), 'only the fields that used it change')
  t.ok(stored.filter((n) => using.includes(n.id)).every((n) => n.updatedBy === author.id), 'each by the author')
  const rewritten = stored.filter((n) => using.includes(n.id))
  t.same(rewritten.filter((n) => n.refHash !== referencesOf(n).refHash || JSON.stringify(n.refKeys) !== JSON.stringify(referencesOf(n).refKeys)).map((n) => n.id), [],
    'each names what it refers to now, so none waits for the filler')
  const logged = await db.select().from(activity).where(and(eq(activity.entityType, 'rulenode'), inArray(activity.entityId, using.map(String))))
  t.equal(logged.length, using.length, 'one activity row a node')
  const last = logged.find((row) => row.entityId === String(using.at(-1)))!
  t.match(last, { actorId: author.id, action: 'update', before: { text: 'Has {{Batch_Var}} (5)' }, after: { text: 'Has {{Batch_Renamed}} (5)', renamed: { from: 'Batch_Var', to: 'Batch_Renamed' } } })
  const sets = await db.select().from(adviceSets).where(inArray(adviceSets.id, [first.id, second.id]))
  t.ok(sets.every((set) => set.updatedAt > longAgo && set.updatedBy === author.id), 'both sets marked updated by the author')
  const uses = (await agent.api('GET', `/api/entity/${variable.id}/list-uses?limit=1000`)).json()
  t.equal(uses.data.length, 1000, 'the uses follow the new name')
  t.equal(uses.next, `rulenode:${uses.data.at(-1).id}`)
})

t.test('a rename marks the sets it changed at its end: their rows are not held while it goes on', ON_POSTGRES_ONLY, async (t) => {
  const early = await createAdviceSet(db, { ownerId, name: 'Locks early' })
  const late = await createAdviceSet(db, { ownerId, name: 'Locks late' })
  const variable = await createVariable(db, ownerId, 'Lock_Var')
  await buildRule(db, early.id, 'First batch', Array.from({ length: REWRITE_BATCH }, (_, i) => ({ type: 'condition' as const, expression: `{{Lock_Var}} > ${i}` })))
  const { nodes: [held] } = await buildRule(db, late.id, 'Second batch', [{ type: 'condition', expression: '{{Lock_Var}} > 0' }])
  // Another writer holds the node of the rename's second batch: the rename stops there, its first batch done.
  const { other, release } = await lockHeldElsewhere(t, (database as { url?: string }).url!, (tx) => tx`select id from rule_nodes where id = ${held!.id} for update`)
  const renaming = agent.api('PATCH', `/api/entity/${variable.id}`, { reservedName: 'Lock_Renamed' })
  while (!await someoneWaitsForALock(other)) { /* the rename has not reached the held node yet */ }

  const firstSet = await other`select id from advice_sets where id = ${early.id} for update nowait`
    .then(() => 'free', (error: { code?: string }) => `held (${error.code})`)
  await release()
  t.equal(firstSet, 'free', 'the set of the first batch is free while the rename waits in its second')
  t.equal((await renaming).statusCode, 200)
  const sets = await db.select().from(adviceSets).where(inArray(adviceSets.id, [early.id, late.id]))
  t.ok(sets.every((set) => set.updatedBy === author.id), 'both sets marked updated by the author, at the end')
})

t.test('a rename that fails leaves every text as it was', async (t) => {
  const set = await createAdviceSet(db, { ownerId })
  const a = await createVariable(db, ownerId, 'Alpha')
  await createVariable(db, ownerId, 'Beta')
  const { nodes } = await buildRule(db, set.id, 'R', [{ type: 'condition', expression: '{{Alpha}} > 1' }])
  const taken = await agent.api('PATCH', `/api/entity/${a.id}`, { reservedName: 'beta' })
  t.equal(taken.statusCode, 409)
  t.match(taken.json().error.message, /^reservedName: beta is already in the dictionary/)
  const [node] = await db.select().from(ruleNodes).where(eq(ruleNodes.id, nodes[0]!.id))
  t.equal(node!.expression, '{{Alpha}} > 1')
})

t.test('alternate: a variable becomes a formula and its tags follow', async (t) => {
  const set = await createAdviceSet(db, { ownerId })
  const rate = await createVariable(db, ownerId, 'Rate')
  const { nodes } = await buildRule(db, set.id, 'R', [
    { type: 'condition', expression: '{{Rate}} > 2', children: [{ type: 'advice', headline: 'Rate {{Rate}}' }] },
  ])
  t.equal((await agent.api('POST', `/api/entity/${rate.id}/alternate`, {})).json().error.message, 'expression: a formula needs the expression that computes it.')
  const res = await agent.api('POST', `/api/entity/${rate.id}/alternate`, { expression: '1 + 2' })
  t.equal(res.statusCode, 200)
  t.equal(res.json().data.typeChanged, true)
  t.equal(res.json().data.entityType.displayName, 'Formula')
  const stored = await db.select().from(ruleNodes).where(inArray(ruleNodes.id, nodes.map((n) => n.id))).orderBy(ruleNodes.id)
  t.same(stored.map((n) => n.expression ?? n.headline), ['[[Rate]] > 2', 'Rate [[Rate]]'])
  t.same((await adviceFor(set.id, {})).map(([headline]: [string]) => headline), ['Rate 3'], 'the engine now computes it')
})

t.test('renaming a provider entry rewrites every owner except those whose own entry of that name shadows it', async (t) => {
  const providerAdmin = await createUser(db, { ownerId: await createOwner(db, { id: 'TF' }), role: 'admin' })
  const providerAgent = new Agent(app)
  await providerAgent.signIn(providerAdmin.email, providerAdmin.password)
  const shadowOwner = await createOwner(db)
  const shared = await createVariable(db, 'TF', 'Shared_Rate')
  await createVariable(db, shadowOwner, 'Shared_Rate')
  const usesProvider = await createAdviceSet(db, { ownerId })
  const shadowed = await createAdviceSet(db, { ownerId: shadowOwner })
  const { nodes: mine } = await buildRule(db, usesProvider.id, 'R', [{ type: 'condition', expression: '{{Shared_Rate}} > 1' }])
  const { nodes: theirs } = await buildRule(db, shadowed.id, 'R', [{ type: 'condition', expression: '{{Shared_Rate}} > 1' }])
  const res = await providerAgent.api('PATCH', `/api/entity/${shared.id}`, { reservedName: 'Base_Rate' })
  t.equal(res.statusCode, 200)
  t.same(res.json().data.rewritten.nodes, [mine[0]!.id])
  const [a] = await db.select().from(ruleNodes).where(eq(ruleNodes.id, mine[0]!.id))
  const [b] = await db.select().from(ruleNodes).where(eq(ruleNodes.id, theirs[0]!.id))
  t.equal(a!.expression, '{{Base_Rate}} > 1')
  t.equal(b!.expression, '{{Shared_Rate}} > 1', 'the shadowing owner keeps its reference to its own entry')
  const [row] = await db.select().from(activity).where(and(eq(activity.entityType, 'rulenode'), eq(activity.entityId, String(mine[0]!.id))))
  t.equal(row!.ownerId, ownerId, 'the rewrite is logged for the owner of the node')
})

t.test('a rename reaches questions, assignment targets and formula nodes too', async (t) => {
  const set = await createAdviceSet(db, { ownerId })
  const count = await createVariable(db, ownerId, 'Count')
  const { nodes } = await buildRule(db, set.id, 'R', [
    { type: 'inputRequest', variable: 'Count', question: 'How many? (now {{Count}})' },
    { type: 'variableAssignment', expression: 'Count += 1' },
    { type: 'variableAssignment', expression: '{{ Count }} = {{Count}} * 2' },
    { type: 'formula', variable: 'Twice', expression: '{{Count}} * 2' },
    { type: 'advice', headline: 'Count is {{Count}}, not {{Counter}}' },
  ])
  const before = await adviceFor(set.id, { Count: 3 })
  const res = await agent.api('PATCH', `/api/entity/${count.id}`, { reservedName: 'Items' })
  t.equal(res.json().data.rewritten.nodes.length, 5)
  const stored = await db.select().from(ruleNodes).where(inArray(ruleNodes.id, nodes.map((n) => n.id))).orderBy(ruleNodes.id)
  t.same(stored.map((n) => [n.variable, n.expression ?? n.question ?? n.headline]), [
    ['Items', 'How many? (now {{Items}})'],
    [null, 'Items += 1'],
    [null, '{{Items}} = {{Items}} * 2'],
    ['Twice', '{{Items}} * 2'],
    [null, 'Count is {{Items}}, not {{Counter}}'],
  ])
  t.same(await adviceFor(set.id, { Items: 3 }), before)
})
