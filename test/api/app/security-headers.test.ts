// Issue 18 point 7: the security headers beyond the pages themselves (every page route's are asserted in
// page-markers.test.ts): HSTS only over https, and the same CSP, nosniff and referrer policy on sign-in pages, error
// pages, the API's JSON and static files, signed in or not.
import t from 'tap'
import { buildTestApp } from '../../helpers/app.ts'
import { Agent, signedInAgent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { assertPageSecurityHeaders } from '../../helpers/security-headers.ts'

const HSTS = 'max-age=63072000; includeSubDomains'

t.test('HSTS is sent over https only, on pages, the API and static files alike', async (t) => {
  const { app } = await buildTestApp(t, { BASE_URL: 'https://advice.example', TRUST_PROXY: 'true' })
  for (const url of ['/login', '/api/adviceset/stats', '/static/css/app.css', '/no-such-page']) {
    const https = await app.inject({ method: 'GET', url, headers: { 'x-forwarded-proto': 'https' } })
    t.equal(https.headers['strict-transport-security'], HSTS, `${url} over https (status ${https.statusCode})`)
    const http = await app.inject({ method: 'GET', url })
    t.equal(http.headers['strict-transport-security'], undefined, `${url} over http has none`)
  }
})

t.test('a proxy the app does not trust cannot claim https', async (t) => {
  const { app } = await buildTestApp(t)
  const res = await app.inject({ method: 'GET', url: '/login', headers: { 'x-forwarded-proto': 'https' } })
  t.equal(res.headers['strict-transport-security'], undefined)
})

t.test('sign-in, error pages, API answers and static files carry the app’s headers', async (t) => {
  const { app, database } = await buildTestApp(t)
  const owner = await createOwner(database.db, { name: 'Acme' })
  const author = await createUser(database.db, { ownerId: owner, role: 'author' })
  const visitor = new Agent(app)
  const signedIn = await signedInAgent(app, author)

  const login = await visitor.get('/login')
  t.equal(login.statusCode, 200)
  assertPageSecurityHeaders(t, login.headers)

  const missing = await signedIn.get('/adviceset/999999/show')
  t.equal(missing.statusCode, 404)
  t.match(missing.headers['content-type'], /text\/html/)
  assertPageSecurityHeaders(t, missing.headers)

  const signedOut = await visitor.get('/library')
  t.equal(signedOut.statusCode, 302, 'a signed-out visitor is sent to sign in …')
  assertPageSecurityHeaders(t, signedOut.headers)

  for (const [who, agent, status] of [['signed out', visitor, 401], ['signed in', signedIn, 200]] as const) {
    const api = await agent.api('GET', '/api/adviceset/stats')
    t.equal(api.statusCode, status, `the API ${who}`)
    t.match(api.headers['content-type'], /application\/json/)
    assertPageSecurityHeaders(t, api.headers)
  }

  const css = await visitor.get('/static/css/app.css')
  t.equal(css.statusCode, 200)
  t.equal(css.headers['x-content-type-options'], 'nosniff')
  t.equal(css.headers['cross-origin-resource-policy'], 'same-origin')
})
