// Issue 27: keys made before migration 0030 upgrade in place: preview keys may ask for explanations from the start,
// production keys are refused until an admin allows them.
import t from 'tap'
import { sql } from 'drizzle-orm'
import { rowsOf } from '../../../src/db/queries/rule-nodes.ts'
import { databaseBefore } from '../../helpers/upgrade-database.ts'

t.test('preview keys allowed, production keys refused, after 0030', async (t) => {
  const { database, close } = await databaseBefore('0030_api_key_explain')
  t.teardown(close)
  const db = database.db
  await db.execute(sql`insert into owners (id, name) values ('o1', 'Team one')`)
  await db.execute(sql`insert into api_keys (owner_id, name, prefix, secret_hash, environment) values
    ('o1', 'Live', 'as_live_00000001', 'hash-live', 'production'), ('o1', 'Try', 'as_prev_00000002', 'hash-prev', 'preview')`)

  await database.migrate()

  const keys = rowsOf(await db.execute(sql`select name, explain from api_keys order by id`))
  t.same(keys.map((k) => [k.name, k.explain]), [['Live', false], ['Try', true]])
  await db.execute(sql`insert into api_keys (owner_id, name, prefix, secret_hash) values ('o1', 'New', 'as_live_00000003', 'hash-new')`)
  t.same(rowsOf(await db.execute(sql`select explain from api_keys where name = 'New'`)).map((k) => k.explain), [false], 'a key made by hand defaults to refused')
})
