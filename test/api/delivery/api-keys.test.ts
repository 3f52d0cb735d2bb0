// Issue 7 API keys: the secret is shown once on /copy and never again — not in later pages, API answers, the
// sessions table or the audit log; only its hash is stored. Rights, field-named validation, update and delete.
import t from 'tap'
import { sql } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent, type Agent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { audiences } from '../../../src/db/schema/index.ts'
import { authenticateApiKey, hashApiKeySecret } from '../../../src/services/delivery/api-keys.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const provider = await createOwner(db, { id: 'TF', name: 'Provider' })
const ownerA = await createOwner(db, { name: 'Team A' })
const ownerB = await createOwner(db, { name: 'Team B' })
const adminA = await signedInAgent(app, await createUser(db, { ownerId: ownerA, role: 'admin' }))
const adminB = await signedInAgent(app, await createUser(db, { ownerId: ownerB, role: 'admin' }))
const authorA = await signedInAgent(app, await createUser(db, { ownerId: ownerA, role: 'author' }))
const viewerA = await signedInAgent(app, await createUser(db, { ownerId: ownerA, role: 'viewer' }))
const providerAdmin = await signedInAgent(app, await createUser(db, { ownerId: provider, role: 'admin' }))
const setA = await createAdviceSet(db, { ownerId: ownerA, name: 'Set of A' })
const privateSetB = await createAdviceSet(db, { ownerId: ownerB, name: 'Private set of B' })
const publicSetB = await createAdviceSet(db, { ownerId: ownerB, name: 'Public set of B', isPublic: true })
const [audienceA] = await db.insert(audiences).values({ ownerId: ownerA, name: 'Banks' }).returning()
const [audienceB] = await db.insert(audiences).values({ ownerId: ownerB, name: 'Brokers' }).returning()

/** Every stored row of the tables a secret could leak into, as text. */
async function storedText(): Promise<string> {
  const tables = ['api_keys', 'sessions', 'activity', 'api_key_usage']
  const parts = await Promise.all(tables.map(async (table) => {
    const res = await db.execute(sql.raw(`select coalesce(string_agg(row_to_json(t)::text, ' '), '') as text from ${table} t`))
    const rows = (Array.isArray(res) ? res : (res as { rows: unknown[] }).rows) as Array<{ text: string }>
    return rows[0]!.text
  }))
  return parts.join(' ')
}

async function createByForm(agent: Agent, form: Record<string, string>): Promise<{ keyId: number; secret: string; copyBody: string }> {
  const res = await agent.postForm('/admin/apikey/new', form, { page: '/admin/apikey/new' })
  if (res.statusCode !== 303) throw new Error(`create answered ${res.statusCode}: ${res.body}`)
  const keyId = Number(/^\/admin\/apikey\/(\d+)\/copy$/.exec(String(res.headers.location))![1])
  const copy = await agent.get(`/admin/apikey/${keyId}/copy`)
  const secret = /id="api-key-secret"[^>]*value="([^"]+)"/.exec(copy.body)?.[1]
  if (!secret) throw new Error(`no secret on the copy page: ${copy.body}`)
  return { keyId, secret, copyBody: copy.body }
}

t.test('the secret is shown once on /copy, then never again, and only its hash is stored', async (t) => {
  const { keyId, secret, copyBody } = await createByForm(adminA, { name: 'Partner site', environment: 'production', allowedOrigins: 'https://partner.example\nhttp://localhost:8080/', rateLimit: '120' })
  t.match(copyBody, /<main data-page="api-keys">/)
  t.match(secret, /^as_live_[0-9a-f]{8}_[A-Za-z0-9_-]{32}$/)
  const key = await authenticateApiKey(db, `Bearer ${secret}`)
  t.same([key.id, key.ownerId, key.allowedOrigins, key.rateLimit], [keyId, ownerA, ['https://partner.example', 'http://localhost:8080'], 120])

  const again = await adminA.get(`/admin/apikey/${keyId}/copy`)
  t.equal(again.statusCode, 200)
  t.match(again.body, 'The secret was shown once, when it was made. If it is lost, rotate the key for a new one.')
  const randomPart = secret.slice(-32)
  for (const url of ['/admin/apikey', `/admin/apikey/${keyId}/edit`, `/admin/apikey/${keyId}/usage`, `/admin/apikey/${keyId}/copy`, '/activity']) {
    const res = await adminA.get(url)
    t.equal(res.statusCode, 200, `${url} renders`)
    t.notOk(res.body.includes(randomPart), `${url} does not hold the secret`)
  }
  const listed = await adminA.get('/admin/apikey')
  t.match(listed.body, `${key.prefix}_…`, 'the list shows the prefix')
  const stored = await storedText()
  t.notOk(stored.includes(randomPart), 'no table holds the secret, the sessions table included')
  t.ok(stored.includes(hashApiKeySecret(secret)), 'the hash is stored')
  await t.rejects(authenticateApiKey(db, `Bearer ${hashApiKeySecret(secret)}`), { status: 401, message: /malformed/ }, 'the hash is no key')
})

