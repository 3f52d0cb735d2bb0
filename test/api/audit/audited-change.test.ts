// A change made with its audit as one statement (services/audit/audit.ts auditedChange, db/queries/audited-change.ts):
// the change, its activity row, its search index task (whose NOTIFY wakes the indexer) and the set's updated time
// are written together, and nothing of it when any part fails.
import t from 'tap'
import { sql } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { buildRule } from '../../helpers/rules.ts'
import { auditedChange } from '../../../src/services/audit/audit.ts'
import { findNode, nodeUpdate, rowsOf } from '../../../src/db/queries/rule-nodes.ts'
import { listenOn } from '../../../src/db/notifications.ts'
import { INDEX_TASK_CHANNEL } from '../../../src/db/queries/search.ts'
import { searchRuntime } from '../../../src/services/search.ts'
import type { AuditAction } from '../../../src/db/schema/index.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const ownerId = await createOwner(db, { name: 'Atomic Advice' })
const author = await createUser(db, { ownerId, role: 'author' })
const actor = { userId: author.id, ownerId, role: 'author' as const, impersonatorId: null }
const set = await createAdviceSet(db, { ownerId, name: 'Savings' })
const { nodes: [node] } = await buildRule(db, set.id, 'Eligibility', [{ type: 'advice', headline: 'Start a rainy-day fund' }])
const { indexer } = searchRuntime(app.deps)

async function one<T>(query: ReturnType<typeof sql>): Promise<T> {
  return rowsOf(await db.execute(query))[0] as T
}
const activityCount = () => one<{ n: number }>(sql`SELECT count(*)::int AS n FROM activity WHERE entity_type = 'rulenode' AND entity_id = ${String(node!.id)}`).then((r) => r.n)
const setUpdatedAt = () => one<{ at: Date | string }>(sql`SELECT updated_at AS at FROM advice_sets WHERE id = ${set.id}`).then((r) => new Date(r.at).getTime())

t.test('the change, its activity, its index task with NOTIFY and the set mark go together', async (t) => {
  await indexer.stop()
  t.teardown(() => indexer.start())
  const notified = new Promise<void>((resolve) => {
    void listenOn(db, INDEX_TASK_CHANNEL, () => resolve()).then((unlisten) => { if (unlisten) t.teardown(unlisten) })
  })
  const before = await activityCount()
  const at = new Date(Date.now() + 60_000)
  const changed = await auditedChange(db, actor, {
    ownerId, action: 'update', entityType: 'rulenode', entityId: node!.id, before: { headline: node!.headline }, after: { headline: 'Build an emergency fund' },
  }, nodeUpdate(db, node!.id, { headline: 'Build an emergency fund', updatedBy: author.id }, at))
  t.equal(changed, 1, 'one row changed')
  const stored = (await findNode(db, node!.id))!
  t.equal(stored.headline, 'Build an emergency fund', 'the node changed')
  t.equal(stored.updatedAt.getTime(), at.getTime(), 'at the time given')
  t.equal(await activityCount(), before + 1, 'one activity row')
  const logged = await one<{ actor_id: number; after: { headline: string } }>(sql`SELECT actor_id, after FROM activity WHERE entity_type = 'rulenode' AND entity_id = ${String(node!.id)} ORDER BY id DESC LIMIT 1`)
  t.match(logged, { actor_id: author.id, after: { headline: 'Build an emergency fund' } }, 'with the actor and the after-state')
  const task = await one<{ n: number }>(sql`SELECT count(*)::int AS n FROM search_index_tasks WHERE entity_type = 'rulenode' AND entity_id = ${String(node!.id)}`)
  t.equal(task.n, 1, 'one index task')
  await notified
  t.pass('its NOTIFY was sent')
  t.ok(await setUpdatedAt() >= Date.now() - 60_000, 'the set is marked updated')
  t.equal(await indexer.repair(), 1, 'the indexer applies the task')
})

t.test('when a part fails, nothing is written', async (t) => {
  await indexer.stop()
  t.teardown(() => indexer.start())
  const before = { activity: await activityCount(), headline: (await findNode(db, node!.id))!.headline }
  const tasksBefore = await one<{ n: number }>(sql`SELECT count(*)::int AS n FROM search_index_tasks`)
  await t.rejects(auditedChange(db, actor, {
    ownerId, action: 'explode' as AuditAction, entityType: 'rulenode', entityId: node!.id, after: { headline: 'Never saved' },
  }, nodeUpdate(db, node!.id, { headline: 'Never saved', updatedBy: author.id }, new Date())), 'an activity row the table refuses fails the statement')
  t.equal((await findNode(db, node!.id))!.headline, before.headline, 'the node is as it was')
  t.equal(await activityCount(), before.activity, 'no activity row')
  t.same(await one<{ n: number }>(sql`SELECT count(*)::int AS n FROM search_index_tasks`), tasksBefore, 'no index task')
})
