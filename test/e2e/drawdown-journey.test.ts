// Issue 24's acceptance journey in Chromium, as a new author walks it: sign up (a team of one), define an external API
// against a server this test starts on 127.0.0.1, and build a pension-drawdown set in the rule tree with the keyboard:
// a birth-date question, a Client_Age formula from it, a percent, an API Call, and a called rule "Tax check" (a
// variable assignment and a Rule Exit) that "Drawdown plan" calls under a 55–75 condition, marked "runs only when
// called" from the warning that it would run twice. Then debug it (the tax advice once, and not at all when the call
// does not run); generate branches (none unreachable) and keep the taxed one as a scenario; publish v1 with
// self-approval allowed; comment on a node, edit it and publish v2 (the gate names the changed advice); restore v1 and
// see version 3 change that one node with the comment kept; copy the set and debug the copy (the same advice as the
// original). Everything goes through the pages. Screenshots of each step go to SCREENSHOT_DIR
// when it is set.
import t, { type Test } from 'tap'
import type { Page } from 'playwright-core'
import { startServer } from '../helpers/server.ts'
import { startLocalServer } from '../helpers/outbound.ts'
import { chromiumMissing, launchBrowser, newQuietContext, recordConsole } from '../helpers/browser.ts'
import { ruleTreeOf, settledCheck, shot, squeeze } from './journey-page.ts'

const AUTHOR = { name: 'Priya Natarajan', email: 'priya@drawdown.example', company: 'Natarajan Pensions', password: 'Retire-Well-2026' }
const QUESTIONS = { birth: 'When were you born?', pot: 'How large is your pension pot?', rate: 'What share of the pot will you take each year?' }
const ADVICE = {
  early: { headline: 'Too early to draw', text: 'At [[Client_Age]] your pension cannot be drawn yet.' },
  annuity: { headline: 'Consider an annuity', text: 'Annuities pay {{Annuity_Rate}} of the price each year.' },
  noTax: { headline: 'No income tax', text: '{{Yearly_Income}} a year is within your personal allowance.' },
  tax: { headline: 'Income tax will apply', text: 'Tax is due on your {{Yearly_Income}} a year.' },
} as const
const TAX = { assignment: '{{Yearly_Income}} = {{Pot}} * {{Withdrawal_Rate}}', allowance: '{{Yearly_Income}} <= 12570' } as const
const AGES = { early: '[[Client_Age]] < 55', drawdown: '[[Client_Age]] >= 55 && [[Client_Age]] <= 75', late: '[[Client_Age]] > 75' } as const

// One journey of many steps, each waiting on the server: on a shared 2-core machine it can outlast tap's default
// per-file timeout, which would kill it midway.
t.setTimeout(300_000)


