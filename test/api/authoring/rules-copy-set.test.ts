// Issue 5: copying an advice set copies its rules and trees (calls between its own rules point to the copies) and,
// for another owner, the dictionary entries its content uses; the copy gives the same advice.
import t from 'tap'
import { and, eq, isNull } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { Agent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { buildRule, createFormula, createVariable } from '../../helpers/rules.ts'
import { entities, ruleNodes, rules } from '../../../src/db/schema/index.ts'

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
  t.same(before, ['Interest is 50', 'Interest is 50'])

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
