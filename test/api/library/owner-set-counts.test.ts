// Issue 29: the library's unfiltered total is read from owner_set_counts, which a trigger keeps (migration 0037).
// After every kind of change (sets created, deleted, restored, removed, shared, unshared and transferred, through the
// API and by hand) the kept counts equal a count of the sets, and each reader's total (library and explore) equals
// the sets they can see. Sets kept before the migration are counted by it.
import t from 'tap'
import { sql } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent, type Agent } from '../../helpers/agent.ts'
import { adminCast } from '../../helpers/team.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { createOwner } from '../../helpers/factories.ts'
import { databaseBefore } from '../../helpers/upgrade-database.ts'
import { rowsOf } from '../../../src/db/queries/rule-nodes.ts'
import type { Db } from '../../../src/db/client.ts'
import { ON_POSTGRES_ONLY, databaseMessage, lockHeldElsewhere } from '../../helpers/concurrency.ts'

/** Live and shared sets per owner, counted from the sets (owners with none left out). */
async function counted(db: Db): Promise<Record<string, [number, number]>> {
  const rows = rowsOf(await db.execute(sql`select owner_id, count(*)::int as live, (count(*) filter (where is_public or is_starter))::int as shared
    from advice_sets where deleted_at is null group by owner_id`))
  return Object.fromEntries(rows.map((r) => [String(r.owner_id), [Number(r.live), Number(r.shared)]]))
}

async function kept(db: Db): Promise<Record<string, [number, number]>> {
  const rows = rowsOf(await db.execute(sql`select owner_id, live, shared from owner_set_counts where live <> 0 or shared <> 0`))
  return Object.fromEntries(rows.map((r) => [String(r.owner_id), [Number(r.live), Number(r.shared)]]))
}

/** What a reader of `ownerId` sees: their team's and the provider's live sets, and every live shared set. */
async function visible(db: Db, ownerId: string | null, shared = false): Promise<number> {
  const rows = rowsOf(await db.execute(sql`select count(*)::int as n from advice_sets where deleted_at is null and (
    ${shared ? sql`(is_public or is_starter)` : ownerId === null ? sql`true` : sql`(owner_id in (${ownerId}, 'TF') or is_public or is_starter)`})`))
  return Number(rows[0]!.n)
}

async function total(agent: Agent, query = ''): Promise<number> {
  const res = await agent.api('GET', `/api/adviceset/show${query}`)
  if (res.statusCode !== 200) throw new Error(`the library answered ${res.statusCode}: ${res.body}`)
  return res.json().data.total as number
}

/** Explore's total as its page says it ("12 shared advice sets"). */
async function exploreTotal(agent: Agent): Promise<number> {
  const page = await agent.get('/explore')
  const said = /([\d,]+) shared advice sets?/.exec(page.body)
  if (page.statusCode !== 200 || !said) throw new Error(`explore answered ${page.statusCode} without its total`)
  return Number(said[1]!.replace(/,/g, ''))
}

