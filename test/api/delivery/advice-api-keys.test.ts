// Issue 7 Advice API and keys: 401 for every way a key can be wrong (a session cookie is never enough), which sets
// a key reads (404 otherwise), production vs preview vs audience versions, a draft edit that changes nothing until
// the next publish, the per-key rate limit, and usage metered for every authenticated request.
import t from 'tap'
import { and, eq } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent } from '../../helpers/agent.ts'
import { createApiKey } from '../../helpers/api-keys.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { publishVersion } from '../../helpers/publishing.ts'
import { updateNode } from '../../../src/db/queries/rule-nodes.ts'
import { upsertAssignment } from '../../../src/db/queries/versions.ts'
import { apiKeys, apiKeyUsage, audiences } from '../../../src/db/schema/index.ts'
import { deleteApiKeyFor } from '../../../src/services/delivery/api-key-admin.ts'
import { hashApiKeySecret } from '../../../src/services/delivery/api-keys.ts'
import { unpublishAdviceSet } from '../../../src/services/publishing/workflow.ts'
import { changeVersions } from '../../../src/services/publishing/versions.ts'
import { buildPensionSet, createPensionVariables, partnerCall, partnerFixture, query, RICH_ANSWERS } from './advice-api-setup.ts'

const ctx = await buildTestApp(t)
const f = await partnerFixture(ctx)
const { db } = f
const admin = await createUser(db, { ownerId: f.ownerId, role: 'admin' })
const adminActor = { userId: admin.id, ownerId: f.ownerId, role: admin.role, impersonatorId: null }
const url = `/api/advice/${f.set.id}`

function errorOf(res: { json(): unknown }) {
  return (res.json() as { error: { status: number; name: string; message: string } }).error
}

t.test('401 in the error shape for a missing, non-Bearer, malformed, unknown, hashed or deleted key', async (t) => {
  const row = (await db.select({ secretHash: apiKeys.secretHash, prefix: apiKeys.prefix }).from(apiKeys).where(eq(apiKeys.id, f.production.key.id)))[0]!
  t.equal(row.secretHash, hashApiKeySecret(f.production.secret), 'the table holds the hash')
  const doomed = await createApiKey(db, { ownerId: f.ownerId })
  t.equal((await partnerCall(ctx, doomed.secret)({ url })).statusCode, 200, 'the key to delete works first')
  await deleteApiKeyFor(ctx.app.deps, adminActor, doomed.key.id)

  const cases: Array<[string, Record<string, string>, RegExp]> = [
    ['no header', {}, /API key is required/],
    ['Basic scheme', { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }, /Bearer scheme/],
    ['malformed key', { authorization: 'Bearer not-a-key' }, /malformed/],
    ['unknown key', { authorization: `Bearer ${f.production.secret.slice(0, -4)}AAAA` }, /unknown or has been deleted/],
    ['the stored hash as the key', { authorization: `Bearer ${row.secretHash}` }, /malformed|unknown/],
    ['the prefix alone', { authorization: `Bearer ${row.prefix}` }, /malformed/],
    ['a deleted key', { authorization: `Bearer ${doomed.secret}` }, /unknown or has been deleted/],
  ]
  for (const [name, headers, message] of cases) {
    const res = await partnerCall(ctx, undefined)({ url: `${url}?${query(RICH_ANSWERS)}`, headers })
    t.equal(res.statusCode, 401, name)
    t.same(Object.keys(res.json()), ['error'], `${name}: only the error`)
    t.match(errorOf(res), { status: 401, name: 'Unauthorized', message }, name)
  }
})

t.test('a signed-in session cookie alone gets 401; a key works without CSRF, cookie or not', async (t) => {
  const agent = await signedInAgent(ctx.app, admin)
  const viaSession = await agent.request({ method: 'GET', url, headers: { accept: 'application/json' } })
  t.equal(viaSession.statusCode, 401)
  t.equal(errorOf(viaSession).status, 401)
  const postViaSession = await agent.api('POST', url, { inputs: RICH_ANSWERS })
  t.equal(postViaSession.statusCode, 401, 'even with the CSRF token')
  const keyAndCookie = await agent.request({
    method: 'POST', url, payload: JSON.stringify({ inputs: RICH_ANSWERS }),
    headers: { 'authorization': `Bearer ${f.production.secret}`, 'content-type': 'application/json', 'accept': 'application/json' },
  })
  t.equal(keyAndCookie.statusCode, 200, 'a bearer POST needs no CSRF token')
  t.equal(keyAndCookie.json().data.advice[0].headline, 'Max out your pension')
  t.equal(keyAndCookie.headers['set-cookie'], undefined, 'partner routes never touch the session cookie')
  t.equal(viaSession.headers['set-cookie'], undefined)
})

