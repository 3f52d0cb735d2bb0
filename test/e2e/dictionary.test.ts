// The dictionary in Chromium (issue 5 acceptance, SPEC.md §4 "Reserved name change"): a variable renamed in the
// dictionary's dialog updates, without a reload, a second dictionary tab, the open rule page, and an unmodified
// formula editor (which then offers Reset); a type change also tells those tabs what the item became.
import t from 'tap'
import type { BrowserContext, Page } from 'playwright-core'
import { eq } from 'drizzle-orm'
import { startServer } from '../helpers/server.ts'
import { chromiumMissing, islandsSettled, launchBrowser, newQuietContext, signInByApi } from '../helpers/browser.ts'
import { createAdviceSet } from '../helpers/advice-sets.ts'
import { buildRule, createFormula, createVariable } from '../helpers/rules.ts'
import { ruleNodes } from '../../src/db/schema/index.ts'

t.test('dictionary', { skip: chromiumMissing }, async (t) => {
  const server = await startServer()
  t.teardown(() => server.close())
  const browser = await launchBrowser(t)

  const user = await server.createUser({ role: 'author' })
  const set = await createAdviceSet(server.db, { ownerId: user.ownerId, name: 'Pensions' })
  const income = await createVariable(server.db, user.ownerId, 'Income')
  const tax = await createFormula(server.db, user.ownerId, 'Tax', '{{Income}} * 0.2')
  const { rule, nodes } = await buildRule(server.db, set.id, 'Eligibility', [
    { type: 'condition', expression: '{{Income}} > 1000', children: [{ type: 'advice', headline: 'High', text: 'Your income of {{Income}} is high.' }] },
  ])

  const context: BrowserContext = await newQuietContext(browser)
  t.teardown(() => context.close())

  async function open(path: string): Promise<Page> {
    const page = await context.newPage()
    await page.goto(`${server.url}${path}`)
    t.equal(await islandsSettled(page), 'mounted', `${path} mounted`)
    // A reload would drop this mark: the tests check that the pages were updated in place.
    await page.evaluate(() => { (window as unknown as { stayed: boolean }).stayed = true })
    return page
  }
  const stayed = (page: Page) => page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed === true)

  const first = await context.newPage()
  await signInByApi(first, server.url, user)
  await first.close()

  const dictionary = await open('/admin/dictionary')
  const otherDictionary = await open('/admin/dictionary')
  const rulePage = await open(`/adviceset/${set.id}/rule/${rule.id}/show`)
  const formulaEditor = await open(`/card/formula/${tax.id}/edit`)
  const formulaCard = await open(`/card/formula/${tax.id}`)
  const name = (page: Page) => page.locator(`a[data-entity-id="${income.id}"]`)

  t.test('renaming in the dialog updates every open tab without a reload', async (t) => {
    await dictionary.getByRole('link', { name: 'Edit Income' }).click()
    const dialog = dictionary.getByRole('dialog', { name: 'Edit variable' })
    await dialog.waitFor()
    await dialog.getByLabel('Name').fill('Monthly_Income')
    const saved = dictionary.waitForResponse((r) => r.url().endsWith(`/api/entity/${income.id}`) && r.request().method() === 'PATCH')
    await dialog.getByRole('button', { name: 'Save' }).click()
    t.equal((await saved).status(), 200)
    await dialog.waitFor({ state: 'hidden' })
    await dictionary.locator('.notification', { hasText: 'Saved. 3 uses rewritten.' }).waitFor()
    t.equal(await name(dictionary).textContent(), 'Monthly_Income', 'the row in this tab')

    await name(otherDictionary).filter({ hasText: 'Monthly_Income' }).waitFor()
    t.equal(await name(otherDictionary).getAttribute('data-entity-name'), 'Monthly_Income', 'the second dictionary tab')

    const tree = rulePage.locator('[data-island="rule-tree"]')
    await tree.locator('.rule-tree__summary', { hasText: '{{Monthly_Income}} > 1000' }).waitFor()
    t.equal(await tree.locator('.rule-tree__summary', { hasText: '{{Income}}' }).count(), 0, 'no old name left in the rule tree')

    const expression = formulaEditor.getByLabel('Expression')
    await formulaEditor.waitForFunction(() => document.querySelector<HTMLTextAreaElement>('textarea[name="expression"]')?.value === '{{Monthly_Income}} * 0.2')
    t.equal(await expression.inputValue(), '{{Monthly_Income}} * 0.2', 'the unmodified formula editor refreshed')
    await formulaEditor.getByRole('button', { name: 'Reset' }).click()
    t.equal(await expression.inputValue(), '{{Income}} * 0.2', 'Reset brings back what the form was opened with')

    await formulaCard.locator('[data-formula-box]', { hasText: '{{Monthly_Income}} * 0.2' }).waitFor()
    for (const page of [otherDictionary, rulePage, formulaEditor, formulaCard]) t.ok(await stayed(page), `${new URL(page.url()).pathname} was not reloaded`)

    const [stored] = await server.db.select().from(ruleNodes).where(eq(ruleNodes.id, nodes[0]!.id))
    t.equal(stored!.expression, '{{Monthly_Income}} > 1000', 'the server rewrote the node')
  })

  t.test('a modified formula editor is left as typed', async (t) => {
    const editor = await open(`/card/formula/${tax.id}/edit`)
    const expression = editor.getByLabel('Expression')
    await expression.fill('{{Monthly_Income}} * 0.3')
    await dictionary.getByRole('link', { name: 'Edit Monthly_Income' }).click()
    const dialog = dictionary.getByRole('dialog', { name: 'Edit variable' })
    await dialog.getByLabel('Name').fill('Salary')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.waitFor({ state: 'hidden' })
    await name(otherDictionary).filter({ hasText: 'Salary' }).waitFor()
    t.equal(await expression.inputValue(), '{{Monthly_Income}} * 0.3', 'the typed text is kept')
    await editor.close()
  })

  t.test('a type change tells the tabs showing the item what it became', async (t) => {
    await dictionary.getByRole('link', { name: 'Edit Salary' }).click()
    const dialog = dictionary.getByRole('dialog', { name: 'Edit variable' })
    await dialog.getByLabel('Type', { exact: true }).selectOption('formula')
    await dialog.getByLabel('Expression').fill('2500')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.waitFor({ state: 'hidden' })
    await otherDictionary.locator('.notification', { hasText: 'This item was changed to a Formula entity.' }).waitFor()
    await rulePage.locator('[data-island="rule-tree"] .rule-tree__summary', { hasText: '[[Salary]] > 1000' }).waitFor()
    t.equal(await dictionary.locator(`[data-entity-row="${income.id}"] [data-cell="kind"]`).textContent(), 'Formula', 'the row shows its new type')
    t.ok(await stayed(otherDictionary))
  })

  t.test('a name that breaks the rule is shown beside the field and nothing is saved', async (t) => {
    await dictionary.getByRole('link', { name: 'Edit Tax' }).click()
    const dialog = dictionary.getByRole('dialog', { name: 'Edit formula' })
    await dialog.getByLabel('Name').fill('_Tax')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.getByText('reservedName: names start with a letter or digit, then contain only letters, digits, _ or ?.').waitFor()
    t.equal(await dialog.getByLabel('Name').inputValue(), '_Tax', 'the typed name is kept')
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await dialog.waitFor({ state: 'hidden' })
  })

  t.test('a new entry’s dialog offers Create from the start', async (t) => {
    for (const kind of ['variable', 'formula']) {
      await dictionary.getByRole('link', { name: `New ${kind}` }).click()
      const dialog = dictionary.getByRole('dialog', { name: `New ${kind}` })
      await dialog.waitFor()
      const create = dialog.getByRole('button', { name: 'Create' })
      t.ok(await create.isVisible(), `New ${kind}: Create is shown before any field changes`)
      t.equal(await dialog.getByRole('button', { name: 'Reset' }).count(), 0, 'nothing to reset yet')
      await dialog.getByRole('button', { name: 'Cancel' }).click()
      await dialog.waitFor({ state: 'hidden' })
    }
    await dictionary.getByRole('link', { name: 'New variable' }).click()
    const dialog = dictionary.getByRole('dialog', { name: 'New variable' })
    await dialog.getByLabel('Name').fill('Deposit')
    const created = dictionary.waitForResponse((r) => r.url().endsWith('/api/entity') && r.request().method() === 'POST')
    const reloaded = dictionary.waitForEvent('load')
    await dialog.getByRole('button', { name: 'Create' }).click()
    t.equal((await created).status(), 201)
    await reloaded
    t.equal(await islandsSettled(dictionary), 'mounted')
    await dictionary.getByRole('link', { name: 'Edit Deposit' }).waitFor()
  })
})
