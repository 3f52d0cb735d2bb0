// The set page's decision counts (migration 0033) are kept by statement triggers, and on PostgreSQL several
// transactions write records at once: durable mode's group commits run side by side, and erasure or retention deletes
// while answers are written. Each transaction upserts many of the same count rows; taken in different orders, two of
// them deadlocked and PostgreSQL failed one (bench:decisions: 16 answers refused with 503 in a durable round).
// Migration 0038 takes them in key order; 0051 gives each connection a stripe of its own of every key, so that the
// commits do not queue on a set's day total. Here: inserts of random advice and deletes, on six connections at once.
import t from 'tap'
import postgres from 'postgres'
import { sql } from 'drizzle-orm'
import { rowsOf } from '../../../src/db/queries/rule-nodes.ts'
import { ensureMonthPartition } from '../../../src/db/queries/decisions.ts'
import { monthStart } from '../../../src/services/decisions/maintenance.ts'
import { openTestDatabase } from '../../helpers/database.ts'
import { databaseMessage, ON_POSTGRES_ONLY } from '../../helpers/concurrency.ts'

const WRITERS = 5
const STATEMENTS = 40

t.test('records written and deleted on many connections at once keep the counts, without a deadlock', ON_POSTGRES_ONLY, async (t) => {
  const database = await openTestDatabase()
  t.teardown(() => database.close())
  const db = database.db
  const now = new Date()
  await ensureMonthPartition(db, monthStart(now, 0))
  const client = postgres(database.url!, { max: WRITERS + 1, onnotice: () => {} })
  t.teardown(() => client.end())

  // Each statement: 5–40 records of one of two sets, each giving a random few of 60 advice nodes, so that the
  // statements' sets of count rows overlap but differ, as answers to many people do. (Naming `i` in the subquery makes
  // it run for each record.)
  const insertBatch = () => client`insert into decision_records (id, received_at, owner_id, advice_set_id, version_id, version_number,
      api_key_id, environment, endpoint, content_type, inputs, status, advice_node_ids, outcome, engine_micros)
    select gen_random_uuid(), now(), 'o', 1 + (random() < 0.5)::int, 1, 1, 1, 'production', 'api', 'json', '{}'::json, 'complete',
      array(select 'node-' || k from generate_series(1, 60) k where random() < 0.15 and i > 0 order by random()), '{}'::json, 5
    from generate_series(1, 5 + floor(random() * 36)::int) i`
  const deleteSome = () => client`delete from decision_records where id in (select id from decision_records order by random() limit 20)`

  const writers = Array.from({ length: WRITERS }, async () => {
    for (let i = 0; i < STATEMENTS; i++) await insertBatch()
  })
  const eraser = (async () => {
    for (let i = 0; i < STATEMENTS; i++) await deleteSome()
  })()
  const settled = await Promise.allSettled([...writers, eraser])
  const failures = settled.flatMap((s) => (s.status === 'rejected' ? [databaseMessage(s.reason)] : []))
  t.same(failures, [], 'every statement committed')

  const kept = rowsOf(await db.execute(sql`select advice_set_id || ' ' || day || ' ' || node_id || ' ' || sum(count) as line
    from decision_counts group by advice_set_id, day, node_id having sum(count) <> 0 order by 1`))
  const counted = rowsOf(await db.execute(sql`
    select advice_set_id || ' ' || (received_at at time zone 'UTC')::date || ' ' || node_id || ' ' || count(*) as line
    from decision_records, unnest(array_prepend(''::text, advice_node_ids)) as node_id
    group by advice_set_id, (received_at at time zone 'UTC')::date, node_id order by 1`))
  t.ok(counted.length > 60, `the records give many count rows (${counted.length})`)
  t.same(kept.map((r) => r.line), counted.map((r) => r.line), 'the kept counts (stripes summed) are the records’ own')
  // Migration 0051: each connection adds to its own stripe of a key, so the writers did not queue on one row.
  const [stripes] = rowsOf(await db.execute(sql`select count(distinct stripe)::int as n from decision_counts`))
  t.ok(Number(stripes?.n) > 1, `the connections wrote ${stripes?.n} stripes`)
})
