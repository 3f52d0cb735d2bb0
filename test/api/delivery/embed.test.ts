// Issue 7 point 5: the embed page (/adviceset/{id}/embed) by key, origin and set; its frame policy; the author's
// page with the snippet and the draft preview; static/embed.js for partner pages on other origins.
import t from 'tap'
import { buildTestApp } from '../../helpers/app.ts'
import { Agent, signedInAgent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { buildRule, createVariable } from '../../helpers/rules.ts'
import { createApiKey } from '../../helpers/api-keys.ts'
import { publishVersion } from '../../helpers/publishing.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const ownerId = await createOwner(db, { name: 'Partner Bank' })
const author = await createUser(db, { ownerId, role: 'author' })
const stranger = await createUser(db, { role: 'author' })
const authorAgent = await signedInAgent(app, author)
const strangerAgent = await signedInAgent(app, stranger)

const PARTNER = 'https://partner.example'
const set = await createAdviceSet(db, { ownerId, name: 'Savings check' })
await createVariable(db, ownerId, 'Age')
await buildRule(db, set.id, 'Main', [{ type: 'inputRequest', variable: 'Age', question: 'How old are you?' }])
await publishVersion(db, { adviceSetId: set.id })
const unpublished = await createAdviceSet(db, { ownerId, name: 'Not yet' })
const { secret: key } = await createApiKey(db, { ownerId, allowedOrigins: [`${PARTNER}/`, 'https://second.example'] })

const embedUrl = (id: number, secret: string) => `/adviceset/${id}/embed?key=${encodeURIComponent(secret)}`
const visit = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers: { accept: 'text/html', ...headers } })
const frameAncestors = (csp: unknown) => /frame-ancestors ([^;]*)/.exec(String(csp))?.[1]
const propsOf = (html: string) => JSON.parse((/data-island="interview" data-props="([^"]*)"/.exec(html)?.[1] ?? '{}').replace(/&quot;/g, '"').replace(/&amp;/g, '&'))

t.test('a key with allowed origins opens the light interview page, framable only by those origins', async (t) => {
  const res = await visit(embedUrl(set.id, key))
  t.equal(res.statusCode, 200)
  t.match(res.body, '<main data-page="rule-set-embed" class="embed-main">')
  t.match(res.body, '<h1 class="embed-title">Savings check</h1>')
  t.equal(frameAncestors(res.headers['content-security-policy']), `${PARTNER} https://second.example`, 'the key\'s origins, normalised')
  t.match(res.headers['content-security-policy'], "script-src 'self'")
  t.equal(res.headers['x-frame-options'], undefined, 'no X-Frame-Options to contradict frame-ancestors')
  t.match(res.body, '<script type="module" src="/static/build/interview.js"></script>')
  t.notMatch(res.body, 'loader.js', 'not the app\'s loader')
  t.notMatch(res.body, /search|topbar|<header/i, 'no app header or search')
  t.notMatch(res.body, 'embed-note', 'production keys see no preview note')
  t.same(propsOf(res.body), { adviceSetId: set.id, source: { kind: 'key', key }, parentOrigins: [PARTNER, 'https://second.example'], askUs: false })
})

t.test('the framing page named in the Referer must be one of the key\'s origins', async (t) => {
  const allowed = await visit(embedUrl(set.id, key), { referer: `${PARTNER}/products/savings?x=1` })
  t.equal(allowed.statusCode, 200)
  t.same(propsOf(allowed.body).parentOrigins, [PARTNER], 'the height goes to the framing page only')
  const other = await visit(embedUrl(set.id, key), { referer: 'https://evil.example/page' })
  t.equal(other.statusCode, 403)
  t.match(other.body, 'https://evil.example is not among the origins this API key may be embedded in.')
  t.equal(frameAncestors(other.headers['content-security-policy']), "'none'", 'the refusal itself cannot be framed')
})

