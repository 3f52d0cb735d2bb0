// Instances sharing one PostgreSQL (DESIGN: several behind a load balancer) each flush their API key usage and their
// interview event counts every second, at the same moments, each with the keys in its own order. Upserted in those
// orders, two flushes deadlocked and PostgreSQL failed one, whose counts were then lost (70 of 800 flushes on four
// connections). Here four "instances" flush overlapping keys at once: every flush commits and every count arrives.
import t from 'tap'
import { sql } from 'drizzle-orm'
import { openDatabase } from '../../../src/db/client.ts'
import { addUsage } from '../../../src/db/queries/api-keys.ts'
import { addInterviewEventCounts } from '../../../src/db/queries/interview-events.ts'
import { rowsOf } from '../../../src/db/queries/rule-nodes.ts'
import { openTestDatabase } from '../../helpers/database.ts'
import { createOwner } from '../../helpers/factories.ts'
import { createApiKey } from '../../helpers/api-keys.ts'
import { databaseMessage, ON_POSTGRES_ONLY, shuffled } from '../../helpers/concurrency.ts'

const INSTANCES = 4
const FLUSHES = 40
const PER_FLUSH = 20

t.test('instances flushing usage and interview counts at once lose nothing', ON_POSTGRES_ONLY, async (t) => {
  const database = await openTestDatabase()
  t.teardown(() => database.close())
  const ownerId = await createOwner(database.db)
  const keyIds: number[] = []
  for (let i = 0; i < 30; i++) keyIds.push((await createApiKey(database.db, { ownerId, name: `Key ${i}` })).key.id)
  const questions = Array.from({ length: 30 }, (_, i) => `q${i}`)
  const day = new Date().toISOString().slice(0, 10)

  const instances = await Promise.all(Array.from({ length: INSTANCES }, () => openDatabase({ kind: 'postgres', url: database.url! })))
  t.teardown(() => Promise.all(instances.map((instance) => instance.close())))
  const failures: string[] = []
  await Promise.all(instances.map(async ({ db }) => {
    for (let i = 0; i < FLUSHES; i++) {
      const usage = shuffled(keyIds).slice(0, PER_FLUSH).map((keyId) => ({
        keyId, day, adviceSetId: 1 + (keyId % 3), requests: 1, errors: 0, latencyBuckets: [1, 0, 0], lastUsedAt: new Date().toISOString(),
      }))
      const events = shuffled(questions).slice(0, PER_FLUSH).map((question) => ({ adviceSetId: 1, day, event: 'answered', question, count: 1 }))
      await Promise.all([addUsage(db, usage), addInterviewEventCounts(db, events)].map((flush) => flush.catch((err: unknown) => {
        failures.push(databaseMessage(err))
      })))
    }
  }))

  t.same(failures, [], 'every flush committed')
  const [totals] = rowsOf(await database.db.execute(sql`select
    (select coalesce(sum(requests), 0)::int from api_key_usage) as requests,
    (select coalesce(sum(count), 0)::int from interview_event_counts) as events`))
  t.same(totals, { requests: INSTANCES * FLUSHES * PER_FLUSH, events: INSTANCES * FLUSHES * PER_FLUSH }, 'every count arrived')
})
