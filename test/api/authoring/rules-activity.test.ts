// Issue 5: restoring rules, rule nodes, dictionary entries and comments from the activity log (an update row puts the
// before state back, a delete row recovers, a create row deletes unless something depends on it: 221), rights, the
// restore's own activity row, and GET /api/activity/{nodeId}/deleted with its `roots` and `rules` places.
import t, { type Test } from 'tap'
import { eq } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { activityRows } from '../../helpers/activity.ts'
import { signedInAgent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { buildRule, createVariable, positionsByParent } from '../../helpers/rules.ts'
import { comments, entities, ruleNodes, rules } from '../../../src/db/schema/index.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const ownerId = await createOwner(db, { name: 'Acme' })
const author = await createUser(db, { ownerId, role: 'author' })
const colleague = await createUser(db, { ownerId, role: 'author' })
const viewer = await createUser(db, { ownerId, role: 'viewer' })
const stranger = await createUser(db, { role: 'author' })
const agent = await signedInAgent(app, author)
const colleagueAgent = await signedInAgent(app, colleague)
const viewerAgent = await signedInAgent(app, viewer)
const strangerAgent = await signedInAgent(app, stranger)

const restore = (activityId: number, as = agent) => as.api('POST', `/api/activity/${activityId}/restore`)
async function lastRow(entityType: string, id: number) {
  const rows = await activityRows(db, entityType, id)
  return rows[rows.length - 1]!
}
function assertGapFree(t: Test, positions: Map<number | null, number[]>) {
  for (const [parent, list] of positions) t.same(list, list.map((_, i) => i), `siblings under ${parent ?? 'root'} are 0..${list.length - 1}`)
}
async function ruleOrder(adviceSetId: number) {
  return (await agent.api('GET', `/api/adviceset/list-rule?id=${adviceSetId}`)).json().data.map((r: { name: string; position: number }) => [r.name, r.position])
}

t.test('rules: update, delete and create rows', async (t) => {
  const set = await createAdviceSet(db, { ownerId })
  const ids: number[] = []
  for (const name of ['One', 'Two', 'Three']) ids.push((await agent.api('POST', '/api/rule', { adviceSetId: set.id, name })).json().data.id)
  const [one, two, three] = ids as [number, number, number]
  await agent.api('PATCH', `/api/rule/${one}`, { name: 'One renamed', position: 2 })
  t.same(await ruleOrder(set.id), [['Two', 0], ['Three', 1], ['One renamed', 2]])
  const update = await lastRow('rule', one)
  t.equal((await restore(update.id, viewerAgent)).statusCode, 403, 'viewers cannot restore')
  t.equal((await restore(update.id, strangerAgent)).statusCode, 404, 'other owners do not see the row')
  t.equal((await restore(update.id)).statusCode, 200)
  t.same(await ruleOrder(set.id), [['One', 0], ['Two', 1], ['Three', 2]], 'name and place restored, positions gap-free')
  const restoreRow = await lastRow('rule', one)
  t.equal(restoreRow.action, 'restore')
  t.match(restoreRow.before, { name: 'One renamed', position: 2 })
  t.match(restoreRow.after, { name: 'One', position: 0, deleted: false })

  await agent.api('DELETE', `/api/rule/${two}`)
  t.same(await ruleOrder(set.id), [['One', 0], ['Three', 1]])
  const deleted = (await agent.api('GET', `/api/activity/rules/deleted?adviceSetId=${set.id}`)).json().data
  t.match(deleted, [{ entityType: 'rule', entityId: String(two), name: 'Two', canRestore: true }], 'the set lists its deleted rule')
  t.equal((await restore(deleted[0].activityId)).statusCode, 200)
  t.same(await ruleOrder(set.id), [['One', 0], ['Two', 1], ['Three', 2]], 'recovered in its old place')
  t.same((await agent.api('GET', `/api/activity/rules/deleted?adviceSetId=${set.id}`)).json().data, [], 'a recovered rule is no longer listed')

  const caller = await createAdviceSet(db, { ownerId, name: 'Caller' })
  const { rule: calling } = await buildRule(db, caller.id, 'Calls three', [{ type: 'ruleCall', calledRuleId: three }])
  const created = (await activityRows(db, 'rule', three))[0]!
  t.equal(created.action, 'create')
  const refused = await restore(created.id)
  t.equal(refused.statusCode, 221, 'undoing the creation of a called rule is refused')
  t.same(refused.json().error.dependents, [{ type: 'rule', id: calling.id, name: 'Caller › Calls three', uri: `/adviceset/${caller.id}/rule/${calling.id}/show` }])
  t.equal((await activityRows(db, 'rule', three)).length, 1, 'a refused restore writes nothing')
  const undo = await restore((await activityRows(db, 'rule', one))[0]!.id)
  t.equal(undo.statusCode, 200, 'undoing an uncalled rule\'s creation deletes it')
  t.same(await ruleOrder(set.id), [['Two', 0], ['Three', 1]])
  t.equal((await restore((await activityRows(db, 'rule', one))[0]!.id)).statusCode, 400, 'deleting it twice is refused')
})

t.test('rules: undoing a promote moves the rule back', async (t) => {
  const set = await createAdviceSet(db, { ownerId })
  const { rule } = await buildRule(db, set.id, 'Moves', [{ type: 'advice', headline: 'Hi' }])
  await buildRule(db, set.id, 'Stays')
  const promoted = (await agent.api('POST', '/api/rule/promote', { id: rule.id })).json().data
  const move = (await activityRows(db, 'rule', rule.id))[0]!
  t.equal((await restore(move.id)).statusCode, 200)
  const [row] = await db.select().from(rules).where(eq(rules.id, rule.id))
  t.equal(row!.adviceSetId, set.id, 'back in its old set')
  t.same(await ruleOrder(set.id), [['Moves', 0], ['Moves', 1], ['Stays', 2]], 'in its old place, with the calling stub right after it')
  t.same(await ruleOrder(promoted.adviceSet.id), [], 'the new set is empty again')
})

t.test('rule nodes: update, move, delete with subtree, create rows', async (t) => {
  const set = await createAdviceSet(db, { ownerId })
  const { rule, nodes } = await buildRule(db, set.id, 'Tree', [
    { type: 'condition', expression: '{{Age}} > 18', children: [{ type: 'advice', headline: 'a1' }, { type: 'advice', headline: 'a2' }] },
    { type: 'condition', expression: 'false', children: [{ type: 'advice', headline: 'b1' }] },
  ])
  const [a, a1, a2, b] = nodes.map((n) => n.id) as [number, number, number, number]
  const base = `/api/rule/${rule.id}/node`

  await agent.api('PATCH', `${base}/${a}`, { expression: '{{Age}} > 21', tags: ['needs-work'] })
  t.equal((await restore((await lastRow('rulenode', a)).id)).statusCode, 200)
  const [restoredA] = await db.select().from(ruleNodes).where(eq(ruleNodes.id, a))
  t.equal(restoredA!.expression, '{{Age}} > 18')
  t.same(restoredA!.tags, [])
  t.match(await lastRow('rulenode', a), { action: 'restore', before: { expression: '{{Age}} > 21' }, after: { expression: '{{Age}} > 18' } })

  await agent.api('POST', `${base}/move`, { nodeId: a1, parentId: b, position: 0 })
  t.equal((await restore((await lastRow('rulenode', a1)).id)).statusCode, 200, 'undo a move')
  const undoneMove = await lastRow('rulenode', a1)
  t.match(undoneMove, { action: 'restore', before: { parentId: b }, after: { parentId: a, position: 0 } })
  t.same((await agent.api('GET', `${base}/${a}`)).json().data.children.map((n: { id: number }) => n.id), [a1, a2], 'back under its old parent at its old place')
  assertGapFree(t, await positionsByParent(db, rule.id))

  const del = await agent.api('DELETE', `${base}/${a}`)
  t.equal(del.json().data.deleted, 3)
  const top = (await agent.api('GET', `/api/activity/roots/deleted?ruleId=${rule.id}`)).json().data
  t.match(top, [{ entityType: 'rulenode', entityId: String(a), name: '{{Age}} > 18' }], 'a deleted top-level node is listed under roots?ruleId')
  await agent.api('POST', base, { type: 'ruleExit', position: 0 })
  t.equal((await restore(top[0].activityId)).statusCode, 200)
  t.same((await agent.api('GET', `${base}/${a}`)).json().data.children.map((n: { id: number }) => n.id), [a1, a2], 'with exactly its subtree')
  t.same((await agent.api('GET', `${base}/roots`)).json().data.map((n: { id: number }) => n.id).indexOf(a), 0, 'at its old position')
  assertGapFree(t, await positionsByParent(db, rule.id))
  t.match(await lastRow('rulenode', a), { action: 'restore', after: { deleted: false, subtree: 3 } })

  await agent.api('DELETE', `${base}/${a2}`)
  const under = (await agent.api('GET', `/api/activity/${a}/deleted`)).json().data
  t.same(under.map((d: { entityId: string }) => d.entityId), [String(a2)], 'a deleted child is listed under its parent')
  t.same((await agent.api('GET', `/api/activity/roots/deleted?ruleId=${rule.id}`)).json().data, [], 'and not at the top level')
  // Brought back, moved and deleted again, it is listed where it was deleted last, not where it was deleted once.
  t.equal((await restore(under[0].activityId)).statusCode, 200)
  t.equal((await agent.api('POST', `${base}/move`, { nodeId: a2, parentId: b, position: 0 })).statusCode, 200)
  await agent.api('DELETE', `${base}/${a2}`)
  t.same((await agent.api('GET', `/api/activity/${a}/deleted`)).json().data, [], 'no longer under its first parent')
  t.same((await agent.api('GET', `/api/activity/${b}/deleted`)).json().data.map((d: { entityId: string }) => d.entityId), [String(a2)], 'but under the one it left')

  const added = (await agent.api('POST', base, { type: 'condition', expression: 'true', parentId: b })).json().data
  await agent.api('POST', base, { type: 'advice', headline: 'under the new one', parentId: added.id })
  t.equal((await restore((await activityRows(db, 'rulenode', added.id))[0]!.id)).statusCode, 200, 'undo a create')
  t.equal((await agent.api('GET', `${base}/${added.id}`)).statusCode, 404, 'the created node is deleted')
  t.match(await lastRow('rulenode', added.id), { action: 'restore', after: { deleted: true, subtree: 2 } })
  assertGapFree(t, await positionsByParent(db, rule.id))

  await agent.api('DELETE', `${base}/${b}`)
  const intoDeleted = await restore(undoneMove.id)
  t.equal(intoDeleted.statusCode, 400, 'a place under a deleted parent is refused')
  t.match(intoDeleted.json().error.message, /^parentId: /)
})

t.test('rule nodes: a call to a rule deleted since and a rename rewrite are refused', async (t) => {
  const set = await createAdviceSet(db, { ownerId })
  const { rule: callee } = await buildRule(db, set.id, 'Callee')
  const { rule: other } = await buildRule(db, set.id, 'Other')
  const { rule, nodes } = await buildRule(db, set.id, 'Caller', [{ type: 'ruleCall', calledRuleId: callee.id }])
  await agent.api('PATCH', `/api/rule/${rule.id}/node/${nodes[0]!.id}`, { calledRuleId: other.id })
  await agent.api('DELETE', `/api/rule/${callee.id}`)
  const res = await restore((await lastRow('rulenode', nodes[0]!.id)).id)
  t.equal(res.statusCode, 400)
  t.match(res.json().error.message, /^calledRuleId: /, 'the field is named')

  const income = await createVariable(db, ownerId, 'Pay')
  const { nodes: uses } = await buildRule(db, set.id, 'Uses', [{ type: 'condition', expression: '{{Pay}} > 1' }])
  await agent.api('PATCH', `/api/entity/${income.id}`, { reservedName: 'Salary' })
  const rewrite = await restore((await lastRow('rulenode', uses[0]!.id)).id)
  t.equal(rewrite.statusCode, 400)
  t.match(rewrite.json().error.message, /renaming a dictionary entry/)
})

t.test('dictionary entries: a restored name goes through the rename path', async (t) => {
  const set = await createAdviceSet(db, { ownerId })
  const entry = (await agent.api('POST', '/api/entity', { reservedName: 'Wage', dataType: 'number', description: 'Gross' })).json().data
  const { nodes } = await buildRule(db, set.id, 'R', [{ type: 'condition', expression: '{{Wage}} > 100', children: [{ type: 'advice', headline: 'Wage {{Wage}}' }] }])
  await agent.api('PATCH', `/api/entity/${entry.id}`, { reservedName: 'Gross_Wage', description: 'Before tax' })
  const [renamed] = await db.select().from(ruleNodes).where(eq(ruleNodes.id, nodes[0]!.id))
  t.equal(renamed!.expression, '{{Gross_Wage}} > 100')
  const res = await restore((await lastRow('entity', entry.id)).id)
  t.equal(res.statusCode, 200)
  const [back] = await db.select().from(entities).where(eq(entities.id, entry.id))
  t.match(back, { reservedName: 'Wage', description: 'Gross' })
  const texts = await db.select().from(ruleNodes).where(eq(ruleNodes.ruleId, nodes[0]!.ruleId)).orderBy(ruleNodes.id)
  t.same(texts.map((n) => n.expression ?? n.headline), ['{{Wage}} > 100', 'Wage {{Wage}}'], 'every use follows the restored name')
  const row = await lastRow('entity', entry.id)
  t.equal(row.action, 'restore')
  t.same((row.after as { rewritten: { nodes: number[] } }).rewritten.nodes, nodes.map((n) => n.id))

  const refused = await restore((await activityRows(db, 'entity', entry.id))[0]!.id)
  t.equal(refused.statusCode, 221, 'undoing the creation of a used variable is refused')
  t.same(refused.json().error.dependents.map((d: { id: number }) => d.id), nodes.map((n) => n.id), 'with the uses listed')
  t.equal((await restore((await activityRows(db, 'entity', entry.id))[0]!.id, viewerAgent)).statusCode, 403)
})

t.test('dictionary entries: undo create, recover a delete, a name taken meanwhile', async (t) => {
  const spare = (await agent.api('POST', '/api/entity', { reservedName: 'Spare' })).json().data
  t.equal((await restore((await activityRows(db, 'entity', spare.id))[0]!.id)).statusCode, 200)
  t.equal((await agent.api('GET', `/api/entity/${spare.id}`)).statusCode, 404, 'undoing the creation deletes an unused entry')
  t.equal((await restore((await lastRow('entity', spare.id)).id)).statusCode, 200, 'undoing that brings it back')
  t.equal((await agent.api('GET', `/api/entity/${spare.id}`)).json().data.reservedName, 'Spare')

  await agent.api('DELETE', `/api/entity/${spare.id}`)
  const deleteRow = await lastRow('entity', spare.id)
  await agent.api('POST', '/api/entity', { reservedName: 'spare' })
  const taken = await restore(deleteRow.id)
  t.equal(taken.statusCode, 409, 'its name was taken while it was deleted')
  t.match(taken.json().error.message, /^reservedName: /)
})

t.test('comments: update, delete, create rows and the author rule', async (t) => {
  const set = await createAdviceSet(db, { ownerId })
  const { nodes } = await buildRule(db, set.id, 'R', [{ type: 'ruleExit' }])
  const base = `/api/comment/${nodes[0]!.id}`
  const comment = (await agent.api('POST', base, { body: 'First thought' })).json().data
  await agent.api('PATCH', `${base}/${comment.id}`, { body: 'Second thought' })
  const update = await lastRow('comment', comment.id)
  t.equal((await restore(update.id, colleagueAgent)).statusCode, 403, 'only its author restores a comment')
  t.equal((await restore(update.id)).statusCode, 200)
  t.equal((await agent.api('GET', `${base}/${comment.id}`)).json().data.body, 'First thought')

  await agent.api('DELETE', `${base}/${comment.id}`)
  const listed = (await agent.api('GET', `/api/activity/${nodes[0]!.id}/deleted`)).json().data
  t.match(listed, [{ entityType: 'comment', entityId: String(comment.id), name: 'First thought' }], 'a deleted comment is listed under its node')
  t.equal((await restore(listed[0].activityId)).statusCode, 200)
  t.same((await agent.api('GET', `${base}/count`)).json().data, { count: 1 })
  t.equal((await restore((await activityRows(db, 'comment', comment.id))[0]!.id)).statusCode, 200, 'undoing the comment deletes it')
  const [row] = await db.select().from(comments).where(eq(comments.id, comment.id))
  t.ok(row!.deletedAt)
  t.same((await activityRows(db, 'comment', comment.id)).map((r) => r.action), ['create', 'update', 'restore', 'delete', 'restore', 'restore'])
})

t.test('deleted lists: the place is named, other owners see nothing', async (t) => {
  for (const url of ['/api/activity/roots/deleted', '/api/activity/rules/deleted?adviceSetId=x', '/api/activity/leaves/deleted']) {
    const res = await agent.api('GET', url)
    t.equal(res.statusCode, 400, `${url} is refused`)
    t.equal(res.json().error.message, 'Invalid item id format.')
  }
  const set = await createAdviceSet(db, { ownerId })
  const { rule } = await buildRule(db, set.id, 'Gone')
  await agent.api('DELETE', `/api/rule/${rule.id}`)
  t.equal((await agent.api('GET', `/api/activity/rules/deleted?adviceSetId=${set.id}`)).json().data.length, 1)
  t.equal((await strangerAgent.api('GET', `/api/activity/rules/deleted?adviceSetId=${set.id}`)).statusCode, 404, 'another owner does not see the place (issue 22: deleted lists are the set\'s team\'s)')
  t.match((await viewerAgent.api('GET', `/api/activity/rules/deleted?adviceSetId=${set.id}`)).json().data, [{ canRestore: false }], 'viewers see them without a restore')
})
