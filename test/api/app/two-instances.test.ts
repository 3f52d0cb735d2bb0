// Issue 18 points 4 and 7 (sessions): two app processes (src/main.ts, as `npm start` runs it) on one PostgreSQL
// database, as behind a load balancer. An API key's rate limit holds across both, usage counts add up, a publish on
// one is served by the other within a second, and sessions are shared: a session made on one is accepted by the
// other, signing in gives a new session id, and signing out or changing the password ends sessions on both.
// PostgreSQL only: PGlite is one process's embedded database.
import t from 'tap'
import { eq } from 'drizzle-orm'
import { apiKeyUsage } from '../../../src/db/schema/index.ts'
import { openTestDatabase, testDriver } from '../../helpers/database.ts'
import { createUser, createOwner } from '../../helpers/factories.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { buildRule } from '../../helpers/rules.ts'
import { createApiKey } from '../../helpers/api-keys.ts'
import { publishVersion } from '../../helpers/publishing.ts'
import { HttpAgent } from '../../helpers/http-agent.ts'
import { sharedAppEnv, startAppProcess, type AppProcess } from '../../helpers/app-process.ts'

if (testDriver() !== 'postgres') {
  t.plan(0, 'two app instances need one PostgreSQL server (TEST_DRIVER=postgres and TEST_DATABASE_URL): PGlite lives inside one process')
} else {
  const database = await openTestDatabase()
  const db = database.db
  const ownerId = await createOwner(db)
  const author = await createUser(db, { ownerId, role: 'author' })
  const admin = await createUser(db, { ownerId, role: 'admin' })
  const set = await createAdviceSet(db, { ownerId, name: 'Two instances' })
  const { nodes } = await buildRule(db, set.id, 'Only', [{ type: 'advice', headline: 'First headline', text: 'Served.' }])
  await publishVersion(db, { adviceSetId: set.id })
  // Behind a load balancer: the client address comes from X-Forwarded-For, so agents can be different people.
  const env = { ...sharedAppEnv(database.url!), TRUST_PROXY: 'true' }
  const [a, b] = await Promise.all([startAppProcess({ env }), startAppProcess({ env })]) as [AppProcess, AppProcess]
  t.teardown(async () => {
    await Promise.all([a.stop(), b.stop()])
    await database.close()
  })

  const partner = (instance: AppProcess, secret: string, path = '/api/dictionary') =>
    fetch(`${instance.url}${path}`, { headers: { authorization: `Bearer ${secret}`, accept: 'application/json' } })

  t.test('an API key’s rate limit holds across both instances', async (t) => {
    const { secret } = await createApiKey(db, { ownerId, rateLimit: 10 })
    // 30 requests at once, half on each instance: exactly the limit gets through.
    const statuses = await Promise.all(Array.from({ length: 30 }, (_, i) => partner(i % 2 ? a : b, secret).then((r) => r.status)))
    t.equal(statuses.filter((s) => s === 200).length, 10, 'ten answered across both')
    t.equal(statuses.filter((s) => s === 429).length, 20, 'the rest refused, whichever instance they reached')
    const later = await partner(a, secret)
    t.equal(later.status, 429)
    const retryAfter = Number(later.headers.get('retry-after'))
    t.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter} s`)
    t.equal((await partner(b, secret)).status, 429, 'and still refused on the other')
    const other = await createApiKey(db, { ownerId, rateLimit: 10 })
    t.equal((await partner(b, other.secret)).status, 200, 'another key has its own budget')
  })

  t.test('a larger limit is leased a few requests at a time, and still never passed', async (t) => {
    // 100 a minute: each instance leases 2 at a time, so at most one leased request per instance can go unused.
    const { secret } = await createApiKey(db, { ownerId, rateLimit: 100 })
    const statuses: number[] = []
    for (let round = 0; round < 4; round++) {
      statuses.push(...await Promise.all(Array.from({ length: 40 }, (_, i) => partner(i % 2 ? a : b, secret).then((r) => r.status))))
    }
    const answered = statuses.filter((s) => s === 200).length
    t.ok(answered <= 100, `${answered} answered: never more than the limit`)
    t.ok(answered >= 98, 'and at most a lease per instance short of it')
    t.equal(statuses.filter((s) => s === 429).length, 160 - answered, 'the rest refused')
  })

  t.test('usage counts of both instances add up', async (t) => {
    const { key, secret } = await createApiKey(db, { ownerId })
    for (let i = 0; i < 7; i++) t.equal((await partner(a, secret, `/api/advice/${set.id}`)).status, 200)
    for (let i = 0; i < 5; i++) t.equal((await partner(b, secret, `/api/advice/${set.id}`)).status, 200)
    t.equal((await partner(b, secret, '/api/advice/999999')).status, 404)
    // Each instance writes its counts every two seconds: wait for both batches.
    const counted = async () => (await db.select().from(apiKeyUsage).where(eq(apiKeyUsage.keyId, key.id)))
    const deadline = Date.now() + 15_000
    let rows = await counted()
    while (rows.reduce((n, r) => n + r.requests, 0) < 13 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200))
      rows = await counted()
    }
    const bySet = new Map(rows.map((r) => [r.adviceSetId, r]))
    t.match(bySet.get(set.id), { requests: 12, errors: 0 }, '7 on one instance + 5 on the other')
    t.match(bySet.get(0), { requests: 1, errors: 1 }, 'the unknown set, under 0')
    t.equal(bySet.get(set.id)!.latencyBuckets.reduce((n, c) => n + c, 0), 12, 'latency buckets add up too')
  })

  t.test('a publish on one instance is served by the other within a second', async (t) => {
    const { secret } = await createApiKey(db, { ownerId })
    const headline = async (instance: AppProcess) => (await (await partner(instance, secret, `/api/advice/${set.id}`)).json()).data.advice[0].headline
    t.equal(await headline(b), 'First headline', 'b has the published version cached')
    t.equal(await headline(a), 'First headline')
    const authorAgent = new HttpAgent(a.url)
    await authorAgent.signIn(author.email, author.password)
    t.equal((await authorAgent.api('PATCH', `/api/rule/${nodes[0]!.ruleId}/node/${nodes[0]!.id}`, { headline: 'Second headline' })).status, 200)
    const made = await authorAgent.api('POST', '/api/adviceset/publish', { action: 'create', adviceSetId: set.id, notes: 'Second' })
    t.equal(made.status, 201)
    const versionId = made.json().data.id
    t.equal((await authorAgent.api('POST', '/api/adviceset/publish', { action: 'submit', versionId })).status, 200)
    const adminAgent = new HttpAgent(a.url)
    await adminAgent.signIn(admin.email, admin.password)
    t.equal((await adminAgent.api('POST', '/api/adviceset/publish', { action: 'approve', versionId, acknowledgeRisks: true })).status, 200)
    t.equal(await headline(b), 'First headline', 'approved is not published yet')
    const published = await adminAgent.api('POST', '/api/adviceset/publish', { action: 'publish', versionId })
    t.equal(published.status, 200)
    const at = performance.now()
    let seen = await headline(b)
    while (seen !== 'Second headline' && performance.now() - at < 1000) seen = await headline(b)
    const ms = performance.now() - at
    t.equal(seen, 'Second headline', `the other instance served the new version after ${ms.toFixed(0)} ms`)
    t.ok(ms < 1000, 'within a second')
    t.equal(await headline(a), 'Second headline', 'and the instance that published it too')
  })

  t.test('sign-in attempts are limited per account and per address across both instances', async (t) => {
    const user = await createUser(db, { ownerId, role: 'author' })
    const guesser = new HttpAgent(a.url, { 'x-forwarded-for': '10.77.0.1' })
    await guesser.get('/login')
    for (let i = 0; i < 10; i++) {
      guesser.baseUrl = i % 2 ? a.url : b.url
      t.equal((await guesser.postForm('/login', { email: user.email, password: `wrong-${i}` })).status, 401, `wrong password ${i + 1}`)
    }
    const helper = new HttpAgent(b.url, { 'x-forwarded-for': '10.77.0.2' })
    await helper.get('/login')
    const eleventh = await helper.postForm('/login', { email: user.email, password: user.password })
    t.equal(eleventh.status, 429, 'the account’s eleventh attempt of the minute is refused, from another address and instance')
    t.ok(Number(eleventh.headers.get('retry-after')) >= 1)

    const sprayer = new HttpAgent(a.url, { 'x-forwarded-for': '10.77.0.3' })
    await sprayer.get('/login')
    for (let i = 0; i < 10; i++) {
      sprayer.baseUrl = i % 2 ? a.url : b.url
      t.equal((await sprayer.postForm('/login', { email: `nobody-${i}@example.test`, password: 'wrong' })).status, 401)
    }
    t.equal((await sprayer.postForm('/login', { email: 'nobody-10@example.test', password: 'wrong' })).status, 429, 'the address’s eleventh attempt is refused')
  })

  t.test('sessions: made on one instance, accepted by the other; a new id at sign-in', async (t) => {
    const agent = new HttpAgent(a.url)
    await agent.get('/login')
    const before = agent.cookie('sid')
    t.ok(before, 'the sign-in form already has a session (for its CSRF token)')
    await agent.signIn(author.email, author.password)
    const after = agent.cookie('sid')
    t.ok(after && after !== before, 'signing in gives a new session id (no fixation)')
    const me = `/api/user/${author.id}`
    t.equal((await agent.get(me)).status, 200, 'signed in on a')
    agent.baseUrl = b.url
    t.equal((await agent.get(me)).status, 200, 'the same session is accepted by b')
    const wrote = await agent.api('POST', '/api/rule', { adviceSetId: set.id, name: 'Written on b' })
    t.equal(wrote.status, 201, 'with the CSRF token a page of a gave')
    const fixed = new HttpAgent(b.url)
    fixed.useCookies(`sid=${before}`)
    t.equal((await fixed.get(me)).status, 401, 'the id from before sign-in is not signed in, on either instance')
    fixed.baseUrl = a.url
    t.equal((await fixed.get(me)).status, 401)
  })

  t.test('signing out on one instance ends the session on both', async (t) => {
    const agent = new HttpAgent(a.url)
    await agent.signIn(author.email, author.password)
    const cookies = agent.cookieHeader
    const replay = new HttpAgent(b.url)
    replay.useCookies(cookies)
    t.equal((await replay.get(`/api/user/${author.id}`)).status, 200)
    const out = await agent.postForm('/logout', {})
    t.equal(out.status, 303)
    t.equal(out.headers.get('location'), '/login')
    t.equal((await replay.get(`/api/user/${author.id}`)).status, 401, 'the old cookie is refused by b')
    replay.baseUrl = a.url
    t.equal((await replay.get(`/api/user/${author.id}`)).status, 401, 'and by a')
  })

  t.test('changing the password on one instance ends the other sessions on both', async (t) => {
    const user = await createUser(db, { ownerId, role: 'author' })
    const me = `/api/user/${user.id}`
    const changer = new HttpAgent(a.url)
    await changer.signIn(user.email, user.password)
    const elsewhere = new HttpAgent(b.url)
    await elsewhere.signIn(user.email, user.password)
    t.equal((await elsewhere.get(me)).status, 200)
    const newPassword = 'Tangerine-kettle-orbit-92'
    const changed = await changer.postForm('/profile/password', { current: user.password, password: newPassword, confirm: newPassword }, { page: '/profile/password' })
    t.equal(changed.status, 303, 'password changed on a')
    t.equal((await elsewhere.get(me)).status, 401, 'the session signed in on b is ended')
    elsewhere.baseUrl = a.url
    t.equal((await elsewhere.get(me)).status, 401, 'on a too')
    t.equal((await changer.get(me)).status, 200, 'the session that changed it goes on')
    changer.baseUrl = b.url
    t.equal((await changer.get(me)).status, 200, 'on b too')
    const again = new HttpAgent(b.url)
    await again.signIn(user.email, newPassword)
    t.equal((await again.get(me)).status, 200, 'the new password signs in on b')
  })
}
