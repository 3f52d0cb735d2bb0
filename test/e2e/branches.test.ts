// Issue 14 in Chromium: a large set's branches are generated in the background (the progress bar reaches done and the
// results appear without a reload), another run is cancelled, and after a draft edit the compare page shows the
// changed path. The pages pass axe.
import t from 'tap'
import type { Page } from 'playwright-core'
import { startServer } from '../helpers/server.ts'
import { createOwner } from '../helpers/factories.ts'
import { buildCoverSet, buildWideSet, createBranchVariables } from '../helpers/branch-sets.ts'
import { publishVersion } from '../helpers/publishing.ts'
import { axeViolationsInMain, chromiumMissing, islandsSettled, launchBrowser, newQuietContext, recordConsole, signInByApi } from '../helpers/browser.ts'

t.test('generated branches, background tasks and compare', { skip: chromiumMissing }, async (t) => {
  const server = await startServer()
  t.teardown(() => server.close())
  const browser = await launchBrowser(t)
  const ownerId = await createOwner(server.db, { name: 'Cover team' })
  const author = await server.createUser({ role: 'author', ownerId, name: 'Ann Author' })
  await createBranchVariables(server.db, ownerId)
  // 80 call sites × 25 bands × 2 advice items: 4,052 paths, far more than a request answers at once.
  const wide = await buildWideSet(server.db, ownerId, { calls: 80, bands: 25, name: 'Savings bands' })
  // For the run to cancel: 80 × 100 × 2 paths whose every run walks 8,000 conditions, seconds of work on any machine.
  const huge = await buildWideSet(server.db, ownerId, { calls: 80, bands: 100, name: 'Many savings bands' })
  const cover = await buildCoverSet(server.db, ownerId, 'Cover')

  const context = await newQuietContext(browser)
  t.teardown(() => context.close())
  const page = await context.newPage()
  const console = recordConsole(page)
  await signInByApi(page, server.url, author)

  async function startLargeRun(p: Page, set: { id: number }, paths: string) {
    await p.goto(`${server.url}/adviceset/${set.id}/show`)
    await p.getByRole('link', { name: 'Generate branches' }).click()
    await p.waitForURL(`${server.url}/adviceset/${set.id}/advicescenario/gen-branches`)
    await p.getByText(`This source has ${paths} paths`).waitFor()
    await p.getByLabel('Most paths').fill('20000')
    await p.getByRole('button', { name: 'Generate branches' }).click()
    await p.waitForURL(/\?task=/)
    t.equal(await islandsSettled(p), 'mounted')
    await p.locator('[data-island="task-progress"][data-island-state="mounted"]').waitFor()
  }

  t.test('the progress bar reaches done and the results appear', async (t) => {
    await startLargeRun(page, wide.set, wide.paths.toLocaleString('en-US'))
    await page.evaluate(() => { (window as unknown as { stayed: boolean }).stayed = true })
    const bar = page.locator('.task-progress progress')
    await page.locator('.task-progress[data-task-state="done"]').waitFor({ timeout: 120_000 })
    t.equal(await bar.getAttribute('value'), '4052', 'the bar is full')
    t.equal(await bar.getAttribute('max'), '4052')
    t.match(await page.locator('.task-line').textContent(), 'Done · 4,052 of 4,052 paths')
    const results = page.locator('[data-task-results] [data-fragment="generate-branches-results"]')
    await results.locator('tr[data-branch]').first().waitFor()
    t.equal(await results.locator('tr[data-branch]').count(), 200, 'the first page of the results')
    t.match(await results.locator('[data-count="branches"]').textContent(), '4,052')
    t.equal(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed), true, 'without a reload')
    t.same(await axeViolationsInMain(page), [], 'the page passes axe')
  })

  t.test('another run can be cancelled', async (t) => {
    await startLargeRun(page, huge.set, huge.paths.toLocaleString('en-US'))
    await page.getByRole('button', { name: 'Cancel' }).click()
    await page.locator('.task-progress[data-task-state="cancelled"]').waitFor()
    t.match(await page.locator('.task-line').textContent(), new RegExp(`^Cancelled · [\\d,]+ of ${huge.paths.toLocaleString('en-US')} paths$`))
    t.equal(await page.getByRole('button', { name: 'Cancel' }).count(), 0, 'nothing left to cancel')
    t.equal(await page.locator('[data-task-results] tr[data-branch]').count(), 0, 'no results')
    await page.reload()
    await page.locator('.task-progress[data-task-state="cancelled"]').waitFor()
    t.pass('still cancelled after a reload')
  })

  t.test('after a draft edit the compare page shows the changed path', async (t) => {
    await publishVersion(server.db, { adviceSetId: cover.set.id })
    const coverBase = `${server.url}/adviceset/${cover.set.id}/advicescenario`
    await page.goto(`${server.url}/adviceset/${cover.set.id}/show`)
    // The draft edit, as the rule tree's editor sends it.
    const csrf = await page.locator('meta[name="csrf-token"]').getAttribute('content')
    const senior = cover.conditions.get('{{Age}} >= 65')!
    const edit = await page.request.patch(`${server.url}/api/rule/${cover.rules.gate.id}/node/${senior.id}`, {
      headers: { 'x-csrf-token': csrf!, accept: 'application/json' }, data: { expression: '{{Age}} >= 70' },
    })
    t.equal(edit.status(), 200)
    await page.getByRole('link', { name: 'Compare with published' }).click()
    await page.waitForURL(`${coverBase}/gen-branches/compare`)
    t.match(await page.locator('.compare-summary').textContent(), /^1 changed · 0 added · 0 removed/)
    const row = page.locator('tr[data-change="changed"]')
    t.equal(await row.count(), 1)
    t.match(await row.locator('.branch-when').textContent(), 'Age is at least 70')
    t.match(await row.locator('.branch-before').textContent(), 'Before: Age is at least 65')
    t.equal(await row.locator('.branch-answers div', { hasText: 'Age' }).locator('dd').textContent(), '65')
    t.same(await axeViolationsInMain(page), [], 'the compare page passes axe')
    await page.getByRole('link', { name: 'Summary' }).first().click()
    await page.waitForURL(`${coverBase}/gen-summary`)
    await page.getByRole('heading', { name: 'Questions', exact: true }).waitFor()
    t.same(await axeViolationsInMain(page), [], 'the summary page passes axe')
  })

  t.test('no errors in the console', async (t) => {
    t.same(console.messages.filter((m) => m.type === 'error'), [])
  })
})
