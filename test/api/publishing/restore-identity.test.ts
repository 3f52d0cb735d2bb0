// Issue 24 defect 4: restoring v1 into the working draft re-created every node, so comparing v3 (v1 restored) with
// v2 listed every node as removed and added instead of one changed, and node comments were lost. Nodes keep a key for
// life; restore pairs the version's nodes with the set's rows by key (by id for versions made before keys) and updates
// them in place, brings back deleted ones, adds what is missing and soft-deletes what the version lacks.
import t from 'tap'
import { and, eq, isNull, sql } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { buildRule, createVariable } from '../../helpers/rules.ts'
import { publishVersion } from '../../helpers/publishing.ts'
import { ruleNodes, rules, versions } from '../../../src/db/schema/index.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const ownerId = await createOwner(db)
const author = await signedInAgent(app, await createUser(db, { ownerId, role: 'author' }))
await createVariable(db, ownerId, 'Age')

/** Drawdown plan asks Age and calls Tax check from 55 to 75; under 55 it says so. */
async function drawdownSet() {
  const set = await createAdviceSet(db, { ownerId, name: 'Drawdown' })
  const { rule: plan, nodes: planNodes } = await buildRule(db, set.id, 'Drawdown plan', [
    { type: 'inputRequest', variable: 'Age', question: 'How old are you?' },
    { type: 'condition', expression: '{{Age}} >= 55 && {{Age}} <= 75', children: [{ type: 'ruleCall' }] },
    { type: 'condition', expression: '{{Age}} < 55', children: [{ type: 'advice', headline: 'Too early', text: 'Wait until 55.' }] },
  ])
  const { rule: tax, nodes: [taxAdvice] } = await buildRule(db, set.id, 'Tax check', [{ type: 'advice', headline: 'Income tax will apply', text: 'At {{Age}} your drawdown is taxed.' }])
  await db.update(ruleNodes).set({ calledRuleId: tax.id }).where(eq(ruleNodes.id, planNodes[2]!.id))
  const [ask, band, call, early, tooEarly] = planNodes
  return { set, plan, tax, nodes: { ask: ask!, band: band!, call: call!, early: early!, tooEarly: tooEarly!, taxAdvice: taxAdvice! } }
}

async function liveNodes(adviceSetId: number) {
  return db.select({ id: ruleNodes.id, key: ruleNodes.key, ruleId: ruleNodes.ruleId, parentId: ruleNodes.parentId, position: ruleNodes.position, text: ruleNodes.text })
    .from(ruleNodes).innerJoin(rules, eq(rules.id, ruleNodes.ruleId))
    .where(and(eq(rules.adviceSetId, adviceSetId), isNull(ruleNodes.deletedAt), isNull(rules.deletedAt))).orderBy(ruleNodes.id)
}

async function comments(nodeId: number): Promise<string[]> {
  return (await author.api('GET', `/api/comment/${nodeId}`)).json().data.map((c: { body: string }) => c.body)
}

async function restore(versionId: number) {
  const res = await author.api('POST', `/api/adviceset/restore/${versionId}`)
  t.equal(res.statusCode, 200, 'restored')
  return res.json().data
}