t.test('POST /api/admin/apikey/create answers the secret once; /copy never shows it', async (t) => {
  const res = await adminA.api('POST', '/api/admin/apikey/create', { name: 'Server to server', environment: 'preview', allowedAdviceSetIds: [setA.id, publicSetB.id], audienceId: audienceA!.id })
  t.equal(res.statusCode, 201)
  t.equal(res.headers['cache-control'], 'no-store')
  const data = res.json().data
  t.match(data, { name: 'Server to server', environment: 'preview', ownerId: ownerA, audienceId: audienceA!.id, allowedAdviceSetIds: [setA.id, publicSetB.id].sort((a, b) => a - b), rateLimit: 600 })
  t.notOk('secretHash' in data, 'no hash in the answer')
  t.match(data.secret, /^as_prev_/)
  t.equal((await authenticateApiKey(db, `Bearer ${data.secret}`)).id, data.id)
  const copy = await adminA.get(`/admin/apikey/${data.id}/copy`)
  t.notOk(copy.body.includes(data.secret.slice(-32)))
  t.match(copy.body, 'The secret was shown once')
})

t.test('another admin session of the same team does not get a secret created elsewhere', async (t) => {
  const { keyId } = await createByForm(adminA, { name: 'Seen once' })
  const other = await signedInAgent(app, await createUser(db, { ownerId: ownerA, role: 'admin' }))
  t.match((await other.get(`/admin/apikey/${keyId}/copy`)).body, 'The secret was shown once')
})

t.test('authors and viewers are refused (403); another team\'s admin finds no key (404); provider admins manage any', async (t) => {
  const { keyId } = await createByForm(adminA, { name: 'Rights' })
  for (const agent of [authorA, viewerA]) {
    for (const url of ['/admin/apikey', '/admin/apikey/new', `/admin/apikey/${keyId}/edit`, `/admin/apikey/${keyId}/copy`, `/admin/apikey/${keyId}/usage`]) {
      t.equal((await agent.get(url)).statusCode, 403, `${url} refused`)
    }
    t.equal((await agent.api('POST', '/api/admin/apikey/create', { name: 'x' })).statusCode, 403)
    t.equal((await agent.postForm(`/admin/apikey/${keyId}/delete`, {}, { page: '/' })).statusCode, 403)
  }
  for (const url of [`/admin/apikey/${keyId}/edit`, `/admin/apikey/${keyId}/copy`, `/admin/apikey/${keyId}/usage`]) {
    t.equal((await adminB.get(url)).statusCode, 404, `${url} is unknown to team B`)
  }
  t.equal((await adminB.postForm(`/admin/apikey/${keyId}/delete`, {}, { page: '/' })).statusCode, 404)
  t.equal((await adminB.postForm(`/admin/apikey/${keyId}/edit`, { name: 'Taken over' }, { page: '/' })).statusCode, 404)
  t.notMatch((await adminB.get('/admin/apikey')).body, 'Rights', 'team B does not list it')
  t.match((await providerAdmin.get('/admin/apikey')).body, 'Rights', 'the provider admin lists it')
  t.equal((await providerAdmin.get(`/admin/apikey/${keyId}/usage`)).statusCode, 200)
  const forB = await providerAdmin.api('POST', '/api/admin/apikey/create', { name: 'Made for B', ownerId: ownerB })
  t.equal(forB.json().data.ownerId, ownerB)
  const refused = await adminA.api('POST', '/api/admin/apikey/create', { name: 'For B', ownerId: ownerB })
  t.same([refused.statusCode, refused.json().error.field], [400, 'ownerId'])
  t.equal((await adminA.get('/admin/apikey')).statusCode, 200)
  t.match((await adminA.get('/')).body, 'href="/admin/apikey"', 'admins get the header link')
  t.notMatch((await authorA.get('/')).body, 'href="/admin/apikey"', 'authors do not')
})