t.test('a new author\'s pension-drawdown journey', { skip: chromiumMissing }, async (t) => {
  const rates = await startLocalServer(t, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ provider: 'Loopback Annuities', rate: 6.5 }))
  })
  const server = await startServer({ env: { OUTBOUND_ALLOW: `127.0.0.1:${rates.port}` } })
  t.teardown(() => server.close())
  const browser = await launchBrowser(t)
  const context = await newQuietContext(browser)
  t.teardown(() => context.close())
  const page = await context.newPage()
  const console = recordConsole(page)
  const settled = settledCheck(page)

  const { tree, item, activeItem, nodeSaved } = ruleTreeOf(page)
  const editorField = (name: string) => page.locator(`.rule-tree__editor .rule-tree__field[data-field="${name}"]`).locator('input, textarea, select')
  const keys = page.keyboard
  let setId = 0
  const ruleUrls = { plan: '', tax: '' }

  await t.test('1. sign up: a team of one whose only admin is the new author', async (t) => {
    await page.goto(`${server.url}/signup`)
    await settled(t)
    await page.getByLabel('Your name').fill(AUTHOR.name)
    await page.getByLabel('E-mail').fill(AUTHOR.email)
    await page.getByLabel('Organisation').fill(AUTHOR.company)
    await page.getByLabel('Password').fill(AUTHOR.password)
    await page.getByRole('button', { name: 'Create account' }).click()
    await page.waitForURL(`${server.url}/`)
    await settled(t)
    t.equal(squeeze(await page.locator('main .lead').first().textContent()), `You are in ${AUTHOR.company} as admin.`)
    await shot(page, '01-home')
  })

  await t.test('2. define the annuity-rates API: a test request to the local server, its rate mapped', async (t) => {
    await page.getByRole('link', { name: 'External APIs' }).click()
    await page.getByRole('link', { name: 'New external API' }).click()
    await settled(t)
    await page.getByLabel('Name', { exact: true }).fill('Annuity rates')
    await page.getByLabel('URL').fill(`${rates.url}/annuity-rate`)
    await page.getByRole('button', { name: 'Send test request' }).click()
    await page.locator('[data-test-outcome="ok"]').waitFor()
    t.equal(await page.locator('[data-test-status]').innerText(), '200', 'the local server answered')
    await page.locator('[data-answer-path="/rate"]').getByRole('button', { name: 'Map' }).click()
    t.equal(await page.getByLabel('Mapping 1 path').inputValue(), '/rate')
    await page.getByLabel('Mapping 1 variable').fill('Annuity_Rate')
    t.equal(await page.getByLabel('Mapping 1 data type').inputValue(), 'number', 'a number in the answer maps to a number')
    await page.getByLabel('Mapping 1 data type').selectOption('percent')
    await shot(page, '02-external-api')
    await page.getByRole('button', { name: 'Create external API' }).click()
    await page.waitForURL(/\/api-manager\/\d+\/edit$/)
    await settled(t)
    t.equal(rates.requests.length, 1, 'one request: the test')
  })

  /** An Input Request for a variable the dictionary lacks: the editor offers to create it, then the question saves. */
  async function askFor(t: Test, variable: string, question: string, dataTypeLabel: string) {
    await keys.press('i')
    await keys.press('Enter')
    await keys.type(variable)
    await createInPlace(t, 'variable', variable, dataTypeLabel)
    await editorField('question').fill(question)
    const saved = nodeSaved()
    await editorField('question').press('Enter')
    t.equal((await saved).status(), 201, `the question for ${variable} is saved`)
    await item(question).and(activeItem).waitFor()
  }

  /** Adds a name the open editor flags as missing to the dictionary through its "Create variable" panel. */
  async function createInPlace(t: Test, kind: 'variable', name: string, dataTypeLabel: string | null) {
    const issue = page.locator('.rule-tree__issue[data-code="UNKNOWN_VARIABLE"]')
    t.equal(await issue.locator('.rule-tree__issue-message').textContent(), `{{${name}}} is not in the dictionary.`)
    await issue.getByRole('button', { name: `Create ${kind} ${name}` }).click()
    const panel = page.getByRole('group', { name: new RegExp(`Create ${kind} ${name}`) })
    if (dataTypeLabel) await panel.getByLabel('Data type').selectOption({ label: dataTypeLabel })
    else t.equal(await panel.getByLabel('Data type').inputValue(), 'percent', 'the type the API maps is offered')
    await shot(page, `03-create-${name.toLowerCase()}`)
    const created = page.waitForResponse((r) => r.url().endsWith('/api/entity') && r.request().method() === 'POST')
    await panel.getByRole('button', { name: `Create ${kind}` }).click()
    t.equal((await created).status(), 201, `{{${name}}} is added to the dictionary`)
    await panel.waitFor({ state: 'detached' })
    t.equal(await issue.count(), 0, 'the issue is gone')
  }

  /** A condition after the active node, with advice under it; ends on the condition. */
  async function condition(t: Test, expression: string, advice?: { headline: string; text: string }) {
    await keys.press('Shift+A')
    await keys.press('c')
    await keys.press('Enter')
    await editorField('expression').fill(expression)
    const saved = nodeSaved()
    await editorField('expression').press('Enter')
    t.equal((await saved).status(), 201, `the condition ${expression} is saved`)
    await item(expression).and(activeItem).waitFor()
    if (advice) {
      await addAdvice(t, 'a', advice)
      await keys.press('ArrowLeft')
      await item(expression).and(activeItem).waitFor()
    }
  }

  /** Advice as a child ('a') or after ('Shift+A') the active node. */
  async function addAdvice(t: Test, key: 'a' | 'Shift+A', advice: { headline: string; text: string }) {
    await keys.press(key)
    await keys.press('a')
    await keys.press('Enter')
    await keys.type(advice.headline)
    await keys.press('Tab')
    await keys.type(advice.text)
    const saved = nodeSaved()
    await keys.press('Enter')
    t.equal((await saved).status(), 201, `the advice “${advice.headline}” is saved`)
    await item(advice.headline).and(activeItem).waitFor()
  }

  /** Creates, submits, approves (self-approval allowed once, on the first) and publishes the next version. */
  async function publish(t: Test, number: number, notes: string) {
    await page.goto(`${server.url}/adviceset/${setId}/publish`)
    await settled(t)
    await page.getByLabel('Notes for the new version').fill(notes)
    await page.getByRole('button', { name: 'Create version' }).click()
    await page.getByRole('button', { name: `Submit for review version ${number}` }).click()
    await page.locator('tr[data-version-id][data-state="review"]').waitFor()
    await page.getByRole('link', { name: `Version ${number}` }).click()
    await page.locator('main[data-page="publish-version-show"]').waitFor()
    await settled(t)
    await shot(page, `publish-v${number}-gate`)
    const gate = page.locator('.review-gate')
    t.equal(squeeze(await gate.locator('.gate-figure').first().textContent()), '1 / 1 scenarios pass')
    if (number > 1) {
      t.equal(squeeze(await gate.locator('.gate-figure', { hasText: 'changed from version' }).textContent()), `1 outcome changed from version ${number - 1}`,
        'the edited advice text is a changed outcome')
      const edit = gate.locator('[data-edited-advice]')
      t.match(squeeze(await edit.textContent()), `Text of “${ADVICE.tax.headline}” changed`, 'named, with its text before and after')
    }
    if (number === 1) {
      await page.locator('.review-gate').getByRole('link', { name: 'allow self-approval' }).click()
      await page.locator('main[data-page="user-page"]').waitFor()
      await settled(t)
      await page.getByLabel('Allow self-approval: an admin may approve a version they submitted').check()
      await page.getByRole('region', { name: 'Publishing' }).getByRole('button', { name: 'Save' }).click()
      await page.locator('[data-self-approval="true"]').waitFor()
      await page.goBack()
      await page.goBack()
      await page.locator('main[data-page="publish-version-show"]').waitFor()
      await settled(t)
    }
    await page.getByRole('button', { name: `Approve version ${number}` }).click()
    await page.locator('[data-version-state="approved"]').waitFor()
    await page.getByRole('button', { name: `Publish version ${number}` }).click()
    await page.locator('[data-version-state="published"]').waitFor()
    await shot(page, `publish-v${number}-published`)
  }

  async function newRule(t: Test, name: string): Promise<string> {
    await page.locator('.crumbs').getByRole('link', { name: 'Pension drawdown' }).click()
    await page.waitForURL(`**/adviceset/${setId}/show`)
    await page.getByRole('link', { name: 'New rule' }).click()
    await page.getByLabel('Name', { exact: true }).fill(name)
    await page.getByRole('button', { name: 'Create rule' }).click()
    await page.waitForURL(/\/rule\/\d+\/show$/)
    await settled(t)
    return page.url()
  }

  await t.test('3. build "Drawdown plan": a birth date, an age formula, a percent, the API Call and the age bands', async (t) => {
    await page.goto(`${server.url}/`)
    await page.getByRole('link', { name: 'Create an advice set' }).click()
    await page.waitForURL('**/adviceset/new')
    await page.getByLabel('Name', { exact: true }).fill('Pension drawdown')
    await page.getByRole('button', { name: 'Create advice set' }).click()
    await page.waitForURL(/\/adviceset\/\d+\/show$/)
    setId = Number(/\/adviceset\/(\d+)\//.exec(page.url())![1])
    await page.getByRole('link', { name: 'New rule' }).click()
    await page.getByLabel('Name', { exact: true }).fill('Drawdown plan')
    await page.getByRole('button', { name: 'Create rule' }).click()
    await page.waitForURL(/\/rule\/\d+\/show$/)
    ruleUrls.plan = page.url()
    await settled(t)

    await page.getByRole('button', { name: 'Add node' }).focus()
    await keys.press('Enter')
    await askFor(t, 'Birth_Date', QUESTIONS.birth, 'Date')
    await keys.press('Shift+A')
    await askFor(t, 'Pot', QUESTIONS.pot, 'Number')
    await keys.press('Shift+A')
    await askFor(t, 'Withdrawal_Rate', QUESTIONS.rate, 'Percent')

    // The age, worked out from the birth date with age().
    await keys.press('Shift+A')
    await keys.press('f')
    await keys.press('Enter')
    await keys.type('Client_Age')
    await editorField('expression').fill('age({{Birth_Date}})')
    await page.getByRole('button', { name: 'Create formula Client_Age' }).click()
    const formulaPanel = page.getByRole('group', { name: /Create formula Client_Age/ })
    await formulaPanel.getByRole('button', { name: 'Create formula' }).click()
    await formulaPanel.waitFor({ state: 'detached' })
    let saved = nodeSaved()
    await editorField('expression').press('Enter')
    t.equal((await saved).status(), 201, 'the Formula node is saved')
    await item('[[Client_Age]] = age({{Birth_Date}})').and(activeItem).waitFor()

    // The API Call: choosing the API fills the variable it maps, which the editor offers to create with its type.
    await keys.press('Shift+A')
    await keys.press('a')
    await keys.press('a')
    await keys.press('Enter')
    await editorField('apiId').selectOption({ label: 'Annuity rates ({{Annuity_Rate}})' })
    t.equal(await editorField('variable').inputValue(), 'Annuity_Rate', 'choosing the API fills the variable it maps')
    await createInPlace(t, 'variable', 'Annuity_Rate', null)
    saved = nodeSaved()
    await page.locator('.rule-tree__editor-save').click()
    t.equal((await saved).status(), 201, 'the API Call node is saved')
    await item('Annuity rates').and(activeItem).waitFor()

    await condition(t, AGES.early, ADVICE.early)
    await condition(t, AGES.drawdown)
    await condition(t, AGES.late, ADVICE.annuity)
    const stats = page.locator('.rule-stats')
    t.equal(await stats.locator('div', { hasText: 'Errors' }).locator('dd').textContent(), '0', 'no errors')
    await shot(page, '03-plan-built')
  })

  await t.test('4. build "Tax check": the income assigned, the allowance with a Rule Exit, then the tax', async (t) => {
    ruleUrls.tax = await newRule(t, 'Tax check')
    await page.getByRole('button', { name: 'Add node' }).focus()
    await keys.press('Enter')
    await keys.press('v')
    await keys.press('Enter')
    await editorField('expression').fill(TAX.assignment)
    await createInPlace(t, 'variable', 'Yearly_Income', 'Number')
    let saved = nodeSaved()
    await editorField('expression').press('Enter')
    t.equal((await saved).status(), 201, 'the assignment is saved')
    await item(TAX.assignment).and(activeItem).waitFor()

    await condition(t, TAX.allowance, ADVICE.noTax)
    // Within the allowance the rule stops: its Rule Exit, after the advice. The tax advice after the condition is
    // then reached only above the allowance.
    await keys.press('ArrowRight')
    await item(ADVICE.noTax.headline).and(activeItem).waitFor()
    saved = nodeSaved()
    await keys.press('Shift+A')
    await keys.press('r')
    await keys.press('r')
    await keys.press('Enter')
    t.equal((await saved).status(), 201, 'the Rule Exit is saved')
    await item('Exit this rule').and(activeItem).waitFor()
    await keys.press('ArrowLeft')
    await item(TAX.allowance).and(activeItem).waitFor()
    await addAdvice(t, 'Shift+A', ADVICE.tax)
    t.same(await tree.locator('.rule-tree__summary').allTextContents(), [TAX.assignment, TAX.allowance, ADVICE.noTax.headline, 'Exit this rule', ADVICE.tax.headline],
      'the tree shows the rule as built')
    await shot(page, '04-tax-check-built')
  })

  await t.test('5. call "Tax check" under the 55–75 band; the warning that it runs twice leads to "runs only when called"', async (t) => {
    await page.goto(ruleUrls.plan)
    await settled(t)
    await item(AGES.drawdown).focus()
    await keys.press('a')
    await keys.press('r')
    await keys.press('Enter')
    const choices = await editorField('calledRuleId').locator('option').allTextContents()
    t.comment(JSON.stringify(choices))
    await editorField('calledRuleId').selectOption({ index: choices.findIndex((c) => c.startsWith('Tax check')) })
    const saved = nodeSaved()
    await page.locator('.rule-tree__editor-save').click()
    t.equal((await saved).status(), 201, 'the Rule Call is saved')
    const call = item('Tax check').and(activeItem)
    await call.waitFor()
    t.equal(await call.getAttribute('aria-level'), '2', 'under the 55–75 band')
    const warning = "Tax check runs on its own and is also called by Drawdown plan: its advice can appear twice. Mark it 'runs only when called'."
    await page.locator('[role="tree"][data-checks="done"]').waitFor()
    t.equal(await call.locator('[data-code="RULE_RUNS_TWICE"]').first().textContent(), warning, 'the call warns that Tax check would run twice')
    await shot(page, '05-call-runs-twice')

    await page.goto(ruleUrls.tax)
    await settled(t)
    const header = page.locator('.rule-run-mode')
    t.equal(await header.locator('[data-check="RULE_RUNS_TWICE"]').textContent(), warning, 'so does Tax check’s header')
    await header.getByRole('button', { name: 'Run only when called' }).click()
    await page.locator('.rule-run-mode[data-only-when-called="true"]').waitFor()
    t.equal(await header.locator('[data-check="RULE_RUNS_TWICE"]').count(), 0, 'the warning is gone')
    await shot(page, '05-runs-only-when-called')
    await page.goto(ruleUrls.plan)
    await settled(t)
    await page.locator('[role="tree"][data-checks="done"]').waitFor()
    t.equal(await tree.locator('[data-code="RULE_RUNS_TWICE"]').count(), 0, 'and the call no longer warns')
    const stats = page.locator('.rule-stats')
    t.equal(await stats.locator('div', { hasText: 'Errors' }).locator('dd').textContent(), '0', 'no errors')
    t.equal(await stats.locator('div', { hasText: 'Warnings' }).locator('dd').textContent(), '0', 'no warnings')
    await shot(page, '05-plan-with-call')
  })

  /** Runs the debugger with answers typed into its form and returns the advice headlines it shows. */
  async function debugRun(t: Test, page: Page, answers: { birth: string; pot: string; rate: string }): Promise<string[]> {
    await page.getByLabel(QUESTIONS.birth).fill(answers.birth)
    await page.getByLabel(QUESTIONS.pot).fill(answers.pot)
    await page.getByLabel(QUESTIONS.rate).fill(answers.rate)
    // The island marks its output busy as the click is handled, and fetches the run and its trace; once both are in,
    // the output is no longer busy and shows this run.
    const ran = Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/rule/debug')),
      page.waitForResponse((r) => r.url().includes('/rule/debug/tree?')),
    ])
    await page.getByRole('button', { name: 'Run', exact: true }).click()
    for (const response of await ran) t.equal(response.status(), 200, `${new URL(response.url()).pathname} answered`)
    await page.locator('.debug-output[aria-busy="false"] [data-fragment="rule-debug-tree"][data-ran="true"]').waitFor()
    t.equal(await page.locator('.debug-results .debug-errors').count(), 0, 'the run has no error')
    return (await page.locator('.debug-results .debug-advice .debug-headline').allTextContents()).map(squeeze)
  }

  /** What the four kinds of client get from a debug run of the set at `debugUrl`. */
  async function debugTheSet(t: Test, page: Page, label: string) {
    t.same(await debugRun(t, page, { birth: '1962-04-15', pot: '400,000', rate: '5' }), [ADVICE.tax.headline],
      `${label}: born 1962 (in the 55–75 band), drawing 20,000 a year: “${ADVICE.tax.headline}” once`)
    await shot(page, `${label}-debug-1962`)
    t.same(await debugRun(t, page, { birth: '1962-04-15', pot: '200,000', rate: '5' }), [ADVICE.noTax.headline],
      `${label}: drawing 10,000 a year: “${ADVICE.noTax.headline}”, and the Rule Exit stops Tax check before the tax`)
    t.same(await debugRun(t, page, { birth: '1980-06-01', pot: '400,000', rate: '5' }), [ADVICE.early.headline],
      `${label}: born 1980: too early, and nothing of Tax check since the call did not run`)
    t.same(await debugRun(t, page, { birth: '1945-01-31', pot: '400,000', rate: '5' }), [ADVICE.annuity.headline], `${label}: born 1945: an annuity`)
    t.match(squeeze(await page.locator('.debug-results .debug-text').first().textContent()), 'Annuities pay 6.5% of the price each year.', 'with the rate the API gave')
  }

  await t.test('6. debug: the tax advice once inside the band, none outside it; the API Call answers', async (t) => {
    await page.getByRole('link', { name: 'Debug', exact: true }).click()
    await page.waitForURL(/\/rule\/debug\?ruleId=\d+$/)
    await settled(t)
    await debugTheSet(t, page, '06')
    const call = page.locator('[data-api-call]').first()
    t.equal(await call.getAttribute('data-api-outcome'), 'ok', 'the API Call reached the local server')
    await shot(page, '06-debug-annuity')
  })

  const results = page.locator('[data-fragment="generate-branches-results"]')
  const answerOf = async (row: ReturnType<typeof results.locator>, name: string) => squeeze(await row.locator('.branch-answers div', { has: page.locator('dt', { hasText: name }) }).locator('dd').textContent())

  await t.test('7. generate branches: every path reached, through the dates, the percent and the called rule', async (t) => {
    await page.locator('.crumbs').getByRole('link', { name: 'Pension drawdown' }).click()
    await page.waitForURL(`**/adviceset/${setId}/show`)
    await page.getByRole('link', { name: 'Generate branches' }).click()
    await page.waitForURL(`**/adviceset/${setId}/advicescenario/gen-branches`)
    await settled(t)
    await page.getByRole('button', { name: 'Generate branches' }).click()
    await page.waitForURL(/\/gen-branches\?/)
    await results.locator('tr[data-branch]').first().waitFor()
    await shot(page, '07-branches')
    t.comment(squeeze(await results.locator('.branch-counts').textContent()))
    t.equal(await results.locator('[data-count="unreachable"]').textContent(), '0', 'nothing unreachable')
    t.equal(await page.locator('tr[data-unreachable]').count(), 0, 'no path is listed as unreachable')
    t.notMatch(squeeze(await page.locator('main').textContent()), /reaches this path/, 'no “None of the … combinations reaches this path”')
    t.equal(await results.locator('tr[data-kind="error"]').count(), 0, 'no branch ends in an error')
    const outcomes = (await results.locator('tr[data-kind="outcome"] .branch-advice li').allTextContents()).map(squeeze)
    for (const advice of Object.values(ADVICE)) t.ok(outcomes.includes(advice.headline), `a branch gives “${advice.headline}”`)

    // The branch that pays tax, kept as a scenario: the review gate compares its outcome between versions.
    const taxBranch = results.locator('tr[data-kind="outcome"]', { has: page.locator('.branch-advice li', { hasText: ADVICE.tax.headline }) })
    t.match(await answerOf(taxBranch, 'Birth_Date'), /^\d{4}-\d{2}-\d{2}$/, 'its birth date is a date')
    await taxBranch.getByRole('link', { name: 'Save as scenario' }).click()
    await page.waitForURL(/\/advicescenario\/new\?/)
    await settled(t)
    await page.getByLabel('Name', { exact: true }).fill('Taxed drawdown')
    await page.getByRole('button', { name: 'Save scenario' }).click()
    await page.waitForURL(/\/advicescenario\/\d+\/show$/)
    await shot(page, '07-scenario')
  })

  await t.test('8. publish version 1 as a team of one, allowing self-approval', async (t) => {
    await publish(t, 1, 'Drawdown with a tax check')
  })

  const taxEdit = { before: ADVICE.tax.text, after: 'Tax is due on your {{Yearly_Income}} a year, at your marginal rate.' }
  const comment = 'Check the 2026 allowance before each tax year'

  await t.test('9. comment on the tax advice, edit its text and publish version 2: the gate sees the changed outcome', async (t) => {
    await page.goto(ruleUrls.tax)
    await settled(t)
    await item(ADVICE.tax.headline).focus()
    await keys.press('m')
    const panel = page.locator('.rule-tree__comments')
    await panel.getByLabel('Add a comment').fill(comment)
    const posted = page.waitForResponse((r) => /\/api\/comment\/\d+$/.test(r.url()) && r.request().method() === 'POST')
    await panel.getByRole('button', { name: 'Add comment' }).click()
    t.equal((await posted).status(), 201, 'the comment is saved')
    await panel.getByText(comment).waitFor()
    await shot(page, '09-comment')
    await panel.getByRole('button', { name: 'Close' }).click()
    await item(ADVICE.tax.headline).locator('[aria-label="1 comment"]').waitFor()

    await item(ADVICE.tax.headline).focus()
    await keys.press('F2')
    await editorField('text').fill(taxEdit.after)
    const saved = page.waitForResponse((r) => /\/api\/rule\/\d+\/node\/\d+$/.test(r.url()) && r.request().method() === 'PATCH')
    await editorField('headline').press('Enter')
    t.equal((await saved).status(), 200, 'the edit is saved')
    await item(ADVICE.tax.headline).and(activeItem).waitFor()
    await publish(t, 2, 'Mention the marginal rate')
  })

  await t.test('10. restore version 1 and make version 3 from it: one node changed, its comment kept', async (t) => {
    await page.goto(`${server.url}/adviceset/${setId}/publish`)
    await settled(t)
    await page.getByRole('link', { name: 'Version 1', exact: true }).click()
    await page.locator('main[data-page="publish-version-show"]').waitFor()
    await page.getByRole('button', { name: 'Restore into the working draft' }).click()
    await page.waitForURL(`${server.url}/adviceset/${setId}/show`)
    await settled(t)
    await shot(page, '10-restored')
    await page.getByRole('link', { name: 'Publish', exact: true }).click()
    await page.waitForURL(`**/adviceset/${setId}/publish`)
    await page.getByLabel('Notes for the new version').fill('Back to version 1')
    await page.getByRole('button', { name: 'Create version' }).click()
    await page.getByRole('link', { name: 'Version 3', exact: true }).click()
    await page.locator('main[data-page="publish-version-show"]').waitFor()
    await settled(t)
    t.equal(squeeze(await page.locator('.review-gate .gate-figure', { hasText: 'changed from version' }).textContent()), '1 outcome changed from version 2',
      'the gate sees the restored text as a changed outcome too')
    const nodes = page.locator('.version-changes > div').nth(1)
    t.match(squeeze(await nodes.locator('h3').textContent()), 'Nodes (1)', 'one node differs from version 2')
    const changed = nodes.locator('[data-changes="nodes-changed"] li')
    t.equal(await changed.count(), 1, 'one changed node, none removed or added')
    t.match(squeeze(await changed.textContent()), `Advice: ${ADVICE.tax.headline} in Tax check`, 'named with its rule by name')
    t.equal(await changed.locator('[data-field="Text"] del').textContent(), taxEdit.after, 'the text before the restore')
    t.equal(await changed.locator('[data-field="Text"] ins').textContent(), taxEdit.before, 'and after it')
    await shot(page, '10-version-3-changes')

    await page.goto(ruleUrls.tax)
    await settled(t)
    await item(ADVICE.tax.headline).locator('[aria-label="1 comment"]').waitFor()
    await item(ADVICE.tax.headline).focus()
    await keys.press('m')
    await page.locator('.rule-tree__comments').getByText(comment).waitFor()
    t.pass('the restored node still has its comment')
    await shot(page, '10-comment-kept')
  })

  await t.test('11. copy the set and debug the copy: the same advice as the original', async (t) => {
    await page.goto(`${server.url}/adviceset/${setId}/show`)
    await settled(t)
    await page.getByRole('button', { name: 'Copy', exact: true }).click()
    await page.waitForURL((url) => /\/adviceset\/\d+\/show$/.test(url.pathname) && !url.pathname.startsWith(`/adviceset/${setId}/`))
    await settled(t)
    const copyName = squeeze(await page.locator('h1').textContent())
    t.comment(copyName)
    await shot(page, '11-copy')
    await page.locator('.set-rules').getByRole('link', { name: 'Drawdown plan' }).click()
    await page.waitForURL(/\/rule\/\d+\/show$/)
    await settled(t)
    t.not(page.url(), ruleUrls.plan, 'the copy’s own rule')
    const stats = page.locator('.rule-stats')
    await page.locator('[role="tree"][data-checks="done"]').waitFor()
    t.equal(await stats.locator('div', { hasText: 'Errors' }).locator('dd').textContent(), '0', 'the copy’s rule has no errors: its dictionary entries came with it')
    await shot(page, '11-copy-rule')
    await page.getByRole('link', { name: 'Debug', exact: true }).click()
    await page.waitForURL(/\/rule\/debug\?ruleId=\d+$/)
    await settled(t)
    await debugTheSet(t, page, '11')
    await shot(page, '11-copy-debug')
    t.same(console.messages.filter((m) => m.type === 'error'), [], 'no errors in the console along the way')
  })
})
