// Issue 24: an entry made in one tab is offered by another tab's `{{` suggestions without a reload, and an entry
// deleted in one tab leaves them. Two pages of one browser context: a rule page and the dictionary's card pages
// (the entry made by the dictionary-editor island through /api/entity, deleted by the card's plain form).
import t from 'tap'
import type { Page } from 'playwright-core'
import { startServer } from '../helpers/server.ts'
import { chromiumMissing, islandsSettled, launchBrowser } from '../helpers/browser.ts'
import { openRuleTree, seedAuthor, seedRule, signedInContext } from './rule-tree-setup.ts'

t.test('dictionary entries made or deleted in another tab', { skip: chromiumMissing, timeout: 120_000 }, async (t) => {
  const server = await startServer()
  t.teardown(() => server.close())
  const browser = await launchBrowser(t)
  const author = await seedAuthor(server)
  const fixture = await seedRule(server, author, [{ type: 'condition', expression: '{{Age}} > 60' }])
  const context = await signedInContext(browser, server, author.user)
  t.teardown(() => context.close())

  const rulePage = await openRuleTree(context, server, fixture)
  const dictionary = await context.newPage()
  const nextEvent = (page: Page, name: string) => page.evaluate((n) => new Promise<unknown>((resolve) => {
    document.addEventListener(n, (event) => resolve((event as CustomEvent<unknown>).detail), { once: true })
  }), name)

  // Opens the condition's editor with `{{` typed at its end, so the suggestions list the dictionary's variables.
  async function suggestions(): Promise<string[]> {
    await rulePage.getByRole('tree').getByRole('treeitem').filter({ hasText: '{{Age}} > 60' }).focus()
    await rulePage.keyboard.press('Enter')
    await rulePage.keyboard.press('End')
    await rulePage.keyboard.type(' && {{')
    await rulePage.getByRole('option', { name: 'Age' }).waitFor()
    const names = await rulePage.getByRole('option').allTextContents()
    await rulePage.keyboard.press('Escape')
    await rulePage.keyboard.press('Escape')
    return names
  }

  let createdId = 0
  t.test('an entry made in the dictionary is suggested in the rule tab', async (t) => {
    t.notOk((await suggestions()).some((name) => name.includes('Pension_Pot')), 'not there before')
    const announced = nextEvent(rulePage, 'entity:created')
    await dictionary.goto(`${server.url}/card/variable`)
    t.equal(await islandsSettled(dictionary), 'mounted')
    await dictionary.getByLabel('Name').fill('Pension_Pot')
    const created = dictionary.waitForResponse((r) => r.url().endsWith('/api/entity') && r.request().method() === 'POST')
    await dictionary.getByRole('button', { name: 'Create' }).click()
    t.equal((await created).status(), 201)
    const detail = await announced
    t.match(detail, { reservedName: 'Pension_Pot', ownerId: author.user.ownerId, adviceSetId: null }, 'the rule tab heard of it')
    createdId = (detail as { id: number }).id
    t.ok((await suggestions()).some((name) => name.includes('Pension_Pot')), 'and suggests it')
  })

  t.test('an entry deleted by the card form leaves the rule tab’s suggestions', async (t) => {
    const announced = nextEvent(rulePage, 'entity:deleted')
    await dictionary.goto(`${server.url}/card/variable/${createdId}`)
    await dictionary.getByText('Delete…').click()
    await dictionary.getByRole('button', { name: 'Delete Pension_Pot' }).click()
    await dictionary.waitForURL(`${server.url}/admin/dictionary`)
    t.same(await announced, { id: createdId }, 'the rule tab heard of it')
    t.notOk((await suggestions()).some((name) => name.includes('Pension_Pot')), 'and no longer suggests it')
  })
})
