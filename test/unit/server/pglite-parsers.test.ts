// db/pglite-parsers.ts: drizzle's result parsers made the embedded client's own (not merged into every query) give
// every reader what it got before — drizzle's queries dates and times as text for drizzle to map, in and out of
// transactions; pg-boss's adapter Date objects; a query with parsers of its own, those.
import t from 'tap'
import { sql } from 'drizzle-orm'
import { types } from '@electric-sql/pglite'
import { openTestDatabase } from '../../helpers/database.ts'
import { embeddedClientOf, embeddedJobClientOf } from '../../../src/db/client.ts'
import { owners } from '../../../src/db/schema/index.ts'
import { rowsOf } from '../../../src/db/queries/rule-nodes.ts'

const database = await openTestDatabase()
t.teardown(() => database.close())
const db = database.db
if (!embeddedClientOf(db)) throw new Error('this test needs the embedded database (TEST_DRIVER=pglite)')

const VALUES = sql`select timestamptz '2026-01-02 03:04:05+00' as at, interval '1 day' as span, date '2026-01-02' as day,
  array[timestamptz '2026-01-02 03:04:05+00'] as ats, array[1.5]::numeric[] as amounts, 7::int as n`

t.test('drizzle reads dates, times, intervals and their arrays as text, and maps its columns itself', async (t) => {
  const [row] = rowsOf(await db.execute(VALUES))
  t.same(row, { at: '2026-01-02 03:04:05+00', span: '1 day', day: '2026-01-02', ats: '{"2026-01-02 03:04:05+00"}', amounts: '{1.5}', n: 7 })
  await db.insert(owners).values({ id: 'o1', name: 'One' })
  const [owner] = await db.select().from(owners)
  t.ok(owner!.createdAt instanceof Date, 'a timestamp column is a Date through drizzle')
})

t.test('the same inside a transaction', async (t) => {
  await db.transaction(async (tx) => {
    const [row] = rowsOf(await tx.execute(VALUES))
    t.equal(row!.at, '2026-01-02 03:04:05+00')
    const [owner] = await tx.select().from(owners)
    t.ok(owner!.createdAt instanceof Date)
  })
})

t.test("pg-boss's adapter reads dates as PGlite does by default", async (t) => {
  const jobs = embeddedJobClientOf(db)!
  const { rows } = await jobs.query<{ at: unknown; n: number }>(`select timestamptz '2026-01-02 03:04:05+00' as at, 7::int as n`)
  t.ok(rows[0]!.at instanceof Date)
  t.equal((rows[0]!.at as Date).toISOString(), '2026-01-02T03:04:05.000Z')
  const [result] = await jobs.exec(`select date '2026-01-02' as day`)
  t.ok(result!.rows[0]!.day instanceof Date, 'exec too')
})

t.test('a query with parsers of its own keeps them', async (t) => {
  const client = embeddedClientOf(db)!
  const { rows } = await client.query<{ n: string }>('select 7::int as n', [], { parsers: { [types.INT4]: (v: string) => `int ${v}` } })
  t.equal(rows[0]!.n, 'int 7')
})
