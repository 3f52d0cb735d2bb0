// Issue 7: restore copies a version's rules, nodes and missing dictionary entries back into the working draft in one
// audited transaction; rules that still exist keep their ids, so Rule Calls from other sets keep working.
import t from 'tap'
import { and, eq, isNull } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent, type Agent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { buildRule, createVariable } from '../../helpers/rules.ts'
import { publishVersion } from '../../helpers/publishing.ts'
import { activityRows } from '../../helpers/activity.ts'
import { updateEntity } from '../../../src/db/queries/entities.ts'
import { updateRule } from '../../../src/db/queries/rules.ts'
import { entities, ruleNodes, rules } from '../../../src/db/schema/index.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const ownerId = await createOwner(db)
const author = await createUser(db, { ownerId, role: 'author' })
const viewer = await createUser(db, { ownerId, role: 'viewer' })
const outsider = await createUser(db, { role: 'admin' })
const agent = await signedInAgent(app, author)

async function headlines(a: Agent, adviceSetId: number, inputs: Record<string, unknown>) {
  const res = await a.api('POST', '/api/rule/debug', { adviceSetId, inputs })
  return res.json().data.result.advice.map((x: { headline: string }) => x.headline)
}
async function liveRules(adviceSetId: number) {
  return db.select().from(rules).where(and(eq(rules.adviceSetId, adviceSetId), isNull(rules.deletedAt))).orderBy(rules.position)
}

t.test('restore brings the version back as the working draft', async (t) => {
  const set = await createAdviceSet(db, { ownerId, name: 'Savings' })
  const deposit = await createVariable(db, ownerId, 'Deposit', { adviceSetId: set.id })
  const { rule: helper } = await buildRule(db, set.id, 'Helper', [{ type: 'advice', headline: 'Deposit is {{Deposit}}' }])
  const { rule: main } = await buildRule(db, set.id, 'Main', [{ type: 'condition', expression: '{{Deposit}} > 10', children: [{ type: 'ruleCall', calledRuleId: helper.id }] }])
  const caller = await createAdviceSet(db, { ownerId, name: 'Caller' })
  await buildRule(db, caller.id, 'Calls helper', [{ type: 'ruleCall', calledRuleId: helper.id }])
  const version = await publishVersion(db, { adviceSetId: set.id })
  const expected = await headlines(agent, set.id, { Deposit: 50 })
  t.same(expected, ['Deposit is 50'], 'Helper runs on its own and through Main’s call; its advice appears once')

  // The draft moves on: Main is deleted, Helper renamed and emptied, a new rule added, the variable deleted.
  await updateRule(db, main.id, { deletedAt: new Date(), updatedBy: null })
  await updateRule(db, helper.id, { name: 'Renamed', position: 0, updatedBy: null })
  await db.update(ruleNodes).set({ deletedAt: new Date() }).where(eq(ruleNodes.ruleId, helper.id))
  await buildRule(db, set.id, 'Newer')
  await updateEntity(db, deposit.id, { deletedAt: new Date(), updatedBy: null })
  t.same(await headlines(agent, set.id, { Deposit: 50 }), [])

  t.equal((await (await signedInAgent(app, viewer)).api('POST', `/api/adviceset/restore/${version.id}`)).statusCode, 403, 'viewers cannot restore')
  t.equal((await (await signedInAgent(app, outsider)).api('POST', `/api/adviceset/restore/${version.id}`)).statusCode, 404, 'other owners do not see the version')
  t.equal((await agent.api('POST', '/api/adviceset/restore/abc')).statusCode, 400)

  const res = await agent.api('POST', `/api/adviceset/restore/${version.id}`)
  t.equal(res.statusCode, 200)
  t.match(res.json().data, { adviceSetId: set.id, versionId: version.id, rules: 2, nodes: 3, entities: 1 })
  const restored = await liveRules(set.id)
  t.same(restored.map((r) => [r.id, r.name, r.position]), [[helper.id, 'Helper', 0], [main.id, 'Main', 1]], 'the rules come back with their ids, names and order')
  t.same(await headlines(agent, set.id, { Deposit: 50 }), expected, 'the draft gives the version’s advice again')
  const [call] = await db.select().from(ruleNodes).where(and(eq(ruleNodes.ruleId, main.id), eq(ruleNodes.type, 'ruleCall'), isNull(ruleNodes.deletedAt)))
  t.equal(call!.calledRuleId, helper.id, 'calls inside the set point to the restored rule')
  const called = await headlines(agent, caller.id, {})
  t.equal(called.length, 1, 'the other set’s call still reaches the rule')
  t.match(called[0], /^Deposit is/)
  const variables = await db.select().from(entities).where(and(eq(entities.reservedName, 'Deposit'), isNull(entities.deletedAt)))
  t.same(variables.map((e) => [e.ownerId, e.adviceSetId, e.dataType]), [[ownerId, set.id, 'number']], 'the missing variable is recreated')
  const newer = await db.select().from(rules).where(and(eq(rules.adviceSetId, set.id), eq(rules.name, 'Newer')))
  t.ok(newer[0]!.deletedAt, 'what the draft had instead is soft-deleted, so it can be recovered')

  const log = await activityRows(db, 'version', version.id)
  t.equal(log.length, 1, 'one audit row, on the version')
  t.match(log[0], { action: 'restore', actorId: author.id, after: { state: 'published', restoredIntoDraft: { rules: 2, nodes: 3, entities: 1 } } })
  t.same((log[0]!.before as { draftRules: Array<{ name: string }> }).draftRules.map((r) => r.name), ['Renamed', 'Newer'])
})

t.test('restoring twice gives the same draft, not duplicates', async (t) => {
  const set = await createAdviceSet(db, { ownerId })
  await buildRule(db, set.id, 'Only', [{ type: 'advice', headline: 'Hello', children: [{ type: 'advice', headline: 'Child' }] }])
  const version = await publishVersion(db, { adviceSetId: set.id })
  await agent.api('POST', `/api/adviceset/restore/${version.id}`)
  await agent.api('POST', `/api/adviceset/restore/${version.id}`)
  const live = await liveRules(set.id)
  t.equal(live.length, 1)
  const nodes = await db.select().from(ruleNodes).where(and(eq(ruleNodes.ruleId, live[0]!.id), isNull(ruleNodes.deletedAt)))
  t.equal(nodes.length, 2)
  t.same(await headlines(agent, set.id, {}), ['Hello', 'Child'])
})
