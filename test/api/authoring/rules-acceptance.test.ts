// Issue 5 acceptance, route by route (Build point 3): every write refused to viewers (403) and to other owners (404 on
// a private set, 403 on a public one) without writing anything; every read hidden from other owners and open to
// viewers; validation errors that name the field; the activity rows and positions the other files do not cover.
import t from 'tap'
import { count } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInTeam } from '../../helpers/team.ts'
import { activityRows } from '../../helpers/activity.ts'
import type { Agent } from '../../helpers/agent.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { buildRule, createFormula, createVariable, positionsByParent } from '../../helpers/rules.ts'
import { insertComment, updateComment } from '../../../src/db/queries/comments.ts'
import { setNodesDeleted } from '../../../src/db/queries/rule-nodes.ts'
import { updateRule } from '../../../src/db/queries/rules.ts'
import { activity } from '../../../src/db/schema/index.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const { ownerId, author, viewer, agent, viewerAgent, strangerAgent } = await signedInTeam(app, db)

const activityCount = async () => (await db.select({ n: count() }).from(activity))[0]!.n

/** A private set (and a public one) with a rule, a deleted rule, nodes, a deleted node, comments, a variable and a formula. */
async function fixture(isPublic: boolean) {
  const set = await createAdviceSet(db, { ownerId, isPublic, name: isPublic ? 'Public set' : 'Private set' })
  const { rule: callee } = await buildRule(db, set.id, 'Callee', [{ type: 'advice', headline: 'Hi' }])
  const { rule: gone } = await buildRule(db, set.id, 'Gone')
  await updateRule(db, gone.id, { deletedAt: new Date(), updatedBy: null })
  const { rule, nodes } = await buildRule(db, set.id, 'Main', [
    { type: 'condition', expression: '{{Age}} > 1', children: [{ type: 'advice', headline: 'Adult' }] },
    { type: 'ruleExit' },
  ])
  await setNodesDeleted(db, [nodes[2]!.id], new Date(), null)
  const comment = await insertComment(db, { ruleNodeId: nodes[0]!.id, userId: author.id, body: 'Note' })
  const deletedComment = await insertComment(db, { ruleNodeId: nodes[0]!.id, userId: author.id, body: 'Old note' })
  await updateComment(db, deletedComment.id, { deletedAt: new Date() })
  const variable = await createVariable(db, ownerId, `Var_${set.id}`)
  const formula = await createFormula(db, ownerId, `Formula_${set.id}`, '1 + 1')
  return { set, callee, gone, rule, cond: nodes[0]!, advice: nodes[1]!, deletedNode: nodes[2]!, comment, deletedComment, variable, formula }
}
type Fixture = Awaited<ReturnType<typeof fixture>>

/** Every write route of Build point 3 with a body that is valid, so only rights can refuse it. */
function writes(f: Fixture): Array<{ route: string; method: string; url: string; body?: unknown; dictionary?: boolean }> {
  const node = `/api/rule/${f.rule.id}/node`
  const comments = `/api/comment/${f.cond.id}`
  return [
    { route: 'POST rule', method: 'POST', url: '/api/rule', body: { adviceSetId: f.set.id, name: 'New' } },
    { route: 'PATCH rule/{id}', method: 'PATCH', url: `/api/rule/${f.rule.id}`, body: { name: 'Renamed' } },
    { route: 'DELETE rule/{id}', method: 'DELETE', url: `/api/rule/${f.rule.id}` },
    { route: 'POST rule/{id}/recover', method: 'POST', url: `/api/rule/${f.gone.id}/recover` },
    { route: 'POST rule/copy (into this set)', method: 'POST', url: '/api/rule/copy', body: { id: f.rule.id, adviceSetId: f.set.id } },
    { route: 'POST rule/promote', method: 'POST', url: '/api/rule/promote', body: { id: f.rule.id } },
    { route: 'POST rule/{id}/node', method: 'POST', url: node, body: { type: 'ruleExit' } },
    { route: 'POST rule/{id}/node/new-call', method: 'POST', url: `${node}/new-call`, body: { calledRuleId: f.callee.id } },
    { route: 'POST rule/{id}/node/move', method: 'POST', url: `${node}/move`, body: { nodeId: f.cond.id, position: 1 } },
    { route: 'PATCH rule/{id}/node/{nodeId}', method: 'PATCH', url: `${node}/${f.cond.id}`, body: { expression: 'true' } },
    { route: 'DELETE rule/{id}/node/{nodeId}', method: 'DELETE', url: `${node}/${f.cond.id}` },
    { route: 'POST rule/{id}/node/{nodeId}/copy', method: 'POST', url: `${node}/${f.cond.id}/copy` },
    { route: 'POST rule/{id}/node/{nodeId}/recover', method: 'POST', url: `${node}/${f.deletedNode.id}/recover` },
    { route: 'POST comment/{ruleNodeId}', method: 'POST', url: comments, body: { body: 'Mine' } },
    { route: 'PATCH comment/{ruleNodeId}/{id}', method: 'PATCH', url: `${comments}/${f.comment.id}`, body: { body: 'Changed' } },
    { route: 'DELETE comment/{ruleNodeId}/{id}', method: 'DELETE', url: `${comments}/${f.comment.id}` },
    { route: 'POST comment/{ruleNodeId}/{id}/restore', method: 'POST', url: `${comments}/${f.deletedComment.id}/restore` },
    { route: 'PATCH entity/{id}', method: 'PATCH', url: `/api/entity/${f.variable.id}`, body: { description: 'x' }, dictionary: true },
    { route: 'DELETE entity/{id}', method: 'DELETE', url: `/api/entity/${f.variable.id}`, dictionary: true },
    { route: 'POST entity/{id}/alternate', method: 'POST', url: `/api/entity/${f.variable.id}/alternate`, body: { expression: '1' }, dictionary: true },
  ]
}

