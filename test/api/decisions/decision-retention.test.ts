// Issue 26 retention, and the counts the set page charts (issue 29: kept by triggers, migration 0033). Months older
// than every owner's retention are dropped whole, and their days leave the counts; an owner whose retention is
// shorter has its older records deleted first, and the counts lose them; records written by INSERT and deleted by either
// way keep the counts equal to a count of the records themselves.
import t from 'tap'
import { sql } from 'drizzle-orm'
import { rowsOf } from '../../../src/db/queries/rule-nodes.ts'
import { ensureMonthPartition } from '../../../src/db/queries/decisions.ts'
import { applyDecisionRetention, foldPastDecisionCounts, monthStart } from '../../../src/services/decisions/maintenance.ts'
import { openTestDatabase } from '../../helpers/database.ts'

const DAY_MS = 86_400_000

t.test('retention drops old months and deletes a short-keeping owner’s records; the kept counts follow', async (t) => {
  const database = await openTestDatabase()
  t.teardown(() => database.close())
  const db = database.db
  const now = new Date()
  const longAgo = new Date(monthStart(now, -14).getTime() + 2 * DAY_MS)
  const twoMonthsAgo = new Date(now.getTime() - 60 * DAY_MS)
  for (const at of [longAgo, twoMonthsAgo, now]) await ensureMonthPartition(db, monthStart(at, 0))
  await db.execute(sql`update owners set decision_retention_days = 365`)
  await db.execute(sql`insert into owners (id, name, decision_retention_days) values ('keeps', 'Keeps a year', 365), ('brief', 'Keeps a month', 30)`)

  const records: Array<[owner: string, set: number, at: Date, advice: string[]]> = [
    ['keeps', 1, longAgo, ['a', 'b']], ['keeps', 1, longAgo, ['a']],
    // An owner no longer in the table: no owner's retention deletes it, only the month's drop takes it away.
    ['gone', 3, longAgo, ['z']],
    ['keeps', 1, twoMonthsAgo, ['a']], ['brief', 2, twoMonthsAgo, ['c']], ['brief', 2, twoMonthsAgo, []],
    ['keeps', 1, now, ['b']], ['brief', 2, now, ['c']],
  ]
  for (const [i, [owner, set, at, advice]] of records.entries()) {
    await db.execute(sql`insert into decision_records (id, received_at, owner_id, advice_set_id, version_id, version_number, api_key_id,
      environment, endpoint, content_type, inputs, status, advice_node_ids, outcome, engine_micros)
      values (${`01a21977-0000-7000-8000-${String(i).padStart(12, '0')}`}, ${at.toISOString()}::timestamptz, ${owner}, ${set}, 1, 1, 1,
        'production', 'api', 'json', '{}'::json, 'complete', ${`{${advice.join(',')}}`}::text[], '{}'::json, 5)`)
  }

  /** The kept counts (a key's stripes summed), and the same counted from the records: "set day node count" lines. */
  const kept = async () => rowsOf(await db.execute(sql`select advice_set_id || ' ' || day || ' ' || node_id || ' ' || sum(count) as line
    from decision_counts group by advice_set_id, day, node_id having sum(count) <> 0 order by 1`)).map((r) => String(r.line))
  const counted = async () => rowsOf(await db.execute(sql`
    select advice_set_id || ' ' || (received_at at time zone 'UTC')::date || ' ' || node_id || ' ' || count(*) as line
    from decision_records, unnest(array_prepend(''::text, advice_node_ids)) as node_id group by advice_set_id, (received_at at time zone 'UTC')::date, node_id order by 1`)).map((r) => String(r.line))
  const day = (at: Date) => at.toISOString().slice(0, 10)

  t.same(await kept(), await counted(), 'written: the counts are the records’ own')
  t.ok((await kept()).includes(`1 ${day(longAgo)}  2`), 'two answers that day, in all')
  t.ok((await kept()).includes(`1 ${day(longAgo)} a 2`), 'both gave “a”')

  const report = await applyDecisionRetention(db, now)
  t.same(report.droppedPartitions, [`decision_records_y${longAgo.getUTCFullYear()}m${String(longAgo.getUTCMonth() + 1).padStart(2, '0')}`], 'the month past every retention is dropped')
  t.equal(report.deletedRecords, 4, 'deleted by owner: the brief owner’s two answers of two months ago, the other’s two of 14 months ago')
  t.same(await kept(), await counted(), 'after retention the counts are still the records’ own')
  t.notOk((await kept()).some((line) => line.includes(day(longAgo))), 'the dropped month’s days are gone from the counts')
  t.ok((await kept()).includes(`1 ${day(twoMonthsAgo)} a 1`), 'the owner keeping a year keeps its answer of two months ago')
  t.notOk((await kept()).some((line) => line.startsWith(`2 ${day(twoMonthsAgo)}`)), 'the brief owner’s is gone from the counts')
})

t.test('the fold leaves one row a key for the days before today, and none for a key whose records are all gone', async (t) => {
  const database = await openTestDatabase()
  t.teardown(() => database.close())
  const db = database.db
  const today = new Date()
  const day = (offset: number) => new Date(today.getTime() + offset * DAY_MS).toISOString().slice(0, 10)
  // As the triggers leave them: stripes 1 to 8 of the connections that wrote (and subtracted, for erasures), and 0 as
  // an earlier fold (or the migration) left it.
  const rows: Array<[day: string, node: string, stripe: number, count: number]> = [
    [day(-1), '', 0, 2], [day(-1), '', 3, 5], [day(-1), '', 5, -1],
    [day(-1), 'gone', 2, 1], [day(-1), 'gone', 4, -1],
    [day(-2), 'a', 6, 4],
    [day(0), '', 1, 3], [day(0), '', 2, 1],
  ]
  for (const [d, node, stripe, count] of rows) {
    await db.execute(sql`insert into decision_counts (advice_set_id, day, node_id, stripe, count) values (1, ${d}::date, ${node}, ${stripe}, ${count})`)
  }
  const taken = await foldPastDecisionCounts(db, today)
  const left = rowsOf(await db.execute(sql`select day || ' ' || node_id || ' ' || stripe || ' ' || count as line from decision_counts`)).map((r) => String(r.line)).sort()
  t.same(left, [`${day(-1)}  0 6`, `${day(-2)} a 0 4`, `${day(0)}  1 3`, `${day(0)}  2 1`].sort(), 'each past key in one row of its sum; today as it was')
  t.equal(taken, 5, 'three rows folded into others, and the two of the key summing to nothing deleted')
  t.equal(await foldPastDecisionCounts(db, today), 0, 'nothing to fold after')
})