t.test('keys that may not embed this set are refused', async (t) => {
  const { secret: noOrigins } = await createApiKey(db, { ownerId })
  const bare = await visit(embedUrl(set.id, noOrigins))
  t.equal(bare.statusCode, 403, 'a key without allowed origins cannot embed at all')
  t.match(bare.body, 'has no allowed origins')
  t.equal(frameAncestors(bare.headers['content-security-policy']), "'none'")

  const other = await createAdviceSet(db, { ownerId })
  await publishVersion(db, { adviceSetId: other.id })
  const { secret: narrow } = await createApiKey(db, { ownerId, allowedOrigins: [PARTNER], allowedAdviceSetIds: [other.id] })
  t.equal((await visit(embedUrl(set.id, narrow))).statusCode, 404, 'a key not allowing the set gets 404')
  t.equal((await visit(embedUrl(other.id, narrow))).statusCode, 200, 'and the set it allows')

  const notPublished = await visit(embedUrl(unpublished.id, key))
  t.equal(notPublished.statusCode, 404, 'an unpublished set')
  t.match(notPublished.body, '<main data-page="rule-set-embed" class="embed-main">', 'said in the light page')
  t.match(notPublished.body, 'This advice is not available: the advice set is not published for this API key.')
  t.notMatch(notPublished.body, /loader\.js|interview\.js/)
  t.equal(frameAncestors(notPublished.headers['content-security-policy']), `${PARTNER} https://second.example`, 'inside the partner\'s frame')
  t.equal((await visit(embedUrl(999999, key))).statusCode, 404, 'an unknown set')
  const { secret: preview } = await createApiKey(db, { ownerId, environment: 'preview', allowedOrigins: [PARTNER] })
  await publishVersion(db, { adviceSetId: unpublished.id, environment: 'preview' })
  const previewPage = await visit(embedUrl(unpublished.id, preview))
  t.equal(previewPage.statusCode, 200, 'a preview key gets the preview version')
  t.match(previewPage.body, '<p class="embed-note">Preview version: partners with production keys see the published version.</p>')
  t.equal((await visit(embedUrl(unpublished.id, key))).statusCode, 404, 'a production key does not')

  const outsider = await createOwner(db)
  const { secret: foreign } = await createApiKey(db, { ownerId: outsider, allowedOrigins: [PARTNER] })
  t.equal((await visit(embedUrl(set.id, foreign))).statusCode, 404, 'another owner\'s key, for a private set')

  const unknown = await visit(embedUrl(set.id, 'as_live_00000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'))
  t.equal(unknown.statusCode, 401)
  t.match(unknown.body, 'The API key is unknown or has been deleted.')
  t.equal(frameAncestors(unknown.headers['content-security-policy']), "'none'", 'no frame shows what an unknown key gets')
  t.equal((await visit(embedUrl(set.id, 'not-a-key'))).statusCode, 401)
  const badQuery = await visit(`/adviceset/${set.id}/embed?key=${key}&debug=1`)
  t.equal(badQuery.statusCode, 400, 'unknown query parameters are refused')
  t.equal(frameAncestors(badQuery.headers['content-security-policy']), "'none'", 'and the refusal cannot be framed')
  t.equal((await visit(`/adviceset/abc/embed?key=${key}`)).statusCode, 400, 'a bad id')
})

t.test('without a key, signed-in readers get the snippet and a live preview of the working draft', async (t) => {
  const res = await authorAgent.get(`/adviceset/${set.id}/embed`)
  t.equal(res.statusCode, 200)
  t.match(res.body, '<main data-page="rule-set-embed">')
  t.match(res.body, `&lt;script src=&quot;http://localhost:3000/static/embed.js&quot; data-advice-set=&quot;${set.id}&quot; data-key=&quot;YOUR_API_KEY&quot; async&gt;&lt;/script&gt;`, 'the snippet to copy, escaped')
  t.match(res.body, 'allowed origins')
  t.match(res.body, `<script src="/static/embed.js" data-advice-set="${set.id}" data-preview="draft"></script>`, 'the live preview')
  t.match(res.body, 'The working draft, as you have it now; partners see the published version.')
  t.equal(frameAncestors(res.headers['content-security-policy']), "'self'")

  const preview = await authorAgent.get(`/adviceset/${set.id}/embed?preview=draft`)
  t.equal(preview.statusCode, 200)
  t.match(preview.body, 'Preview of the working draft: partners see the published version.')
  t.equal(frameAncestors(preview.headers['content-security-policy']), "'self'", 'only the studio frames the preview')
  const props = propsOf(preview.body)
  t.equal(props.source.kind, 'draft')
  t.type(props.source.csrfToken, 'string')
  t.same(props.parentOrigins, [])

  const unpublishedPreview = await authorAgent.get(`/adviceset/${unpublished.id}/embed`)
  t.equal(unpublishedPreview.statusCode, 200, 'an unpublished set can be tried out too')

  t.equal((await strangerAgent.get(`/adviceset/${set.id}/embed`)).statusCode, 404, 'readers only')
  t.equal((await strangerAgent.get(`/adviceset/${set.id}/embed?preview=draft`)).statusCode, 404)
  const visitor = await new Agent(app).get(`/adviceset/${set.id}/embed`)
  t.equal(visitor.statusCode, 302, 'visitors are sent to sign in')
  t.match(visitor.headers.location, /^\/login\?next=/)
})

t.test('the advice set page links to the embed page', async (t) => {
  const res = await authorAgent.get(`/adviceset/${set.id}/show`)
  t.match(res.body, `<a href="/adviceset/${set.id}/embed">Embed</a>`)
})

t.test('static/embed.js may be loaded by pages on other origins', async (t) => {
  const res = await visit('/static/embed.js')
  t.equal(res.statusCode, 200)
  t.match(res.headers['content-type'], /^text\/javascript/)
  t.equal(res.headers['cross-origin-resource-policy'], 'cross-origin')
  t.match(res.body, 'advicestudio:resize')
  const other = await visit('/static/favicon.svg')
  t.equal(other.headers['cross-origin-resource-policy'], 'same-origin', 'other static files keep the same-origin policy')
})