/** Every read route of Build point 3 on this fixture's private content. */
function reads(f: Fixture): Array<{ route: string; method: string; url: string; body?: unknown }> {
  const node = `/api/rule/${f.rule.id}/node`
  const comments = `/api/comment/${f.cond.id}`
  const set = `id=${f.set.id}`
  return [
    { route: 'GET rule/{id}', method: 'GET', url: `/api/rule/${f.rule.id}` },
    { route: 'GET rule/stats', method: 'GET', url: `/api/rule/stats?id=${f.rule.id}` },
    { route: 'GET rule/called-by', method: 'GET', url: `/api/rule/called-by?id=${f.callee.id}` },
    { route: 'GET rule/called/{id}', method: 'GET', url: `/api/rule/called/${f.rule.id}` },
    { route: 'GET rule/variables', method: 'GET', url: `/api/rule/variables?id=${f.rule.id}` },
    { route: 'POST rule/debug', method: 'POST', url: '/api/rule/debug', body: { ruleId: f.rule.id, inputs: { Age: 3 } } },
    { route: 'GET rule/{id}/node/roots', method: 'GET', url: `${node}/roots` },
    { route: 'GET rule/{id}/node/tree', method: 'GET', url: `${node}/tree` },
    { route: 'GET rule/{id}/node/{nodeId}', method: 'GET', url: `${node}/${f.cond.id}` },
    { route: 'GET comment/{ruleNodeId}', method: 'GET', url: comments },
    { route: 'GET comment/{ruleNodeId}/count', method: 'GET', url: `${comments}/count` },
    { route: 'GET comment/{ruleNodeId}/{id}', method: 'GET', url: `${comments}/${f.comment.id}` },
    { route: 'GET entity/{id}', method: 'GET', url: `/api/entity/${f.variable.id}` },
    { route: 'GET entity/{id}/used', method: 'GET', url: `/api/entity/${f.variable.id}/used` },
    { route: 'GET entity/{id}/list-uses', method: 'GET', url: `/api/entity/${f.variable.id}/list-uses` },
    { route: 'GET entity/{id}/expand', method: 'GET', url: `/api/entity/${f.formula.id}/expand` },
    { route: 'GET adviceset/list-{entityType}', method: 'GET', url: `/api/adviceset/list-rule?${set}` },
    { route: 'GET adviceset/list-advice/logic', method: 'GET', url: `/api/adviceset/list-advice/logic?${set}` },
    { route: 'GET adviceset/unreachable', method: 'GET', url: `/api/adviceset/unreachable?${set}` },
    { route: 'GET adviceset/list-calling-advice-sets', method: 'GET', url: `/api/adviceset/list-calling-advice-sets?${set}` },
    { route: 'GET adviceset/logic-cache', method: 'GET', url: `/api/adviceset/logic-cache?${set}` },
    { route: 'GET adviceset/list/todoAdvice', method: 'GET', url: `/api/adviceset/list/todoAdvice?${set}` },
    { route: 'GET entity/typeahead (with the set)', method: 'GET', url: `/api/entity/typeahead?adviceSetId=${f.set.id}` },
    { route: 'GET entity/text-search (with the set)', method: 'GET', url: `/api/entity/text-search?adviceSetId=${f.set.id}` },
    { route: 'GET entity/parse/match (with the set)', method: 'GET', url: `/api/entity/parse/match?content=1&adviceSetId=${f.set.id}` },
  ]
}

