// Issue 23's acceptance journey in Chromium, as a new author walks it: sign up (a team of one), build a
// mortgage-affordability set (questions for income and debts, a debt-to-income formula and bands of advice) in the
// rule tree with the keyboard, creating the missing dictionary entries in place; debug it with answers typed as people
// type them ("60,000"); generate branches (none ends in an error, each gives what the debugger gives with its answers);
// save them as scenarios and run them (coverage then shows every advice item covered); publish with self-approval
// allowed; and after an edit, Back shows the edit. Everything goes through the pages. Screenshots of each step go to
// SCREENSHOT_DIR when it is set.
import t from 'tap'
import { mkdirSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { startServer } from '../helpers/server.ts'
import { chromiumMissing, islandsSettled, launchBrowser, newQuietContext, recordConsole } from '../helpers/browser.ts'

const AUTHOR = { name: 'Morgan Reyes', email: 'morgan@lending.example', company: 'Reyes Lending', password: 'Affordable-Homes-2026' }
const QUESTIONS = { income: 'What is your yearly income?', debts: 'How much do you pay on debts each year?' }
const BANDS = [
  { condition: '[[Debt_Ratio]] < 0.36', headline: 'You can afford this mortgage', text: 'Your debts take [[Debt_Ratio]] of your income.' },
  { condition: '[[Debt_Ratio]] >= 0.36 && [[Debt_Ratio]] < 0.43', headline: 'Talk to an adviser first', text: 'Lenders look hard at a ratio of [[Debt_Ratio]].' },
  { condition: '[[Debt_Ratio]] >= 0.43', headline: 'Pay down your debts first', text: 'A ratio of [[Debt_Ratio]] is above what lenders accept.' },
] as const

const shotDir = process.env.SCREENSHOT_DIR
if (shotDir) mkdirSync(shotDir, { recursive: true })

async function shot(page: Page, name: string): Promise<void> {
  if (shotDir) await page.screenshot({ path: `${shotDir}/${name}.png`, fullPage: true })
}

const squeeze = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim()

t.test('a new author\'s mortgage-affordability journey', { skip: chromiumMissing, timeout: 240_000 }, async (t) => {
  const server = await startServer()
  t.teardown(() => server.close())
  const browser = await launchBrowser(t)
  const context = await newQuietContext(browser)
  t.teardown(() => context.close())
  const page = await context.newPage()
  const console = recordConsole(page)
  const settled = async () => t.equal(await islandsSettled(page), 'mounted', `${new URL(page.url()).pathname} mounted its islands`)

  const tree = page.getByRole('tree')
  const item = (text: string) => tree.getByRole('treeitem').filter({ has: page.locator('.rule-tree__summary', { hasText: text }) })
  const activeItem = tree.locator('[role="treeitem"][aria-current="true"]')
  const editorField = (name: string) => page.locator(`.rule-tree__editor .rule-tree__field[data-field="${name}"]`).locator('input, textarea')
  const nodeSaved = () => page.waitForResponse((r) => /\/api\/rule\/\d+\/node$/.test(r.url()) && r.request().method() === 'POST')
  const keys = page.keyboard
  let setId = 0
  let ruleUrl = ''

  await t.test('1. sign up: a team of one whose only admin is the new author', async (t) => {
    await page.goto(`${server.url}/signup`)
    await settled()
    await page.getByLabel('Your name').fill(AUTHOR.name)
    await page.getByLabel('E-mail').fill(AUTHOR.email)
    await page.getByLabel('Organisation').fill(AUTHOR.company)
    await page.getByLabel('Password').fill(AUTHOR.password)
    await shot(page, '01-sign-up')
    await page.getByRole('button', { name: 'Create account' }).click()
    await page.waitForURL(`${server.url}/`)
    await settled()
    t.equal(squeeze(await page.locator('h1').textContent()), `Welcome, ${AUTHOR.name}`)
    t.equal(squeeze(await page.locator('main .lead').first().textContent()), `You are in ${AUTHOR.company} as admin.`, 'the author is the admin of a new team')
    await shot(page, '01-home')
  })

  await t.test('2. build the set in the rule tree, creating the dictionary entries in place', async (t) => {
    await page.getByRole('link', { name: 'Create an advice set' }).click()
    await page.waitForURL('**/adviceset/new')
    await page.getByLabel('Name', { exact: true }).fill('Mortgage affordability')
    await page.getByRole('button', { name: 'Create advice set' }).click()
    await page.waitForURL(/\/adviceset\/\d+\/show$/)
    setId = Number(/\/adviceset\/(\d+)\//.exec(page.url())![1])
    await settled()
    t.equal(squeeze(await page.locator('.set-rules .empty').textContent()), 'This advice set has no rules yet.')
    await page.getByRole('link', { name: 'New rule' }).click()
    await page.getByLabel('Name', { exact: true }).fill('Affordability')
    await page.getByRole('button', { name: 'Create rule' }).click()
    await page.waitForURL(/\/rule\/\d+\/show$/)
    ruleUrl = page.url()
    await settled()
    t.equal(await tree.getByRole('treeitem').count(), 0, 'the new rule has no nodes')

    /** An Input Request for a variable the dictionary lacks: the editor offers to create it, then the question saves. */
    async function askFor(variable: string, question: string, dataTypeLabel: string) {
      await keys.press('i')
      await keys.press('Enter')
      await keys.type(variable)
      const issue = page.locator('.rule-tree__issue[data-code="UNKNOWN_VARIABLE"]')
      t.equal(await issue.locator('.rule-tree__issue-message').textContent(), `{{${variable}}} is not in the dictionary.`)
      await issue.getByRole('button', { name: `Create variable ${variable}` }).click()
      const panel = page.getByRole('group', { name: new RegExp(`Create variable ${variable}`) })
      await panel.getByLabel('Data type').selectOption({ label: dataTypeLabel })
      await shot(page, `02-create-variable-${variable.toLowerCase()}`)
      const created = page.waitForResponse((r) => r.url().endsWith('/api/entity') && r.request().method() === 'POST')
      await keys.press('Enter')
      t.equal((await created).status(), 201, `{{${variable}}} is added to the dictionary`)
      await panel.waitFor({ state: 'detached' })
      t.equal(await issue.count(), 0, 'the issue is gone')
      await editorField('question').fill(question)
      const saved = nodeSaved()
      await editorField('question').press('Enter')
      t.equal((await saved).status(), 201, `the question for ${variable} is saved`)
      await item(question).and(activeItem).waitFor()
    }

    await page.getByRole('button', { name: 'Add node' }).focus()
    await keys.press('Enter')
    await askFor('Income', QUESTIONS.income, 'Number')
    await keys.press('Shift+A')
    await askFor('Debts', QUESTIONS.debts, 'Number')

    // The formula: named in a Formula node, its expression typed once, created in the dictionary from the editor.
    await keys.press('Shift+A')
    await keys.press('f')
    await keys.press('Enter')
    await keys.type('Debt_Ratio')
    await editorField('expression').fill('{{Debts}} / {{Income}}')
    t.ok(await page.locator('.rule-tree__editor-save').isDisabled(), 'saving waits for the formula to exist')
    await page.getByRole('button', { name: 'Create formula Debt_Ratio' }).click()
    const formulaPanel = page.getByRole('group', { name: /Create formula Debt_Ratio/ })
    t.match(await formulaPanel.textContent(), '{{Debts}} / {{Income}}', 'the panel uses the typed expression')
    await shot(page, '02-create-formula')
    await formulaPanel.getByRole('button', { name: 'Create formula' }).click()
    await formulaPanel.waitFor({ state: 'detached' })
    t.match(await page.locator('.rule-tree__defined[data-defined-in="dictionary"]').textContent(), 'Defined in the dictionary: [[Debt_Ratio]]')
    let saved = nodeSaved()
    await editorField('expression').press('Enter')
    t.equal((await saved).status(), 201, 'the Formula node is saved')
    await item('[[Debt_Ratio]] = {{Debts}} / {{Income}}').and(activeItem).waitFor()

    // The bands: a condition on the ratio with its advice under it, each after the previous band.
    for (const band of BANDS) {
      await keys.press('Shift+A')
      await keys.press('c')
      await keys.press('Enter')
      await editorField('expression').fill(band.condition)
      saved = nodeSaved()
      await editorField('expression').press('Enter')
      t.equal((await saved).status(), 201, `the condition ${band.condition} is saved`)
      await item(band.condition).and(activeItem).waitFor()
      await keys.press('a')
      await keys.press('a')
      await keys.press('Enter')
      await keys.type(band.headline)
      await keys.press('Tab')
      await keys.type(band.text)
      saved = nodeSaved()
      await keys.press('Enter')
      t.equal((await saved).status(), 201, `the advice “${band.headline}” is saved`)
      await item(band.headline).and(activeItem).waitFor()
      t.equal(await item(band.headline).getAttribute('aria-level'), '2', 'under its condition')
      await keys.press('ArrowLeft')
      await item(band.condition).and(activeItem).waitFor()
    }
    t.same(await tree.locator('.rule-tree__summary').allTextContents(), [
      `{{Income}} — ${QUESTIONS.income}`, `{{Debts}} — ${QUESTIONS.debts}`, '[[Debt_Ratio]] = {{Debts}} / {{Income}}',
      ...BANDS.flatMap((band) => [band.condition, band.headline]),
    ], 'the tree shows the rule as built')
    const stats = page.locator('.rule-stats')
    await stats.locator('div', { hasText: 'Nodes' }).locator('dd', { hasText: '9' }).waitFor()
    t.equal(await stats.locator('div', { hasText: 'Errors' }).locator('dd').textContent(), '0', 'no errors')
    await shot(page, '02-rule-built')
  })
})
