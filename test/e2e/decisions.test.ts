// In Chromium: the set page leads to its decisions; the list shows the Advice API's answers, a filter narrows it, and
// a record's page shows its inputs and the path to each advice item. Both pages pass axe.
import t from 'tap'
import { startServer } from '../helpers/server.ts'
import { createOwner } from '../helpers/factories.ts'
import { createApiKey } from '../helpers/api-keys.ts'
import { publishVersion } from '../helpers/publishing.ts'
import { axeViolationsInMain, chromiumMissing, launchBrowser, newQuietContext, recordConsole, signInByApi } from '../helpers/browser.ts'
import { buildPensionSet, createPensionVariables, query, RICH_ANSWERS } from '../api/delivery/advice-api-setup.ts'

t.test('find an answer of the Advice API on the decisions page and read its record', { skip: chromiumMissing }, async (t) => {
  const server = await startServer()
  t.teardown(() => server.close())
  const browser = await launchBrowser(t)
  const ownerId = await createOwner(server.db, { name: 'Pension team' })
  const admin = await server.createUser({ role: 'admin', ownerId })
  await createPensionVariables(server.db, ownerId)
  const { set } = await buildPensionSet(server.db, ownerId)
  await publishVersion(server.db, { adviceSetId: set.id })
  const { secret } = await createApiKey(server.db, { ownerId, name: 'Portal' })
  const answers: Array<Record<string, string | number | boolean>> = [RICH_ANSWERS, { Age: 16, Region: 'South' }, { Age: 40 }]
  for (const inputs of answers) {
    const res = await fetch(`${server.url}/api/advice/${set.id}?${query(inputs)}`, { headers: { authorization: `Bearer ${secret}` } })
    t.equal(res.status, 200)
  }
  await server.app.partner.recorder.flush()

  const context = await newQuietContext(browser)
  t.teardown(() => context.close())
  const page = await context.newPage()
  const console = recordConsole(page)
  await signInByApi(page, server.url, admin)
  await page.goto(`${server.url}/adviceset/${set.id}/show`)
  await page.getByRole('link', { name: 'Decisions', exact: true }).click()
  await page.waitForURL(`${server.url}/adviceset/${set.id}/decisions`)
  t.equal(await page.locator('tr[data-decision-id]').count(), 3, 'the three answers')
  t.same(await axeViolationsInMain(page), [], 'the decisions page passes axe')

  await page.getByLabel('Status').selectOption('question')
  await page.getByRole('button', { name: 'Apply filters' }).click()
  await page.waitForURL(/status=question/)
  t.equal(await page.locator('tr[data-decision-id]').count(), 1, 'the one that stopped at a question')
  await page.getByRole('link', { name: 'Clear filters' }).click()
  await page.waitForURL(`${server.url}/adviceset/${set.id}/decisions`)

  await page.locator('tr', { hasText: 'Max out your pension' }).getByRole('link').click()
  await page.locator('main[data-page="decision"]').waitFor()
  await page.locator('.decision-items').getByText('{{Income}} > 50000').waitFor()
  t.equal(await page.getByRole('row', { name: 'Income 60000' }).count(), 1, 'the inputs')
  t.same(await axeViolationsInMain(page), [], 'the record page passes axe')
  t.same(console.messages.filter((m) => m.type === 'error'), [], 'no console errors')
})
