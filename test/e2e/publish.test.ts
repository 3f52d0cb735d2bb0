// In Chromium: an author creates a version and submits it, sees that approving is not theirs to do and why; an admin
// (another user) approves and publishes it, and partners are served it. The publisher pages pass axe.
import t from 'tap'
import type { Browser, Page } from 'playwright-core'
import { startServer, type TestServer } from '../helpers/server.ts'
import { createOwner } from '../helpers/factories.ts'
import { createAdviceSet } from '../helpers/advice-sets.ts'
import { buildRule } from '../helpers/rules.ts'
import { axeViolationsInMain, chromiumMissing, islandsSettled, launchBrowser, newQuietContext, recordConsole, signInByApi } from '../helpers/browser.ts'
import type { TestUser } from '../helpers/factories.ts'
import { servedVersion } from '../../src/services/publishing/versions.ts'

async function signedInPage(t: { teardown(fn: () => unknown): void }, browser: Browser, server: TestServer, user: TestUser): Promise<Page> {
  const context = await newQuietContext(browser)
  t.teardown(() => context.close())
  const page = await context.newPage()
  await signInByApi(page, server.url, user)
  return page
}

t.test('submit, approve as another user, publish', { skip: chromiumMissing }, async (t) => {
  const server = await startServer()
  t.teardown(() => server.close())
  const browser = await launchBrowser(t)
  const ownerId = await createOwner(server.db, { name: 'Pension team' })
  const author = await server.createUser({ role: 'author', ownerId, name: 'Ann Author' })
  const admin = await server.createUser({ role: 'admin', ownerId, name: 'Ada Admin' })
  const set = await createAdviceSet(server.db, { ownerId, name: 'Pensions' })
  await buildRule(server.db, set.id, 'Eligibility', [{ type: 'advice', headline: 'You may retire' }])

  const authorPage = await signedInPage(t, browser, server, author)
  const console = recordConsole(authorPage)
  await authorPage.goto(`${server.url}/adviceset/${set.id}/show`)
  await authorPage.getByRole('link', { name: 'Publish', exact: true }).click()
  await authorPage.waitForURL(`${server.url}/adviceset/${set.id}/publish`)
  t.equal(await islandsSettled(authorPage), 'mounted')
  await authorPage.getByLabel('Notes for the new version').fill('First release')
  await authorPage.getByRole('button', { name: 'Create version' }).click()
  const row = authorPage.locator('tr[data-version-id]').first()
  await row.getByRole('button', { name: 'Submit for review version 1' }).click()
  await authorPage.locator('tr[data-version-id][data-state="review"]').waitFor()
  const approve = authorPage.locator('tr[data-state="review"] button[data-action="approve"]')
  t.ok(await approve.isDisabled(), 'the author cannot approve')
  const reasonId = await approve.getAttribute('aria-describedby')
  t.match(await authorPage.locator(`#${reasonId}`).textContent(), /only an admin/, 'and is told why')
  t.same(await axeViolationsInMain(authorPage), [], 'the versions page passes axe')

  const adminPage = await signedInPage(t, browser, server, admin)
  await adminPage.goto(`${server.url}/adviceset/${set.id}/publish/versions`)
  await adminPage.getByRole('link', { name: 'Version 1' }).click()
  await adminPage.locator('main[data-page="publish-version-show"]').waitFor()
  await adminPage.getByLabel('Comment for Approve').fill('Checked the wording')
  await adminPage.getByRole('button', { name: 'Approve version 1' }).click()
  await adminPage.locator('[data-version-state="approved"]').waitFor()
  t.match(await adminPage.locator('.version-log').textContent(), /Checked the wording/)
  t.same(await axeViolationsInMain(adminPage), [], 'the version page passes axe')
  await adminPage.getByRole('button', { name: 'Publish version 1' }).click()
  await adminPage.locator('[data-version-state="published"]').waitFor()
  t.match(await adminPage.locator('.version-log').textContent(), /Ada Admin/)

  await adminPage.getByRole('link', { name: 'Assign to audiences' }).click()
  await adminPage.getByLabel('Name').fill('Banks')
  await adminPage.getByRole('button', { name: 'Create audience' }).click()
  await adminPage.locator('tr[data-audience-id]').waitFor()
  t.same(await axeViolationsInMain(adminPage), [], 'the assign page passes axe')

  const served = await servedVersion(server.db, set.id, { environment: 'production', audienceId: null })
  t.equal(served?.number, 1, 'partners are served the published version')
  t.same(served?.snapshot.model.rules.map((r) => r.name), ['Eligibility'])

  await authorPage.reload()
  t.equal(await authorPage.locator('dd[data-served="production"]').textContent(), 'Version 1')
  t.same(console.messages.filter((m) => m.type === 'error'), [], 'no console errors')
})
