// Issue 28: a database made before migration 0031 upgrades in place. Every rule gets its own key, published
// snapshots' rules take their row's key (a rule whose row is gone keeps none), and a new rule gets a key of its own.
import t from 'tap'
import { sql } from 'drizzle-orm'
import { rowsOf } from '../../../src/db/queries/rule-nodes.ts'
import { databaseBefore } from '../../helpers/upgrade-database.ts'

t.test('an existing database upgrades in place', async (t) => {
  const { database, close } = await databaseBefore('0031_rule_keys')
  t.teardown(close)
  const db = database.db
  const one = async (query: ReturnType<typeof sql>) => rowsOf(await db.execute(query))[0]!

  await db.execute(sql`insert into owners (id, name) values ('o1', 'Team one')`)
  const set = Number((await one(sql`insert into advice_sets (owner_id, name) values ('o1', 'Drawdown') returning id`)).id)
  const first = Number((await one(sql`insert into rules (advice_set_id, name, position) values (${set}, 'Tax check', 0) returning id`)).id)
  const second = Number((await one(sql`insert into rules (advice_set_id, name, position) values (${set}, 'Tax check', 1) returning id`)).id)
  const rule = (id: number | string) => ({ id: String(id), name: 'Tax check', adviceSetId: String(set), nodes: [] })
  const snapshot = {
    adviceSet: { id: set, name: 'Drawdown', nameAlt: '', description: '' },
    model: { id: String(set), name: 'Drawdown', entities: [], rules: [rule(first), rule(second), rule(999_999)], externalRules: [rule(second)] },
  }
  await db.execute(sql`insert into versions (advice_set_id, number, snapshot, content_hash) values (${set}, 1, ${JSON.stringify(snapshot)}::jsonb, 'h')`)

  await database.migrate()

  const keys = rowsOf(await db.execute(sql`select id, key from rules order by id`))
  t.ok(keys.every((r) => /^[0-9a-f]{16}$/.test(String(r.key))), 'every existing rule has a key')
  t.not(keys[0]!.key, keys[1]!.key, 'each its own, though the two share a name')
  const keyOf = new Map(keys.map((r) => [String(r.id), String(r.key)]))
  const upgraded = (await one(sql`select snapshot from versions`)).snapshot as { adviceSet: unknown; model: { rules: Array<Record<string, unknown>>; externalRules: Array<Record<string, unknown>> } }
  t.same(upgraded.model.rules.map((r) => r.key), [keyOf.get(String(first)), keyOf.get(String(second)), undefined], 'snapshot rules take their row’s key; a rule without a row keeps none')
  t.equal(upgraded.model.externalRules[0]!.key, keyOf.get(String(second)), 'called rules too')
  t.same(upgraded.adviceSet, snapshot.adviceSet, 'the rest of the snapshot is untouched')
  const fresh = Number((await one(sql`insert into rules (advice_set_id, name, position) values (${set}, 'New', 2) returning id`)).id)
  t.match((await one(sql`select key from rules where id = ${fresh}`)).key, /^[0-9a-f]{16}$/, 'a new rule gets a key of its own')
  await t.rejects(db.execute(sql`insert into rules (advice_set_id, name, position, key) values (${set}, 'Twin', 3, ${keyOf.get(String(first))!})`), 'a key is unique among a set’s live rules')
})
