// Issue 23 defect 2 in Chromium: Back never shows a stale page. A node added on a rule page is there after leaving
// by the breadcrumb (or for the Dictionary) and pressing Back; after signing out, Back shows no private content.
import t from 'tap'
import type { Page } from 'playwright-core'
import { startServer } from '../helpers/server.ts'
import { chromiumMissing, islandsSettled, launchBrowser } from '../helpers/browser.ts'
import { openRuleTree, seedAuthor, seedRule, signedInContext } from './rule-tree-setup.ts'

t.test('Back after an edit or a sign-out', { skip: chromiumMissing, timeout: 180_000 }, async (t) => {
  const server = await startServer()
  t.teardown(() => server.close())
  const browser = await launchBrowser(t)
  const author = await seedAuthor(server)

  const summaries = (page: Page) => page.locator('[data-island="rule-tree"] .rule-tree__summary')

  /** Adds a question for `variable` at the end of the rule with the keyboard, and waits until the server has it. */
  async function addQuestion(page: Page, variable: string, question: string): Promise<void> {
    await page.getByRole('button', { name: 'Add node' }).focus()
    await page.keyboard.press('Enter')
    await page.keyboard.press('i')
    await page.keyboard.press('Enter')
    await page.keyboard.type(variable)
    await page.keyboard.press('Tab')
    await page.keyboard.type(question)
    const saved = page.waitForResponse((r) => r.url().includes('/api/rule/') && r.request().method() === 'POST')
    await page.keyboard.press('Enter')
    t.equal((await saved).status(), 201, `${question} saved`)
    await summaries(page).filter({ hasText: question }).waitFor()
  }

  async function back(page: Page): Promise<void> {
    await page.goBack()
    t.equal(await islandsSettled(page), 'mounted', 'the page came back with its islands')
  }

  t.test('a node added, then the breadcrumb, then Back: the tree shows the node', async (t) => {
    const fixture = await seedRule(server, author, [{ type: 'inputRequest', variable: 'Age', question: 'How old are you?' }])
    const context = await signedInContext(browser, server, author.user)
    t.teardown(() => context.close())
    const page = await openRuleTree(context, server, fixture)
    t.equal(await summaries(page).count(), 1)

    await addQuestion(page, 'Income', 'What do you earn?')
    await page.locator('.crumbs').getByRole('link', { name: 'Pensions' }).click()
    await page.waitForURL(`**/adviceset/${fixture.setId}/show`)
    await back(page)
    await summaries(page).filter({ hasText: 'What do you earn?' }).waitFor()
    t.equal(await summaries(page).count(), 2, 'both nodes, as the server has them')
    t.equal(await page.locator('.rule-stats div', { hasText: 'Nodes' }).locator('dd').textContent(), '2', 'the header counts the new node')

    await addQuestion(page, 'Band', 'Which band are you in?')
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dictionary' }).click()
    await page.waitForURL('**/admin/dictionary')
    await back(page)
    await summaries(page).filter({ hasText: 'Which band are you in?' }).waitFor()
    t.equal(await summaries(page).count(), 3, 'coming back from the Dictionary too')
  })

  t.test('signed out, Back shows no private content', async (t) => {
    const fixture = await seedRule(server, author, [{ type: 'advice', headline: 'Private advice', text: 'Only for the team.' }])
    const context = await signedInContext(browser, server, author.user)
    t.teardown(() => context.close())
    const page = await openRuleTree(context, server, fixture)
    await summaries(page).filter({ hasText: 'Private advice' }).waitFor()

    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.waitForURL('**/login')
    await page.goBack()
    await page.waitForLoadState('load')
    t.match(page.url(), /\/login\?next=/, 'Back asks to sign in again')
    t.notMatch(await page.content(), /Private advice|Eligibility/, 'nothing of the rule page is shown')
    t.equal(await page.getByRole('button', { name: 'Sign out' }).count(), 0, 'no signed-in header')
  })
})
