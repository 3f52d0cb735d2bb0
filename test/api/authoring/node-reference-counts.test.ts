// The uses of dictionary names kept per owner (migration 0042): after every kind of change that moves a node's names,
// trust or liveness (an author's edit, a node, rule or set deleted and recovered, a copy, a set transferred, a write that
// leaves nodes stale and the filler's fill), the kept counts equal a count made from scratch, and the dictionary and the
// uses API (which reads them for the own team's entries) say so.
import t from 'tap'
import { eq, sql } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { databaseMessage, ON_POSTGRES_ONLY } from '../../helpers/concurrency.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { buildRule, createVariable } from '../../helpers/rules.ts'
import { adviceSets, ruleNodes } from '../../../src/db/schema/index.ts'
import { rowsOf } from '../../../src/db/queries/rule-nodes.ts'
import { fillAllNodeReferences } from '../../../src/services/authoring/node-references.ts'
import { copyAdviceSet, deleteAdviceSet, recoverAdviceSet } from '../../../src/services/library/advice-sets.ts'
import { deleteRule, recoverRule } from '../../../src/services/authoring/rules.ts'
import { createNode, deleteNode, recoverNode, updateNodeContent } from '../../../src/services/authoring/rule-nodes.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
await createOwner(db, { id: 'TF', name: 'Advice Studio' })
const ownerId = await createOwner(db, { name: 'Acme' })
const otherOwnerId = await createOwner(db, { name: 'Globex' })
const author = await createUser(db, { ownerId, role: 'author' })
const actor = { userId: author.id, ownerId, role: 'author' as const, impersonatorId: null }
const agent = await signedInAgent(app, author)

const income = await createVariable(db, ownerId, 'Income')
await createVariable(db, ownerId, 'Age')
const loans = await createAdviceSet(db, { ownerId, name: 'Loans' })
const savings = await createAdviceSet(db, { ownerId, name: 'Savings' })
const eligibility = await buildRule(db, loans.id, 'Eligibility', [
  { type: 'inputRequest', variable: 'Income', question: 'What is your income?' },
  { type: 'condition', expression: 'Income > 1000 && {{Age}} > 18', children: [
    { type: 'advice', headline: 'High', text: 'With {{Income}} you may borrow [[Limit]].' },
  ] },
])
const interest = await buildRule(db, savings.id, 'Interest', [{ type: 'condition', expression: '{{Income}} > 0 && {{Income}} < 10' }])

/** The kept counts that are not zero, and the same counted from every node now, as the migration's backfill counts. */
async function keptAndRecounted(): Promise<{ kept: string[]; recounted: string[] }> {
  const kept = rowsOf(await db.execute(sql`select target, owner_id, uses from node_reference_counts where uses <> 0 order by 1, 2`))
  const recounted = rowsOf(await db.execute(sql`
    select t.target, s.owner_id, count(*)::int as uses
    from rule_nodes n join rules r on r.id = n.rule_id and r.deleted_at is null join advice_sets s on s.id = r.advice_set_id and s.deleted_at is null
      cross join lateral rule_node_ref_targets(n.ref_keys) as t(target)
    where n.deleted_at is null and n.ref_hash = rule_node_ref_hash(n.type, n.expression, n.variable, n.headline, n.text, n.question)
    group by 1, 2 order by 1, 2`))
  const line = (r: Record<string, unknown>) => `${String(r.target)} ${String(r.owner_id)} ${Number(r.uses)}`
  return { kept: kept.map(line), recounted: recounted.map(line) }
}

async function incomeUses(): Promise<string> {
  const res = await agent.get('/admin/dictionary')
  t.equal(res.statusCode, 200)
  return new RegExp(`<tr data-entity-row="${income.id}">[\\s\\S]*?<td data-cell="uses">(\\d+)</td>`).exec(res.body)?.[1] ?? 'missing'
}

