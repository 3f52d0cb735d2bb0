// Issue 23 defect 2: pages and JSON answers are never stored (Back after an edit loads the page again; after sign-out
// a shared browser keeps nothing private), while static assets, uploaded files and the embed's script keep the caching
// their routes chose. Every page route's header is asserted in page-markers.test.ts; here the rest.
import t from 'tap'
import { Readable } from 'node:stream'
import { buildTestApp } from '../../helpers/app.ts'
import { Agent, signedInAgent } from '../../helpers/agent.ts'
import { createUser } from '../../helpers/factories.ts'
import { partnerCall, partnerFixture, RICH_ANSWERS } from '../delivery/advice-api-setup.ts'
import { uploadSupplement } from '../../../src/services/files/uploads.ts'

const ctx = await buildTestApp(t)
const { app } = ctx
const partner = await partnerFixture(ctx)
const author = await createUser(ctx.database.db, { ownerId: partner.ownerId, role: 'author' })
const actor = { userId: author.id, ownerId: author.ownerId, role: author.role, impersonatorId: null }
const image = await uploadSupplement(app.deps, actor, (async function* () {
  yield { kind: 'file' as const, field: 'file', filename: 'dot.gif', stream: Readable.from([Buffer.from('R0lGODlhAQABAAAAACw=', 'base64')]) }
})())

t.test('pages, redirects, errors and the app’s JSON are no-store, signed in or not', async (t) => {
  const visitor = new Agent(app)
  const signedIn = await signedInAgent(app, author)
  const answers = [
    ['sign-in page', await visitor.get('/login'), 200],
    ['redirect to sign in', await visitor.get('/library'), 302],
    ['API without a session', await visitor.api('GET', '/api/adviceset/stats'), 401],
    ['library', await signedIn.get('/library'), 200],
    ['set page', await signedIn.get(`/adviceset/${partner.set.id}/show`), 200],
    ['missing page', await signedIn.get('/adviceset/999999/show'), 404],
    ['API answer', await signedIn.api('GET', `/api/adviceset/${partner.set.id}`), 200],
    ['API write', await signedIn.api('POST', '/api/rule', { adviceSetId: partner.set.id, name: 'Cached?' }), 201],
    ['API refusal', await signedIn.api('POST', '/api/rule', { adviceSetId: partner.set.id }), 400],
  ] as const
  for (const [what, res, status] of answers) {
    t.equal(res.statusCode, status, `${what}: status`)
    t.equal(res.headers['cache-control'], 'no-store', `${what}: no-store`)
  }
})

t.test('the Advice API’s answers are no-store too', async (t) => {
  const call = partnerCall(ctx, partner.production.secret)
  const res = await call({ url: `/api/advice/${partner.set.id}`, body: { inputs: RICH_ANSWERS } })
  t.equal(res.statusCode, 200)
  t.equal(res.headers['cache-control'], 'no-store')
})

t.test('static assets, uploaded files and the embed script keep their own caching', async (t) => {
  const signedIn = await signedInAgent(app, author)
  const css = await signedIn.get('/static/css/app.css')
  t.equal(css.statusCode, 200)
  t.match(css.headers['cache-control'], /max-age=3600/, 'static files are cached for an hour')
  const script = await signedIn.get('/static/embed.js')
  t.equal(script.headers['cache-control'], 'public, max-age=3600', 'partner pages cache the embed script')
  const file = await signedIn.get(`/api/supplements/${image.id}/view`)
  t.equal(file.statusCode, 200)
  t.equal(file.headers['cache-control'], 'private, max-age=3600', 'an uploaded file is kept by the browser alone')
})
