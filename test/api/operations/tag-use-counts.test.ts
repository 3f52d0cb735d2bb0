// Issue 29: the tags admin reads how many live sets carry each tag from tag_use_counts, which triggers keep (migration
// 0035). After every kind of change (links added and removed through the API, a merge, a set deleted, restored or
// removed, links written before their set, a link moved by hand) the kept counts equal a count of the links, and the
// page shows them. Links kept before the migration are counted by it.
import t, { type Test } from 'tap'
import { and, eq, sql } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent } from '../../helpers/agent.ts'
import { adminCast } from '../../helpers/team.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { databaseBefore } from '../../helpers/upgrade-database.ts'
import { tags } from '../../../src/db/schema/index.ts'
import { countTagUses, setTagLinks } from '../../../src/db/queries/advice-sets.ts'
import { rowsOf } from '../../../src/db/queries/rule-nodes.ts'
import { openDatabase, type Db } from '../../../src/db/client.ts'
import { openTestDatabase } from '../../helpers/database.ts'
import { databaseMessage, ON_POSTGRES_ONLY, shuffled } from '../../helpers/concurrency.ts'

/** Live sets per tag counted from the links, as the page counted them before 0035 (tags with none left out). */
async function counted(db: Db): Promise<Record<string, number>> {
  const rows = rowsOf(await db.execute(sql`select tl.tag_id, count(*)::int as n from tag_links tl
    join advice_sets s on s.id = tl.entity_id and s.deleted_at is null where tl.entity_type = 'adviceset' group by tl.tag_id`))
  return Object.fromEntries(rows.map((r) => [String(r.tag_id), Number(r.n)]))
}

async function kept(db: Db): Promise<Record<string, number>> {
  const rows = rowsOf(await db.execute(sql`select tag_id, advice_sets as n from tag_use_counts where advice_sets <> 0`))
  return Object.fromEntries(rows.map((r) => [String(r.tag_id), Number(r.n)]))
}

t.test('the kept counts follow every change and the tags page shows them', async (t) => {
  const { app, database } = await buildTestApp(t)
  const db = database.db
  const { acme, acmeAdmin } = await adminCast(db)
  const agent = await signedInAgent(app, acmeAdmin)
  const same = async (what: string) => t.same(await kept(db), await counted(db), what)
  const tagOf = async (label: string) => {
    t.equal((await agent.api('POST', '/api/tags', { label, type: 'label' })).statusCode, 201)
    return (await db.select().from(tags).where(and(eq(tags.ownerId, acme), eq(tags.label, label))))[0]!.id
  }
  const link = async (tagId: number, setId: number, linked = true) =>
    t.equal((await agent.api('POST', `/api/tags/${tagId}/${linked ? 'link' : 'unlink'}`, { entityType: 'adviceset', entityId: setId })).statusCode, 200)

  const pensions = await tagOf('Pensions tag')
  const savings = await tagOf('Savings tag')
  const sets = await Promise.all(['One', 'Two', 'Three'].map((name) => createAdviceSet(db, { ownerId: acme, name })))
  for (const set of sets) await link(pensions, set.id)
  await link(savings, sets[0]!.id)
  await same('links added')
  t.same(Object.fromEntries(await countTagUses(db, [pensions, savings])), { [pensions]: 3, [savings]: 1 })
  const page = await agent.get('/admin/tag')
  t.match(page.body, new RegExp(`Pensions tag[\\s\\S]*?<td>3</td>`), 'the page shows three sets for the tag')

  await link(pensions, sets[2]!.id, false)
  await same('a link removed')
  t.equal((await agent.api('DELETE', `/api/adviceset/${sets[1]!.id}`)).statusCode, 200)
  await same('a set deleted')
  t.same(Object.fromEntries(await countTagUses(db, [pensions])), { [pensions]: 1 }, 'its tags lose it')
  await db.execute(sql`update advice_sets set deleted_at = null where id = ${sets[1]!.id}`)
  await same('the set restored')
  await db.execute(sql`update advice_sets set name = 'Two again' where id = ${sets[1]!.id}`)
  await same('an edit that leaves the set live counts nothing')

  t.equal((await agent.api('POST', `/api/tags/${savings}/merge`, { into: pensions })).statusCode, 200)
  await same('a merge')
  await db.execute(sql`update tag_links set tag_id = ${savings} where tag_id = ${pensions} and entity_id = ${sets[0]!.id}`)
  await same('a link moved by hand')

  await db.execute(sql`delete from tag_links where entity_type = 'adviceset' and entity_id = ${sets[1]!.id}`)
  await db.execute(sql`delete from advice_sets where id = ${sets[1]!.id}`)
  await same('a set removed after its links')
  await db.execute(sql`delete from advice_sets where id = ${sets[0]!.id}`)
  await same('a set removed before its links')
  await db.execute(sql`delete from tag_links where entity_id = ${sets[0]!.id}`)
  await same('its links removed after it')

  await db.execute(sql`insert into tag_links (tag_id, entity_type, entity_id) values (${pensions}, 'adviceset', 900001)`)
  await db.execute(sql`insert into advice_sets (id, owner_id, name) values (900001, ${acme}, 'Late')`)
  await same('links written before their set count once the set is')
  await db.execute(sql`update advice_sets set deleted_at = now() where id = 900001`)
  await db.execute(sql`insert into tag_links (tag_id, entity_type, entity_id) values (${savings}, 'adviceset', 900001)`)
  await same('a link to a deleted set does not count')
  await db.execute(sql`update advice_sets set deleted_at = null where id = 900001`)
  await same('until the set is restored')
  t.not(Object.keys(await kept(db)).length, 0, 'something is still counted')
})

