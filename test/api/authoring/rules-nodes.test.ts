// Issue 5: rule nodes — create with parse validation naming field and position, move/copy/delete/recover keeping
// sibling positions gap-free, rights, and one activity row per write.
import t, { type Test } from 'tap'
import { buildTestApp } from '../../helpers/app.ts'
import { lockHeldElsewhere, ON_POSTGRES_ONLY, someoneWaitsForALock } from '../../helpers/concurrency.ts'
import { signedInTeam } from '../../helpers/team.ts'
import { activityRows } from '../../helpers/activity.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { buildRule, positionsByParent } from '../../helpers/rules.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const { ownerId, agent, viewerAgent, strangerAgent } = await signedInTeam(app, db)

const nodeRows = (id: number) => activityRows(db, 'rulenode', id)
function assertGapFree(t: Test, positions: Map<number | null, number[]>) {
  for (const [parent, list] of positions) t.same(list, list.map((_, i) => i), `siblings under ${parent ?? 'root'} are 0..${list.length - 1}`)
}
async function childIds(ruleId: number, parent: number | 'roots') {
  const res = await agent.api('GET', `/api/rule/${ruleId}/node/${parent}`)
  const data = res.json().data
  return (parent === 'roots' ? data : data.children).map((n: { id: number }) => n.id)
}

t.test('create nodes: validation names the field and the position; activity rows', async (t) => {
  const set = await createAdviceSet(db, { ownerId })
  const { rule } = await buildRule(db, set.id, 'R')
  const base = `/api/rule/${rule.id}/node`
  const cond = await agent.api('POST', base, { type: 'condition', expression: '{{Age}} >= 18' })
  t.equal(cond.statusCode, 201)
  const c = cond.json().data
  t.match(c, { ruleId: rule.id, parentId: null, position: 0, type: 'condition' })
  const typo = await agent.api('POST', base, { type: 'condition', expression: '{{Age}} = 18' })
  t.equal(typo.statusCode, 400)
  t.match(typo.json().error.message, /^expression: .*\(position 8\)$/)
  t.same(typo.json().error.position, { start: 8, end: 9 })
  t.equal(typo.json().error.field, 'expression')
  const badAssign = await agent.api('POST', base, { type: 'variableAssignment', expression: '[[F]] = 2' })
  t.equal(badAssign.json().error.field, 'expression')
  t.equal(badAssign.json().error.position.start, 0)
  t.match((await agent.api('POST', base, { type: 'inputRequest', variable: 'bad name' })).json().error, { message: /^variable: / })
  t.match((await agent.api('POST', base, { type: 'teleport' })).json().error.message, /^type: must be one of/)
  t.match((await agent.api('POST', base, { type: 'advice', tags: ['shiny'] })).json().error.message, /^tags: /)
  t.match((await agent.api('POST', `${base}/new-call`, { calledRuleId: 999999 })).json().error.message, /^calledRuleId: /)
  const child = (await agent.api('POST', base, { type: 'advice', parentId: c.id, headline: 'Adult', tags: ['needs-work'] })).json().data
  const { rule: callee } = await buildRule(db, set.id, 'Callee')
  const call = await agent.api('POST', `${base}/new-call`, { calledRuleId: callee.id, parentId: c.id, position: 0 })
  t.equal(call.statusCode, 201)
  t.match(call.json().data, { type: 'ruleCall', calledRuleId: callee.id, parentId: c.id, position: 0 })
  t.same(await childIds(rule.id, c.id), [call.json().data.id, child.id], 'the call went first, the advice moved down')
  t.equal((await agent.api('DELETE', `${base}/${call.json().data.id}`)).statusCode, 200)
  const first = (await agent.api('POST', base, { type: 'inputRequest', variable: '{{Age}}', question: 'How old?', position: 0 })).json().data
  t.equal(first.variable, 'Age', 'a variable given with braces is stored by name')
  t.same(await childIds(rule.id, 'roots'), [first.id, c.id])
  t.same(await childIds(rule.id, c.id), [child.id])
  const tree = (await agent.api('GET', `${base}/tree`)).json().data
  t.equal(tree[1].children[0].headline, 'Adult')
  const rows = await nodeRows(child.id)
  t.equal(rows.length, 1)
  t.match(rows[0]!.after, { parentId: c.id, ruleId: rule.id, type: 'advice', headline: 'Adult' })

  const patched = await agent.api('PATCH', `${base}/${c.id}`, { expression: '{{Age}} > 20' })
  t.equal(patched.json().data.expression, '{{Age}} > 20')
  t.equal((await agent.api('PATCH', `${base}/${c.id}`, { expression: '{{Age}} > 20' })).statusCode, 200)
  t.equal((await nodeRows(c.id)).length, 2, 'create + one update; an unchanged save writes nothing')
  t.equal((await agent.api('PATCH', `${base}/${c.id}`, { expression: '{{Age}} >' })).statusCode, 400)
  t.equal((await agent.api('GET', `${base}/${c.id}`)).json().data.expression, '{{Age}} > 20', 'a refused save loses nothing')
})