t.test('restore keeps node identity: v3 (v1 restored) against v2 is one changed node, and comments stay', async (t) => {
  const f = await drawdownSet()
  t.equal((await author.api('POST', `/api/comment/${f.nodes.taxAdvice.id}`, { body: 'Check the 2026 bands' })).statusCode, 201)
  const v1 = await publishVersion(db, { adviceSetId: f.set.id })
  const edited = await author.api('PATCH', `/api/rule/${f.tax.id}/node/${f.nodes.taxAdvice.id}`, { text: 'At {{Age}} your drawdown may be taxed.' })
  t.equal(edited.statusCode, 200)
  await publishVersion(db, { adviceSetId: f.set.id })
  const before = await liveNodes(f.set.id)

  t.match(await restore(v1.id), { rules: 2, nodes: 6 })
  const after = await liveNodes(f.set.id)
  t.same(after.map((n) => [n.id, n.key, n.ruleId, n.parentId, n.position]), before.map((n) => [n.id, n.key, n.ruleId, n.parentId, n.position]), 'the same rows, keys and places')
  t.equal(after.find((n) => n.id === f.nodes.taxAdvice.id)!.text, 'At {{Age}} your drawdown is taxed.', 'the edited node holds v1’s text again')
  t.same(await comments(f.nodes.taxAdvice.id), ['Check the 2026 bands'], 'its comment stays on it')

  const v3 = (await author.api('POST', '/api/adviceset/publish', { action: 'create', adviceSetId: f.set.id })).json().data
  const page = (await author.get(`/adviceset/${f.set.id}/publish/versions/${v3.id}`)).body
  t.match(page, /<h3>Rules <span class="muted">\(0\)<\/span><\/h3>/, 'no rule changed')
  t.match(page, /<h3>Nodes <span class="muted">\(1\)<\/span><\/h3>/, 'one node changed…')
  t.notMatch(page, /data-changes="nodes-(added|removed)"/, '…none added or removed')
  const changed = /<ul class="changes" data-changes="nodes-changed">([\s\S]*?)<\/ul>/.exec(page)?.[1] ?? ''
  t.match(changed, 'Advice: Income tax will apply <span class="muted">in Tax check</span>')
  t.match(changed, /<div data-field="Text"><dt>Text<\/dt><dd><span class="change-before"><span class="change-label">Before:<\/span> <del>At \{\{Age\}\} your drawdown may be taxed\.<\/del><\/span>/, 'with the text before (v2)…')
  t.match(changed, /<span class="change-after"><span class="change-label">After:<\/span> <ins>At \{\{Age\}\} your drawdown is taxed\.<\/ins><\/span>/, '…and after (v3)')
  t.notMatch(page, /rule \d+/, 'rules are named by name, never “rule 3”')
  const keys = after.map((n) => n.key)
  t.equal(new Set(keys).size, keys.length, 'keys stay unique among the set’s live nodes')
})

t.test('a node deleted or moved since the version comes back as the same row, where it was', async (t) => {
  const f = await drawdownSet()
  await author.api('POST', `/api/comment/${f.nodes.tooEarly.id}`, { body: 'Say when instead' })
  const v1 = await publishVersion(db, { adviceSetId: f.set.id })
  const before = await liveNodes(f.set.id)
  t.equal((await author.api('DELETE', `/api/rule/${f.plan.id}/node/${f.nodes.early.id}`)).statusCode, 200)
  t.equal((await author.api('POST', `/api/rule/${f.plan.id}/node/move`, { nodeId: f.nodes.call.id, parentId: null, position: 0 })).statusCode, 200)
  const added = (await author.api('POST', `/api/rule/${f.plan.id}/node`, { type: 'advice', headline: 'Added later' })).json().data

  await restore(v1.id)
  const after = await liveNodes(f.set.id)
  t.same(after.map((n) => [n.id, n.parentId, n.position]), before.map((n) => [n.id, n.parentId, n.position]), 'deleted nodes are back, the moved one in its place')
  t.same(await comments(f.nodes.tooEarly.id), ['Say when instead'], 'with their comments')
  const [gone] = await db.select().from(ruleNodes).where(eq(ruleNodes.id, added.id))
  t.ok(gone!.deletedAt, 'a node the version lacks is soft-deleted')
  const advice = (await author.api('POST', '/api/rule/debug', { adviceSetId: f.set.id, inputs: { Age: 40 } })).json().data.result.advice
  t.same(advice.map((a: { nodeId: string }) => a.nodeId), [String(f.nodes.tooEarly.id), String(f.nodes.taxAdvice.id)], 'advice keeps its node ids')
})

t.test('a version made before node keys pairs its nodes by id', async (t) => {
  const f = await drawdownSet()
  const v1 = await publishVersion(db, { adviceSetId: f.set.id })
  // As the migration leaves a version whose node rows it could not find: no keys.
  await db.update(versions).set({ snapshot: sql`replace(${versions.snapshot}::text, '"key":', '"oldKey":')::jsonb` }).where(eq(versions.id, v1.id))
  const before = await liveNodes(f.set.id)
  await author.api('PATCH', `/api/rule/${f.tax.id}/node/${f.nodes.taxAdvice.id}`, { headline: 'Tax' })
  await restore(v1.id)
  t.same((await liveNodes(f.set.id)).map((n) => [n.id, n.key]), before.map((n) => [n.id, n.key]), 'the same rows, with the keys they had')
})
