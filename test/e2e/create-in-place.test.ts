// Issue 23 defect 3 and issue 24 defect 6 in Chromium: no dead end for a name the dictionary lacks. The node editor
// offers "Create variable Income" (data type, options, a question) and "Create formula Share" in place; the issue goes
// and the node saves. A Formula node's expression is its dictionary formula's, edited there, and the editor says where
// it lives. An API Call's mapped variable is created with its mapped type.
import t from 'tap'
import { and, eq } from 'drizzle-orm'
import type { Page } from 'playwright-core'
import { startServer } from '../helpers/server.ts'
import { chromiumMissing, launchBrowser, axeViolationsInMain } from '../helpers/browser.ts'
import { createExternalApiDefinition } from '../helpers/external-apis.ts'
import { buildRule, createFormula, createVariable } from '../helpers/rules.ts'
import { createAdviceSet } from '../helpers/advice-sets.ts'
import { openRuleTree, signedInContext, type RuleFixture } from './rule-tree-setup.ts'
import { entities, ruleNodes } from '../../src/db/schema/index.ts'
import { ENTITY_TYPES } from '../../src/engine/index.ts'

t.test('create dictionary entries in place', { skip: chromiumMissing, timeout: 300_000 }, async (t) => {
  const server = await startServer()
  t.teardown(() => server.close())
  const browser = await launchBrowser(t)
  const user = await server.createUser({ role: 'author' })
  await createVariable(server.db, user.ownerId, 'Debts')
  const ratio = await createFormula(server.db, user.ownerId, 'Ratio', '{{Debts}} / 1000')
  const rates = await createExternalApiDefinition(server.db, server.app.deps.config.secretKey, {
    ownerId: user.ownerId, name: 'Rates', urlTemplate: 'https://api.example/rates', responseMapping: [{ path: '/rate', variable: 'Market_Rate', dataType: 'percent' }],
  })
  const context = await signedInContext(browser, server, user)
  t.teardown(() => context.close())
  const set = await createAdviceSet(server.db, { ownerId: user.ownerId, name: 'Mortgage affordability' })
  const { rule, nodes } = await buildRule(server.db, set.id, 'Afford', [{ type: 'formula', variable: 'Ratio' }])
  const fixture: RuleFixture = { user, entities: {}, setId: set.id, ruleId: rule.id }
  const entry = async (name: string) => (await server.db.select().from(entities).where(and(eq(entities.ownerId, user.ownerId), eq(entities.reservedName, name))))[0]
  const tree = (page: Page) => page.locator('[role="tree"]')
  const saved = (page: Page, method: string) => page.waitForResponse((r) => r.url().includes(`/api/rule/${rule.id}/node`) && r.request().method() === method)
  const addNode = async (page: Page, type: string) => {
    await page.getByRole('button', { name: 'Add node' }).click()
    await page.locator(`.rule-tree__picker-option[data-type="${type}"]`).click()
    await page.locator('.rule-tree__editor').waitFor()
  }

  const page = await openRuleTree(context, server, fixture)

  await t.test('a condition reads a variable the dictionary lacks: create it with a question, then save', async (t) => {
    await addNode(page, 'condition')
    await page.locator('.rule-tree__field[data-field="expression"] input').fill('{{Income}} > 50000')
    const issue = page.locator('.rule-tree__issue[data-code="UNKNOWN_VARIABLE"]')
    t.equal(await issue.locator('.rule-tree__issue-message').textContent(), '{{Income}} is not in the dictionary.')
    await issue.getByRole('button', { name: 'Create variable Income' }).click()
    const panel = page.getByRole('group', { name: /Create variable Income/ })
    await panel.getByLabel('Data type').selectOption('number')
    await panel.getByLabel('Question (optional)').fill('What is your income?')
    t.same(await axeViolationsInMain(page), [], 'the tree passes axe with the panel open')
    const asked = page.waitForResponse((r) => r.url().endsWith(`/api/rule/${rule.id}/node`) && r.request().method() === 'POST')
    await panel.getByRole('button', { name: 'Create variable' }).click()
    t.equal((await asked).status(), 201, 'the question is added')
    await issue.waitFor({ state: 'detached' })
    t.equal(await panel.count(), 0, 'the panel closes and the issue is gone')
    const income = await entry('Income')
    t.match(income, { entityTypeId: ENTITY_TYPES.variable.id, dataType: 'number' }, 'the variable is in the dictionary')
    const posted = saved(page, 'POST')
    await page.getByRole('button', { name: 'Save' }).click()
    t.equal((await posted).status(), 201, 'the node saves')
    await tree(page).locator('[role="treeitem"]', { hasText: '{{Income}} > 50000' }).waitFor()
    const rows = await server.db.select().from(ruleNodes).where(eq(ruleNodes.ruleId, rule.id)).orderBy(ruleNodes.parentId, ruleNodes.position)
    t.same(rows.filter((r) => r.deletedAt === null).map((r) => [r.type, r.variable ?? r.expression]), [
      ['formula', 'Ratio'], ['inputRequest', 'Income'], ['condition', '{{Income}} > 50000'],
    ], 'the question asks for it just before the condition')
    await tree(page).locator('[role="treeitem"]', { hasText: 'What is your income?' }).waitFor()
  })

  await t.test('a Select variable gets its options', async (t) => {
    await addNode(page, 'condition')
    await page.locator('.rule-tree__field[data-field="expression"] input').fill('{{Region}} == "North"')
    await page.getByRole('button', { name: 'Create variable Region' }).click()
    const panel = page.getByRole('group', { name: /Create variable Region/ })
    await panel.getByLabel('Data type').selectOption('select')
    await panel.getByLabel('Options').fill('North\nSouth')
    await panel.getByRole('button', { name: 'Create variable' }).click()
    await panel.waitFor({ state: 'detached' })
    t.match(await entry('Region'), { dataType: 'select', validOptions: ['North', 'South'], isClosedSet: true })
    await page.getByRole('button', { name: 'Cancel' }).click()
  })

  await t.test('a Formula node edits its dictionary formula and says where it lives', async (t) => {
    await tree(page).locator(`[data-node-id="${nodes[0]!.id}"]`).dblclick()
    const expression = page.locator('.rule-tree__field[data-field="expression"] input')
    t.equal(await expression.inputValue(), '{{Debts}} / 1000', 'the expression shown is the dictionary\'s')
    const defined = page.locator('.rule-tree__defined[data-defined-in="dictionary"]')
    t.match(await defined.textContent(), /Defined in the dictionary: \[\[Ratio\]\]/)
    t.equal(await defined.getByRole('link', { name: '[[Ratio]]' }).getAttribute('href'), `/card/formula/${ratio.id}`)
    await expression.fill('{{Debts}} / {{Income}}')
    const patched = page.waitForResponse((r) => r.url().endsWith(`/api/entity/${ratio.id}`) && r.request().method() === 'PATCH')
    const node = saved(page, 'PATCH')
    await page.getByRole('button', { name: 'Save' }).click()
    t.equal((await patched).status(), 200, 'the change is saved to the dictionary')
    t.equal((await node).status(), 200)
    t.equal((await entry('Ratio'))!.expression, '{{Debts}} / {{Income}}')
    t.equal((await server.db.select().from(ruleNodes).where(eq(ruleNodes.id, nodes[0]!.id)))[0]!.expression, null, 'the node keeps no copy')
    await tree(page).locator('[role="treeitem"]', { hasText: '[[Ratio]] = {{Debts}} / {{Income}}' }).waitFor()
  })

  await t.test('a new Formula node names a formula the dictionary lacks: create it with the typed expression', async (t) => {
    await addNode(page, 'formula')
    await page.locator('.rule-tree__field[data-field="variable"] input').fill('Share')
    await page.locator('.rule-tree__field[data-field="expression"] input').fill('{{Debts}} * 100')
    t.ok(await page.getByRole('button', { name: 'Save' }).isDisabled(), 'saving waits for the formula: its expression would be lost')
    await page.getByRole('button', { name: 'Create formula Share' }).click()
    const panel = page.getByRole('group', { name: /Create formula Share/ })
    t.match(await panel.textContent(), /\{\{Debts\}\} \* 100/, 'the panel uses the typed expression')
    await panel.getByRole('button', { name: 'Create formula' }).click()
    await panel.waitFor({ state: 'detached' })
    await page.locator('.rule-tree__defined[data-defined-in="dictionary"]').waitFor()
    t.match(await entry('Share'), { entityTypeId: ENTITY_TYPES.formula.id, expression: '{{Debts}} * 100', dataType: 'number' })
    const posted = saved(page, 'POST')
    await page.getByRole('button', { name: 'Save' }).click()
    t.equal((await posted).status(), 201)
    await tree(page).locator('[role="treeitem"]', { hasText: '[[Share]] = {{Debts}} * 100' }).waitFor()
  })

  await t.test('an API Call maps a variable the dictionary lacks: create it with the mapped type', async (t) => {
    await addNode(page, 'apiCall')
    await page.locator('.rule-tree__field[data-field="apiId"] select').selectOption(String(rates.id))
    t.equal(await page.locator('.rule-tree__field[data-field="variable"] input').inputValue(), 'Market_Rate')
    await page.getByRole('button', { name: 'Create variable Market_Rate' }).click()
    const panel = page.getByRole('group', { name: /Create variable Market_Rate/ })
    t.equal(await panel.getByLabel('Data type').inputValue(), 'percent', 'the mapped type is chosen')
    t.equal(await panel.getByLabel('Question (optional)').count(), 0, 'no question: the API sets it')
    await panel.getByRole('button', { name: 'Create variable' }).click()
    await panel.waitFor({ state: 'detached' })
    t.match(await entry('Market_Rate'), { dataType: 'percent' })
    const posted = saved(page, 'POST')
    await page.getByRole('button', { name: 'Save' }).click()
    t.equal((await posted).status(), 201)
  })
})