t.test('every change keeps the counts equal to a count from scratch', async (t) => {
  const check = async (what: string, incomeCount: string) => {
    const { kept, recounted } = await keptAndRecounted()
    t.same(kept, recounted, `${what}: kept counts equal a recount`)
    t.equal(await incomeUses(), incomeCount, `${what}: the dictionary counts Income's uses`)
    const usage = (await agent.api('GET', `/api/entity/${income.id}/used`)).json() as { data: { used: boolean; count: number } }
    const listed = (await agent.api('GET', `/api/entity/${income.id}/list-uses`)).json() as { data: unknown[] }
    t.same(usage.data, { used: true, count: Number(incomeCount) }, `${what}: the uses API counts them as the dictionary does`)
    t.equal(listed.data.length, Number(incomeCount), `${what}: and lists as many`)
  }
  const { kept: none } = await keptAndRecounted()
  t.same(none, [], 'new nodes are stale: nothing is kept for them yet')
  await check('every node stale', '4')
  t.equal(await fillAllNodeReferences(db), 4)
  const { kept } = await keptAndRecounted()
  t.ok(kept.includes(`variable:Income ${ownerId} 4`), 'a bare name and a tag count once per node, for the variable')
  t.ok(kept.includes(`formula:Income ${ownerId} 1`), 'a bare name counts for a formula of that name too')
  t.ok(kept.includes(`formula:Limit ${ownerId} 1`), 'an advice text’s tags count')
  await check('filled in', '4')

  await updateNodeContent(app.deps, actor, eligibility.rule.id, eligibility.nodes[1]!.id, { type: 'condition', expression: '{{Age}} > 21' })
  await check('an edit drops a use', '3')
  const added = await createNode(app.deps, actor, eligibility.rule.id, { type: 'advice', headline: 'For {{Income}}', text: 'Yes.' })
  await check('a new node adds one', '4')
  await deleteNode(app.deps, actor, eligibility.rule.id, added.id)
  await check('a deleted node', '3')
  await recoverNode(app.deps, actor, eligibility.rule.id, added.id)
  await check('a recovered node', '4')

  await deleteRule(app.deps, actor, interest.rule.id)
  await check('a deleted rule', '3')
  await recoverRule(app.deps, actor, interest.rule.id)
  await check('a recovered rule', '4')

  await deleteAdviceSet(app.deps, actor, loans.id)
  await check('a deleted set', '1')
  await recoverAdviceSet(app.deps, actor, loans.id)
  await check('a recovered set', '4')

  const copy = await copyAdviceSet(app.deps, actor, savings.id, { name: 'Savings (copy)' })
  await check('a copied set', '5')
  await fillAllNodeReferences(db)
  await db.update(adviceSets).set({ ownerId: otherOwnerId }).where(eq(adviceSets.id, copy.id))
  await check('a set transferred to another team', '4')
  t.ok((await keptAndRecounted()).kept.includes(`variable:Income ${otherOwnerId} 1`), 'the other team counts the transferred set’s use')

  await db.update(ruleNodes).set({ expression: '{{Age}} > 30' }).where(eq(ruleNodes.id, interest.nodes[0]!.id))
  await check('a node changed by SQL: stale, no longer counted as kept, parsed instead', '3')
  await fillAllNodeReferences(db)
  await check('filled in again', '3')
})

t.test('a move or a touch changes no count and writes none', async (t) => {
  await fillAllNodeReferences(db)
  const before = await keptAndRecounted()
  await db.update(ruleNodes).set({ updatedAt: new Date() }).where(eq(ruleNodes.ruleId, eligibility.rule.id))
  await db.update(adviceSets).set({ name: 'Loans and more' }).where(eq(adviceSets.id, loans.id))
  t.same(await keptAndRecounted(), before)
})

t.test('edits racing a set’s or a rule’s removal or transfer leave the counts right', ON_POSTGRES_ONLY, async (t) => {
  const failures: string[] = []
  const attempt = (work: Promise<unknown>) => work.catch((err: unknown) => { failures.push(databaseMessage(err)) })
  for (let round = 0; round < 12; round++) {
    const set = await createAdviceSet(db, { ownerId, name: `Race ${round}` })
    const { rule, nodes } = await buildRule(db, set.id, 'Raced', Array.from({ length: 6 }, (_, i) => ({ type: 'condition' as const, expression: `{{Income}} > ${i}` })))
    await fillAllNodeReferences(db)
    const removal = [
      () => deleteAdviceSet(app.deps, actor, set.id),
      () => deleteRule(app.deps, actor, rule.id),
      () => db.update(adviceSets).set({ ownerId: otherOwnerId }).where(eq(adviceSets.id, set.id)),
    ][round % 3]!
    await Promise.all([
      attempt(removal()),
      ...nodes.slice(0, 3).map((node, i) => attempt(updateNodeContent(app.deps, actor, rule.id, node.id, { type: 'condition', expression: `{{Age}} > ${i}` }))),
      attempt(createNode(app.deps, actor, rule.id, { type: 'advice', headline: 'For {{Income}}', text: 'Yes.' })),
    ])
    const { kept, recounted } = await keptAndRecounted()
    t.same(kept, recounted, `round ${round}: kept counts equal a recount`)
  }
  // An edit that comes after the removal is refused (the rule or set is gone, or another team's): that is not a failure
  // of the counts. A deadlock would be.
  t.same(failures.filter((f) => /deadlock/i.test(f)), [], 'no deadlock')
})
