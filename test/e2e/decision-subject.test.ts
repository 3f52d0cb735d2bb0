// Issue 26 in Chromium: an admin marks a variable "Personal data" in the dictionary editor, makes the team's decision
// records durable on the Team page, and after two answers with one income finds that person's two records on the
// subject page. The pages pass axe. SCREENSHOT_DIR=<dir> keeps pictures of the team page section and the subject page.
import t from 'tap'
import { and, eq } from 'drizzle-orm'
import { entities } from '../../src/db/schema/index.ts'
import { startServer } from '../helpers/server.ts'
import { createOwner } from '../helpers/factories.ts'
import { createApiKey } from '../helpers/api-keys.ts'
import { publishVersion } from '../helpers/publishing.ts'
import { axeViolationsInMain, chromiumMissing, islandsSettled, launchBrowser, newQuietContext, signInByApi } from '../helpers/browser.ts'
import { buildPensionSet, createPensionVariables, query, RICH_ANSWERS } from '../api/delivery/advice-api-setup.ts'

const SCREENSHOTS = process.env.SCREENSHOT_DIR

t.test('personal variable, durable records, a person’s records found', { skip: chromiumMissing }, async (t) => {
  const server = await startServer()
  t.teardown(() => server.close())
  const browser = await launchBrowser(t)
  const ownerId = await createOwner(server.db, { name: 'Pension Partners' })
  const admin = await server.createUser({ role: 'admin', ownerId, name: 'Ada Admin' })
  await createPensionVariables(server.db, ownerId)
  const { set } = await buildPensionSet(server.db, ownerId)
  await publishVersion(server.db, { adviceSetId: set.id })
  const { secret } = await createApiKey(server.db, { ownerId, name: 'Production' })
  const [income] = await server.db.select().from(entities).where(and(eq(entities.ownerId, ownerId), eq(entities.reservedName, 'Income')))
  const context = await newQuietContext(browser, { viewport: { width: 1200, height: 900 } })
  t.teardown(() => context.close())
  const page = await context.newPage()
  await signInByApi(page, server.url, admin)

  await page.goto(`${server.url}/card/variable/${income!.id}/edit`)
  t.equal(await islandsSettled(page), 'mounted')
  await page.getByLabel('Personal data').check()
  if (SCREENSHOTS) await page.locator('main').screenshot({ path: `${SCREENSHOTS}/variable-personal-data.png` })
  const saved = page.waitForResponse((res) => res.url().endsWith(`/api/entity/${income!.id}`) && res.request().method() === 'PATCH')
  await page.getByRole('button', { name: 'Save' }).click()
  t.equal((await saved).status(), 200, 'the editor saves the flag')
  const [after] = await server.db.select().from(entities).where(eq(entities.id, income!.id))
  t.equal(after!.personal, true)

  await page.goto(`${server.url}/user/team`)
  t.equal(await islandsSettled(page), 'mounted')
  const section = page.locator('#decision-records')
  await section.locator('input[name="decisionMode"][value="durable"]').check()
  await section.getByLabel('Keep records for N days').fill('90')
  await section.getByRole('button', { name: 'Save' }).click()
  await page.locator('[data-decision-mode="durable"]').waitFor()
  t.match(await section.locator('.team-setting').first().textContent(), /Decision records: Durable, kept for 90 days/)
  t.same(await axeViolationsInMain(page), [], 'the team page passes axe')
  if (SCREENSHOTS) await section.screenshot({ path: `${SCREENSHOTS}/team-decision-records.png` })

  for (const income of [73519, 73519, 42000]) {
    const res = await fetch(`${server.url}/api/advice/${set.id}?${query({ ...RICH_ANSWERS, Income: income })}`, { headers: { authorization: `Bearer ${secret}` } })
    t.equal(res.status, 200)
    t.ok(res.headers.get('decision-id'), 'recorded')
  }

  await section.getByRole('link', { name: 'find a person’s decision records' }).click()
  await page.locator('main[data-page="admin-decisions-subject"]').waitFor()
  t.equal(await islandsSettled(page), 'mounted')
  await page.getByLabel('Personal variable').selectOption('Income')
  await page.getByLabel('Value').fill('73519')
  await page.getByRole('button', { name: 'Find' }).click()
  await page.locator('[data-found="2"]').waitFor()
  t.equal(await page.locator('tr[data-decision]').count(), 2, 'two records listed')
  t.match(await page.locator('tr[data-decision]').first().textContent(), /Pension check.*Version 1.*Complete.*Open record/s)
  t.same(await axeViolationsInMain(page), [], 'the subject page passes axe')
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/decisions-subject.png`, fullPage: true })

  await page.getByRole('button', { name: 'Erase…' }).click()
  await page.locator('[data-erase-count="2"]').waitFor()
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/decisions-subject-erase.png`, fullPage: true })
  await page.getByRole('button', { name: 'Erase 2 records' }).click()
  await page.getByText('2 decision records erased where {{Income}} held the value given.').waitFor()
})
