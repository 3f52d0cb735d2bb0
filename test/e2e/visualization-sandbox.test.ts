// A script in an uploaded HTML visualization cannot read the app's cookies or use the session (issue 15 acceptance):
// the visualization's page of the app frames it from /visualizations/{id}/iframe, served with `Content-Security-Policy:
// sandbox allow-scripts`, so it runs in an opaque origin. Its script tries document.cookie, a credentialed GET and
// POST to /api, and reaching into the parent page, and reports each outcome to the page through postMessage; the
// server records whether those requests carried the session.
import t from 'tap'
import { startServer } from '../helpers/server.ts'
import { chromiumMissing, launchBrowser, islandsSettled, newQuietContext, signInByApi } from '../helpers/browser.ts'

const ATTACK = `<!doctype html><html><body><p>Chart</p><script>
(async () => {
  const report = {}
  try { report.cookie = 'read: ' + document.cookie } catch (e) { report.cookie = 'refused: ' + e.name }
  try { report.storage = 'read: ' + localStorage.length } catch (e) { report.storage = 'refused: ' + e.name }
  try { report.parent = 'read: ' + parent.document.cookie } catch (e) { report.parent = 'refused: ' + e.name }
  try {
    const res = await fetch('/api/supplements?q=probe-get', { credentials: 'include' })
    report.get = 'answered ' + res.status + ': ' + (await res.text()).slice(0, 80)
  } catch (e) { report.get = 'failed: ' + e.name }
  try {
    const res = await fetch('/api/supplements?probe=post', { method: 'POST', credentials: 'include', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: 'https://evil.example/' }) })
    report.post = 'answered ' + res.status
  } catch (e) { report.post = 'failed: ' + e.name }
  parent.postMessage({ type: 'viz-report', report }, '*')
})()
</script></body></html>`

t.test('an uploaded visualization runs sandboxed', { skip: chromiumMissing, timeout: 120_000 }, async (t) => {
  const seen: Array<{ url: string; method: string; session: boolean }> = []
  const server = await startServer({
    beforeReady: (app) => app.addHook('onRequest', async (request) => {
      if (request.url.includes('probe')) seen.push({ url: request.url, method: request.method, session: /(^|;\s*)sid=/.test(request.headers.cookie ?? '') })
    }),
  })
  t.teardown(() => server.close())
  const browser = await launchBrowser(t)
  const author = await server.createUser({ role: 'author' })
  const context = await newQuietContext(browser)
  t.teardown(() => context.close())
  const page = await context.newPage()
  await signInByApi(page, server.url, author)

  // Uploaded through the real uploader on /visualizations/new.
  await page.goto(`${server.url}/visualizations/new`)
  t.equal(await islandsSettled(page), 'mounted')
  await page.locator('input[type="file"]').setInputFiles({ name: 'savings.html', mimeType: 'text/html', buffer: Buffer.from(ATTACK) })
  await page.locator('.file-uploader__file[data-file-state="saved"]').waitFor()
  const href = await page.locator('.file-uploader__file a').getAttribute('href')
  t.match(href, /^\/visualizations\/\d+\/show$/)

  const sessionCookie = (await context.cookies()).find((c) => c.name === 'sid')
  t.ok(sessionCookie?.httpOnly, 'the session cookie is HttpOnly anyway')
  // Readable cookies would be stolen if the frame shared the app's origin: give the page one to guard.
  await context.addCookies([{ name: 'app_pref', value: 'secret-value', url: server.url }])

  await page.addInitScript(() => {
    window.addEventListener('message', (event) => {
      if ((event.data as { type?: string })?.type === 'viz-report') (window as unknown as { vizReport: unknown }).vizReport = (event.data as { report: unknown }).report
    })
  })
  await page.goto(`${server.url}${href}`)
  const frame = page.locator('iframe.media-preview__frame')
  t.equal(await frame.getAttribute('sandbox'), 'allow-scripts')
  await page.waitForFunction(() => (window as unknown as { vizReport?: unknown }).vizReport !== undefined)
  const report = await page.evaluate(() => (window as unknown as { vizReport: Record<string, string> }).vizReport)
  t.comment(JSON.stringify(report))
  t.match(report.cookie, /^refused: SecurityError/, 'document.cookie is refused in the sandbox')
  t.match(report.storage, /^refused: SecurityError/, 'so is the app origin’s storage')
  t.match(report.parent, /^refused: SecurityError/, 'and the parent page')
  t.match(report.get, /^failed: TypeError/, 'a credentialed GET to /api gives the script nothing')
  t.match(report.post, /^failed: TypeError/, 'and a POST is refused before anything is answered')
  t.notOk(seen.some((r) => r.session), `no request from the frame carried the session: ${JSON.stringify(seen)}`)
  const created = await page.request.get(`${server.url}/api/supplements?q=evil`, { headers: { accept: 'application/json' } })
  t.same((await created.json()).data, [], 'nothing was created')

  const frameHandle = await (await frame.elementHandle())!.contentFrame()
  t.equal(await frameHandle!.evaluate(() => self.origin), 'null', 'the frame’s origin is opaque')
})
