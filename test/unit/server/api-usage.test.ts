// Metering: counts stay in memory until a flush, which adds them to the day's row in one statement (counts and
// latency buckets element-wise) and moves the key's last use forward.
import t from 'tap'
import { eq } from 'drizzle-orm'
import { openTestDatabase } from '../../helpers/database.ts'
import { createOwner } from '../../helpers/factories.ts'
import { createApiKey } from '../../helpers/api-keys.ts'
import { apiKeys, apiKeyUsage } from '../../../src/db/schema/index.ts'
import { createUsageMeter, latencyBucketIndex, LATENCY_BOUNDS_MS, percentileBound } from '../../../src/services/delivery/usage.ts'

const database = await openTestDatabase()
t.teardown(() => database.close())
const db = database.db
const ownerId = await createOwner(db)
const { key } = await createApiKey(db, { ownerId })

let clock = new Date('2026-03-04T23:59:58Z')
const meter = createUsageMeter(() => clock)

const usageRows = () => db.select().from(apiKeyUsage).where(eq(apiKeyUsage.keyId, key.id)).orderBy(apiKeyUsage.day, apiKeyUsage.adviceSetId)

t.test('latency buckets: a duration goes to the first bound it does not exceed, beyond the last to the open bucket', async (t) => {
  t.equal(latencyBucketIndex(0.4), 0)
  t.equal(latencyBucketIndex(1), 0)
  t.equal(latencyBucketIndex(1.01), 1)
  t.equal(latencyBucketIndex(5000), LATENCY_BOUNDS_MS.length - 1)
  t.equal(latencyBucketIndex(5001), LATENCY_BOUNDS_MS.length)
})

t.test('percentiles read as the upper bound of the bucket holding the ranked request', async (t) => {
  const buckets = new Array<number>(LATENCY_BOUNDS_MS.length + 1).fill(0)
  t.equal(percentileBound(buckets, 0.5), null, 'no requests: no percentile')
  buckets[latencyBucketIndex(3)] = 98
  buckets[latencyBucketIndex(300)] = 2
  t.equal(percentileBound(buckets, 0.5), 5)
  t.equal(percentileBound(buckets, 0.98), 5, 'the 98th of 100 is still fast')
  t.equal(percentileBound(buckets, 0.99), 500, 'the 99th is slow')
  buckets[LATENCY_BOUNDS_MS.length] = 100
  t.equal(percentileBound(buckets, 0.99), Number.POSITIVE_INFINITY, 'beyond the last bound')
  t.equal(percentileBound([0, 4], 0.5), LATENCY_BOUNDS_MS[1], 'rows written with fewer buckets still read')
})

t.test('nothing is written before a flush; a flush writes requests, errors and buckets per day and set', async (t) => {
  meter.record({ keyId: key.id, adviceSetId: 7, status: 200, durationMs: 3 })
  meter.record({ keyId: key.id, adviceSetId: 7, status: 404, durationMs: 40 })
  meter.record({ keyId: key.id, adviceSetId: 0, status: 401, durationMs: 0.5 })
  t.same(await usageRows(), [], 'recording alone does not touch the database')
  t.equal(await meter.flush(db), 2, 'one row per (key, day, set)')
  const rows = await usageRows()
  t.same(rows.map((r) => [r.day, r.adviceSetId, r.requests, r.errors]), [['2026-03-04', 0, 1, 1], ['2026-03-04', 7, 2, 1]])
  const seven = rows.find((r) => r.adviceSetId === 7)!
  t.equal(seven.latencyBuckets[latencyBucketIndex(3)], 1)
  t.equal(seven.latencyBuckets[latencyBucketIndex(40)], 1)
  t.equal(seven.latencyBuckets.reduce((a, b) => a + b, 0), 2)
  const [row] = await db.select({ lastUsedAt: apiKeys.lastUsedAt }).from(apiKeys).where(eq(apiKeys.id, key.id))
  t.equal(row!.lastUsedAt?.toISOString(), clock.toISOString())
  t.equal(await meter.flush(db), 0, 'a flush empties the counters')
})

t.test('a second flush adds to the same row; the UTC day boundary starts a new row', async (t) => {
  meter.record({ keyId: key.id, adviceSetId: 7, status: 200, durationMs: 3 })
  meter.record({ keyId: key.id, adviceSetId: 7, status: 500, durationMs: 9000 })
  clock = new Date('2026-03-05T00:00:01Z')
  meter.record({ keyId: key.id, adviceSetId: 7, status: 200, durationMs: 3 })
  await meter.flush(db)
  const rows = await usageRows()
  const day1 = rows.find((r) => r.day === '2026-03-04' && r.adviceSetId === 7)!
  t.equal(day1.requests, 4)
  t.equal(day1.errors, 2)
  t.equal(day1.latencyBuckets[latencyBucketIndex(3)], 2, 'buckets added element-wise')
  t.equal(day1.latencyBuckets[LATENCY_BOUNDS_MS.length], 1, 'the open bucket')
  const day2 = rows.find((r) => r.day === '2026-03-05')!
  t.equal(day2.requests, 1)
  const [row] = await db.select({ lastUsedAt: apiKeys.lastUsedAt }).from(apiKeys).where(eq(apiKeys.id, key.id))
  t.equal(row!.lastUsedAt?.toISOString(), '2026-03-05T00:00:01.000Z')
})

t.test('counts of a key that does not exist are skipped without losing the others', async (t) => {
  meter.record({ keyId: 999_999, adviceSetId: 1, status: 200, durationMs: 1 })
  meter.record({ keyId: key.id, adviceSetId: 8, status: 200, durationMs: 1 })
  await meter.flush(db)
  t.equal((await usageRows()).filter((r) => r.adviceSetId === 8).length, 1)
})

t.test('a flush settles after the write already under way (the timer\'s, when the app closes)', async (t) => {
  const own = createUsageMeter(() => clock)
  own.record({ keyId: key.id, adviceSetId: 77, status: 200, durationMs: 3 })
  let firstWritten = false
  const first = own.flush(db).then((rows) => { firstWritten = true; return rows })
  t.equal(await own.flush(db), 0, 'the second flush has nothing of its own')
  t.equal(firstWritten, true, 'it settled after the first write')
  t.equal(await first, 1)
})
