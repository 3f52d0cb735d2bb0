// Issue 29: the unfiltered total of advicescenario/index is read from kept counts per owner (migration 0050), kept by
// triggers on scenarios and sets. After every kind of change (scenarios made, deleted, restored, copied, moved and removed;
// sets deleted, restored, shared, unshared, transferred and removed; through the API and by hand) the kept counts equal
// a count of the scenarios, and each reader's total is the scenarios they can see. A scenario written beside its set's
// deletion is counted right in either order, and the counts kept before the migration are made by it.
import t from 'tap'
import { sql } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent, type Agent } from '../../helpers/agent.ts'
import { adminCast } from '../../helpers/team.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { createOwner } from '../../helpers/factories.ts'
import { databaseBefore } from '../../helpers/upgrade-database.ts'
import { retirementSet } from '../../helpers/scenarios.ts'
import { rowsOf } from '../../../src/db/queries/rule-nodes.ts'
import { foldOwnerScenarioCounts } from '../../../src/db/queries/scenarios.ts'
import type { Db } from '../../../src/db/client.ts'
import { ON_POSTGRES_ONLY, lockHeldElsewhere, someoneWaitsForALock } from '../../helpers/concurrency.ts'

type Counts = Record<string, [number, number]>

/** Live scenarios in live sets per owner, and those in shared sets, counted from the scenarios. */
async function counted(db: Db): Promise<Counts> {
  const rows = rowsOf(await db.execute(sql`select s.owner_id, count(*)::int as live, (count(*) filter (where s.is_public or s.is_starter))::int as shared
    from advice_scenarios c join advice_sets s on s.id = c.advice_set_id where c.deleted_at is null and s.deleted_at is null group by s.owner_id`))
  return Object.fromEntries(rows.map((r) => [String(r.owner_id), [Number(r.live), Number(r.shared)]]))
}

/** The kept counts per owner, summed over the statements' rows (owners at zero left out). */
async function kept(db: Db): Promise<Counts> {
  const rows = rowsOf(await db.execute(sql`select owner_id, sum(live)::int as live, sum(shared)::int as shared from owner_scenario_counts
    group by owner_id having sum(live) <> 0 or sum(shared) <> 0`))
  return Object.fromEntries(rows.map((r) => [String(r.owner_id), [Number(r.live), Number(r.shared)]]))
}

/** Sets without their row of set_scenario_locks, and rows whose set is gone. */
async function locksAstray(db: Db): Promise<unknown[]> {
  return rowsOf(await db.execute(sql`select s.id, k.advice_set_id from advice_sets s full join set_scenario_locks k on k.advice_set_id = s.id
    where s.id is null or k.advice_set_id is null`))
}

/** What a reader of `ownerId` sees (null: every set): their team's and the provider's, and every shared set's. */
async function visible(db: Db, ownerId: string | null): Promise<number> {
  const rows = rowsOf(await db.execute(sql`select count(*)::int as n from advice_scenarios c join advice_sets s on s.id = c.advice_set_id
    where c.deleted_at is null and s.deleted_at is null
    and ${ownerId === null ? sql`true` : sql`(s.owner_id in (${ownerId}, 'TF') or s.is_public or s.is_starter)`}`))
  return Number(rows[0]!.n)
}

async function total(agent: Agent): Promise<number> {
  const res = await agent.api('GET', '/api/advicescenario/index')
  if (res.statusCode !== 200) throw new Error(`the index answered ${res.statusCode}: ${res.body}`)
  return res.json().data.total as number
}

const EXPECTED = '{"advice":[],"focus":"complete","variables":{}}'

async function insertScenarios(db: Db, adviceSetId: number, n: number): Promise<void> {
  await db.execute(sql`insert into advice_scenarios (advice_set_id, name, expected) select ${adviceSetId}, 'Bulk ' || g, ${EXPECTED}::jsonb from generate_series(1, ${n}) g`)
}