/** A database as it was before migration `tag`, with owner o1 and its live sets 1 and 2. */
async function setsBefore(t: Test, tag: string) {
  const { database, close } = await databaseBefore(tag)
  t.teardown(close)
  const db = database.db
  await db.execute(sql`insert into owners (id, name) values ('o1', 'Team one')`)
  await db.execute(sql`insert into advice_sets (id, owner_id, name) values (1, 'o1', 'Live'), (2, 'o1', 'Live too')`)
  return { db, migrate: () => database.migrate() }
}

t.test('links kept before 0035 are counted by it', async (t) => {
  const { db, migrate } = await setsBefore(t, '0035_tag_use_counts')
  await db.execute(sql`insert into advice_sets (id, owner_id, name, deleted_at) values (3, 'o1', 'Deleted', now())`)
  await db.execute(sql`insert into tags (id, owner_id, slug, label) values (51, 'o1', 'a', 'A'), (52, 'o1', 'b', 'B')`)
  await db.execute(sql`insert into tag_links (tag_id, entity_type, entity_id) values (51, 'adviceset', 1), (51, 'adviceset', 2), (51, 'adviceset', 3), (52, 'adviceset', 3)`)

  await migrate()

  t.same(Object.fromEntries(await countTagUses(db, [51, 52])), { 51: 2 }, 'two live sets for A; B only on a deleted one')
  await db.execute(sql`insert into tag_links (tag_id, entity_type, entity_id) values (52, 'adviceset', 1)`)
  t.same(Object.fromEntries(await countTagUses(db, [51, 52])), { 51: 2, 52: 1 }, 'a link made after the upgrade is counted')
})

t.test('counts kept before 0039 stay, and follow saves and deletions after it', async (t) => {
  const { db, migrate } = await setsBefore(t, '0039_tag_use_counts_lock_order')
  await db.execute(sql`insert into tags (id, owner_id, slug, label) values (51, 'o1', 'a', 'A'), (52, 'o1', 'b', 'B'), (53, 'o1', 'c', 'C')`)
  await db.execute(sql`insert into tag_links (tag_id, entity_type, entity_id) values (51, 'adviceset', 1), (51, 'adviceset', 2), (52, 'adviceset', 2)`)

  await migrate()

  t.same(Object.fromEntries(await countTagUses(db, [51, 52, 53])), { 51: 2, 52: 1 }, 'the counts kept before')
  await db.transaction((tx) => setTagLinks(tx, 'adviceset', 1, [53, 52]))
  t.same(Object.fromEntries(await countTagUses(db, [51, 52, 53])), { 51: 1, 52: 2, 53: 1 }, 'a save after the upgrade moves them')
  await db.execute(sql`update advice_sets set deleted_at = now() where id = 2`)
  t.same(Object.fromEntries(await countTagUses(db, [51, 52, 53])), { 51: 0, 52: 1, 53: 1 }, 'a deleted set no longer counts')
  t.same(await kept(db), await counted(db), 'the kept counts are the links’ own')
})