t.test('validation refuses bad input naming the field, and keeps what was typed', async (t) => {
  const cases: Array<[Record<string, unknown>, string, RegExp]> = [
    [{ name: '' }, 'name', /Name is required/],
    [{ name: 'x', environment: 'staging' }, 'environment', /Environment must be one of: production, preview/],
    [{ name: 'x', allowedOrigins: ['https://partner.example/path'] }, 'allowedOrigins', /"https:\/\/partner.example\/path" is not an origin/],
    [{ name: 'x', allowedOrigins: ['partner.example'] }, 'allowedOrigins', /not an origin/],
    [{ name: 'x', allowedOrigins: ['javascript:alert(1)'] }, 'allowedOrigins', /not an origin/],
    [{ name: 'x', rateLimit: 0 }, 'rateLimit', /Rate limit must be a whole number/],
    [{ name: 'x', allowedAdviceSetIds: [privateSetB.id] }, 'allowedAdviceSetIds', new RegExp(`advice set ${privateSetB.id} is not one this team may use`)],
    [{ name: 'x', audienceId: audienceB!.id }, 'audienceId', /one of the team's audiences/],
  ]
  for (const [body, field, message] of cases) {
    const res = await adminA.api('POST', '/api/admin/apikey/create', body)
    t.equal(res.statusCode, 400, `${JSON.stringify(body)} refused`)
    t.equal(res.json().error.field, field)
    t.match(res.json().error.message, message)
  }
  const form = await adminA.postForm('/admin/apikey/new', { name: 'Kept name', allowedOrigins: 'ftp://files.example', rateLimit: '50' }, { page: '/admin/apikey/new' })
  t.equal(form.statusCode, 400)
  t.match(form.body, /id="f-allowedOrigins-error">Allowed origins: &quot;ftp:\/\/files.example&quot; is not an origin/)
  t.match(form.body, /value="Kept name"/, 'typed values are kept')
})

t.test('an edit takes effect at once; a deleted key is refused at once and leaves the list', async (t) => {
  const { keyId, secret } = await createByForm(adminA, { name: 'Short-lived', rateLimit: '100' })
  t.equal((await authenticateApiKey(db, `Bearer ${secret}`)).rateLimit, 100, 'authenticated (and cached)')
  const edit = await adminA.postForm(`/admin/apikey/${keyId}/edit`, { name: 'Renamed', rateLimit: '7', allowedOrigins: 'https://new.example', audienceId: String(audienceA!.id) }, { page: `/admin/apikey/${keyId}/edit` })
  t.equal(edit.statusCode, 303)
  const key = await authenticateApiKey(db, `Bearer ${secret}`)
  t.same([key.rateLimit, key.allowedOrigins, key.audienceId], [7, ['https://new.example'], audienceA!.id])
  const badEdit = await adminA.postForm(`/admin/apikey/${keyId}/edit`, { name: 'Renamed', rateLimit: 'lots' }, { page: `/admin/apikey/${keyId}/edit` })
  t.equal(badEdit.statusCode, 400)
  t.match(badEdit.body, /id="f-rateLimit-error">Rate limit must be a whole number/)

  const del = await adminA.postForm(`/admin/apikey/${keyId}/delete`, {}, { page: `/admin/apikey/${keyId}/edit` })
  t.equal(del.statusCode, 303)
  await t.rejects(authenticateApiKey(db, `Bearer ${secret}`), { status: 401, message: /deleted/ })
  const list = await adminA.get('/admin/apikey')
  t.match(list.body, 'API key &quot;Renamed&quot; deleted.')
  t.notMatch(list.body, `data-key-id="${keyId}"`, 'the list no longer shows it')
  t.equal((await adminA.get(`/admin/apikey/${keyId}/edit`)).statusCode, 404)
})