t.test('the kept counts follow every change, and every reader\'s index total is what they see', async (t) => {
  const { app, database } = await buildTestApp(t)
  const db = database.db
  const { acme, acmeAdmin, providerAdmin, otherAdmin } = await adminCast(db)
  const other = await createOwner(db, { name: 'Other team' })
  const admin = await signedInAgent(app, acmeAdmin)
  const provider = await signedInAgent(app, providerAdmin)
  const stranger = await signedInAgent(app, otherAdmin)
  const strangerTeam = String(rowsOf(await db.execute(sql`select owner_id from users where id = ${otherAdmin.id}`))[0]!.owner_id)
  const check = async (what: string) => {
    t.same(await kept(db), await counted(db), `${what}: the kept counts per owner`)
    t.same(await locksAstray(db), [], `${what}: a lock row for each set`)
    t.equal(await total(admin), await visible(db, acme), `${what}: a team's index total`)
    t.equal(await total(provider), await visible(db, null), `${what}: the provider admin's, who sees every set`)
    t.equal(await total(stranger), await visible(db, strangerTeam), `${what}: another team's, who sees the shared sets`)
  }

  const { set: mine } = await retirementSet(db, acme)
  const made = await admin.api('POST', '/api/advicescenario', { adviceSetId: mine.id, name: 'Made through the API', inputs: { Age: 30 } })
  t.equal(made.statusCode, 201)
  const scenario = made.json().data.id as number
  t.equal((await admin.api('POST', `/api/advicescenario/${scenario}/copy`)).statusCode, 201)
  const privateElsewhere = await createAdviceSet(db, { ownerId: other, name: 'Private elsewhere' })
  const publicElsewhere = await createAdviceSet(db, { ownerId: other, name: 'Public elsewhere', isPublic: true })
  const starter = await createAdviceSet(db, { ownerId: other, name: 'Starter elsewhere', isStarter: true })
  const providers = await createAdviceSet(db, { ownerId: 'TF', name: 'The provider\'s' })
  await insertScenarios(db, privateElsewhere.id, 3)
  await insertScenarios(db, publicElsewhere.id, 4)
  await insertScenarios(db, starter.id, 5)
  await insertScenarios(db, providers.id, 2)
  await check('scenarios made')
  t.equal(await total(admin), 2 + 4 + 5 + 2, 'the team sees its two, the shared nine and the provider\'s two')

  t.equal((await admin.api('DELETE', `/api/advicescenario/${scenario}`)).statusCode, 200)
  await check('a scenario deleted')
  t.equal((await admin.api('POST', `/api/advicescenario/${scenario}/restore`)).statusCode, 200)
  await check('a scenario restored')
  const copied = await admin.api('POST', '/api/adviceset/copy', { id: mine.id })
  t.equal(copied.statusCode, 201)
  await check('a set copied with its scenarios')
  t.equal((await admin.api('DELETE', `/api/adviceset/${mine.id}`)).statusCode, 200)
  await check('a set deleted')
  t.equal((await admin.api('POST', `/api/adviceset/${mine.id}/recover`)).statusCode, 200)
  await check('the set recovered')
  await db.execute(sql`update advice_sets set name = 'Renamed', updated_at = now() where id = ${mine.id}`)
  await check('an edit that changes neither liveness, sharing nor owner')
  await db.execute(sql`update advice_sets set is_public = false where id = ${publicElsewhere.id}`)
  await check('a public set made private')
  await db.execute(sql`update advice_sets set is_starter = true where id = ${publicElsewhere.id}`)
  await check('a set made a starter')
  t.equal((await provider.api('POST', '/api/adviceset/transfer', { id: publicElsewhere.id, ownerId: acme })).statusCode, 200, 'transferred through the API')
  await check('a set transferred to the team')
  await db.execute(sql`update advice_sets set deleted_at = now(), is_public = true where id = ${starter.id}`)
  await check('a set deleted and shared in one update')
  await db.execute(sql`update advice_scenarios set advice_set_id = ${privateElsewhere.id} where advice_set_id = ${providers.id}`)
  await check('scenarios moved to another team\'s set')
  await db.execute(sql`update advice_scenarios set deleted_at = now() where advice_set_id = ${starter.id} and name = 'Bulk 1'`)
  await check('a scenario of a deleted set deleted')
  await db.execute(sql`delete from advice_scenarios where advice_set_id = ${starter.id}`)
  await db.execute(sql`delete from advice_sets where id = ${starter.id}`)
  await check('a deleted set removed with its scenarios')
  await db.execute(sql`delete from advice_scenarios where advice_set_id = ${providers.id}`)
  await db.execute(sql`delete from advice_sets where id = ${providers.id}`)
  await check('a live set without scenarios removed')
  await db.execute(sql`delete from advice_scenarios where advice_set_id = ${privateElsewhere.id} and name = 'Bulk 2'`)
  await check('a live scenario removed')

  const rowsBefore = Number(rowsOf(await db.execute(sql`select count(*)::int as n from owner_scenario_counts`))[0]!.n)
  t.ok(rowsBefore > 10, `each writing statement added its own rows (${rowsBefore})`)
  await foldOwnerScenarioCounts(db)
  const left = rowsOf(await db.execute(sql`select owner_id from owner_scenario_counts`))
  t.equal(new Set(left.map((r) => r.owner_id)).size, left.length, 'folded: one row per owner')
  t.ok(left.length <= 4, `of the four teams at most (${left.length})`)
  await check('folded')
  await foldOwnerScenarioCounts(db)
  await check('folded again with nothing new')
  await insertScenarios(db, privateElsewhere.id, 6)
  await check('scenarios made after a fold')
})

