// Issue 23's acceptance journey in Chromium, as a new author walks it: sign up (a team of one), build a
// mortgage-affordability set (questions for income and debts, a debt-to-income formula and bands of advice) in the
// rule tree with the keyboard, creating the missing dictionary entries in place; debug it with answers typed as people
// type them ("60,000"); generate branches (none ends in an error, each gives what the debugger gives with its answers);
// save them as scenarios and run them (coverage then shows every advice item covered); publish with self-approval
// allowed; and after an edit, Back shows the edit. Everything goes through the pages. Screenshots of each step go to
// SCREENSHOT_DIR when it is set.
import t, { type Test } from 'tap'
import type { Page } from 'playwright-core'
import { startServer } from '../helpers/server.ts'
import { chromiumMissing, islandsSettled, launchBrowser, newQuietContext, recordConsole } from '../helpers/browser.ts'
import { ruleTreeOf, settledCheck, shot, squeeze } from './journey-page.ts'

const AUTHOR = { name: 'Morgan Reyes', email: 'morgan@lending.example', company: 'Reyes Lending', password: 'Affordable-Homes-2026' }
const QUESTIONS = { income: 'What is your yearly income?', debts: 'How much do you pay on debts each year?' }
const BANDS = [
  { condition: '[[Debt_Ratio]] < 0.36', headline: 'You can afford this mortgage', text: 'Your debts take [[Debt_Ratio]] of your income.' },
  { condition: '[[Debt_Ratio]] >= 0.36 && [[Debt_Ratio]] < 0.43', headline: 'Talk to an adviser first', text: 'Lenders look hard at a ratio of [[Debt_Ratio]].' },
  { condition: '[[Debt_Ratio]] >= 0.43', headline: 'Pay down your debts first', text: 'A ratio of [[Debt_Ratio]] is above what lenders accept.' },
] as const

// One journey of many steps, each waiting on the server: on a shared 2-core machine it can outlast tap's default
// per-file timeout, which would kill it midway.
t.setTimeout(300_000)