const call = (a: Agent, r: { method: string; url: string; body?: unknown }) => a.api(r.method, r.url, r.body)

t.test('rights: viewers and other owners cannot write; nothing is written when refused', async (t) => {
  const f = await fixture(false)
  const before = await activityCount()
  for (const route of writes(f)) {
    t.equal((await call(viewerAgent, route)).statusCode, 403, `${route.route}: a viewer gets 403`)
    t.equal((await call(strangerAgent, route)).statusCode, 404, `${route.route}: another owner gets 404 on a private set`)
  }
  t.equal(await activityCount(), before, 'no activity row was written')
  t.equal((await agent.api('GET', `/api/rule/${f.rule.id}`)).json().data.name, 'Main', 'and nothing changed')
  t.equal((await agent.api('GET', `/api/comment/${f.cond.id}/count`)).json().data.count, 1)
})

t.test('rights: another owner can read a public set but not write it', async (t) => {
  const f = await fixture(true)
  const before = await activityCount()
  for (const route of writes(f)) {
    // Copying a readable rule is allowed, but only into the copier's own set; dictionary entries are never public.
    if (route.route.startsWith('POST rule/copy') || route.dictionary) continue
    // Comments are the set's team's collaboration data (issue 22, finding 4): another team does not find them at all.
    const expected = route.route.startsWith('POST comment') || route.route.includes(' comment/') ? 404 : 403
    t.equal((await call(strangerAgent, route)).statusCode, expected, `${route.route}: ${expected} on a public set`)
  }
  t.equal(await activityCount(), before)
  t.equal((await call(strangerAgent, { method: 'POST', url: '/api/rule/copy', body: { id: f.rule.id, adviceSetId: f.set.id } })).statusCode, 403, 'not copied into their set')
  const theirs = (await strangerAgent.api('POST', '/api/adviceset', { name: 'Mine' })).json().data
  t.equal((await call(strangerAgent, { method: 'POST', url: '/api/rule/copy', body: { id: f.rule.id, adviceSetId: theirs.id } })).statusCode, 201, 'copied into their own set')
  for (const route of reads(f).filter((r) => r.route.startsWith('GET rule') || r.route.startsWith('POST rule'))) {
    t.equal((await call(strangerAgent, route)).statusCode, 200, `${route.route}: readable in a public set`)
  }
})

t.test('rights: reads are hidden from other owners and open to viewers', async (t) => {
  const f = await fixture(false)
  for (const route of reads(f)) {
    t.equal((await call(strangerAgent, route)).statusCode, 404, `${route.route}: another owner gets 404`)
    t.equal((await call(viewerAgent, route)).statusCode, 200, `${route.route}: a viewer reads it`)
  }
  const row = (await agent.api('PATCH', `/api/rule/${f.rule.id}`, { name: 'Main 2' }), (await activityRows(db, 'rule', f.rule.id))[0]!)
  t.equal((await viewerAgent.api('POST', `/api/activity/${row.id}/restore`)).statusCode, 403, 'POST activity/{id}/restore: a viewer gets 403')
  t.equal((await strangerAgent.api('POST', `/api/activity/${row.id}/restore`)).statusCode, 404, 'another owner gets 404')
})