t.test('a set copy writes its scenarios a thousand to a statement, all of them in order, and counts them', async (t) => {
  const { app, database } = await buildTestApp(t)
  const db = database.db
  const { acme, acmeAdmin } = await adminCast(db)
  const admin = await signedInAgent(app, acmeAdmin)
  const { set } = await retirementSet(db, acme)
  await insertScenarios(db, set.id, 2_100)
  const copied = await admin.api('POST', '/api/adviceset/copy', { id: set.id })
  t.equal(copied.statusCode, 201)
  const names = async (setId: number) => rowsOf(await db.execute(sql`select name from advice_scenarios where advice_set_id = ${setId} and deleted_at is null order by id`)).map((r) => r.name)
  const copy = copied.json().data.id as number
  t.same(await names(copy), await names(set.id), 'the 2,100 scenarios, in the same order')
  t.same(await kept(db), await counted(db), 'the kept counts')
  t.same(await kept(db), { [acme]: [4_200, 0] }, 'both sets\' scenarios count for the team')
})

t.test('a scenario made beside its set\'s deletion is counted for the owner only while the set is live, in either order', ON_POSTGRES_ONLY, async (t) => {
  const { database } = await buildTestApp(t)
  const db = database.db
  const url = (database as { url?: string }).url!
  const team = await createOwner(db, { name: 'Team' })

  // The scenario's transaction first: the deletion waits for the set's count row, then takes its scenarios away,
  // the new one among them.
  const first = await createAdviceSet(db, { ownerId: team, name: 'Scenario first' })
  await insertScenarios(db, first.id, 2)
  const scenarioFirst = await lockHeldElsewhere(t, url, (tx) => tx`insert into advice_scenarios (advice_set_id, name, expected) values (${first.id}, 'Beside', ${EXPECTED}::jsonb)`)
  // then(): a drizzle query runs once it is awaited or then'd, and this one must start before the release.
  const deletion = db.execute(sql`update advice_sets set deleted_at = now() where id = ${first.id}`).then(() => undefined)
  while (!await someoneWaitsForALock(scenarioFirst.other));
  await scenarioFirst.release()
  await deletion
  t.same(await kept(db), await counted(db), 'the deletion took the three scenarios away')

  // The deletion's transaction first: the scenario waits for it, then finds the set deleted and does not count.
  const second = await createAdviceSet(db, { ownerId: team, name: 'Deletion first' })
  await insertScenarios(db, second.id, 2)
  const deletionFirst = await lockHeldElsewhere(t, url, (tx) => tx`update advice_sets set deleted_at = now() where id = ${second.id}`)
  const scenario = db.execute(sql`insert into advice_scenarios (advice_set_id, name, expected) values (${second.id}, 'Beside', ${EXPECTED}::jsonb)`).then(() => undefined)
  while (!await someoneWaitsForALock(deletionFirst.other));
  await deletionFirst.release()
  await scenario
  t.same(await kept(db), await counted(db), 'the scenario made in a deleted set does not count')
  t.same(await locksAstray(db), [], 'and each set has its lock row')
  t.same(await counted(db), {}, 'nothing of the team\'s is live')
})

t.test('scenarios kept before 0050 are counted by it', async (t) => {
  const { database, close } = await databaseBefore('0050_scenario_counts')
  t.teardown(close)
  const db = database.db
  await db.execute(sql`insert into owners (id, name) values ('o1', 'Team one'), ('o2', 'Team two')`)
  await db.execute(sql`insert into advice_sets (owner_id, name, is_public, is_starter, deleted_at) values
    ('o1', 'Live', false, false, null), ('o1', 'Public', true, false, null), ('o1', 'Deleted', true, false, now()),
    ('o2', 'Starter', false, true, null), ('o2', 'Empty', false, false, null)`)
  await db.execute(sql`insert into advice_scenarios (advice_set_id, name, expected, deleted_at)
    select s.id, s.name || ' ' || g, ${EXPECTED}::jsonb, case when g = 1 then now() end
    from advice_sets s cross join generate_series(1, 3) g where s.name <> 'Empty'`)

  await database.migrate()

  t.same(await kept(db), { o1: [4, 2], o2: [2, 2] }, 'each team\'s live scenarios in live sets, and those in shared sets')
  t.same(await locksAstray(db), [], 'every set has its lock row, the empty one too')
  await db.execute(sql`update advice_sets set deleted_at = null where name = 'Deleted'`)
  t.same(await kept(db), { o1: [6, 4], o2: [2, 2] }, 'a set restored after the upgrade brings its scenarios back')
})