t.test('rights on nodes', async (t) => {
  const set = await createAdviceSet(db, { ownerId })
  const { rule, nodes } = await buildRule(db, set.id, 'R', [{ type: 'ruleExit' }])
  const base = `/api/rule/${rule.id}/node`
  t.equal((await viewerAgent.api('GET', `${base}/roots`)).statusCode, 200)
  t.equal((await viewerAgent.api('POST', base, { type: 'ruleExit' })).statusCode, 403)
  t.equal((await viewerAgent.api('DELETE', `${base}/${nodes[0]!.id}`)).statusCode, 403)
  t.equal((await strangerAgent.api('GET', `${base}/roots`)).statusCode, 404)
  t.equal((await strangerAgent.api('POST', `${base}/move`, { nodeId: nodes[0]!.id, position: 0 })).statusCode, 404)
  const other = await buildRule(db, set.id, 'Other')
  t.equal((await agent.api('GET', `/api/rule/${other.rule.id}/node/${nodes[0]!.id}`)).statusCode, 404, 'a node is only found under its own rule')
  t.equal((await nodeRows(nodes[0]!.id)).length, 0)
})

t.test('move, copy, delete, recover keep sibling positions gap-free', async (t) => {
  const set = await createAdviceSet(db, { ownerId })
  const { rule, nodes } = await buildRule(db, set.id, 'Tree', [
    { type: 'condition', expression: 'true', children: [{ type: 'advice', headline: 'a1' }, { type: 'advice', headline: 'a2' }, { type: 'advice', headline: 'a3' }] },
    { type: 'condition', expression: 'false', children: [{ type: 'advice', headline: 'b1' }] },
    { type: 'ruleExit' },
  ])
  const [a, a1, a2, a3, b, b1, exit] = nodes.map((n) => n.id) as [number, number, number, number, number, number, number]
  const base = `/api/rule/${rule.id}/node`

  let res = await agent.api('POST', `${base}/move`, { nodeId: a3, position: 0 })
  t.equal(res.statusCode, 200)
  t.same(await childIds(rule.id, a), [a3, a1, a2], 'reordered within the parent')
  res = await agent.api('POST', `${base}/move`, { nodeId: a1, parentId: b, position: 0 })
  t.same(await childIds(rule.id, a), [a3, a2], 'the old parent closes the gap')
  t.same(await childIds(rule.id, b), [a1, b1], 're-parented at the asked position')
  res = await agent.api('POST', `${base}/move`, { nodeId: exit, parentId: a, position: 99 })
  t.same(await childIds(rule.id, a), [a3, a2, exit], 'a position past the end appends')
  t.same(await childIds(rule.id, 'roots'), [a, b])
  t.equal((await agent.api('POST', `${base}/move`, { nodeId: a, parentId: a2 })).json().error.message, 'parentId: a node cannot move under itself or its own descendants.')
  assertGapFree(t, await positionsByParent(db, rule.id))
  const moveRows = await nodeRows(a1)
  t.equal(moveRows.length, 1)
  t.match(moveRows[0]!.before, { parentId: a, position: 1 })
  t.match(moveRows[0]!.after, { parentId: b, position: 0 })

  res = await agent.api('POST', `${base}/${b}/copy`)
  t.equal(res.statusCode, 201)
  const bCopy = res.json().data
  t.same(await childIds(rule.id, 'roots'), [a, b, bCopy.id], 'the copy goes right after the original')
  const copyChildren = (await agent.api('GET', `${base}/${bCopy.id}`)).json().data.children
  t.same(copyChildren.map((n: { headline: string }) => n.headline), ['a1', 'b1'], 'with its subtree')
  res = await agent.api('POST', `${base}/${a2}/copy`, { parentId: null, position: 0 })
  t.same((await childIds(rule.id, 'roots'))[0], res.json().data.id)
  t.equal((await agent.api('POST', `${base}/${b}/copy`, { parentId: a1 })).statusCode, 400, 'not into itself')
  assertGapFree(t, await positionsByParent(db, rule.id))

  res = await agent.api('DELETE', `${base}/${a}`)
  t.equal(res.statusCode, 200)
  t.equal(res.json().data.deleted, 4, 'the node and its three children')
  t.equal((await agent.api('GET', `${base}/${a3}`)).statusCode, 404, 'children go with it')
  assertGapFree(t, await positionsByParent(db, rule.id))
  await agent.api('POST', base, { type: 'ruleExit', position: 1 })
  res = await agent.api('POST', `${base}/${a}/recover`)
  t.equal(res.statusCode, 200)
  t.equal(res.json().data.position, 1, 'back at its old position')
  t.same(await childIds(rule.id, a), [a3, a2, exit], 'with exactly its subtree')
  assertGapFree(t, await positionsByParent(db, rule.id))
  t.same((await nodeRows(a)).map((r) => r.action), ['delete', 'restore'])
  t.match((await nodeRows(a))[0]!.before, { parentId: null, ruleId: rule.id })
  t.equal((await agent.api('POST', `${base}/${a}/recover`)).statusCode, 400, 'a live node is not recovered')
})