t.test('validation errors name the field', async (t) => {
  const f = await fixture(false)
  const node = `/api/rule/${f.rule.id}/node`
  const cases: Array<[string, string, string, unknown, RegExp]> = [
    ['POST rule', 'POST', '/api/rule', { adviceSetId: f.set.id, name: ' ' }, /^Name is required\.$/],
    ['POST rule (no name)', 'POST', '/api/rule', { adviceSetId: f.set.id }, /^name: /],
    ['POST rule (position)', 'POST', '/api/rule', { adviceSetId: f.set.id, name: 'x', position: -1 }, /^position: /],
    ['PATCH rule/{id}', 'PATCH', `/api/rule/${f.rule.id}`, {}, /send name, position or onlyWhenCalled/],
    ['PATCH rule/{id} (name)', 'PATCH', `/api/rule/${f.rule.id}`, { name: 'x'.repeat(201) }, /^Name must be at most 200 characters\.$/],
    ['POST rule/copy', 'POST', '/api/rule/copy', { id: f.rule.id, name: 'x'.repeat(201) }, /^Name must be at most 200/],
    ['POST rule/copy (unknown field)', 'POST', '/api/rule/copy', { id: f.rule.id, colour: 'red' }, /^colour: is not an accepted field$/],
    ['POST rule/promote', 'POST', '/api/rule/promote', { id: f.rule.id, name: 'x'.repeat(201) }, /^Name must be at most 200/],
    ['POST rule/debug (now)', 'POST', '/api/rule/debug', { ruleId: f.rule.id, now: 'someday' }, /^now: /],
    ['POST rule/debug (contentType)', 'POST', '/api/rule/debug', { ruleId: f.rule.id, contentType: 'pdf' }, /^contentType: /],
    ['POST rule/debug (neither)', 'POST', '/api/rule/debug', {}, /^ruleId or adviceSetId is required\.$/],
    ['POST rule/{id}/node (parent)', 'POST', node, { type: 'ruleExit', parentId: 999999 }, /^parentId: /],
    ['PATCH rule/{id}/node/{nodeId}', 'PATCH', `${node}/${f.cond.id}`, { expression: '{{Age}} =' }, /^expression: .*\(position \d+\)$/],
    ['PATCH rule/{id}/node/{nodeId} (tags)', 'PATCH', `${node}/${f.cond.id}`, { tags: ['gold'] }, /^tags: /],
    ['POST rule/{id}/node/new-call', 'POST', `${node}/new-call`, { calledRuleId: 'abc' }, /^calledRuleId: /],
    ['POST rule/{id}/node/move (nodeId)', 'POST', `${node}/move`, { nodeId: 'x' }, /^nodeId: /],
    ['POST rule/{id}/node/move (parentId)', 'POST', `${node}/move`, { nodeId: f.cond.id, parentId: 999999 }, /^parentId: /],
    ['POST rule/{id}/node/move (position)', 'POST', `${node}/move`, { nodeId: f.cond.id, position: -2 }, /^position: /],
    ['POST rule/{id}/node/{nodeId}/copy', 'POST', `${node}/${f.cond.id}/copy`, { parentId: f.advice.id }, /^parentId: /],
    ['POST entity', 'POST', '/api/entity', { reservedName: 'two words' }, /^reservedName: /],
    ['PATCH entity/{id}', 'PATCH', `/api/entity/${f.variable.id}`, { dataType: 'colour' }, /^dataType: /],
    ['PATCH entity/{id} (options)', 'PATCH', `/api/entity/${f.variable.id}`, { validOptions: [1, 2] }, /^validOptions: /],
    ['POST entity/{id}/copy', 'POST', `/api/entity/${f.variable.id}/copy`, { reservedName: '_bad' }, /^reservedName: /],
    ['POST entity/{id}/alternate', 'POST', `/api/entity/${f.variable.id}/alternate`, {}, /^expression: /],
    ['POST comment/{ruleNodeId}', 'POST', `/api/comment/${f.cond.id}`, { body: '' }, /^body: /],
    ['PATCH comment/{ruleNodeId}/{id}', 'PATCH', `/api/comment/${f.cond.id}/${f.comment.id}`, { body: 'x'.repeat(5001) }, /^body: the comment must be at most 5000/],
    ['GET entity/parse', 'GET', '/api/entity/parse', undefined, /content/],
    ['GET entity/parse (mode)', 'GET', '/api/entity/parse?content=1&mode=poem', undefined, /^mode: /],
    ['GET entity/typeahead (kind)', 'GET', '/api/entity/typeahead?kind=rule', undefined, /^kind: /],
    ['GET adviceset/list-{entityType}', 'GET', `/api/adviceset/list-widget?id=${f.set.id}`, undefined, /^entityType: /],
  ]
  const before = await activityCount()
  for (const [route, method, url, body, message] of cases) {
    const res = await agent.api(method, url, body)
    t.equal(res.statusCode, 400, `${route}: 400`)
    t.match(res.json().error?.message, message, `${route}: ${res.json().error?.message}`)
  }
  t.equal(await activityCount(), before, 'refused writes leave no activity')
  for (const url of [`/api/rule/stats?id=abc`, `/api/rule/${f.rule.id}/node/abc`, '/api/entity/typeahead?adviceSetId=abc', '/api/comment/abc/count', '/api/activity/abc/restore']) {
    const res = await agent.api(url.endsWith('restore') ? 'POST' : 'GET', url)
    t.equal(res.json().error?.message, 'Invalid item id format.', `${url}: SPEC §8 id message`)
  }
  const taken = await agent.api('POST', `/api/entity/${f.variable.id}/copy`, { reservedName: f.formula.reservedName })
  t.equal(taken.statusCode, 409)
  t.match(taken.json().error.message, /^reservedName: .* is already in the dictionary/)
  t.equal((await agent.api('GET', `/api/entity/${f.variable.id}/expand`)).json().error.message, 'Only formulas can be expanded.')
})

