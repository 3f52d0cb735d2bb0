// Issue 25 key rotation: "Rotate" gives a key a new secret under the same prefix and settings; the old secret keeps
// working for the grace period the admin chose (0–24 h), shown on the key page, then stops with a 401 that says why.
// Pages and the API; the grace is checked against the clock, also for a secret this instance has cached.
import t from 'tap'
import { eq } from 'drizzle-orm'
import { signedInAgent } from '../../helpers/agent.ts'
import { buildTestApp } from '../../helpers/app.ts'
import { createApiKey } from '../../helpers/api-keys.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { apiKeys } from '../../../src/db/schema/index.ts'
import { hashApiKeySecret } from '../../../src/services/delivery/api-keys.ts'
import { partnerCall, partnerFixture } from './advice-api-setup.ts'

const ctx = await buildTestApp(t)
const f = await partnerFixture(ctx)
const { db } = f
const admin = await signedInAgent(ctx.app, await createUser(db, { ownerId: f.ownerId, role: 'admin', name: 'Kim Keys' }))
const otherAdmin = await signedInAgent(ctx.app, await createUser(db, { ownerId: await createOwner(db, { name: 'Elsewhere' }), role: 'admin' }))
const author = await signedInAgent(ctx.app, await createUser(db, { ownerId: f.ownerId, role: 'author' }))
const url = `/api/advice/${f.set.id}`
const HOUR = 60 * 60 * 1000

const status = async (secret: string) => (await partnerCall(ctx, secret)({ url })).statusCode
const message = async (secret: string) => (await partnerCall(ctx, secret)({ url })).json().error?.message as string | undefined

t.test('rotating with a grace period: both secrets work until it ends; prefix, settings and id stay', async (t) => {
  const { key, secret: old } = await createApiKey(db, { ownerId: f.ownerId, name: 'Bank site', rateLimit: 321 })
  t.equal(await status(old), 200, 'the key works before')
  const before = Date.now()
  const res = await admin.api('POST', `/api/admin/apikey/${key.id}/rotate`, { graceHours: 4 })
  t.equal(res.statusCode, 200)
  t.equal(res.headers['cache-control'], 'no-store')
  const data = res.json().data
  t.not(data.secret, old, 'a new secret')
  t.ok(data.secret.startsWith(`${key.prefix}_`), 'under the same prefix')
  t.match(data, { id: key.id, name: 'Bank site', rateLimit: 321, prefix: key.prefix })
  const until = new Date(data.previousSecretUntil).getTime()
  t.ok(until >= before + 4 * HOUR && until <= Date.now() + 4 * HOUR, 'the old secret works for 4 hours')
  t.notOk('secretHash' in data || 'previousSecretHash' in data, 'no hash in the answer')
  t.equal(await status(data.secret), 200, 'the new secret works')
  t.equal(await status(old), 200, 'the old secret works during the grace period')

  const page = await admin.get(`/admin/apikey/${key.id}/edit`)
  t.match(page.body, /The previous secret still works until <time datetime="[^"]+" data-moment/, 'the key page says until when')
  const activity = (await admin.api('GET', '/api/activity/index?entityType=apikey')).json().data.items
  t.ok(activity.some((i: { summary: string }) => i.summary === 'Kim Keys rotated the secret of the API key “Bank site”; the old secret stays valid for 4 hours.'), 'in the activity log')

  // The grace ends (the clock moved past it; the old secret was just used, so this instance has it cached): the old
  // secret stops, the new one works.
  const realNow = Date.now
  Date.now = () => until + 1
  try {
    t.equal(await status(old), 401, 'the old secret stops when the grace ends')
    t.match(await message(old), /replaced when the API key was rotated, and its grace period has ended: use the new secret/)
    t.equal(await status(data.secret), 200, 'the new one goes on')
  } finally {
    Date.now = realNow
  }
  await db.update(apiKeys).set({ previousSecretUntil: new Date(Date.now() - 1000) }).where(eq(apiKeys.id, key.id))
  t.notMatch((await admin.get(`/admin/apikey/${key.id}/edit`)).body, 'The previous secret still works', 'the page no longer offers it')
})

t.test('with no grace the old secret stops at once; the form shows the choice and the copy page the new secret once', async (t) => {
  const { key, secret: old } = await createApiKey(db, { ownerId: f.ownerId, name: 'Leaked key' })
  t.equal(await status(old), 200, 'works (and is cached) before')
  const form = await admin.get(`/admin/apikey/${key.id}/edit`)
  t.match(form.body, /<input id="f-graceHours" name="graceHours" type="number" min="0" max="24"/)
  const res = await admin.postForm(`/admin/apikey/${key.id}/rotate`, { graceHours: '0' }, { page: `/admin/apikey/${key.id}/edit` })
  t.equal(res.statusCode, 303)
  t.equal(res.headers.location, `/admin/apikey/${key.id}/copy`)
  const copy = await admin.get(`/admin/apikey/${key.id}/copy`)
  const secret = /id="api-key-secret"[^>]*value="([^"]+)"/.exec(copy.body)?.[1]
  t.ok(secret?.startsWith(`${key.prefix}_`), 'the new secret, once')
  t.match(copy.body, 'The old secret stopped working at once.')
  t.notMatch((await admin.get(`/admin/apikey/${key.id}/copy`)).body, secret!, 'never again')
  t.equal(await status(old), 401, 'the old secret is refused at once, though it was cached')
  t.equal(await status(secret!), 200)
  const row = (await db.select().from(apiKeys).where(eq(apiKeys.id, key.id)))[0]!
  t.equal(row.secretHash, hashApiKeySecret(secret!), 'only the hash is kept')
  t.equal(row.previousSecretHash, null, 'nothing of the old one')
})

t.test('the grace period must be whole hours from 0 to 24, named at its field; only the key\'s admins may rotate', async (t) => {
  const { key, secret } = await createApiKey(db, { ownerId: f.ownerId })
  for (const graceHours of [25, -1, '1.5', 'soon', '']) {
    const res = await admin.api('POST', `/api/admin/apikey/${key.id}/rotate`, { graceHours })
    t.equal(res.statusCode, 400, `grace ${JSON.stringify(graceHours)}`)
    t.match(res.json().error, { field: 'graceHours', message: /Grace period: give a whole number of hours from 0 to 24/ })
  }
  const page = await admin.postForm(`/admin/apikey/${key.id}/rotate`, { graceHours: '48' }, { page: `/admin/apikey/${key.id}/edit` })
  t.equal(page.statusCode, 400)
  t.match(page.body, /<input id="f-graceHours"[^>]*value="48"[^>]*aria-invalid="true" autofocus>/, 'the typed value stays, the field is marked and focused')
  t.match(page.body, 'Grace period: give a whole number of hours from 0 to 24, not “48”.')
  t.equal((await author.api('POST', `/api/admin/apikey/${key.id}/rotate`, { graceHours: 1 })).statusCode, 403, 'an author may not')
  t.equal((await otherAdmin.api('POST', `/api/admin/apikey/${key.id}/rotate`, { graceHours: 1 })).statusCode, 404, 'another team\'s admin finds no such key')
  t.equal(await status(secret), 200, 'nothing changed: the secret still works')
})
