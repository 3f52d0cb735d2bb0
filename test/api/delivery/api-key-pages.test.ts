// Issue 29: the API keys admin lists live keys newest first and deleted keys most recently deleted first, 100 of each
// a page, each list with its own link to the next ones; every key once; a bad cursor names its field.
import t, { type Test } from 'tap'
import { sql } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { createApiKey } from '../../helpers/api-keys.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const owner = await createOwner(db, { name: 'Keyed team' })
const admin = await signedInAgent(app, await createUser(db, { ownerId: owner, role: 'admin' }))
const live: number[] = []
for (let i = 0; i < 130; i++) live.push((await createApiKey(db, { ownerId: owner, name: `Live ${i}` })).key.id)
const deleted: number[] = []
for (let i = 0; i < 105; i++) deleted.push((await createApiKey(db, { ownerId: owner, name: `Gone ${i}` })).key.id)
// Keys made within one millisecond share created_at: the id orders them then. Deleted a second apart, newest last.
await db.execute(sql`update api_keys set deleted_at = now() - (105 - (id - ${deleted[0]!})) * interval '1 second' where id >= ${deleted[0]!}`)

/** Every page of one list, following its next links from the first page. */
async function walk(t: Test, rowAttribute: string, nextAttribute: string) {
  const seen: number[] = []
  let url: string | undefined = '/admin/apikey'
  const sizes: number[] = []
  while (url) {
    const page = await admin.get(url)
    t.equal(page.statusCode, 200, url)
    const ids = [...page.body.matchAll(new RegExp(`<tr ${rowAttribute}="(\\d+)"`, 'g'))].map((m) => Number(m[1]))
    sizes.push(ids.length)
    seen.push(...ids)
    url = new RegExp(`href="([^"]+)" rel="next" ${nextAttribute}`).exec(page.body)?.[1]?.replace(/#.*$/, '')
  }
  return { seen, sizes }
}

t.test('live keys: 100 a page, newest first, each once', async (t) => {
  const { seen, sizes } = await walk(t, 'data-key-id', 'data-next-keys')
  t.same(sizes, [100, 30])
  t.same(seen, [...live].reverse(), 'newest first, each once')
})

t.test('deleted keys: 100 a page, most recently deleted first, each once', async (t) => {
  const { seen, sizes } = await walk(t, 'data-deleted-key-id', 'data-next-deleted-keys')
  t.same(sizes, [100, 5])
  t.same(seen, [...deleted].reverse())
})

t.test('a bad cursor is refused, naming its field', async (t) => {
  for (const field of ['after', 'deletedAfter']) {
    const res = await admin.get(`/admin/apikey?${field}=0x1`)
    t.equal(res.statusCode, 400)
    t.match(res.body, `${field}: give the id of the last one shown`)
  }
})

t.test('each list links back to its own first page', async (t) => {
  const deletedSecond = await admin.get(`/admin/apikey?deletedAfter=${deleted[50]}`)
  t.match(deletedSecond.body, 'First deleted keys</a>')
  t.notMatch(deletedSecond.body, '>First keys</a>', 'the live keys are on their first page')
  const liveSecond = await admin.get(`/admin/apikey?after=${live[100]}`)
  t.match(liveSecond.body, '>First keys</a>')
  t.notMatch(liveSecond.body, 'First deleted keys')
})
