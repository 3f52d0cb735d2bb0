// The embedded database vacuums and analyses its tables as autovacuum would on a server (src/db/embedded-vacuum.ts):
// PGlite runs no autovacuum, so dead row versions and their index entries stayed for good, and the planner had no
// statistics.
import t from 'tap'
import { PGlite } from '@electric-sql/pglite'
import { DECISION_RECORDS_ANALYSE_SCALE, DECISION_RECORDS_STATISTICS_TARGET, STATISTICS_TARGET, vacuumIfDue } from '../../../src/db/embedded-vacuum.ts'

interface Stats { n_dead_tup: number; vacuum_count: number; analyze_count: number; reltuples: number }

async function stats(client: PGlite, table: string): Promise<Stats> {
  await client.query('select pg_stat_force_next_flush()')
  const { rows } = await client.query<Stats>(`select s.n_dead_tup::int, s.vacuum_count::int, s.analyze_count::int, c.reltuples::int
    from pg_stat_user_tables s join pg_class c on c.oid = s.relid where s.relname = $1`, [table])
  return rows[0]!
}

t.test('a table with many dead rows is vacuumed and analysed, then left alone', async (t) => {
  const client = new PGlite()
  t.teardown(() => client.close())
  await client.exec('create table counters (id int primary key, n int); insert into counters select g, 0 from generate_series(1, 2000) g')
  t.same(await vacuumIfDue(client), { table: 'public.counters', vacuumed: false }, 'new rows only: analysed, not vacuumed')
  t.equal((await stats(client, 'counters')).reltuples, 2000, 'the planner knows its size')
  t.equal(await vacuumIfDue(client), null, 'nothing due after')

  // Every row updated three times: 6,000 dead versions, against a threshold of 50 + 20 % of 2,000.
  for (let i = 0; i < 3; i++) await client.exec('update counters set n = n + 1')
  const before = await stats(client, 'counters')
  t.same(await vacuumIfDue(client), { table: 'public.counters', vacuumed: true })
  const after = await stats(client, 'counters')
  t.ok(before.n_dead_tup > 450, `${before.n_dead_tup} dead rows before, past the threshold of 450`)
  t.equal(after.n_dead_tup, 0, 'none after')
  t.equal(after.vacuum_count, before.vacuum_count + 1)
  t.equal(after.analyze_count, before.analyze_count + 1)
})

t.test('a table changed a little past the analysis threshold is analysed only', async (t) => {
  const client = new PGlite()
  t.teardown(() => client.close())
  await client.exec('create table notes (id int primary key, body text); insert into notes select g, $$x$$ from generate_series(1, 5000) g')
  t.same(await vacuumIfDue(client), { table: 'public.notes', vacuumed: false })
  // 600 changed rows: past 50 + 10 % of 5,000 for analysis, under 50 + 20 % for vacuum.
  await client.exec('update notes set body = $$y$$ where id <= 600')
  const before = await stats(client, 'notes')
  t.same(await vacuumIfDue(client), { table: 'public.notes', vacuumed: false })
  const after = await stats(client, 'notes')
  t.equal(after.analyze_count, before.analyze_count + 1, 'analysed')
  t.equal(after.vacuum_count, before.vacuum_count, 'not vacuumed')
  t.equal(await vacuumIfDue(client), null)
})

t.test('the most changed table goes first; a table name that needs quoting is quoted', async (t) => {
  const client = new PGlite()
  t.teardown(() => client.close())
  await client.exec(`create table "Odd ""name""" (id int); create table small (id int);
    insert into "Odd ""name""" select generate_series(1, 3000); insert into small select generate_series(1, 1500)`)
  t.same(await vacuumIfDue(client), { table: 'public."Odd ""name"""', vacuumed: false })
  t.same(await vacuumIfDue(client), { table: 'public.small', vacuumed: false })
  t.equal(await vacuumIfDue(client), null)
})

t.test("an analysis samples few enough rows that PGlite's memory does not grow, and the connection's setting is put back", async (t) => {
  const client = new PGlite()
  t.teardown(() => client.close())
  const memory = () => (client as unknown as { mod: { wasmMemory: WebAssembly.Memory } }).mod.wasmMemory.buffer.byteLength
  // 60,000 wide rows: at PostgreSQL's default target, ANALYZE's 30,000-row sample grew the memory by 83 MB for good.
  await client.exec(`create table wide (id int primary key, body text);
    insert into wide select g, repeat(md5(g::text), 40) from generate_series(1, 60000) g`)
  const before = memory()
  t.same(await vacuumIfDue(client), { table: 'public.wide', vacuumed: false })
  t.equal(memory(), before, `WebAssembly memory unchanged (${before / 1048576} MB)`)
  t.equal((await client.query<{ n: number }>(`select count(*)::int as n from pg_stats where tablename = 'wide'`)).rows[0]!.n, 2, 'the columns have statistics')
  t.equal((await client.query<{ v: string }>("select current_setting('default_statistics_target') as v")).rows[0]!.v, '100', 'the setting is back to the default')
  t.equal(STATISTICS_TARGET, 25)
})

t.test("a month's decision records are analysed with a smaller sample than other tables, and again when doubled", async (t) => {
  const client = new PGlite()
  t.teardown(() => client.close())
  // Partitioned as the app's table is; `other` has the same rows, for the ordinary target beside it.
  await client.exec(`create table decision_records (n int, at date) partition by range (at);
    create table decision_records_m partition of decision_records for values from ('2026-11-01') to ('2026-12-01');
    create table other (n int, at date);
    insert into decision_records select g, '2026-11-02' from generate_series(1, 4000) g;
    insert into other select g, '2026-11-02' from generate_series(1, 3000) g`)
  t.same(await vacuumIfDue(client), { table: 'public.decision_records_m', vacuumed: false })
  t.same(await vacuumIfDue(client), { table: 'public.other', vacuumed: false })
  // A histogram has one bound more than the target it was made with.
  const bounds = async (table: string) => (await client.query<{ n: number }>(
    `select array_length(histogram_bounds::text::int[], 1) as n from pg_stats where tablename = $1 and attname = 'n'`, [table])).rows[0]!.n
  t.equal(await bounds('decision_records_m'), DECISION_RECORDS_STATISTICS_TARGET + 1, 'the partition: the smaller target')
  t.equal(await bounds('other'), STATISTICS_TARGET + 1, 'another table: the usual one')
  t.equal(DECISION_RECORDS_STATISTICS_TARGET, 10)

  // Grown by half: another table is due (past a tenth), the partition is not until it has doubled.
  await client.exec(`insert into decision_records select g, '2026-11-03' from generate_series(4001, 6000) g;
    insert into other select g, '2026-11-03' from generate_series(3001, 4500) g`)
  t.same(await vacuumIfDue(client), { table: 'public.other', vacuumed: false })
  t.equal(await vacuumIfDue(client), null, 'the partition, half as big again, is not due')
  await client.exec(`insert into decision_records select g, '2026-11-04' from generate_series(6001, 8100) g`)
  t.same(await vacuumIfDue(client), { table: 'public.decision_records_m', vacuumed: false }, 'doubled, it is')
  t.equal(DECISION_RECORDS_ANALYSE_SCALE, 1)
})
