// GET /api/opengraph?url=: a link's preview from the page's OpenGraph and meta tags, fetched through src/net.
import t from 'tap'
import { buildTestApp } from '../../helpers/app.ts'
import { Agent, signedInAgent } from '../../helpers/agent.ts'
import { createUser } from '../../helpers/factories.ts'
import { startLocalServer } from '../../helpers/outbound.ts'
import { previewOfHtml } from '../../../src/services/integrations/opengraph.ts'

const PAGE = `<!doctype html><html><head>
  <title>  Fallback   title </title>
  <meta property="og:title" content="Pension basics &amp; more">
  <meta property="og:description" content="What to know before you retire.">
  <meta property="og:image" content="/img/cover.png">
  <meta property="og:image" content="/img/second.png">
  <meta property="og:site_name" content="Example Advice">
  <script>document.write('<meta property="og:title" content="from script">'); window.hacked = true</script>
</head><body><meta property="og:description" content="in the body, never read"></body></html>`

const site = await startLocalServer(t, (req, res) => {
  if (req.url === '/page') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE)
  else if (req.url === '/plain') res.writeHead(200, { 'content-type': 'text/html' }).end('<html><head><title>Just a title</title><meta name="description" content="Meta description"></head></html>')
  else if (req.url === '/moved') res.writeHead(301, { location: '/page' }).end()
  else if (req.url === '/pdf') res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.4')
  else if (req.url === '/escape') res.writeHead(302, { location: `http://127.0.0.1:${other.port}/` }).end()
  else res.writeHead(404).end()
})
const other = await startLocalServer(t, (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<title>internal</title>'))
const { app, database } = await buildTestApp(t, { OUTBOUND_ALLOW: `127.0.0.1:${site.port}` })
const user = await createUser(database.db, { role: 'viewer' })
const agent = await signedInAgent(app, user)

const preview = (url: string) => agent.api('GET', `/api/opengraph?url=${encodeURIComponent(url)}`, undefined, { csrf: false })

t.test('OpenGraph tags of the head, the first of repeated ones, image made absolute; scripts are not run', async (t) => {
  const res = await preview(`${site.url}/page`)
  t.equal(res.statusCode, 200)
  t.same(res.json(), {
    data: {
      url: `${site.url}/page`, title: 'Pension basics & more', description: 'What to know before you retire.',
      image: `${site.url}/img/cover.png`, siteName: 'Example Advice',
    },
  })
})

t.test('without OpenGraph tags: the title and the meta description; redirects are followed', async (t) => {
  t.same((await preview(`${site.url}/plain`)).json().data, { url: `${site.url}/plain`, title: 'Just a title', description: 'Meta description', image: null, siteName: null })
  t.equal((await preview(`${site.url}/moved`)).json().data.title, 'Pension basics & more')
  t.same((await preview(`${site.url}/pdf`)).json().data, { url: `${site.url}/pdf`, title: null, description: null, image: null, siteName: null }, 'not a page: nothing to read')
})

t.test('loopback and private addresses are refused naming the field; so is a redirect to them', async (t) => {
  // IPv6 forms carrying 127.0.0.1 (issue 22): IPv4-compatible, IPv4-mapped, NAT64, 6to4, Teredo.
  const carried = ['::127.0.0.1', '::7f00:1', '::ffff:127.0.0.1', '64:ff9b::127.0.0.1', '64:ff9b:1::7f00:1', '2002:7f00:1::1', '2001:0:7f00:1::1']
  for (const url of [
    `http://127.0.0.1:${other.port}/`, `http://localhost:${other.port}/`, 'http://[::1]/', 'http://2130706433/', 'http://10.0.0.1/', 'http://169.254.169.254/',
    ...carried.map((address) => `http://[${address}]:${other.port}/`),
  ]) {
    const res = await preview(url)
    t.equal(res.statusCode, 400, url)
    t.equal(res.json().error.field, 'url')
    t.match(res.json().error.message, /^url: Requests to .* addresses are not allowed/)
  }
  const escaped = await preview(`${site.url}/escape`)
  t.equal(escaped.statusCode, 400)
  t.equal(other.requests.length, 0, 'the unlisted server was never reached')
  const bad = await preview('javascript:alert(1)')
  t.equal(bad.statusCode, 400)
  t.match(bad.json().error.message, /^url: Only http and https/)
})

t.test('a page that fails answers 502 with the reason; a missing url is named', async (t) => {
  const res = await preview(`${site.url}/missing`)
  t.equal(res.statusCode, 502)
  t.equal(res.json().error.message, 'The page answered with status 404.')
  const none = await agent.api('GET', '/api/opengraph', undefined, { csrf: false })
  t.equal(none.statusCode, 400)
  t.match(none.json().error.message, /url/)
})

t.test('signed-out visitors get 401', async (t) => {
  t.equal((await new Agent(app).api('GET', `/api/opengraph?url=${encodeURIComponent(`${site.url}/page`)}`, undefined, { csrf: false })).statusCode, 401)
})

t.test('the extractor reads markup only: javascript: images are dropped, texts are trimmed and capped', async (t) => {
  const html = `<head><meta property="og:image" content="javascript:alert(1)"><meta name="twitter:title" content="${'x'.repeat(600)}"></head>`
  const found = previewOfHtml(html, 'https://example.org/a')
  t.equal(found.image, null)
  t.equal(found.title?.length, 500)
})