t.test('a new author\'s mortgage-affordability journey', { skip: chromiumMissing }, async (t) => {
  const server = await startServer()
  t.teardown(() => server.close())
  const browser = await launchBrowser(t)
  const context = await newQuietContext(browser)
  t.teardown(() => context.close())
  const page = await context.newPage()
  const console = recordConsole(page)
  const settled = settledCheck(page)

  const { tree, item, activeItem, nodeSaved } = ruleTreeOf(page)
  const editorField = (name: string) => page.locator(`.rule-tree__editor .rule-tree__field[data-field="${name}"]`).locator('input, textarea')
  const keys = page.keyboard
  let setId = 0
  let ruleUrl = ''

  await t.test('1. sign up: a team of one whose only admin is the new author', async (t) => {
    await page.goto(`${server.url}/signup`)
    await settled(t)
    await page.getByLabel('Your name').fill(AUTHOR.name)
    await page.getByLabel('E-mail').fill(AUTHOR.email)
    await page.getByLabel('Organisation').fill(AUTHOR.company)
    await page.getByLabel('Password').fill(AUTHOR.password)
    await shot(page, '01-sign-up')
    await page.getByRole('button', { name: 'Create account' }).click()
    await page.waitForURL(`${server.url}/`)
    await settled(t)
    t.equal(squeeze(await page.locator('h1').textContent()), `Welcome, ${AUTHOR.name}`)
    t.equal(squeeze(await page.locator('main .lead').first().textContent()), `You are in ${AUTHOR.company} as admin.`, 'the author is the admin of a new team')
    // The header's links keep to one line each; the Admin menu too, not "Admin" above its "▾".
    const admin = await page.locator('.admin-menu summary').evaluate((summary) => ({ height: summary.getBoundingClientRect().height, line: parseFloat(getComputedStyle(summary).lineHeight) }))
    t.ok(admin.height < 1.5 * admin.line, `the Admin menu is one line (${admin.height}px for a ${admin.line}px line)`)
    t.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'and the header fits the window: no sideways scroll')
    await shot(page, '01-home')
  })

  await t.test('2. build the set in the rule tree, creating the dictionary entries in place', async (t) => {
    await page.getByRole('link', { name: 'Create an advice set' }).click()
    await page.waitForURL('**/adviceset/new')
    await page.getByLabel('Name', { exact: true }).fill('Mortgage affordability')
    await page.getByRole('button', { name: 'Create advice set' }).click()
    await page.waitForURL(/\/adviceset\/\d+\/show$/)
    setId = Number(/\/adviceset\/(\d+)\//.exec(page.url())![1])
    await settled(t)
    t.equal(squeeze(await page.locator('.set-rules .empty').textContent()), 'This advice set has no rules yet.')
    await page.getByRole('link', { name: 'New rule' }).click()
    await page.getByLabel('Name', { exact: true }).fill('Affordability')
    await page.getByRole('button', { name: 'Create rule' }).click()
    await page.waitForURL(/\/rule\/\d+\/show$/)
    ruleUrl = page.url()
    await settled(t)
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
    // An input's content box clips what hangs below the baseline unless its line is taller than the text: the
    // underscore of Debt_Ratio then vanishes ("Debt Ratio") on a screen of ordinary density.
    const room = await editorField('variable').evaluate((input: HTMLInputElement) => {
      const style = getComputedStyle(input)
      return { line: input.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom), font: parseFloat(style.fontSize) }
    })
    t.ok(room.line >= 1.4 * room.font, `the name field's line (${room.line}px for ${room.font}px text) leaves room for its underscore`)
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

  /** Runs the debugger with answers typed into its form and returns the advice headlines it shows. */
  async function debugRun(t: Test, page: Page, answers: { income: string; debts: string }): Promise<string[]> {
    await page.getByLabel(QUESTIONS.income).fill(answers.income)
    await page.getByLabel(QUESTIONS.debts).fill(answers.debts)
    // The island marks its output busy as the click is handled, and fetches the run and its trace; once both are in,
    // the output is no longer busy and shows this run.
    const ran = Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/rule/debug')),
      page.waitForResponse((r) => r.url().includes('/rule/debug/tree?')),
    ])
    await page.getByRole('button', { name: 'Run', exact: true }).click()
    for (const response of await ran) t.equal(response.status(), 200, `${new URL(response.url()).pathname} answered`)
    await page.locator('.debug-output[aria-busy="false"] [data-fragment="rule-debug-tree"][data-ran="true"]').waitFor()
    return (await page.locator('.debug-results .debug-advice .debug-headline').allTextContents()).map(squeeze)
  }

  await t.test('3. debug with answers typed as people type them', async (t) => {
    await page.getByRole('link', { name: 'Debug', exact: true }).click()
    await page.waitForURL(/\/rule\/debug\?ruleId=\d+$/)
    await settled(t)
    t.same(await debugRun(t, page, { income: '60,000', debts: '$15,000' }), [BANDS[0].headline], '15,000 of 60,000 is affordable')
    const formulaRow = page.locator('[data-fragment="rule-debug-tree"] [data-node-type="formula"] > .debug-node-row')
    t.equal(squeeze(await formulaRow.locator('.debug-node-value').textContent()), '= 0.25', 'the trace shows the ratio')
    t.match(squeeze(await page.locator('.debug-results .debug-text').first().textContent()), 'Your debts take 0.25 of your income.')
    t.same(await page.locator('.debug-answered tbody tr').evaluateAll((rows) => rows.map((row) => [...(row as HTMLTableRowElement).cells].map((cell) => cell.textContent?.trim()))), [
      [QUESTIONS.income, '{{Income}}', '60,000'], [QUESTIONS.debts, '{{Debts}}', '15,000'],
    ], 'the answers were read as numbers and are shown formatted')
    await shot(page, '03-debug-affordable')
    t.same(await debugRun(t, page, { income: '60,000', debts: '24,000' }), [BANDS[1].headline], '24,000 of 60,000 is borderline')
    await shot(page, '03-debug-borderline')
  })

  let debugUrl = ''
  const results = page.locator('[data-fragment="generate-branches-results"]')
  const branchRow = (number: number) => results.locator(`tr[data-branch="${number}"]`)
  const answerOf = async (row: ReturnType<typeof branchRow>, name: string) => squeeze(await row.locator('.branch-answers div', { has: page.locator('dt', { hasText: name }) }).locator('dd').textContent())

  await t.test('4. generate branches: none ends in an error, each gives what the debugger gives', async (t) => {
    debugUrl = page.url()
    await page.locator('.crumbs').getByRole('link', { name: 'Mortgage affordability' }).click()
    await page.waitForURL(`**/adviceset/${setId}/show`)
    await page.getByRole('link', { name: 'Generate branches' }).click()
    await page.waitForURL(`**/adviceset/${setId}/advicescenario/gen-branches`)
    await settled(t)
    await page.getByRole('button', { name: 'Generate branches' }).click()
    await page.waitForURL(/\/gen-branches\?/)
    await results.locator('tr[data-branch]').first().waitFor()
    t.equal(await results.locator('[data-count="branches"]').textContent(), '6', 'six branches reached')
    t.equal(await results.locator('[data-count="outcomes"]').textContent(), '3', 'three of them outcomes: one per band')
    t.equal(await results.locator('[data-count="steps"]').textContent(), '3', 'the others end at a question or the formula')
    t.equal(await results.locator('[data-count="errors"]').count(), 0, 'no branch ends in an error')
    t.equal(await results.locator('tr[data-kind="error"]').count(), 0)
    t.equal(await results.locator('[data-count="unreachable"]').textContent(), '0', 'nothing unreachable')
    t.same(await results.locator('tr[data-kind="outcome"] .branch-when').allTextContents(), [
      'Debt_Ratio is less than 0.36', 'Debt_Ratio is at least 0.36 and Debt_Ratio is less than 0.43', 'Debt_Ratio is at least 0.43',
    ], 'the outcome branches are the bands')
    t.match(squeeze(await results.locator('[data-advice-covered]').textContent()), 'Advice covered: 0 of 3', 'no scenario covers any advice yet')
    await shot(page, '04-branches')

    // Each branch's answers, typed into the debugger in another tab, give the branch's outcome.
    const debug = await context.newPage()
    t.teardown(() => debug.close())
    await debug.goto(debugUrl)
    t.equal(await islandsSettled(debug), 'mounted')
    const rows = await results.locator('tr[data-branch]').all()
    for (const row of rows) {
      const number = await row.getAttribute('data-branch')
      const answers = { income: await answerOf(row, 'Income'), debts: await answerOf(row, 'Debts') }
      const branchAdvice = (await row.locator('.branch-advice li').allTextContents()).map(squeeze)
      t.equal(squeeze(await row.locator('.branch-focus').textContent()), 'Complete', `branch ${number} runs to the end`)
      t.same(await debugRun(t, debug, answers), branchAdvice, `branch ${number} (Income ${answers.income}, Debts ${answers.debts}) gives “${branchAdvice.join(', ')}” in the debugger too`)
      t.equal(await debug.locator('.debug-results .debug-errors').count(), 0, 'without an error')
    }
    await shot(debug, '04-debugger-agrees')
  })

  await t.test('5. save the outcome branches as scenarios and run them: every advice item is covered', async (t) => {
    const bandNames = ['Branch 4: Debt_Ratio is less than 0.36', 'Branch 5: Debt_Ratio is at least 0.36 and Debt_Ratio is less than 0.43', 'Branch 6: Debt_Ratio is at least 0.43']
    for (const [index, band] of BANDS.entries()) {
      const number = index + 4
      await branchRow(number).getByRole('link', { name: 'Save as scenario' }).click()
      await page.waitForURL(/\/advicescenario\/new\?/)
      await settled(t)
      t.equal(await page.getByLabel('Name', { exact: true }).inputValue(), bandNames[index], 'the name says where the branch leads')
      t.same(await page.locator('.scenario-advice input:checked').evaluateAll((boxes) => boxes.map((box) => box.closest('label')?.textContent ?? '')).then((labels) => labels.map((label) => label.includes(band.headline))), [true],
        `the advice it gives, “${band.headline}”, is ticked`)
      if (index === 0) await shot(page, '05-save-scenario')
      await page.getByRole('button', { name: 'Save scenario' }).click()
      await page.waitForURL(/\/advicescenario\/\d+\/show$/)
      t.equal(squeeze(await page.locator('h1').textContent()), `${bandNames[index]} Not run`)
      // Back to the branches (the form, then the results): the page is fetched again and counts the new scenario.
      await page.goBack()
      await page.goBack()
      await page.waitForURL(/\/gen-branches\?/)
      await settled(t)
      t.match(squeeze(await results.locator('[data-advice-covered]').textContent()), `Advice covered: ${number - 3} of 3`, 'coverage counts it after Back')
    }
    t.equal(await results.locator('[data-branches-covered]').getAttribute('data-branches-covered'), '3/3', 'every outcome branch is reached')
    t.match(squeeze(await results.locator('[data-advice-covered]').textContent()), 'Advice covered: 3 of 3 (100%).')
    await shot(page, '05-coverage')

    await page.locator('.crumbs').getByRole('link', { name: 'Mortgage affordability' }).click()
    await page.getByRole('link', { name: /^Scenarios \(3\)/ }).click()
    await page.waitForURL('**/advicescenario/index')
    await settled(t)
    t.equal(squeeze(await page.locator('.scenario-counts').textContent()), '3 scenarios: 0 pass, 0 fail, 0 error, 3 not run')
    t.same(await page.locator('[data-fragment="scenario-list"] tr[data-scenario-id] th a').allTextContents(), bandNames, 'the list shows them')
    await page.getByRole('button', { name: 'Run all' }).click()
    await page.locator('.scenario-run-all__status[data-state="done"]').waitFor()
    t.equal(squeeze(await page.locator('.scenario-run-all__status').textContent()), 'Finished: 3 of 3 scenarios run · 3 passed, 0 failed, 0 could not run. The list shows the results.')
    t.equal(await page.locator('[data-fragment="scenario-list"] tr[data-status="pass"]').count(), 3, 'all three pass')
    await shot(page, '05-scenarios-run')
  })

  await t.test('6. publish as a team of one: self-approval allowed, requested, approved, live', async (t) => {
    await page.locator('.crumbs').getByRole('link', { name: 'Mortgage affordability' }).click()
    await page.getByRole('link', { name: 'Publish', exact: true }).click()
    await page.waitForURL(`**/adviceset/${setId}/publish`)
    await settled(t)
    t.equal(squeeze(await page.locator('dd[data-served="production"]').textContent()), 'Nothing published')
    await page.getByLabel('Notes for the new version').fill('Three bands of debt-to-income')
    await page.getByRole('button', { name: 'Create version' }).click()
    await page.getByRole('button', { name: 'Submit for review version 1' }).click()
    await page.locator('tr[data-version-id][data-state="review"]').waitFor()
    await page.getByRole('link', { name: 'Version 1' }).click()
    await page.locator('main[data-page="publish-version-show"]').waitFor()
    await settled(t)
    const gate = page.locator('.review-gate')
    t.match(squeeze(await gate.locator('.gate-approver').textContent()), `Nobody else in ${AUTHOR.company} can approve this version`, 'the gate says why nobody can approve')
    t.ok(await page.locator('button[data-action="approve"]').isDisabled(), 'approving is not offered yet')
    t.equal(squeeze(await gate.locator('.gate-figure').first().textContent()), '3 / 3 scenarios pass')
    t.equal(await gate.locator('.gate-figure[data-advice-covered]').getAttribute('data-advice-covered'), '3/3', 'the gate shows every advice item covered')
    t.match(squeeze(await gate.locator('#coverage [data-advice-covered]').textContent()), 'Advice covered: 3 of 3 (100%).')
    t.equal(await gate.locator('[data-error-branches]').getAttribute('data-error-branches'), '0', 'and no branch ending in an error')
    t.match(squeeze(await gate.locator('#coverage').textContent()), 'Every outcome branch is reached by a saved scenario.')
    await shot(page, '06-gate-team-of-one')

    await gate.getByRole('link', { name: 'allow self-approval' }).click()
    await page.locator('main[data-page="user-page"]').waitFor()
    await settled(t)
    t.match(page.url(), /\/user\/team#publishing$/)
    // A role is a menu for the team's admins (its chosen value is the role), else plain text.
    const members = await page.locator('main table tbody tr').evaluateAll((rows) => rows.map((row) => [...(row as HTMLTableRowElement).cells]
      .slice(0, 4).map((cell) => cell.querySelector('select')?.value ?? cell.textContent?.trim())))
    t.same(members, [[AUTHOR.name, AUTHOR.email, 'admin', 'Active']], 'the author is the team\'s only member, its admin')
    t.match(squeeze(await page.locator('[data-self-approval]').textContent()), 'Self-approval is off')
    await page.getByLabel('Allow self-approval: an admin may approve a version they submitted').check()
    await page.getByRole('region', { name: 'Publishing' }).getByRole('button', { name: 'Save' }).click()
    await page.locator('[data-self-approval="true"]').waitFor()
    t.match(squeeze(await page.locator('[data-self-approval="true"]').textContent()), new RegExp(`Self-approval is allowed since .+ \\(by ${AUTHOR.name}\\)`))
    await shot(page, '06-team-self-approval')

    await page.goBack()
    await page.goBack()
    await page.locator('main[data-page="publish-version-show"]').waitFor()
    await settled(t)
    t.match(squeeze(await page.locator('.gate-approver').textContent()), 'This team allows self-approval', 'Back to the version: the gate has the new setting')
    await page.getByRole('button', { name: 'Approve version 1' }).click()
    await page.locator('[data-version-state="approved"]').waitFor()
    t.match(squeeze(await page.locator('[data-self-approved="true"]').textContent()), `Approved by its submitter (self-approval allowed by ${AUTHOR.name} on`)
    await page.getByRole('button', { name: 'Publish version 1' }).click()
    await page.locator('[data-version-state="published"]').waitFor()
    t.match(squeeze(await page.locator('.version-log').textContent()), 'Approved by its submitter', 'its history says how it was approved')
    await shot(page, '06-version-published')
    await page.locator('.publish-crumb').getByRole('link', { name: 'Mortgage affordability' }).click()
    await page.getByRole('link', { name: 'Publish', exact: true }).click()
    t.equal(squeeze(await page.locator('dd[data-served="production"]').textContent()), 'Version 1', 'version 1 is live')
    t.equal(await page.locator('tr[data-version-id][data-state="published"]').count(), 1)
    await shot(page, '06-live')
  })

  await t.test('7. edit an advice node, leave, press Back: the tree shows the edit', async (t) => {
    await page.locator('.publish-crumb').getByRole('link', { name: 'Mortgage affordability' }).click()
    await page.locator('.set-rules').getByRole('link', { name: 'Affordability' }).click()
    await page.waitForURL(ruleUrl)
    await settled(t)
    const before = BANDS[2]
    const after = { headline: 'Pay your debts down before you borrow', text: 'At [[Debt_Ratio]] lenders will say no; bring it under 0.43 first.' }
    await item(before.headline).focus()
    await keys.press('F2')
    await editorField('headline').fill(after.headline)
    await editorField('text').fill(after.text)
    const saved = page.waitForResponse((r) => /\/api\/rule\/\d+\/node\/\d+$/.test(r.url()) && r.request().method() === 'PATCH')
    await editorField('headline').press('Enter')
    t.equal((await saved).status(), 200, 'the edit is saved')
    await item(after.headline).and(activeItem).waitFor()

    await page.locator('.crumbs').getByRole('link', { name: 'Mortgage affordability' }).click()
    await page.waitForURL(`**/adviceset/${setId}/show`)
    await page.goBack()
    await page.waitForURL(ruleUrl)
    await settled(t)
    await item(after.headline).waitFor()
    t.equal(await item(before.headline).count(), 0, 'the old headline is gone')
    await item(after.headline).focus()
    await keys.press('F2')
    t.equal(await editorField('text').inputValue(), after.text, 'the editor holds the edited text')
    await shot(page, '07-back-shows-edit')
    await keys.press('Escape')
    t.same(console.messages.filter((m) => m.type === 'error'), [], 'no errors in the console along the way')
  })
})