t.test('a node is added to a rule whose row another writer holds FOR SHARE (a rename, a node edit)', ON_POSTGRES_ONLY, async (t) => {
  const set = await createAdviceSet(db, { ownerId })
  const { rule } = await buildRule(db, set.id, 'Shared', [{ type: 'advice', headline: 'first' }])
  const { other, release } = await lockHeldElsewhere(t, (database as { url?: string }).url!, (tx) => tx`select id from rules where id = ${rule.id} for share`)
  let polling = true
  const waiting = (async () => {
    while (polling) if (await someoneWaitsForALock(other)) return 'waits on a lock'
    return 'never waited'
  })()
  const added = agent.api('POST', `/api/rule/${rule.id}/node`, { type: 'advice', headline: 'beside the share' })
  const first = await Promise.race([added.then(() => 'answered'), waiting])
  polling = false
  await release()
  t.equal(first, 'answered', 'the new node does not wait for the holder')
  t.equal((await added).statusCode, 201)
  t.same((await positionsByParent(db, rule.id)).get(null), [0, 1])
})

t.test('concurrent moves in one rule stay consistent', async (t) => {
  const set = await createAdviceSet(db, { ownerId })
  const specs = Array.from({ length: 8 }, (_, i) => ({ type: 'advice', headline: `n${i}` }))
  const { rule, nodes } = await buildRule(db, set.id, 'Busy', specs)
  const base = `/api/rule/${rule.id}/node`
  const results = await Promise.all(nodes.map((n, i) => agent.api('POST', `${base}/move`, { nodeId: n.id, position: (i * 3) % 8 })))
  t.same(results.map((r) => r.statusCode), nodes.map(() => 200))
  const positions = await positionsByParent(db, rule.id)
  t.same(positions.get(null), [0, 1, 2, 3, 4, 5, 6, 7])

  const mixed = await Promise.all([
    ...Array.from({ length: 4 }, () => agent.api('POST', base, { type: 'ruleExit', position: 0 })),
    agent.api('POST', `${base}/move`, { nodeId: nodes[0]!.id, parentId: nodes[1]!.id, position: 0 }),
    agent.api('DELETE', `${base}/${nodes[2]!.id}`),
    agent.api('POST', `${base}/${nodes[3]!.id}/copy`),
  ])
  t.same(mixed.map((r) => r.statusCode), [201, 201, 201, 201, 200, 200, 201])
  const after = await positionsByParent(db, rule.id)
  t.same(after.get(null), Array.from({ length: 8 + 4 - 1 - 1 + 1 }, (_, i) => i), 'roots: 8 + 4 created - 1 moved - 1 deleted + 1 copied, numbered 0..n-1')
  t.same(after.get(nodes[1]!.id), [0])
})
