// In Chromium: support finds a user and impersonates them (the banner names both; stop returns to the admin), and
// a job's progress bar on the support page moves and completes; rebuilding the search index runs as a job.
import t from 'tap'
import { startServer } from '../helpers/server.ts'
import { createOwner } from '../helpers/factories.ts'
import { gate } from '../helpers/jobs.ts'
import { axeViolationsInMain, chromiumMissing, islandsSettled, launchBrowser, newQuietContext, signInByApi } from '../helpers/browser.ts'

t.test('support: impersonate and stop; a job’s progress bar moves and completes', { skip: chromiumMissing }, async (t) => {
  const steps = gate()
  const server = await startServer({
    beforeReady: (app) => app.deps.jobs.register('test.steps', async (_payload, { progress }) => {
      await progress(30, 'Halfway there')
      await steps.promise
      await progress(70, 'Nearly done')
      return { ok: true }
    }),
  })
  t.teardown(() => server.close())
  const browser = await launchBrowser(t)
  await createOwner(server.db, { id: 'TF', name: 'Advice Studio' })
  const admin = await server.createUser({ role: 'admin', ownerId: 'TF', name: 'Pat Provider' })
  const acme = await createOwner(server.db, { name: 'Acme Advisers' })
  const author = await server.createUser({ role: 'author', ownerId: acme, name: 'Art Author' })
  const context = await newQuietContext(browser)
  t.teardown(() => context.close())
  const page = await context.newPage()
  await signInByApi(page, server.url, admin)

  await page.goto(`${server.url}/`)
  await page.getByText('Admin', { exact: true }).click()
  await page.getByRole('link', { name: 'Support' }).click()
  await page.getByLabel('Name, e-mail, team or id').fill('Acme')
  await page.getByRole('button', { name: 'Find' }).click()
  await page.locator(`tr[data-user-id="${author.id}"]`).getByRole('link', { name: 'Impersonate' }).click()
  await page.getByRole('button', { name: 'Impersonate Art Author' }).click()
  await page.waitForURL(`${server.url}/`)
  const banner = page.locator('[data-impersonation]')
  t.match(await banner.innerText(), /Pat Provider is impersonating Art Author/)
  await page.goto(`${server.url}/library`)
  t.equal(await banner.count(), 1, 'the banner is on every page')
  t.same(await axeViolationsInMain(page), [])
  await page.getByRole('button', { name: 'Stop impersonating' }).click()
  await page.waitForURL(`${server.url}/admin/support`)
  t.equal(await banner.count(), 0, 'back to the admin')
  await page.getByText('You stopped impersonating; you are yourself again.').waitFor()

  const job = await server.app.deps.jobs.enqueue(server.db, { kind: 'test.steps', ownerId: 'TF', userId: admin.id, subject: 'support', title: 'Step by step', payload: {} })
  const row = page.locator(`[data-job-id="${job.id}"]`)
  await page.goto(`${server.url}/admin/support`)
  t.equal(await islandsSettled(page), 'mounted')
  await page.locator(`[data-job-id="${job.id}"][data-job-state="running"] .job__percent`, { hasText: '30%' }).waitFor()
  t.equal(await row.locator('progress').getAttribute('value'), '30')
  t.same(await axeViolationsInMain(page), [], 'the support page with a running job passes axe')
  steps.open()
  await page.locator(`[data-job-id="${job.id}"][data-job-state="completed"]`).waitFor()
  t.equal(await row.locator('progress').getAttribute('value'), '100', 'the bar moved to the end without a reload')
  t.match(await row.innerText(), /Done/)

  await page.getByRole('button', { name: 'Rebuild the search index' }).click()
  await page.waitForURL(`${server.url}/admin/support`)
  await page.locator('.job', { hasText: 'Rebuild the search index' }).and(page.locator('[data-job-state="completed"]')).waitFor()
})
