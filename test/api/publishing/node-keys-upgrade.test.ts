// Issue 24 (defects 1, 2, 4): a database made before migration 0025 upgrades in place. Every node gets its own key,
// published snapshots' nodes take their row's key, every rule keeps running on its own, and a set may hold a name
// another set of its owner holds.
import t from 'tap'
import { sql } from 'drizzle-orm'
import { rowsOf } from '../../../src/db/queries/rule-nodes.ts'
import { databaseBefore } from '../../helpers/upgrade-database.ts'

t.test('an existing database upgrades in place', async (t) => {
  const { database, close } = await databaseBefore('0025_called_rules_node_keys_set_names')
  t.teardown(close)
  const db = database.db
  const one = async (query: ReturnType<typeof sql>) => rowsOf(await db.execute(query))[0]!

  await db.execute(sql`insert into owners (id, name) values ('o1', 'Team one')`)
  const set = Number((await one(sql`insert into advice_sets (owner_id, name) values ('o1', 'Drawdown') returning id`)).id)
  const other = Number((await one(sql`insert into advice_sets (owner_id, name) values ('o1', 'Other') returning id`)).id)
  const rule = Number((await one(sql`insert into rules (advice_set_id, name, position) values (${set}, 'Tax check', 0) returning id`)).id)
  const parent = Number((await one(sql`insert into rule_nodes (rule_id, position, type, expression) values (${rule}, 0, 'condition', '1 > 0') returning id`)).id)
  const child = Number((await one(sql`insert into rule_nodes (rule_id, parent_id, position, type, headline) values (${rule}, ${parent}, 0, 'advice', 'Income tax will apply') returning id`)).id)
  await db.execute(sql`insert into entities (owner_id, advice_set_id, entity_type_id, reserved_name) values ('o1', ${set}, 12, 'Birth_Date')`)
  const node = (id: number | string, children: unknown[] = []) => ({ id: String(id), type: 'advice', headline: 'x', children })
  const snapshot = {
    adviceSet: { id: set, name: 'Drawdown', nameAlt: '', description: '' },
    model: {
      id: String(set), name: 'Drawdown', entities: [],
      rules: [{ id: String(rule), name: 'Tax check', adviceSetId: String(set), nodes: [node(parent, [node(child)]), node(999_999)] }],
      externalRules: [{ id: String(rule), name: 'Tax check', adviceSetId: String(set), nodes: [node(child)] }],
    },
  }
  await db.execute(sql`insert into versions (advice_set_id, number, snapshot, content_hash) values (${set}, 1, ${JSON.stringify(snapshot)}::jsonb, 'h')`)

  await database.migrate()

  const keys = rowsOf(await db.execute(sql`select id, key from rule_nodes order by id`))
  t.equal(keys.length, 2)
  t.ok(keys.every((r) => typeof r.key === 'string' && /^[0-9a-f]{16}$/.test(r.key as string)), 'every existing node has a key')
  t.not(keys[0]!.key, keys[1]!.key, 'each its own')
  const keyOf = new Map(keys.map((r) => [String(r.id), r.key as string]))
  const upgraded = (await one(sql`select snapshot from versions`)).snapshot as typeof snapshot & { model: { rules: Array<{ nodes: Array<Record<string, unknown> & { children: Array<Record<string, unknown>> }> }> } }
  const [top, missing] = upgraded.model.rules[0]!.nodes
  t.equal(top!.key, keyOf.get(String(parent)), 'a snapshot node takes its row’s key')
  t.equal(top!.children[0]!.key, keyOf.get(String(child)), 'at every depth')
  t.notOk('key' in missing!, 'a node without a row keeps no key')
  t.equal((upgraded.model as unknown as { externalRules: Array<{ nodes: Array<{ key: string }> }> }).externalRules[0]!.nodes[0]!.key, keyOf.get(String(child)), 'called rules’ nodes too')
  t.same(upgraded.adviceSet, snapshot.adviceSet, 'the rest of the snapshot is untouched')

  t.equal((await one(sql`select only_when_called from rules`)).only_when_called, false, 'existing rules keep running on their own')
  await db.execute(sql`insert into entities (owner_id, advice_set_id, entity_type_id, reserved_name) values ('o1', ${other}, 12, 'birth_date')`)
  t.pass('another set of the owner may hold the same name')
  await t.rejects(db.execute(sql`insert into entities (owner_id, advice_set_id, entity_type_id, reserved_name) values ('o1', ${set}, 12, 'BIRTH_DATE')`), 'one set holds a name once')
  await db.execute(sql`insert into entities (owner_id, entity_type_id, reserved_name) values ('o1', 12, 'Pot')`)
  await t.rejects(db.execute(sql`insert into entities (owner_id, entity_type_id, reserved_name) values ('o1', 12, 'pot')`), 'an owner-wide name is still unique in the owner')
  const fresh = Number((await one(sql`insert into rule_nodes (rule_id, position, type) values (${rule}, 1, 'ruleExit') returning id`)).id)
  t.match((await one(sql`select key from rule_nodes where id = ${fresh}`)).key, /^[0-9a-f]{16}$/, 'a new node gets a key of its own')
})
