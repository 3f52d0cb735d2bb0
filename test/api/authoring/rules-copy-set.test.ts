// Issue 5: copying an advice set copies its rules and trees (calls between its own rules point to the copies) and,
// for another owner, the dictionary entries its content uses; the copy gives the same advice. Issue 24 defect 2: the
// set's own dictionary entries (advice_set_id = the set) come along too, within the owner as well (the copy's rule had
// 26 errors and debug gave INCOMPLETE_ADVICE), and a transfer takes them to the new owner.
import t from 'tap'
import { and, eq, isNull } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { Agent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { buildRule, createFormula, createVariable } from '../../helpers/rules.ts'
import { insertEntity } from '../../../src/db/queries/entities.ts'
import { ENTITY_TYPES } from '../../../src/engine/index.ts'
import { activity, entities, ruleNodes, rules } from '../../../src/db/schema/index.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const ownerId = await createOwner(db, { name: 'Acme' })
const author = await createUser(db, { ownerId, role: 'author' })
const other = await createUser(db, { role: 'author' })
const agent = new Agent(app)
await agent.signIn(author.email, author.password)
const otherAgent = new Agent(app)
await otherAgent.signIn(other.email, other.password)

async function advice(a: Agent, adviceSetId: number, inputs: Record<string, unknown>) {
  const res = await a.api('POST', '/api/rule/debug', { adviceSetId, inputs })
  return res.json().data.result.advice.map((x: { headline: string }) => x.headline)
}

t.test('deep copy to another owner', async (t) => {
  const set = await createAdviceSet(db, { ownerId, isPublic: true, name: 'Savings' })
  await createVariable(db, ownerId, 'Deposit')
  await createFormula(db, ownerId, 'Interest', '{{Deposit}} * 0.05')
  await createVariable(db, ownerId, 'Not_Used')
  const { rule: helper } = await buildRule(db, set.id, 'Helper', [{ type: 'advice', headline: 'Interest is [[Interest]]' }])
  await buildRule(db, set.id, 'Main', [
    { type: 'condition', expression: '{{Deposit}} > 100', children: [{ type: 'ruleCall', calledRuleId: helper.id }] },
  ])
  const before = await advice(agent, set.id, { Deposit: 1000 })
  t.same(before, ['Interest is 50'], 'Helper runs on its own and through the call; its advice appears once')

  const res = await otherAgent.api('POST', '/api/adviceset/copy', { id: set.id })
  t.equal(res.statusCode, 201)
  const copy = res.json().data
  t.equal(copy.ownerId, other.ownerId)
  const copiedRules = await db.select().from(rules).where(and(eq(rules.adviceSetId, copy.id), isNull(rules.deletedAt))).orderBy(rules.position)
  t.same(copiedRules.map((r) => [r.name, r.position]), [['Helper', 0], ['Main', 1]])
  const calls = await db.select().from(ruleNodes).where(and(eq(ruleNodes.ruleId, copiedRules[1]!.id), eq(ruleNodes.type, 'ruleCall')))
  t.equal(calls[0]!.calledRuleId, copiedRules[0]!.id, 'the call points to the copied rule')
  const theirs = await db.select().from(entities).where(eq(entities.ownerId, other.ownerId))
  t.same(theirs.map((e) => e.reservedName).sort(), ['Deposit', 'Interest'], 'used entries come along, unused ones do not')
  t.same(await advice(otherAgent, copy.id, { Deposit: 1000 }), before, 'the copy gives the same advice')
})

t.test('copy within the owner', async (t) => {
  const set = await createAdviceSet(db, { ownerId })
  await buildRule(db, set.id, 'Only', [{ type: 'advice', headline: 'Hello' }])
  const res = await agent.api('POST', '/api/adviceset/copy', { id: set.id })
  const copy = res.json().data
  t.same(await advice(agent, copy.id, {}), ['Hello'])
  const original = await db.select().from(rules).where(eq(rules.adviceSetId, set.id))
  t.equal(original.length, 1, 'the original is untouched')
})

// An owner-wide entry the sets' formula reads.
await createVariable(db, ownerId, 'Offset')

/** The issue's set: Birth_Date and Client_Age belong to the set; a rule reads them in a condition and a text. */
async function setWithOwnEntries(name: string) {
  const set = await createAdviceSet(db, { ownerId, name })
  await createVariable(db, ownerId, 'Birth_Date', { dataType: 'date', adviceSetId: set.id })
  await insertEntity(db, {
    ownerId, adviceSetId: set.id, entityTypeId: ENTITY_TYPES.formula.id, reservedName: 'Client_Age', dataType: 'number', validOptions: [], isClosedSet: false,
    displayFormat: null, defaultValue: null, expression: 'year(today()) - year({{Birth_Date}}) + {{Offset}}', isConstant: false, description: '', createdBy: null,
  })
  const { rule } = await buildRule(db, set.id, 'Drawdown plan', [
    { type: 'inputRequest', variable: 'Birth_Date', question: 'When were you born?' },
    { type: 'condition', expression: '[[Client_Age]] >= 55', children: [{ type: 'advice', headline: 'Drawdown at [[Client_Age]]', text: 'Born {{Birth_Date}}.' }] },
  ])
  return { set, rule }
}
const NOW = '2026-06-01T12:00:00Z'
/** What a run says, without ids: advice headlines and texts, and error codes. */
async function debugRun(a: Agent, adviceSetId: number, inputs: Record<string, unknown>) {
  const result = (await a.api('POST', '/api/rule/debug', { adviceSetId, inputs, now: NOW })).json().data.result as {
    advice: Array<{ headline: string; text: string }>; errors: Array<{ code: string }>
  }
  return { advice: result.advice.map((a) => ({ headline: a.headline, text: a.text })), errors: result.errors.map((e) => e.code) }
}

t.test('a copy within the owner brings the set’s own dictionary entries', async (t) => {
  const { set } = await setWithOwnEntries('Drawdown')
  const original = await debugRun(agent, set.id, { Birth_Date: '1962-03-04', Offset: 0 })
  t.same(original.advice.map((a) => a.headline), ['Drawdown at 64'])

  const res = await agent.api('POST', '/api/adviceset/copy', { id: set.id })
  t.equal(res.statusCode, 201)
  const copy = res.json().data
  const [copiedRule] = await db.select().from(rules).where(eq(rules.adviceSetId, copy.id))
  const issues = (await agent.api('GET', `/api/rule/${copiedRule!.id}/checks`)).json().data as Array<{ severity: string; message: string }>
  t.same(issues.filter((i) => i.severity === 'error'), [], 'the copy’s rule has no errors')
  t.same(await debugRun(agent, copy.id, { Birth_Date: '1962-03-04', Offset: 0 }), original, 'its debug run gives the same advice, no INCOMPLETE_ADVICE')

  const own = await db.select().from(entities).where(and(eq(entities.adviceSetId, copy.id), isNull(entities.deletedAt))).orderBy(entities.reservedName)
  t.same(own.map((e) => [e.ownerId, e.reservedName, e.expression]), [
    [ownerId, 'Birth_Date', null], [ownerId, 'Client_Age', 'year(today()) - year({{Birth_Date}}) + {{Offset}}'],
  ], 'the copy holds entries of its own, under the same names')
  const [log] = await db.select().from(activity).where(and(eq(activity.entityType, 'adviceset'), eq(activity.entityId, String(copy.id))))
  t.match(log!.after, { copied: { rules: 1, nodes: 3, entities: 2 } }, 'activity counts the entries copied')

  // The two sets' entries are apart: renaming the copy's variable rewrites the copy only.
  const birth = own.find((e) => e.reservedName === 'Birth_Date')!
  t.equal((await agent.api('PATCH', `/api/entity/${birth.id}`, { reservedName: 'Born_On' })).statusCode, 200)
  const [originalFormula] = await db.select().from(entities).where(and(eq(entities.adviceSetId, set.id), eq(entities.reservedName, 'Client_Age')))
  t.equal(originalFormula!.expression, 'year(today()) - year({{Birth_Date}}) + {{Offset}}', 'the original’s formula is untouched')
  t.same((await debugRun(agent, set.id, { Birth_Date: '1962-03-04', Offset: 0 })).advice.map((a) => a.headline), ['Drawdown at 64'])
  t.same((await debugRun(agent, copy.id, { Born_On: '1962-03-04', Offset: 0 })).advice.map((a) => a.headline), ['Drawdown at 64'])
})

t.test('a transfer takes the set’s entries to the new owner', async (t) => {
  await createOwner(db, { id: 'TF', name: 'Advice Studio' })
  const providerAdmin = await createUser(db, { ownerId: 'TF', role: 'admin' })
  const admin = new Agent(app)
  await admin.signIn(providerAdmin.email, providerAdmin.password)
  const { set } = await setWithOwnEntries('Transferred')
  const before = await debugRun(agent, set.id, { Birth_Date: '1962-03-04', Offset: 0 })
  const newOwner = await createOwner(db, { name: 'Globex' })
  const newcomer = new Agent(app)
  const user = await createUser(db, { ownerId: newOwner, role: 'author' })
  await newcomer.signIn(user.email, user.password)

  const clashing = await createVariable(db, newOwner, 'Client_Age')
  const refused = await admin.api('POST', '/api/adviceset/transfer', { id: set.id, ownerId: newOwner })
  t.equal(refused.statusCode, 409, 'the new owner has an owner-wide entry named like one of the set’s own')
  t.match(refused.json().error.message, 'ownerId: [[Client_Age]] is in this advice set’s dictionary and in the new owner’s. Rename one of them, then transfer.')
  t.equal((await db.select().from(entities).where(and(eq(entities.adviceSetId, set.id), eq(entities.ownerId, ownerId)))).length, 2, 'nothing moved')
  await db.update(entities).set({ deletedAt: new Date() }).where(eq(entities.id, clashing.id))

  const res = await admin.api('POST', '/api/adviceset/transfer', { id: set.id, ownerId: newOwner })
  t.equal(res.statusCode, 200)
  const theirs = await db.select().from(entities).where(and(eq(entities.ownerId, newOwner), isNull(entities.deletedAt))).orderBy(entities.reservedName)
  t.same(theirs.map((e) => [e.reservedName, e.adviceSetId]), [['Birth_Date', set.id], ['Client_Age', set.id], ['Offset', null]],
    'its own entries move, and the owner-wide one its formula reads is copied')
  t.same(await debugRun(newcomer, set.id, { Birth_Date: '1962-03-04', Offset: 0 }), before, 'the new owner’s run gives the same advice')
})
