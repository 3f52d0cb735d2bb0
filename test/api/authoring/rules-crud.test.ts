// Issue 5: rules — rights, create/rename/reorder, delete and recover with positions, 221 when called elsewhere,
// copy and promote, and the read views (stats, called-by, called, variables, debug).
import t from 'tap'
import { and, eq, isNull } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { activityRows } from '../../helpers/activity.ts'
import { signedInAgent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { buildRule, createVariable } from '../../helpers/rules.ts'
import { rules } from '../../../src/db/schema/index.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const ownerId = await createOwner(db, { name: 'Acme' })
const otherOwner = await createOwner(db, { name: 'Other' })
const author = await createUser(db, { ownerId, role: 'author' })
const viewer = await createUser(db, { ownerId, role: 'viewer' })
const stranger = await createUser(db, { ownerId: otherOwner, role: 'author' })
const agent = await signedInAgent(app, author)
const viewerAgent = await signedInAgent(app, viewer)
const strangerAgent = await signedInAgent(app, stranger)

const rowsFor = (entityType: string, id: number) => activityRows(db, entityType, id)
async function livePositions(adviceSetId: number) {
  return (await db.select().from(rules).where(and(eq(rules.adviceSetId, adviceSetId), isNull(rules.deletedAt))).orderBy(rules.position))
    .map((r) => [r.name, r.position])
}

t.test('create, rename, reorder: positions stay 0..n-1 and each write is one activity row', async (t) => {
  const set = await createAdviceSet(db, { ownerId })
  const a = (await agent.api('POST', '/api/rule', { adviceSetId: set.id, name: 'A' })).json().data
  const b = (await agent.api('POST', '/api/rule', { adviceSetId: set.id, name: 'B' })).json().data
  const first = await agent.api('POST', '/api/rule', { adviceSetId: set.id, name: 'First', position: 0 })
  t.equal(first.statusCode, 201)
  t.same(await livePositions(set.id), [['First', 0], ['A', 1], ['B', 2]])
  const moved = await agent.api('PATCH', `/api/rule/${b.id}`, { position: 0, name: 'B2' })
  t.equal(moved.statusCode, 200)
  t.same(await livePositions(set.id), [['B2', 0], ['First', 1], ['A', 2]])
  const rows = await rowsFor('rule', b.id)
  t.equal(rows.length, 2, 'create + one update for rename and move together')
  t.match(rows[1]!.before, { name: 'B', position: 2, parentId: set.id })
  t.match(rows[1]!.after, { name: 'B2', position: 0 })
  t.equal((await agent.api('PATCH', `/api/rule/${a.id}`, { name: '' })).json().error.message, 'Name is required.')
  const bad = await agent.api('POST', '/api/rule', { adviceSetId: set.id })
  t.equal(bad.statusCode, 400)
  t.match(bad.json().error.message, /name/)
})

t.test('rights: other owners cannot see private rules; viewers and other owners cannot write', async (t) => {
  const set = await createAdviceSet(db, { ownerId })
  const { rule } = await buildRule(db, set.id, 'Private')
  t.equal((await strangerAgent.api('GET', `/api/rule/${rule.id}`)).statusCode, 404)
  t.equal((await strangerAgent.api('PATCH', `/api/rule/${rule.id}`, { name: 'x' })).statusCode, 404)
  t.equal((await viewerAgent.api('GET', `/api/rule/${rule.id}`)).statusCode, 200, 'viewers read')
  t.equal((await viewerAgent.api('PATCH', `/api/rule/${rule.id}`, { name: 'x' })).statusCode, 403)
  t.equal((await viewerAgent.api('DELETE', `/api/rule/${rule.id}`)).statusCode, 403)
  t.equal((await viewerAgent.api('POST', '/api/rule', { adviceSetId: set.id, name: 'x' })).statusCode, 403)
  const publicSet = await createAdviceSet(db, { ownerId, isPublic: true })
  const { rule: shared } = await buildRule(db, publicSet.id, 'Shared')
  t.equal((await strangerAgent.api('GET', `/api/rule/${shared.id}`)).statusCode, 200, 'public sets are readable')
  t.equal((await strangerAgent.api('DELETE', `/api/rule/${shared.id}`)).statusCode, 403, 'but not writable')
  t.equal((await rowsFor('rule', shared.id)).length, 0, 'refused writes leave no activity')
  t.equal((await agent.api('GET', '/api/rule/abc')).json().error.message, 'Invalid item id format.')
})

t.test('delete and recover keep positions; a rule called by another rule answers 221', async (t) => {
  const set = await createAdviceSet(db, { ownerId })
  const { rule: one } = await buildRule(db, set.id, 'One')
  const { rule: two } = await buildRule(db, set.id, 'Two')
  const { rule: three } = await buildRule(db, set.id, 'Three')
  const caller = await createAdviceSet(db, { ownerId, name: 'Caller set' })
  const { rule: calling } = await buildRule(db, caller.id, 'Calls two', [{ type: 'ruleCall', calledRuleId: two.id }])
  const blocked = await agent.api('DELETE', `/api/rule/${two.id}`)
  t.equal(blocked.statusCode, 221)
  t.equal(blocked.json().error.name, 'Delete Not Allowed')
  t.same(blocked.json().error.dependents, [{ type: 'rule', id: calling.id, name: 'Caller set › Calls two', uri: `/adviceset/${caller.id}/rule/${calling.id}/show` }])
  const setBlocked = await agent.api('DELETE', `/api/adviceset/${set.id}`)
  t.equal(setBlocked.statusCode, 221, 'the set whose rule is called elsewhere cannot go either')
  t.equal(setBlocked.json().error.dependents[0].id, calling.id)

  t.equal((await agent.api('DELETE', `/api/rule/${one.id}`)).statusCode, 200)
  t.same(await livePositions(set.id), [['Two', 0], ['Three', 1]])
  await agent.api('POST', '/api/rule', { adviceSetId: set.id, name: 'Four' })
  const recovered = await agent.api('POST', `/api/rule/${one.id}/recover`)
  t.equal(recovered.statusCode, 200)
  t.same(await livePositions(set.id), [['One', 0], ['Two', 1], ['Three', 2], ['Four', 3]], 'back in its old place')
  const rows = await rowsFor('rule', one.id)
  t.same(rows.map((r) => r.action), ['delete', 'restore'])
  t.match(rows[0]!.before, { parentId: set.id, name: 'One' })
  t.equal((await agent.api('POST', `/api/rule/${three.id}/recover`)).statusCode, 400, 'a live rule is not recovered')
})

t.test('copy and promote', async (t) => {
  const set = await createAdviceSet(db, { ownerId })
  const { rule } = await buildRule(db, set.id, 'Eligibility', [
    { type: 'condition', expression: '{{Age}} >= 18', children: [{ type: 'advice', headline: 'Adult' }] },
  ])
  await buildRule(db, set.id, 'After')
  const copy = await agent.api('POST', '/api/rule/copy', { id: rule.id })
  t.equal(copy.statusCode, 201)
  t.equal(copy.json().data.name, 'Copy of Eligibility')
  const copied = (await agent.api('GET', `/api/rule/${copy.json().data.id}`)).json().data
  t.equal(copied.nodes[0].expression, '{{Age}} >= 18')
  t.equal(copied.nodes[0].children[0].headline, 'Adult')
  const foreign = await strangerAgent.api('POST', '/api/rule/copy', { id: rule.id })
  t.equal(foreign.statusCode, 404, 'a private rule cannot be copied by another owner')

  const promoted = await agent.api('POST', '/api/rule/promote', { id: rule.id, name: 'Eligibility set' })
  t.equal(promoted.statusCode, 201)
  const data = promoted.json().data
  t.equal(data.rule.id, rule.id, 'the rule keeps its id')
  t.equal(data.rule.adviceSetId, data.adviceSet.id)
  t.same(await livePositions(set.id), [['Eligibility', 0], ['After', 1], ['Copy of Eligibility', 2]])
  const stub = (await agent.api('GET', `/api/rule/${data.callingRule.id}`)).json().data
  t.same(stub.nodes.map((n: { type: string; calledRuleId: string }) => [n.type, n.calledRuleId]), [['ruleCall', String(rule.id)]])
  const run = await agent.api('POST', '/api/rule/debug', { adviceSetId: set.id, inputs: { Age: 30 } })
  t.same(run.json().data.result.advice.map((a: { headline: string }) => a.headline), ['Adult', 'Adult'], 'the old set still gives the advice through the call (and its copy)')
  t.equal((await viewerAgent.api('POST', '/api/rule/promote', { id: rule.id })).statusCode, 403)
  t.match((await rowsFor('rule', rule.id)).map((r) => [r.action, r.after]), [['update', { adviceSetId: data.adviceSet.id, position: 0 }]], 'the move is logged')
  t.match((await rowsFor('adviceset', data.adviceSet.id)).map((r) => [r.action, r.after]), [['create', { promotedRuleId: rule.id }]])
  t.match((await rowsFor('rule', data.callingRule.id)).map((r) => [r.action, r.after]), [['create', { callNodeId: data.callNodeId, parentId: set.id }]])
  t.match((await rowsFor('rule', copy.json().data.id)).map((r) => [r.action, r.after]), [['create', { copiedFrom: rule.id, nodes: 2 }]])
})

t.test('stats, called-by, called, variables, debug', async (t) => {
  const set = await createAdviceSet(db, { ownerId })
  await createVariable(db, ownerId, 'Income')
  const { rule: target } = await buildRule(db, set.id, 'Target', [{ type: 'advice', headline: 'Called' }])
  const { rule, nodes } = await buildRule(db, set.id, 'Main', [
    { type: 'inputRequest', variable: 'Income', question: 'What is your income?' },
    { type: 'condition', expression: '{{Income}} > 1000', children: [
      { type: 'variableAssignment', expression: '{{Tax}} = {{Income}} * 0.2' },
      { type: 'advice', headline: 'Tax is {{Tax}}' },
      { type: 'ruleCall', calledRuleId: target.id },
    ] },
    { type: 'condition', expression: '1 > 2', children: [{ type: 'advice', headline: 'Never' }] },
  ])
  const stats = (await agent.api('GET', `/api/rule/stats?id=${rule.id}`)).json().data
  t.equal(stats.nodes, 7)
  t.same(stats.byType, { inputRequest: 1, condition: 2, variableAssignment: 1, advice: 2, ruleCall: 1 })
  t.equal(stats.depth, 2)
  t.ok(stats.unreachable >= 1, 'the advice under 1 > 2 is unreachable')
  const calledBy = (await agent.api('GET', `/api/rule/called-by?id=${target.id}`)).json().data
  t.same(calledBy.map((c: { ruleId: number }) => c.ruleId), [rule.id])
  const called = (await agent.api('GET', `/api/rule/called/${rule.id}`)).json().data
  t.same(called.map((c: { ruleId: number; nodeId: number }) => [c.ruleId, c.nodeId]), [[target.id, nodes[4]!.id]])
  const variables = (await agent.api('GET', `/api/rule/variables?id=${rule.id}`)).json().data
  t.match(variables, [
    { name: 'Income', kind: 'variable', known: true, sets: true },
    { name: 'Tax', kind: 'variable', known: false, sets: true },
  ])
  const pending = (await agent.api('POST', '/api/rule/debug', { ruleId: rule.id })).json().data
  t.equal(pending.result.currentFocus.variable, 'Income', 'without input the run stops at the question')
  const run = await agent.api('POST', '/api/rule/debug', { ruleId: rule.id, inputs: { Income: 2000 } })
  t.equal(run.statusCode, 200)
  const result = run.json().data.result
  t.same(result.advice.map((a: { headline: string }) => a.headline), ['Tax is 400', 'Called'])
  t.ok(result.trace.some((e: { nodeId: string; value: unknown }) => e.nodeId === String(nodes[1]!.id) && e.value === true), 'the trace shows the condition as true')
  t.same(run.json().data.unreachable, [String(nodes[5]!.id)], 'the never-true condition is listed')
  t.equal((await strangerAgent.api('POST', '/api/rule/debug', { ruleId: rule.id })).statusCode, 404)
  t.equal((await agent.api('POST', '/api/rule/debug', {})).statusCode, 400)
})