t.test('404 for an unknown set, a set with nothing published, and sets the key may not read', async (t) => {
  const call = partnerCall(ctx, f.production.secret)
  const unpublished = await buildPensionSet(db, f.ownerId, { name: 'Draft only' })
  const otherOwner = await createOwner(db)
  await createPensionVariables(db, otherOwner)
  const privateElsewhere = await buildPensionSet(db, otherOwner, { name: 'Theirs' })
  await publishVersion(db, { adviceSetId: privateElsewhere.set.id })
  const publicElsewhere = await buildPensionSet(db, otherOwner, { name: 'Shared', isPublic: true })
  await publishVersion(db, { adviceSetId: publicElsewhere.set.id })

  for (const [name, id] of [['unknown', 999999], ['never published', unpublished.set.id], ['another owner\'s private set', privateElsewhere.set.id]] as const) {
    const res = await call({ url: `/api/advice/${id}` })
    t.equal(res.statusCode, 404, name)
    t.match(errorOf(res), { status: 404, name: 'Not Found', message: /published advice set/ }, name)
  }
  t.equal((await call({ url: `/api/advice/${publicElsewhere.set.id}` })).statusCode, 200, 'another owner\'s public set is readable')
  const badId = await call({ url: '/api/advice/abc' })
  t.equal(badId.statusCode, 400, 'an id that is not a number')

  const narrow = await createApiKey(db, { ownerId: f.ownerId, allowedAdviceSetIds: [publicElsewhere.set.id] })
  const narrowCall = partnerCall(ctx, narrow.secret)
  t.equal((await narrowCall({ url })).statusCode, 404, 'a key listing sets reads only those, not even its owner\'s others')
  t.equal((await narrowCall({ url: `/api/advice/${publicElsewhere.set.id}` })).statusCode, 200)

  const ownSet = await buildPensionSet(db, f.ownerId, { name: 'Soon gone' })
  await publishVersion(db, { adviceSetId: ownSet.set.id })
  t.equal((await call({ url: `/api/advice/${ownSet.set.id}` })).statusCode, 200, 'served while published (and now cached)')
  await unpublishAdviceSet(ctx.app.deps, adminActor, ownSet.set.id)
  t.equal((await call({ url: `/api/advice/${ownSet.set.id}` })).statusCode, 404, 'unpublishing is seen at once')
})

t.test('production keys get the published version, preview keys the preview one, audiences their assigned one', async (t) => {
  const set = await buildPensionSet(db, f.ownerId, { name: 'Versioned' })
  const first = await publishVersion(db, { adviceSetId: set.set.id })
  const tooYoung = set.questions.Age.id + 2
  await updateNode(db, tooYoung, { headline: 'Still too young', updatedBy: null })
  const preview = await publishVersion(db, { adviceSetId: set.set.id, environment: 'preview' })
  const young = `/api/advice/${set.set.id}?Age=12&fields[advice]=headline&fields[adviceSet]=version`
  const production = partnerCall(ctx, f.production.secret)
  const previewKey = partnerCall(ctx, f.preview.secret)

  const fromProduction = (await production({ url: young })).json().data
  t.same(fromProduction.advice, [{ headline: 'Too young' }], 'production: the published version')
  t.same(fromProduction.adviceSet, { version: first.number })
  const fromPreview = (await previewKey({ url: young })).json().data
  t.same(fromPreview.advice, [{ headline: 'Still too young' }], 'preview: the preview version')
  t.same(fromPreview.adviceSet, { version: preview.number })

  const [audience] = await db.insert(audiences).values({ ownerId: f.ownerId, name: 'Pilot partners' }).returning()
  const pilot = await createApiKey(db, { ownerId: f.ownerId, audienceId: audience!.id })
  const pilotCall = partnerCall(ctx, pilot.secret)
  t.same((await pilotCall({ url: young })).json().data.advice, [{ headline: 'Too young' }], 'an audience without an assignment gets the published one')
  await changeVersions(db, set.set.id, (tx) => upsertAssignment(tx, { adviceSetId: set.set.id, audienceId: audience!.id, versionId: preview.id, assignedBy: null }))
  t.same((await pilotCall({ url: young })).json().data.advice, [{ headline: 'Still too young' }], 'the assigned version, as soon as it is assigned')
  t.same((await production({ url: young })).json().data.advice, [{ headline: 'Too young' }], 'other production keys keep the published one')

  const previewOnly = await buildPensionSet(db, f.ownerId, { name: 'Preview only' })
  await publishVersion(db, { adviceSetId: previewOnly.set.id, environment: 'preview' })
  t.equal((await previewKey({ url: `/api/advice/${previewOnly.set.id}` })).statusCode, 200, 'a preview key sees a preview-only set')
  t.equal((await production({ url: `/api/advice/${previewOnly.set.id}` })).statusCode, 404, 'a production key does not')
})

