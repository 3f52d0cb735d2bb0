// Issue 23 defect 4 in Chromium: the rule header's figures (nodes, depth, errors, warnings, unreachable) follow each
// edit in the rule tree without a reload.
import t from 'tap'
import type { Page } from 'playwright-core'
import { startServer } from '../helpers/server.ts'
import { chromiumMissing, launchBrowser } from '../helpers/browser.ts'
import { FOCUSED_ACTIVE_ITEM, openRuleTree, seedAuthor, seedRule, signedInContext } from './rule-tree-setup.ts'

t.test('rule header stats', { skip: chromiumMissing, timeout: 180_000 }, async (t) => {
  const server = await startServer()
  t.teardown(() => server.close())
  const browser = await launchBrowser(t)
  const author = await seedAuthor(server)
  const context = await signedInContext(browser, server, author.user)
  t.teardown(() => context.close())

  const figures = (page: Page) => page.locator('.rule-stats').evaluate((dl) => Object.fromEntries(
    [...dl.querySelectorAll('div')].map((row) => [row.querySelector('dt')?.textContent ?? '', Number(row.querySelector('dd')?.textContent)]),
  ))
  /** Waits until the header shows `expected`, as the figures settle after an edit. */
  async function shows(page: Page, expected: Record<string, number>, message: string): Promise<void> {
    await page.waitForFunction((want) => {
      const rows = [...document.querySelectorAll('.rule-stats div')]
      return Object.entries(want).every(([name, value]) => rows.some((row) => row.querySelector('dt')?.textContent === name && row.querySelector('dd')?.textContent === String(value)))
    }, expected)
    t.match(await figures(page), expected, message)
  }
  const saved = (page: Page, method: string) => page.waitForResponse((r) => r.url().includes('/api/rule/') && r.request().method() === method)
  const item = (page: Page, text: string) => page.getByRole('treeitem').filter({ has: page.locator('.rule-tree__summary', { hasText: text }) })
  /** Types into the node editor once it holds the focus (keys sent sooner would reach the tree's shortcuts), then
   * waits until the field shows all of it, so Enter saves what was typed on a slow machine too. */
  async function typeInEditor(page: Page, text: string): Promise<void> {
    const field = page.locator('.rule-tree__editor .rule-tree__input:focus')
    await field.waitFor()
    await page.keyboard.type(text)
    await page.waitForFunction((want) => (document.activeElement as HTMLInputElement | null)?.value === want, text)
  }

  const fixture = await seedRule(server, author, [{ type: 'inputRequest', variable: 'Age', question: 'How old are you?' }])
  const page = await openRuleTree(context, server, fixture)
  t.match(await figures(page), { Nodes: 1, Depth: 1, Errors: 0, Warnings: 0, Unreachable: 0 }, 'as the page was rendered')

  await item(page, 'How old are you?').focus()
  await item(page, 'How old are you?').and(page.locator(FOCUSED_ACTIVE_ITEM)).waitFor()
  await page.keyboard.press('Shift+A')
  await page.keyboard.press('c')
  await page.keyboard.press('Enter')
  await typeInEditor(page, '{{Nobody}} > 1')
  let answer = saved(page, 'POST')
  await page.keyboard.press('Enter')
  await answer
  await shows(page, { Nodes: 2, Depth: 1, Errors: 1 }, 'a condition naming an unknown variable: one more node, one error')
  // The keys below go to the saved node once the tree has focused it.
  await item(page, '{{Nobody}} > 1').and(page.locator(FOCUSED_ACTIVE_ITEM)).waitFor()

  await page.keyboard.press('a')
  await page.keyboard.press('a')
  await page.keyboard.press('Enter')
  await typeInEditor(page, 'Under the condition')
  answer = saved(page, 'POST')
  await page.keyboard.press('Enter')
  await answer
  await shows(page, { Nodes: 3, Depth: 2, Errors: 1 }, 'a child: the rule is deeper')

  await item(page, '{{Nobody}} > 1').focus()
  await page.keyboard.press('Delete')
  const deleted = saved(page, 'DELETE')
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click()
  await deleted
  await shows(page, { Nodes: 1, Depth: 1, Errors: 0 }, 'deleting the condition takes its child and its error with it')
})
