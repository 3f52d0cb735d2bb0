// The embedded database checkpoints its write-ahead log: PGlite's standalone backend never does by itself, and its
// log lives in memory, so without this the process grew by 16 MB per segment written (bench:soak on PGlite).
import t from 'tap'
import { sql } from 'drizzle-orm'
import type { PGlite } from '@electric-sql/pglite'
import { openDatabase } from '../../../src/db/client.ts'
import { CHECKPOINT_AFTER_BYTES, checkpointIfLogGrew } from '../../../src/db/embedded-checkpoints.ts'

t.test('after a segment of writes, a checkpoint lets the log shrink to the segments kept for reuse', async (t) => {
  const database = await openDatabase({ kind: 'pglite' })
  t.teardown(() => database.close())
  const client = (database.db as unknown as { $client: PGlite }).$client
  const segments = async () => Number((await client.query<{ n: number }>('select count(*)::int as n from pg_ls_waldir()')).rows[0]!.n)

  t.equal(await checkpointIfLogGrew(client), false, 'nothing to do on a fresh database')
  // Stored without compression, so each row writes its whole megabyte to the log: 80 MB in all, five segments.
  await database.db.execute(sql`create table filler (body text)`)
  await database.db.execute(sql`alter table filler alter column body set storage external`)
  for (let i = 0; i < 8; i++) await database.db.execute(sql`insert into filler select repeat('x', 1048576) from generate_series(1, 10)`)
  const before = await segments()
  t.ok(before >= 5, `the log grew to ${before} segments`)

  t.equal(await checkpointIfLogGrew(client), true, `checkpointed after more than ${CHECKPOINT_AFTER_BYTES / 1048576} MB`)
  const after = await segments()
  t.ok(after <= 3, `${after} segments left (at most the 32 MB kept for reuse and the current one)`)
  t.ok(after < before, 'fewer than before')
  t.equal(await checkpointIfLogGrew(client), false, 'no second checkpoint without new writes')
})