t.test('the kept counts follow every change, and every reader\'s library total is what they see', async (t) => {
  const { app, database } = await buildTestApp(t)
  const db = database.db
  const { acme, acmeAdmin, providerAdmin } = await adminCast(db)
  const other = await createOwner(db, { name: 'Other team' })
  const admin = await signedInAgent(app, acmeAdmin)
  const provider = await signedInAgent(app, providerAdmin)
  const check = async (what: string) => {
    t.same(await kept(db), await counted(db), `${what}: the kept counts`)
    t.equal(await total(admin), await visible(db, acme), `${what}: a team's library total`)
    t.equal(await total(provider), await visible(db, null), `${what}: the provider admin's, who sees every set`)
    t.equal(await exploreTotal(admin), await visible(db, acme, true), `${what}: explore's`)
  }

  const made = await admin.api('POST', '/api/adviceset', { name: 'Made through the API' })
  t.equal(made.statusCode, 201)
  const mine = made.json().data.id as number
  await createAdviceSet(db, { ownerId: other, name: 'Private elsewhere' })
  const publicElsewhere = await createAdviceSet(db, { ownerId: other, name: 'Public elsewhere', isPublic: true })
  await createAdviceSet(db, { ownerId: other, name: 'Starter elsewhere', isStarter: true })
  await createAdviceSet(db, { ownerId: 'TF', name: 'The provider\'s' })
  await check('sets created')

  t.equal((await admin.api('DELETE', `/api/adviceset/${mine}`)).statusCode, 200)
  await check('a set deleted')
  await db.execute(sql`update advice_sets set deleted_at = null where id = ${mine}`)
  await check('the set restored')
  await db.execute(sql`update advice_sets set name = 'Renamed', updated_at = now() where id = ${mine}`)
  await check('an edit that changes neither liveness, sharing nor owner')
  await db.execute(sql`update advice_sets set is_public = false where id = ${publicElsewhere.id}`)
  await check('a public set made private')
  await db.execute(sql`update advice_sets set is_starter = true where id = ${publicElsewhere.id}`)
  await check('a set made a starter')
  const moved = await provider.api('POST', '/api/adviceset/transfer', { id: publicElsewhere.id, ownerId: acme })
  t.equal(moved.statusCode, 200, 'transferred through the API')
  await check('a set transferred to the team')
  await db.execute(sql`update advice_sets set deleted_at = now(), is_public = true where id = ${publicElsewhere.id}`)
  await check('a set deleted and shared in one update')
  await db.execute(sql`delete from advice_sets where id = ${publicElsewhere.id}`)
  await check('a deleted set removed')
  await db.execute(sql`delete from advice_sets where id = ${mine}`)
  await check('a live set removed')
  await db.execute(sql`insert into advice_sets (owner_id, name, is_starter) select ${other}, 'Bulk ' || g, g % 3 = 0 from generate_series(1, 30) g`)
  await check('sets inserted in bulk')
  t.not(Object.keys(await kept(db)).length, 0, 'something is still counted')
  t.ok(await total(admin, '?q=Bulk') > 0, 'a filtered total is still counted from the sets')
  t.equal(await total(admin, '?q=Bulk'), 10, 'the other team\'s ten starters among the bulk sets')
})

t.test('two sets moved at once between the same two teams, in opposite directions: no deadlock (0043)', ON_POSTGRES_ONLY, async (t) => {
  const { database } = await buildTestApp(t)
  const db = database.db
  const [first, second] = [await createOwner(db, { name: 'Team A' }), await createOwner(db, { name: 'Team B' })].sort()
  const there = await createAdviceSet(db, { ownerId: first!, name: 'Going to the second team' })
  const back = await createAdviceSet(db, { ownerId: second!, name: 'Coming to the first team' })
  // The first team's count row is held, so both moves queue behind it; the old trigger's move from the second team had
  // meanwhile taken the second team's row, and the two then waited for each other.
  // The moves start once the row is held: sent beside the blocker, a move could run first and never wait.
  const { release } = await lockHeldElsewhere(t, (database as { url?: string }).url!, (tx) => tx`select 1 from owner_set_counts where owner_id = ${first!} for update`)
  const failures: string[] = []
  const move = (id: number, to: string) => db.execute(sql`update advice_sets set owner_id = ${to} where id = ${id}`).catch((err: unknown) => { failures.push(databaseMessage(err)) })
  const waitingMoves = async () => Number(rowsOf(await db.execute(sql`select count(*)::int as n from pg_stat_activity
    where datname = current_database() and wait_event_type = 'Lock' and query like 'update advice_sets set owner_id%'`))[0]!.n)
  // The move to the second team waits first, so it is the first to get the first team's row.
  const moves = [move(there.id, second!)]
  while (await waitingMoves() < 1);
  moves.push(move(back.id, first!))
  while (await waitingMoves() < 2);
  await release()
  await Promise.all(moves)
  t.same(failures, [], 'both moves commit')
  t.same(await kept(db), await counted(db), 'and the counts are right')
})

t.test('sets kept before 0037 are counted by it', async (t) => {
  const { database, close } = await databaseBefore('0037_owner_set_counts')
  t.teardown(close)
  const db = database.db
  await db.execute(sql`insert into owners (id, name) values ('o1', 'Team one'), ('o2', 'Team two')`)
  await db.execute(sql`insert into advice_sets (owner_id, name, is_public, is_starter, deleted_at) values
    ('o1', 'Live', false, false, null), ('o1', 'Public', true, false, null), ('o1', 'Deleted', true, false, now()),
    ('o2', 'Starter', false, true, null)`)

  await database.migrate()

  t.same(await kept(db), { o1: [2, 1], o2: [1, 1] }, 'each team\'s live and shared sets')
  await db.execute(sql`update advice_sets set deleted_at = null where name = 'Deleted'`)
  t.same(await kept(db), { o1: [3, 2], o2: [1, 1] }, 'a set restored after the upgrade is counted')
})