t.test('a draft edit after publishing does not change the answer until the next publish', async (t) => {
  const set = await buildPensionSet(db, f.ownerId, { name: 'Edited' })
  await publishVersion(db, { adviceSetId: set.set.id })
  const call = partnerCall(ctx, f.production.secret)
  const young = `/api/advice/${set.set.id}?Age=12`
  t.equal((await call({ url: young })).json().data.advice[0].headline, 'Too young')
  await updateNode(db, set.questions.Age.id + 2, { headline: 'Edited in the draft', updatedBy: null })
  t.equal((await call({ url: young })).json().data.advice[0].headline, 'Too young', 'the draft edit is not served')
  await publishVersion(db, { adviceSetId: set.set.id })
  t.equal((await call({ url: young })).json().data.advice[0].headline, 'Edited in the draft', 'the next publish serves it')
})

t.test('each key has its own per-minute limit: 429 with Retry-After in the error shape', async (t) => {
  const limited = await createApiKey(db, { ownerId: f.ownerId, rateLimit: 3 })
  const call = partnerCall(ctx, limited.secret)
  for (let i = 0; i < 3; i++) t.equal((await call({ url: i === 1 ? '/api/dictionary' : url })).statusCode, 200, `request ${i + 1}`)
  const over = await call({ url })
  t.equal(over.statusCode, 429, 'the fourth request of the minute, across the partner routes')
  t.match(errorOf(over), { status: 429, name: 'Too Many Requests', message: /allows 3 requests a minute/ })
  const retryAfter = Number(over.headers['retry-after'])
  t.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter} s`)
  t.equal((await partnerCall(ctx, f.production.secret)({ url })).statusCode, 200, 'other keys are not affected')
})

// Last: closing the app writes the counts gathered in memory.
t.test('usage is recorded for every authenticated request, under the set it named', async (t) => {
  const metered = await createApiKey(db, { ownerId: f.ownerId })
  const call = partnerCall(ctx, metered.secret)
  await call({ url })
  await call({ url: `${url}?Age=old` })
  t.equal((await call({ url, accept: 'image/png' })).statusCode, 406)
  await call({ url: '/api/advice/999999' })
  await call({ url: '/api/dictionary' })
  await partnerCall(ctx, undefined)({ url })
  const limited = await createApiKey(db, { ownerId: f.ownerId, rateLimit: 1 })
  const callLimited = partnerCall(ctx, limited.secret)
  t.equal((await callLimited({ url })).statusCode, 200)
  t.equal((await callLimited({ url })).statusCode, 429)
  t.equal((await callLimited({ url: '/api/advice/999999' })).statusCode, 429)
  await ctx.app.close()
  const limitedRows = await db.select().from(apiKeyUsage).where(eq(apiKeyUsage.keyId, limited.key.id))
  const limitedBySet = new Map(limitedRows.map((r) => [r.adviceSetId, r]))
  t.match(limitedBySet.get(f.set.id), { requests: 2, errors: 1 }, 'a 429 is filed under the set it named')
  t.match(limitedBySet.get(0), { requests: 1, errors: 1 }, 'a 429 naming a set the key cannot read stays under 0')
  const rows = await db.select().from(apiKeyUsage).where(eq(apiKeyUsage.keyId, metered.key.id))
  const bySet = new Map(rows.map((r) => [r.adviceSetId, r]))
  t.match(bySet.get(f.set.id), { requests: 3, errors: 2 }, 'the set\'s run, its 400 and its 406 (a refused Accept is filed under its set)')
  t.match(bySet.get(0), { requests: 2, errors: 1 }, 'the unknown set and the dictionary under 0')
  t.equal(rows.reduce((sum, r) => sum + r.latencyBuckets.reduce((a, b) => a + b, 0), 0), 5, 'every request has a latency')
  const [key] = await db.select({ lastUsedAt: apiKeys.lastUsedAt }).from(apiKeys).where(and(eq(apiKeys.id, metered.key.id)))
  t.ok(key!.lastUsedAt, 'the key\'s last use is set')
})
