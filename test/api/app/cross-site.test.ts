// Issue 22 finding 6, defence in depth beside the CSRF token: every state-changing route of the browser app refuses a
// request another site's page sent (its Origin names another origin, or Sec-Fetch-Site says cross-site) with a 403,
// even with a valid session and CSRF token. The app's own pages (BASE_URL's origin, or the origin the request was
// addressed to) and clients that send neither header are let through to the CSRF check. The partner routes, called
// from other sites by design with an API key, keep working cross-site.
import t from 'tap'
import type { FastifyInstance, RouteOptions } from 'fastify'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { createApiKey } from '../../helpers/api-keys.ts'
import { buildPensionSet, createPensionVariables } from '../delivery/advice-api-setup.ts'
import { publishVersion } from '../../helpers/publishing.ts'

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS'])
/** The browser app's state-changing routes: those registered where the session is (the partner routes are not). */
const browserRoutes: Array<{ method: string; url: string }> = []
const { app, database, config } = await buildTestApp(t, {}, {
  onRoute: function (this: FastifyInstance, route: RouteOptions) {
    if (!this.hasRequestDecorator('session')) return
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
      if (!SAFE.has(method)) browserRoutes.push({ method, url: route.url })
    }
  },
})
const db = database.db
const OWN = new URL(config.baseUrl).origin
const ownerId = await createOwner(db)
const admin = await createUser(db, { ownerId, role: 'admin' })
const agent = await signedInAgent(app, admin)
await createPensionVariables(db, ownerId)
const { set } = await buildPensionSet(db, ownerId)
await publishVersion(db, { adviceSetId: set.id })
const { secret } = await createApiKey(db, { ownerId, allowedAdviceSetIds: [set.id], allowedOrigins: ['https://partner.example'], adviceRequests: true })

const concrete = (url: string) => url.replace(/:[A-Za-z]+/g, '1').replace(/\*$/, 'x')

/** A request as the signed-in admin's browser sends it: session cookie, valid CSRF token, and the given headers. */
function fromBrowser(method: string, url: string, headers: Record<string, string>, payload: unknown = {}) {
  return agent.request({
    method, url, payload: JSON.stringify(payload),
    headers: { accept: 'application/json', 'content-type': 'application/json', 'x-csrf-token': agent.csrfToken, ...headers },
  })
}

t.test(`every state-changing route of the browser app refuses another site's request, token or not (${browserRoutes.length} routes)`, async (t) => {
  t.ok(browserRoutes.length > 100, `${browserRoutes.length} routes`)
  const wrong: string[] = []
  const senders: Array<[string, Record<string, string>]> = [
    ['Origin: https://evil.example', { origin: 'https://evil.example' }],
    ['Origin: null from a cross-site page', { origin: 'null', 'sec-fetch-site': 'cross-site' }],
    ['Origin: not an origin', { origin: 'evil' }],
    ['Origin: the app\'s host on another port', { origin: 'http://localhost:3001' }],
    ['Origin: the app\'s host over https', { origin: 'https://localhost:3000' }],
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['both, the origin looking like ours', { origin: OWN, 'sec-fetch-site': 'cross-site' }],
  ]
  for (const route of browserRoutes) {
    for (const [what, headers] of senders) {
      const res = await fromBrowser(route.method, concrete(route.url), headers)
      const message = res.headers['content-type']?.toString().includes('json') ? res.json().error?.message ?? '' : res.body
      if (res.statusCode !== 403 || !/sent from another site/.test(message)) wrong.push(`${route.method} ${route.url} with ${what}: ${res.statusCode} ${message.slice(0, 100)}`)
    }
  }
  t.same(wrong, [], 'all refused with 403 "This change was sent from another site"')
})

