// Issue 5 acceptance: "debug the rule with inputs and see the visited path highlighted" — with the rule-debug island
// (no reload) and without JavaScript (the form's round trip).
import t, { type Test } from 'tap'
import type { Page } from 'playwright-core'
import { startServer } from '../helpers/server.ts'
import { chromiumMissing, islandsSettled, launchBrowser, newQuietContext, signInByApi } from '../helpers/browser.ts'
import { createAdviceSet } from '../helpers/advice-sets.ts'
import { buildRule, createVariable } from '../helpers/rules.ts'

const VISITED_BACKGROUND = 'rgb(232, 241, 255)'

t.test('rule debug page', { skip: chromiumMissing }, async (t) => {
  const server = await startServer()
  t.teardown(() => server.close())
  const browser = await launchBrowser(t)
  const author = await server.createUser({ role: 'author' })
  const set = await createAdviceSet(server.db, { ownerId: author.ownerId, name: 'Tax set' })
  await createVariable(server.db, author.ownerId, 'Income', { dataType: 'number' })
  const { rule, nodes } = await buildRule(server.db, set.id, 'Tax', [
    { type: 'inputRequest', variable: 'Income', question: 'What is your income?' },
    { type: 'condition', expression: '{{Income}} > 1000', children: [
      { type: 'variableAssignment', expression: '{{Tax}} = {{Income}} * 0.2' },
      { type: 'advice', headline: 'Tax is {{Tax}}' },
    ] },
    { type: 'condition', expression: '{{Income}} <= 1000', children: [{ type: 'advice', headline: 'No tax' }] },
  ])
  const id = (i: number) => String(nodes[i]!.id)
  const richPath = [id(0), id(1), id(2), id(3), id(4)].sort()
  const poorPath = [id(0), id(1), id(4), id(5)].sort()
  const url = `${server.url}/adviceset/${set.id}/rule/debug?ruleId=${rule.id}`

  const visitedIds = async (page: Page) =>
    (await page.locator('[data-fragment="rule-debug-tree"] [data-visited="true"]').evaluateAll((els) => els.map((el) => el.getAttribute('data-node-id') ?? ''))).sort()
  const rowBackground = (page: Page, nodeId: string) =>
    page.locator(`[data-node-id="${nodeId}"] > .debug-node-row`).evaluate((el) => getComputedStyle(el).backgroundColor)
  const advice = (page: Page) => page.locator('.debug-results .debug-advice .debug-headline')
  const headlines = async (page: Page) => (await advice(page).allTextContents()).map((text) => text.trim())

  /** The debug page in a context of its own, signed in as the author. */
  async function debugPage(t: Test, options: { javaScriptEnabled?: boolean } = {}): Promise<Page> {
    const context = await newQuietContext(browser, options)
    t.teardown(() => context.close())
    const page = await context.newPage()
    await signInByApi(page, server.url, author)
    await page.goto(url)
    return page
  }

  t.test('with the island: type, run, and the path lights up without a reload', async (t) => {
    const page = await debugPage(t)
    t.equal(await islandsSettled(page), 'mounted')
    t.equal(await page.locator('[data-island="rule-debug"]').getAttribute('data-island-state'), 'mounted')
    t.equal(await page.locator('[data-fragment="rule-debug-tree"] [data-node-id]').count(), nodes.length, 'the island shows the tree')
    t.same(await visitedIds(page), [], 'nothing is painted before a run')
    await page.evaluate(() => { (window as unknown as { stayed: boolean }).stayed = true })

    await page.getByLabel('What is your income?').fill('2000')
    await page.getByRole('button', { name: 'Run' }).click()
    await page.locator('[data-fragment="rule-debug-tree"][data-ran="true"]').waitFor()
    await advice(page).first().waitFor()
    t.same(await headlines(page), ['Tax is 400'], 'the advice is shown')
    t.same(await visitedIds(page), richPath, 'exactly the visited nodes are highlighted')
    t.equal(await rowBackground(page, id(2)), VISITED_BACKGROUND, 'visited rows are painted')
    t.not(await rowBackground(page, id(5)), VISITED_BACKGROUND, 'the others are not')
    t.equal(await page.locator(`[data-node-id="${id(1)}"] > .debug-node-row .debug-node-value`).textContent(), '= true', 'the condition shows its value')
    t.equal(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed), true, 'the page did not reload')
    t.match(page.url(), /run=1/, 'the address is the run\'s permalink')

    await page.getByLabel('What is your income?').fill('10')
    await page.getByRole('button', { name: 'Run' }).click()
    await advice(page).filter({ hasText: 'No tax' }).waitFor()
    t.same(await visitedIds(page), poorPath, 'another answer paints another path')

    await page.reload()
    t.equal(await islandsSettled(page), 'mounted')
    t.same(await visitedIds(page), poorPath, 'the permalink shows the same run after a reload')
    t.same(await headlines(page), ['No tax'])
    t.equal(await page.getByLabel('What is your income?').inputValue(), '10', 'with the answer kept in the form')
  })

  t.test('"Advice not given": the failing condition, the nearest answers, one click and the advice is given', async (t) => {
    const page = await debugPage(t)
    t.equal(await islandsSettled(page), 'mounted')
    await page.getByLabel('What is your income?').fill('300')
    await page.getByRole('button', { name: 'Run' }).click()
    await advice(page).filter({ hasText: 'No tax' }).waitFor()
    await page.getByRole('button', { name: 'Run' }).and(page.locator(':enabled')).waitFor()
    const why = page.locator('.debug-results [data-advice-node] .debug-reasons').first()
    await why.locator('summary').click()
    t.match(await why.locator('li[data-reason-node]').first().textContent(), /\{\{Income\}\} <= 1000\s*→ true[\s\S]*\{\{Income\}\} = 300/, 'the given advice says why, with the value read')
    const entry = page.locator(`[data-not-given="${id(3)}"]`)
    t.match(await entry.locator('.debug-blockers').textContent(), /\{\{Income\}\} > 1000[\s\S]*\{\{Income\}\} = 300/, 'the advice not given names the failing condition and its value')
    t.match(await entry.locator('.debug-changes').textContent(), /\{\{Income\}\}: 300 →/, 'and the one answer to change')
    await Promise.all([page.waitForURL(/run=1/), entry.getByRole('link', { name: 'Use these answers' }).click()])
    t.equal(await islandsSettled(page), 'mounted')
    t.match((await headlines(page)).join('|'), /^Tax is \d/, 'the advice now appears')
    t.ok(Number(await page.getByLabel('What is your income?').inputValue()) > 1000, 'the form holds the nearest answer')
    t.equal(await page.locator(`[data-not-given="${id(3)}"]`).count(), 0, 'and it is no longer listed as not given')
  })

  t.test('without JavaScript: the form round trip', async (t) => {
    const page = await debugPage(t, { javaScriptEnabled: false })
    await page.getByLabel('What is your income?').fill('2000')
    await Promise.all([page.waitForURL(`${server.url}/adviceset/${set.id}/rule/debug`), page.getByRole('button', { name: 'Run' }).click()])
    t.same(await headlines(page), ['Tax is 400'])
    t.same(await visitedIds(page), richPath)
    t.equal(await rowBackground(page, id(3)), VISITED_BACKGROUND)
  })
})
