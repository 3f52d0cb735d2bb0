// Issue 23 defect 11 in Chromium: a team of one submits a version, is told at the gate that nobody else can approve
// it and how to get an approver, allows self-approval on the Team page, approves and publishes; the version says it
// was approved by its submitter. The pages pass axe.
import t from 'tap'
import { startServer } from '../helpers/server.ts'
import { createOwner } from '../helpers/factories.ts'
import { createAdviceSet } from '../helpers/advice-sets.ts'
import { buildRule } from '../helpers/rules.ts'
import { axeViolationsInMain, chromiumMissing, islandsSettled, launchBrowser, newQuietContext, signInByApi } from '../helpers/browser.ts'

t.test('a team of one allows self-approval and publishes', { skip: chromiumMissing }, async (t) => {
  const server = await startServer()
  t.teardown(() => server.close())
  const browser = await launchBrowser(t)
  const ownerId = await createOwner(server.db, { name: 'Solo Advice' })
  const solo = await server.createUser({ role: 'admin', ownerId, name: 'Sam Solo' })
  const set = await createAdviceSet(server.db, { ownerId, name: 'Mortgage affordability' })
  await buildRule(server.db, set.id, 'Afford', [{ type: 'advice', headline: 'Save a deposit first' }])
  const context = await newQuietContext(browser)
  t.teardown(() => context.close())
  const page = await context.newPage()
  await signInByApi(page, server.url, solo)

  await page.goto(`${server.url}/adviceset/${set.id}/publish`)
  t.equal(await islandsSettled(page), 'mounted')
  await page.getByRole('button', { name: 'Create version' }).click()
  await page.getByRole('button', { name: 'Submit for review version 1' }).click()
  await page.locator('tr[data-version-id][data-state="review"]').waitFor()
  await page.getByRole('link', { name: 'Version 1' }).click()
  await page.locator('main[data-page="publish-version-show"]').waitFor()
  const note = page.locator('.gate-approver')
  t.match(await note.textContent(), /Nobody else in Solo Advice can approve this version/, 'the gate says why nobody can approve')
  t.ok(await page.locator('button[data-action="approve"]').isDisabled(), 'approving is not offered')
  t.equal(await note.getByRole('link', { name: 'Invite a colleague as an admin' }).getAttribute('href'), '/user/new', 'it links to inviting a colleague')
  t.same(await axeViolationsInMain(page), [], 'the version page passes axe')

  await note.getByRole('link', { name: 'allow self-approval' }).click()
  await page.locator('main[data-page="user-page"]').waitFor()
  t.match(page.url(), /\/user\/team#publishing$/)
  await page.getByLabel('Allow self-approval: an admin may approve a version they submitted').check()
  await page.getByRole('region', { name: 'Publishing' }).getByRole('button', { name: 'Save' }).click()
  await page.locator('[data-self-approval="true"]').waitFor()
  t.match(await page.locator('[data-self-approval="true"]').textContent(), /Self-approval is allowed since .+ \(by Sam Solo\)/)
  t.same(await axeViolationsInMain(page), [], 'the team page passes axe')

  await page.goto(`${server.url}/adviceset/${set.id}/publish/versions`)
  await page.getByRole('link', { name: 'Version 1' }).click()
  t.match(await page.locator('.gate-approver').textContent(), /This team allows self-approval/)
  await page.getByRole('button', { name: 'Approve version 1' }).click()
  await page.locator('[data-version-state="approved"]').waitFor()
  t.match(await page.locator('[data-self-approved="true"]').textContent(), /Approved by its submitter \(self-approval allowed by Sam Solo on .+\)/, 'the gate says how it was approved')
  t.match(await page.locator('.version-log').textContent(), /Approved by its submitter/, 'and so does its history')
  await page.getByRole('button', { name: 'Publish version 1' }).click()
  await page.locator('[data-version-state="published"]').waitFor()
})