t.test('221: a formula used by another formula, with the use listed', async (t) => {
  const base = await createFormula(db, ownerId, 'Base_Fee', '10')
  const total = await createFormula(db, ownerId, 'Total_Fee', '[[Base_Fee]] * 2')
  const res = await agent.api('DELETE', `/api/entity/${base.id}`)
  t.equal(res.statusCode, 221)
  t.equal(res.json().error.name, 'Delete Not Allowed')
  t.same(res.json().error.dependents, [{ type: 'entity', id: total.id, name: '[[Total_Fee]]' }])
  t.equal((await activityRows(db, 'entity', base.id)).length, 0)
})

t.test('activity rows and positions: rule copy, node copy, new-call, entity copy and alternate', async (t) => {
  const f = await fixture(false)
  const copy = (await agent.api('POST', '/api/rule/copy', { id: f.rule.id })).json().data
  const order = (await agent.api('GET', `/api/adviceset/list-rule?id=${f.set.id}`)).json().data.map((r: { id: number; position: number }) => [r.id, r.position])
  t.same(order, [[f.callee.id, 0], [f.rule.id, 1], [copy.id, 2]], 'a copied rule goes last, positions 0..n-1')
  t.same((await positionsByParent(db, copy.id)).get(null), [0], 'its live tree is copied, the deleted node is not')

  const node = `/api/rule/${f.rule.id}/node`
  const nodeCopy = (await agent.api('POST', `${node}/${f.cond.id}/copy`)).json().data
  t.match((await activityRows(db, 'rulenode', nodeCopy.id)).map((r) => [r.action, r.after]), [['create', { copiedFrom: f.cond.id, subtree: 2, parentId: null, position: 1 }]])
  const callNode = (await agent.api('POST', `${node}/new-call`, { calledRuleId: f.callee.id, parentId: f.cond.id })).json().data
  t.match((await activityRows(db, 'rulenode', callNode.id)).map((r) => [r.action, r.after]), [['create', { type: 'ruleCall', calledRuleId: f.callee.id, parentId: f.cond.id, position: 1 }]])
  for (const list of (await positionsByParent(db, f.rule.id)).values()) t.same(list, list.map((_, i) => i))
  const recoverUnderDeleted = await agent.api('DELETE', `${node}/${f.cond.id}`)
  t.equal(recoverUnderDeleted.statusCode, 200)
  const orphan = await agent.api('POST', `${node}/${callNode.id}/recover`)
  t.equal(orphan.statusCode, 400, 'a child deleted with its parent is not recovered alone')

  const entryCopy = (await agent.api('POST', `/api/entity/${f.variable.id}/copy`, { reservedName: `Copy_${f.set.id}` })).json().data
  t.match((await activityRows(db, 'entity', entryCopy.id)).map((r) => [r.action, r.after]), [['create', { reservedName: `Copy_${f.set.id}`, entityTypeId: 12 }]])
  await agent.api('POST', `/api/entity/${entryCopy.id}/alternate`, { expression: '2 * 3' })
  t.match((await activityRows(db, 'entity', entryCopy.id)).map((r) => [r.action, r.before, r.after]), [
    ['create', null, {}],
    ['update', { entityTypeId: 12, expression: null }, { entityTypeId: 5, expression: '2 * 3' }],
  ])
})