t.test('the app\'s own pages, and clients that name no origin, reach the CSRF check as before', async (t) => {
  const ownPage = await fromBrowser('POST', '/api/tags', { origin: OWN, 'sec-fetch-site': 'same-origin' }, { label: 'From our page' })
  t.equal(ownPage.statusCode, 201, 'BASE_URL\'s origin')
  const addressed = await fromBrowser('POST', '/api/tags', { host: 'studio.internal:8443', origin: 'http://studio.internal:8443' }, { label: 'Through another name' })
  t.equal(addressed.statusCode, 201, 'the origin the request was addressed to (Host)')
  const noHeaders = await fromBrowser('POST', '/api/tags', {}, { label: 'From a tool' })
  t.equal(noHeaders.statusCode, 201, 'no Origin, no Sec-Fetch-Site: a tool or an older browser')
  const sameSite = await fromBrowser('POST', '/api/tags', { 'sec-fetch-site': 'same-site' }, { label: 'From a sibling' })
  t.equal(sameSite.statusCode, 201, 'Sec-Fetch-Site: same-site without another Origin')
  const noToken = await agent.request({ method: 'POST', url: '/api/tags', payload: JSON.stringify({ label: 'No token' }), headers: { accept: 'application/json', 'content-type': 'application/json', origin: OWN } })
  t.equal(noToken.statusCode, 403, 'the CSRF token is still required')
  t.match(noToken.json().error.message, /form has expired/)
  // The app's pages are served with Referrer-Policy: no-referrer, so Chromium sends their forms with Origin: null.
  const ownForm = await fromBrowser('POST', '/api/tags', { origin: 'null', 'sec-fetch-site': 'same-origin' }, { label: 'From our form' })
  t.equal(ownForm.statusCode, 201, 'Origin: null with Sec-Fetch-Site: same-origin (the app\'s own form in Chromium)')
  const nullOnly = await fromBrowser('POST', '/api/tags', { origin: 'null' }, { label: 'From a null origin' })
  t.equal(nullOnly.statusCode, 201, 'Origin: null alone names no site: the CSRF token decides')
  const form = await agent.postForm('/logout', {}, { page: '/' })
  t.equal(form.statusCode, 303, 'a form of the app, as a tool sends it without extra headers')
})

t.test('reading is not refused: a GET from another site is a link followed', async (t) => {
  const signedIn = await signedInAgent(app, admin)
  const res = await signedIn.request({ method: 'GET', url: '/library', headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } })
  t.equal(res.statusCode, 200)
})

t.test('partner routes keep working from other sites (Bearer key, no cookie)', async (t) => {
  const partner = { authorization: `Bearer ${secret}`, origin: 'https://partner.example', 'sec-fetch-site': 'cross-site', 'content-type': 'application/json', accept: 'application/json' }
  const advice = await app.inject({ method: 'POST', url: `/api/advice/${set.id}`, headers: partner, payload: JSON.stringify({ inputs: { Age: 40 } }) })
  t.equal(advice.statusCode, 200, 'the Advice API')
  const events = await app.inject({ method: 'POST', url: `/api/advice/${set.id}/events`, headers: partner, payload: JSON.stringify({ events: [{ event: 'question_answered', question: 'Age' }] }) })
  t.equal(events.statusCode, 202, 'the embed\'s interview events')
  const request = await app.inject({ method: 'POST', url: `/api/advice/${set.id}/ai-user-request`, headers: partner, payload: JSON.stringify({ text: 'What about my house?' }) })
  t.equal(request.statusCode, 201, 'the embed\'s requests for advice')
  const preview = await app.inject({ method: 'POST', url: '/api/advice/markdown/preview', headers: partner, payload: JSON.stringify({ markdown: '**Hi**' }) })
  t.equal(preview.statusCode, 200, 'the markdown preview with a key')
  const withSession = await fromBrowser('POST', '/api/advice/markdown/preview', { origin: 'https://evil.example' }, { markdown: '**Hi**' })
  t.equal(withSession.statusCode, 403, 'the markdown preview with the session is the app\'s own: refused from another site')
})
