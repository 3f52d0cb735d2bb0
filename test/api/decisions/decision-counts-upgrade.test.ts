// Issue 29: records kept before migration 0033 are counted by it, so the set page's chart of the last 30 days shows
// them after the upgrade as before; records written after it are counted as they come. Migration 0038 replaces the
// triggers' functions (their rows taken in key order): the counts kept before it stay, and go on following the records.
// Migration 0051 keeps a key's count in stripes: the rows kept before it become stripe 0.
import t, { type Test } from 'tap'
import { sql } from 'drizzle-orm'
import { decisionAdviceCounts, decisionCountsPerDay } from '../../../src/db/queries/decisions.ts'
import { rowsOf } from '../../../src/db/queries/rule-nodes.ts'
import { foldPastDecisionCounts } from '../../../src/services/decisions/maintenance.ts'
import { databaseBefore } from '../../helpers/upgrade-database.ts'

const today = new Date()
const yesterday = new Date(today.getTime() - 86_400_000)
const from = new Date(today.getTime() - 30 * 86_400_000)
const day = (at: Date) => at.toISOString().slice(0, 10)

/** A database as it was before `tag`, with owner o1, and a writer of set 7's records: (number, when, advice ids). */
async function before(t: Test, tag: string) {
  const { database, close } = await databaseBefore(tag)
  t.teardown(close)
  const db = database.db
  await db.execute(sql`insert into owners (id, name) values ('o1', 'Team one')`)
  const insert = (n: number, at: Date, advice: string) => db.execute(sql`insert into decision_records (id, received_at, owner_id, advice_set_id, version_id,
    version_number, api_key_id, environment, endpoint, content_type, inputs, status, advice_node_ids, outcome, engine_micros)
    values (${`01a21977-0000-7000-8000-${String(n).padStart(12, '0')}`}, ${at.toISOString()}::timestamptz, 'o1', 7, 1, 1, 1, 'production', 'api', 'json',
      '{}'::json, 'complete', ${advice}::text[], '{}'::json, 5)`)
  return { db, insert, migrate: () => database.migrate() }
}

t.test('records kept before 0033 are in the counts after it', async (t) => {
  const { db, insert, migrate } = await before(t, '0033_decision_counts')
  await insert(1, yesterday, '{n1,n2}')
  await insert(2, today, '{n1}')
  await insert(3, today, '{}')

  await migrate()

  t.same((await decisionCountsPerDay(db, 7, from)).sort((a, b) => a.day.localeCompare(b.day)), [{ day: day(yesterday), count: 1 }, { day: day(today), count: 2 }], 'answers per day')
  t.same(await decisionAdviceCounts(db, 7, from), [{ nodeId: 'n1', count: 2 }, { nodeId: 'n2', count: 1 }], 'advice given')

  await insert(4, today, '{n2}')
  t.same(await decisionAdviceCounts(db, 7, from), [{ nodeId: 'n1', count: 2 }, { nodeId: 'n2', count: 2 }], 'a record written after the upgrade is counted')
})

t.test('counts kept before 0038 stay, and follow records written and deleted after it', async (t) => {
  const { db, insert, migrate } = await before(t, '0038_decision_counts_lock_order')
  await insert(1, yesterday, '{n1,n2}')
  await insert(2, today, '{n1}')

  await migrate()

  t.same(await decisionAdviceCounts(db, 7, from), [{ nodeId: 'n1', count: 2 }, { nodeId: 'n2', count: 1 }], 'the counts kept before')
  await insert(3, today, '{n2,n3}')
  await db.execute(sql`delete from decision_records where id = '01a21977-0000-7000-8000-000000000001'`)
  t.same(await decisionAdviceCounts(db, 7, from), [{ nodeId: 'n1', count: 1 }, { nodeId: 'n2', count: 1 }, { nodeId: 'n3', count: 1 }], 'an answer added and one erased')
  t.same(await decisionCountsPerDay(db, 7, from), [{ day: day(today), count: 2 }], 'answers per day: yesterday’s only answer erased')
})

t.test('counts kept before 0051 become stripe 0, and follow records written, deleted and folded after it', async (t) => {
  const { db, insert, migrate } = await before(t, '0051_decision_counts_striped')
  await insert(1, yesterday, '{n1,n2}')
  await insert(2, today, '{n1}')

  await migrate()

  const rows = async () => rowsOf(await db.execute(sql`select day || ' ' || node_id || ' ' || stripe || ' ' || count as line from decision_counts`)).map((r) => String(r.line)).sort()
  t.same(await rows(), [`${day(today)}  0 1`, `${day(today)} n1 0 1`, `${day(yesterday)}  0 1`, `${day(yesterday)} n1 0 1`, `${day(yesterday)} n2 0 1`].sort(), 'the rows kept before, as stripe 0')
  await insert(3, today, '{n2}')
  await db.execute(sql`delete from decision_records where id = '01a21977-0000-7000-8000-000000000001'`)
  t.same(await decisionAdviceCounts(db, 7, from), [{ nodeId: 'n1', count: 1 }, { nodeId: 'n2', count: 1 }], 'an answer added and yesterday’s erased')
  t.same(await decisionCountsPerDay(db, 7, from), [{ day: day(today), count: 2 }], 'answers per day: yesterday’s sums to nothing')
  t.ok(await foldPastDecisionCounts(db, today) >= 3, 'the fold takes yesterday’s rows away')
  t.notOk((await rows()).some((line) => line.startsWith(day(yesterday))), 'none of yesterday’s rows is left')
  t.same(await decisionCountsPerDay(db, 7, from), [{ day: day(today), count: 2 }], 'today’s count unchanged')
})
