// Issue 22 finding 6 in Chromium: what a real browser sends decides the origin guard. The app's own form creates a
// tag (Chromium sends it with Origin: null, the app's pages being no-referrer, and Sec-Fetch-Site: same-origin). The
// same form on another site's page, carrying the signed-in admin's valid CSRF token, is refused with the guard's 403:
// from a page of the same site on another port (the session cookie goes along; Origin names that page) and from
// another site (localhost against 127.0.0.1: Sec-Fetch-Site: cross-site).
import t from 'tap'
import http from 'node:http'
import { eq } from 'drizzle-orm'
import { startServer } from '../helpers/server.ts'
import { createOwner } from '../helpers/factories.ts'
import { chromiumMissing, launchBrowser, newQuietContext, signInByApi } from '../helpers/browser.ts'
import { tags } from '../../src/db/schema/index.ts'

t.test('another site\'s form is refused even with a valid token; the app\'s own form works', { skip: chromiumMissing }, async (t) => {
  const server = await startServer()
  t.teardown(() => server.close())
  const browser = await launchBrowser(t)
  const ownerId = await createOwner(server.db, { name: 'Victims' })
  const admin = await server.createUser({ role: 'admin', ownerId })
  const context = await newQuietContext(browser)
  t.teardown(() => context.close())
  const page = await context.newPage()
  await signInByApi(page, server.url, admin)

  await page.goto(`${server.url}/admin/tag`)
  const token = await page.locator('meta[name="csrf-token"]').getAttribute('content')
  await page.getByLabel('Tag').fill('Made here')
  await page.getByRole('button', { name: 'Create tag' }).click()
  await page.getByText('Made here').first().waitFor()
  t.equal((await server.db.select().from(tags).where(eq(tags.label, 'Made here'))).length, 1, 'the app\'s own form works')

  // The attacker's page: the same form, pointed at the app, with the admin's token, sent on load.
  const attacker = http.createServer((_req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8')
    res.end(`<!doctype html><title>Win a prize</title><form method="post" action="${server.url}/admin/tag">
      <input name="_csrf" value="${token}"><input name="label" value="Planted"><input name="type" value="label">
      </form><script>document.forms[0].submit()</script>`)
  })
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => attacker.close(() => resolve())))
  const port = (attacker.address() as { port: number }).port

  for (const [what, url] of [['the same site on another port', `http://127.0.0.1:${port}/`], ['another site', `http://localhost:${port}/`]] as const) {
    const refused = page.waitForResponse((res) => res.url() === `${server.url}/admin/tag` && res.request().method() === 'POST')
    await page.goto(url)
    const res = await refused
    t.equal(res.status(), 403, `${what}: 403`)
    await page.getByText('This change was sent from another site').waitFor()
    await page.screenshot({ path: `/tmp/22a-cross-site-${what.replace(/\W+/g, '-')}.png` })
  }
  t.equal((await server.db.select().from(tags).where(eq(tags.label, 'Planted'))).length, 0, 'no tag was planted')
})