t.test('the tags admin lists 100 tags a page by label, with a link to the next ones; each once (issue 29)', async (t) => {
  const { app, database } = await buildTestApp(t)
  const db = database.db
  const { acme, acmeAdmin } = await adminCast(db)
  const agent = await signedInAgent(app, acmeAdmin)
  await db.execute(sql`insert into tags (owner_id, slug, label) select ${acme}, 'paged-' || g, 'Paged tag ' || lpad(g::text, 3, '0') from generate_series(1, 150) g`)
  const visible = (await db.execute(sql`select count(*)::int as n from tags where owner_id in (${acme}, 'TF') and deleted_at is null`))
  const total = Number(rowsOf(visible)[0]!.n)
  const idsOn = (html: string) => [...html.matchAll(/<tr data-tag-id="(\d+)"/g)].map((m) => Number(m[1]))
  const seen: number[] = []
  let url: string | undefined = '/admin/tag'
  let pages = 0
  while (url) {
    const page = await agent.get(url)
    t.equal(page.statusCode, 200)
    seen.push(...idsOn(page.body))
    pages++
    url = /href="([^"]+)" rel="next" data-next-tags/.exec(page.body)?.[1]
    if (url) t.equal(idsOn(page.body).length, 100, 'a full page before a next link')
  }
  t.equal(pages, Math.ceil(total / 100))
  t.equal(seen.length, total, 'every tag the team sees')
  t.equal(new Set(seen).size, total, 'each once')
  const labels = (await agent.get('/admin/tag')).body.match(/Paged tag \d{3}/g)!
  t.same(labels, [...labels].sort(), 'by label')
  const bad = await agent.get('/admin/tag?after=x')
  t.equal(bad.statusCode, 400)
  t.match(bad.body, 'after: give the id of the last one shown')
})

// Migration 0039 and setTagLinks: authors saving sets' tags at once (each save a transaction that replaces the set's
// links, sometimes the same set) and deleting sets upserted the same tags' counts in different orders, and 148 of 360
// saves deadlocked. Now each save locks its set, then every count row it will change in tag order, so one waits.
t.test('saving sets’ tags and deleting sets on six connections at once keeps the counts, without a deadlock', ON_POSTGRES_ONLY, async (t) => {
  const database = await openTestDatabase()
  t.teardown(() => database.close())
  const db = database.db
  await db.execute(sql`insert into owners (id, name) values ('o', 'O')`)
  const tagIds = rowsOf(await db.execute(sql`insert into tags (owner_id, label, slug) select 'o', 't' || i, 't' || i from generate_series(1, 30) i returning id`)).map((r) => Number(r.id))
  const setIds = rowsOf(await db.execute(sql`insert into advice_sets (owner_id, name) select 'o', 's' || i from generate_series(1, 60) i returning id`)).map((r) => Number(r.id))
  const connections = await Promise.all(Array.from({ length: 6 }, () => openDatabase({ kind: 'postgres', url: database.url! })))
  t.teardown(() => Promise.all(connections.map((c) => c.close())))

  const failures: string[] = []
  await Promise.all(connections.map(async ({ db }) => {
    for (let i = 0; i < 60; i++) {
      const [setId] = shuffled(setIds)
      const saved = i % 10 === 9
        ? db.execute(sql`update advice_sets set deleted_at = case when deleted_at is null then now() end where id = ${setId}`)
        : db.transaction((tx) => setTagLinks(tx, 'adviceset', setId!, shuffled(tagIds).slice(0, 12)))
      await saved.catch((err: unknown) => failures.push(databaseMessage(err)))
    }
  }))
  t.same(failures, [], 'every save committed')
  t.ok(Object.keys(await counted(db)).length > 20, 'many tags are in use')
  t.same(await kept(db), await counted(db), 'the kept counts are the links’ own')
})
