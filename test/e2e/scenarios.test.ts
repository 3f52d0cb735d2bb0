// Issue 14 acceptance in the browser: save a scenario from the debugger; run all with the progress bar; edit the rule
// so a scenario fails and see the failure with what differed on the list and on the scenario's page.
import t from 'tap'
import type { Page } from 'playwright-core'
import { startServer } from '../helpers/server.ts'
import { axeViolationsInMain, chromiumMissing, islandsSettled, launchBrowser, newQuietContext, signInByApi } from '../helpers/browser.ts'
import { retirementSet } from '../helpers/scenarios.ts'
import { findUserById } from '../../src/db/queries/users.ts'
import { actorForUser } from '../../src/services/accounts/users.ts'
import type { Deps } from '../../src/services/context.ts'
import { runScenarios } from '../../src/services/scenarios/runs.ts'
import { createScenario } from '../../src/services/scenarios/scenarios.ts'

t.test('advice scenarios in the browser', { skip: chromiumMissing }, async (t) => {
  const server = await startServer()
  t.teardown(() => server.close())
  const browser = await launchBrowser(t)
  const author = await server.createUser({ role: 'author' })
  const actor = actorForUser((await findUserById(server.db, author.id))!)
  // The services below only touch the database.
  const deps = { db: server.db } as unknown as Deps
  const context = await newQuietContext(browser)
  t.teardown(() => context.close())

  async function open(path: string): Promise<Page> {
    const page = await context.newPage()
    t.teardown(() => page.close())
    await page.goto(`${server.url}${path}`)
    t.equal(await islandsSettled(page), 'mounted', `${path} mounted its islands`)
    return page
  }
  const row = (page: Page, name: string) => page.locator('[data-fragment="scenario-list"] tr[data-scenario-id]').filter({ has: page.getByRole('link', { name, exact: true }) })

  const firstPage = await context.newPage()
  await signInByApi(firstPage, server.url, author)
  await firstPage.close()

  t.test('save a scenario from the debugger', async (t) => {
    const { set, ids } = await retirementSet(server.db, author.ownerId, { name: 'Debugged' })
    const page = await open(`/adviceset/${set.id}/rule/debug`)
    await page.getByLabel('How old are you?').fill('30')
    await page.getByLabel('How much risk do you take?').selectOption('high')
    await page.getByRole('button', { name: 'Run' }).click()
    const save = page.getByRole('link', { name: 'Save as scenario' })
    await save.waitFor()
    await save.click()
    await page.waitForURL(/\/advicescenario\/new\?/)
    t.equal(await islandsSettled(page), 'mounted')
    t.equal(await page.getByLabel('How old are you?').inputValue(), '30', 'the answers are carried over')
    t.ok(await page.locator(`input[name="expected.advice"][value="${ids.shares}"]`).isChecked(), 'the advice the run gave is ticked')
    t.notOk(await page.locator(`input[name="expected.advice"][value="${ids.retire}"]`).isChecked())
    t.equal(await page.getByLabel('Final focus').inputValue(), 'complete')
    await page.getByLabel('Name').fill('Bold from the debugger')
    await page.getByRole('button', { name: 'Save scenario' }).click()
    await page.waitForURL(/\/advicescenario\/\d+\/show$/)
    t.equal(await page.locator('h1').textContent().then((text) => text?.replace(/\s+/g, ' ').trim()), 'Bold from the debugger Not run')
    await page.getByRole('button', { name: 'Run', exact: true }).click()
    await page.waitForURL(/\/show\?run=\d+$/)
    t.equal(await page.locator('.scenario-show').getAttribute('data-status'), 'pass', 'and it passes')
  })

  t.test('run all: the progress bar moves to the end and the list shows every result', async (t) => {
    const { set } = await retirementSet(server.db, author.ownerId, { name: 'Many' })
    const total = 60
    for (let i = 0; i < total; i++) await createScenario(deps, actor, { adviceSetId: set.id, name: `Case ${String(i).padStart(2, '0')}`, inputs: { Age: 20 + i, Risk: i % 2 ? 'high' : 'low' } })
    const page = await open(`/adviceset/${set.id}/advicescenario/index`)
    t.equal(await page.locator('tr[data-status="notRun"]').count(), total)
    // Every value the job's bar takes, recorded by the page itself as it changes.
    await page.evaluate(() => {
      const seen: number[] = []
      ;(window as unknown as { barValues: number[] }).barValues = seen
      new MutationObserver(() => {
        const bar = document.querySelector<HTMLProgressElement>('.jobs-panel .job__bar')
        if (bar && seen.at(-1) !== bar.value) seen.push(bar.value)
      }).observe(document.body, { subtree: true, childList: true, attributes: true })
    })
    await page.getByRole('button', { name: 'Run all' }).click()
    const job = page.locator('.jobs-panel .job[data-job-state="completed"]')
    await job.waitFor()
    t.equal(await job.locator('.job__bar').evaluate((bar: HTMLProgressElement) => `${bar.value}/${bar.max}`), '100/100', 'the bar is full')
    t.equal(await job.locator('.job__text').textContent(), `${total} of ${total} scenarios run · ${total} passed, 0 failed, 0 could not run`)
    await page.locator('.scenario-run-all__status[data-state="done"]').waitFor()
    t.equal(await page.locator('.scenario-run-all__status').textContent(), `Finished: ${total} of ${total} scenarios run · ${total} passed, 0 failed, 0 could not run. The list shows the results.`)
    const values = await page.evaluate(() => (window as unknown as { barValues: number[] }).barValues)
    t.equal(values[0], 0, 'the bar starts empty')
    t.equal(values.at(-1), 100, 'and ends full')
    t.ok(values.every((v, i) => i === 0 || v >= values[i - 1]!), 'never going back')
    t.equal(await page.locator('tr[data-status="pass"]').count(), total, 'the list was reloaded with every status')
    t.match(await page.locator('.scenario-counts').textContent(), `${total} scenarios: ${total} pass`)
    t.same(await axeViolationsInMain(page), [], 'the list with its finished job passes axe')
  })

  t.test('an edit to the rule makes a scenario fail, with what differed on the list and the show page', async (t) => {
    const { set, rule } = await retirementSet(server.db, author.ownerId, { name: 'Edited' })
    await createScenario(deps, actor, { adviceSetId: set.id, name: 'Seventy', inputs: { Age: 70 } })
    await createScenario(deps, actor, { adviceSetId: set.id, name: 'Thirty', inputs: { Age: 30, Risk: 'low' } })
    t.same((await runScenarios(deps, actor, { adviceSetId: set.id, source: 'draft' })).counts, { pass: 2, fail: 0, error: 0 })

    const editor = await open(`/adviceset/${set.id}/rule/${rule.id}/show`)
    await editor.getByRole('tree').getByRole('treeitem').filter({ has: editor.locator('.rule-tree__summary', { hasText: '{{Age}} >= 65' }) }).focus()
    await editor.keyboard.press('F2')
    await editor.locator('.rule-tree__editor input').fill('{{Age}} >= 75')
    const saved = editor.waitForResponse((response) => response.url().includes(`/api/rule/${rule.id}/node/`) && response.request().method() === 'PATCH')
    await editor.locator('.rule-tree__editor input').press('Enter')
    t.equal((await saved).status(), 200, 'the condition is saved')

    const list = await open(`/adviceset/${set.id}/advicescenario/index`)
    await list.getByRole('button', { name: 'Run all' }).click()
    await list.locator('.scenario-run-all__status[data-state="done"]').waitFor()
    t.match(await list.locator('.scenario-run-all__status').textContent(), '2 of 2 scenarios run · 1 passed, 1 failed, 0 could not run')
    t.equal(await row(list, 'Seventy').getAttribute('data-status'), 'fail')
    t.equal(await row(list, 'Thirty').getAttribute('data-status'), 'pass')
    t.equal(await row(list, 'Seventy').locator('.scenario-differences').textContent().then((text) => text?.trim()), 'Missing advice: Retire', 'the list says what differed')
    await list.getByRole('link', { name: 'Failing only (1)' }).click()
    await list.waitForURL(/failing=1/)
    t.equal(await list.locator('[data-fragment="scenario-list"] tr[data-scenario-id]').count(), 1, 'failing only shows it alone')

    await row(list, 'Seventy').getByRole('link', { name: 'Seventy', exact: true }).click()
    await list.waitForURL(/\/show$/)
    t.equal(await list.locator('.scenario-show').getAttribute('data-status'), 'fail')
    t.equal(await list.locator('.scenario-result li').textContent(), 'Missing advice: Retire')
    const different = list.locator('.scenario-compare tr.is-different')
    t.equal(await different.count(), 1, 'one row differs')
    t.equal(await different.locator('th').textContent(), 'Retire')
    t.match(await different.locator('td').allTextContents(), ['Shown', /Not shown/])
    t.equal(await list.locator(`[data-fragment="rule-debug-tree"] [data-node-type="condition"][data-visited="true"] .debug-node-summary`).first().textContent(), '{{Age}} >= 75', 'the trace shows the edited condition')
    t.same(await axeViolationsInMain(list), [], 'the show page passes axe')
    await list.getByRole('link', { name: 'Edit', exact: true }).click()
    await list.waitForURL(/\/edit$/)
    t.same(await axeViolationsInMain(list), [], 'the form passes axe')
  })
})
