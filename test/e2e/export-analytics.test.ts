// In Chromium: an admin downloads the questions export from /admin/export (a real XLSX file), and the set's page
// shows the interview analytics funnel and the completions chart for a set with recorded events.
import t from 'tap'
import { readFileSync } from 'node:fs'
import ExcelJS from 'exceljs'
import { startServer } from '../helpers/server.ts'
import { createOwner } from '../helpers/factories.ts'
import { axeViolationsInMain, chromiumMissing, launchBrowser, newQuietContext, signInByApi } from '../helpers/browser.ts'
import { createAdviceSet } from '../helpers/advice-sets.ts'
import { buildRule, createVariable } from '../helpers/rules.ts'
import { addInterviewEventCounts } from '../../src/db/queries/interview-events.ts'

t.test('export a file; the analytics funnel renders', { skip: chromiumMissing }, async (t) => {
  const server = await startServer()
  t.teardown(() => server.close())
  const browser = await launchBrowser(t)
  const acme = await createOwner(server.db, { name: 'Acme Advisers' })
  const admin = await server.createUser({ role: 'admin', ownerId: acme, name: 'Ann Admin' })
  const set = await createAdviceSet(server.db, { ownerId: acme, name: 'Retirement' })
  await createVariable(server.db, acme, 'Age')
  await buildRule(server.db, set.id, 'Eligibility', [{ type: 'inputRequest', variable: 'Age', question: 'How old are you?' }])
  const today = new Date().toISOString().slice(0, 10)
  await addInterviewEventCounts(server.db, [
    { adviceSetId: set.id, day: today, event: 'started', question: '', count: 12 },
    { adviceSetId: set.id, day: today, event: 'advice_reached', question: '', count: 7 },
    { adviceSetId: set.id, day: today, event: 'question_shown', question: 'Age', count: 12 },
    { adviceSetId: set.id, day: today, event: 'question_answered', question: 'Age', count: 9 },
    { adviceSetId: set.id, day: today, event: 'abandoned', question: 'Age', count: 3 },
  ])
  const context = await newQuietContext(browser, { acceptDownloads: true })
  t.teardown(() => context.close())
  const page = await context.newPage()
  await signInByApi(page, server.url, admin)

  await page.goto(`${server.url}/admin/export`)
  t.same(await axeViolationsInMain(page), [], 'the export page passes axe')
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.locator('[data-export="questions"]').getByRole('link', { name: 'Download XLSX' }).click(),
  ])
  t.match(download.suggestedFilename(), /^questions-.*\.xlsx$/)
  const workbook = new ExcelJS.Workbook()
  await workbook.xlsx.load(readFileSync((await download.path())!) as unknown as ArrayBuffer)
  const sheet = workbook.getWorksheet('Questions')!
  t.equal(sheet.getRow(2).getCell(6).value, 'How old are you?', 'the downloaded workbook holds the question')

  await page.goto(`${server.url}/adviceset/${set.id}/show`)
  const funnel = page.locator('[data-funnel] tr[data-question="Age"]')
  await funnel.waitFor()
  t.equal(await funnel.locator('td').nth(0).innerText(), '12')
  t.equal(await funnel.locator('td').nth(1).innerText(), '9')
  t.equal(await funnel.locator('td').nth(2).innerText(), '3')
  t.equal(await page.locator('[data-total="completed"]').innerText(), '7')
  t.equal(await page.locator(`.analytics-chart rect[data-day="${today}"]`).getAttribute('data-value'), '7', 'today’s bar')
  t.ok(Number(await page.locator(`.analytics-chart rect[data-day="${today}"]`).getAttribute('height')) > 0)
  await page.getByRole('link', { name: '5 days', exact: true }).click()
  await page.waitForURL(/days=5/)
  t.equal(await page.locator('.analytics-chart rect').count(), 5, 'one bar a day')
  t.same(await axeViolationsInMain(page), [], 'the set page with analytics passes axe')
})
