// The usage page shows what metering wrote: requests per day, per advice set, errors and p50/p99 as bucket bounds;
// the list shows today's requests; counts recorded by the Advice API reach the database when the app closes.
import t from 'tap'
import { eq } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { createApiKey } from '../../helpers/api-keys.ts'
import { apiKeyUsage } from '../../../src/db/schema/index.ts'
import { createUsageMeter, recordApiUsage } from '../../../src/services/delivery/usage.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const ownerId = await createOwner(db)
const admin = await signedInAgent(app, await createUser(db, { ownerId, role: 'admin' }))
const set = await createAdviceSet(db, { ownerId, name: 'Mortgage check' })
const { key } = await createApiKey(db, { ownerId, name: 'Metered' })

const now = new Date()
const yesterday = new Date(now.getTime() - 24 * 60 * 60 * 1000)
const day = (d: Date) => d.toISOString().slice(0, 10)

function cell(body: string, rowAttr: string, column: number): string | undefined {
  const row = new RegExp(`<tr ${rowAttr}>([\\s\\S]*?)</tr>`).exec(body)?.[1]
  return row ? [...row.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, '').trim())[column] : undefined
}

t.test('the usage page and the list show the flushed counts', async (t) => {
  let clock = yesterday
  const meter = createUsageMeter(() => clock)
  for (let i = 0; i < 3; i++) meter.record({ keyId: key.id, adviceSetId: set.id, status: 200, durationMs: 4 })
  clock = now
  for (let i = 0; i < 97; i++) meter.record({ keyId: key.id, adviceSetId: set.id, status: 200, durationMs: 8 })
  meter.record({ keyId: key.id, adviceSetId: set.id, status: 500, durationMs: 1500 })
  meter.record({ keyId: key.id, adviceSetId: set.id, status: 200, durationMs: 1500 })
  meter.record({ keyId: key.id, adviceSetId: 0, status: 404, durationMs: 1 })
  await meter.flush(db)

  const page = await admin.get(`/admin/apikey/${key.id}/usage`)
  t.equal(page.statusCode, 200)
  t.match(page.body, '<main data-page="api-keys-usage">')
  t.match(page.body, /data-total="requests">103</)
  t.match(page.body, /data-total="errors">2</)
  t.match(page.body, /data-total="p50">≤ 10 ms</, 'p50 of 103: the 52nd fastest is an 8 ms request')
  t.match(page.body, /data-total="p99">≤ 2000 ms</, 'p99 of 103: the 102nd is a 1500 ms request')
  t.same([1, 2, 3, 4].map((c) => cell(page.body, `data-advice-set-id="${set.id}"`, c)), ['102', '1', '≤ 10 ms', '≤ 2000 ms'])
  t.equal(cell(page.body, `data-advice-set-id="${set.id}"`, 0), 'Mortgage check')
  t.same([0, 1, 2].map((c) => cell(page.body, 'data-advice-set-id="0"', c)), ['No valid advice set', '1', '1'])
  t.match(page.body, new RegExp(`<tr data-advice-set-id="${set.id}">[\\s\\S]*?<a href="/adviceset/${set.id}/decisions\\?key=${key.id}">This key's decisions</a>`), 'the set’s row links the records this key caused there')
  t.equal(cell(page.body, 'data-advice-set-id="0"', 5), '', 'no set, no link')
  t.same([1, 2].map((c) => cell(page.body, `data-day="${day(now)}"`, c)), ['100', '2'])
  t.same([1, 2].map((c) => cell(page.body, `data-day="${day(yesterday)}"`, c)), ['3', '0'])
  t.equal((page.body.match(/<tr data-day=/g) ?? []).length, 30, 'thirty days, quiet ones included')
  t.match(page.body, /upper bound of its bucket/, 'the page says how percentiles are read')

  const list = await admin.get('/admin/apikey')
  t.match(list.body, new RegExp(`<tr data-key-id="${key.id}">[\\s\\S]*?data-requests-today>100<`), 'requests today')
  t.notMatch(list.body, new RegExp(`<tr data-key-id="${key.id}">[\\s\\S]*?never[\\s\\S]*?</tr>`), 'last used is set')
})

t.test('a public set of another owner is listed without a link to its records: they are its owner’s', async (t) => {
  const elsewhere = await createAdviceSet(db, { ownerId: await createOwner(db), name: 'Shared calculator', isPublic: true })
  const meter = createUsageMeter(() => now)
  meter.record({ keyId: key.id, adviceSetId: elsewhere.id, status: 200, durationMs: 4 })
  await meter.flush(db)
  const page = await admin.get(`/admin/apikey/${key.id}/usage`)
  t.equal(cell(page.body, `data-advice-set-id="${elsewhere.id}"`, 0), 'Shared calculator')
  t.equal(cell(page.body, `data-advice-set-id="${elsewhere.id}"`, 5), '')
  t.notMatch(page.body, `/adviceset/${elsewhere.id}/decisions`)
})

t.test('a deleted key’s usage stays readable for its owner’s admins, reached from the list’s Deleted keys', async (t) => {
  const { key: gone } = await createApiKey(db, { ownerId, name: 'Retired partner' })
  const meter = createUsageMeter(() => now)
  meter.record({ keyId: gone.id, adviceSetId: set.id, status: 200, durationMs: 4 })
  await meter.flush(db)
  const deleted = await admin.postForm(`/admin/apikey/${gone.id}/delete`, {}, { page: `/admin/apikey/${gone.id}/edit` })
  t.equal(deleted.statusCode, 303)

  const page = await admin.get(`/admin/apikey/${gone.id}/usage`)
  t.equal(page.statusCode, 200, 'not 404')
  t.match(page.body, /data-key-deleted>This key was deleted on/)
  t.match(page.body, /data-total="requests">1</, 'its history')
  const list = await admin.get('/admin/apikey')
  t.notMatch(list.body, `<tr data-key-id="${gone.id}">`, 'not among the live keys')
  t.match(list.body, new RegExp(`Deleted keys[\\s\\S]*<tr data-deleted-key-id="${gone.id}">[\\s\\S]*?Retired partner[\\s\\S]*?href="/admin/apikey/${gone.id}/usage"`), 'listed under Deleted keys with its usage link')
  t.equal((await admin.get(`/admin/apikey/${gone.id}/edit`)).statusCode, 404, 'it cannot be edited')

  const stranger = await signedInAgent(app, await createUser(db, { ownerId: await createOwner(db), role: 'admin' }))
  t.equal((await stranger.get(`/admin/apikey/${gone.id}/usage`)).statusCode, 404, 'another owner’s admin')
  t.notMatch((await stranger.get('/admin/apikey')).body, 'Retired partner')
  const author = await signedInAgent(app, await createUser(db, { ownerId, role: 'author' }))
  t.equal((await author.get(`/admin/apikey/${gone.id}/usage`)).statusCode, 403, 'an author')
})

t.test('counts recorded by recordApiUsage are written when the app closes, not before', async (t) => {
  const other = await createAdviceSet(db, { ownerId })
  recordApiUsage({ keyId: key.id, adviceSetId: other.id, status: 200, durationMs: 3 })
  recordApiUsage({ keyId: key.id, adviceSetId: other.id, status: 400, durationMs: 3 })
  const rows = () => db.select().from(apiKeyUsage).where(eq(apiKeyUsage.adviceSetId, other.id))
  t.same(await rows(), [], 'nothing written on the request path')
  await app.close()
  t.same((await rows()).map((r) => [r.requests, r.errors]), [[2, 1]])
})
