// Issue 25: the keyword-map form's scenario list follows the advice set chosen above it, in the browser — only that
// set's scenarios can be picked, one of another set is unselected, and a set with none says so.
import t from 'tap'
import { startServer } from '../helpers/server.ts'
import { signedInAgent } from '../helpers/agent.ts'
import { createAdviceSet } from '../helpers/advice-sets.ts'
import { retirementSet } from '../helpers/scenarios.ts'
import { chromiumMissing, launchBrowser, newQuietContext, signInByApi } from '../helpers/browser.ts'

t.test('the scenario list follows the chosen advice set', { skip: chromiumMissing }, async (t) => {
  const server = await startServer()
  t.teardown(() => server.close())
  const admin = await server.createUser({ role: 'admin' })
  const { set } = await retirementSet(server.db, admin.ownerId)
  const other = await createAdviceSet(server.db, { ownerId: admin.ownerId, name: 'Savings plan' })
  const agent = await signedInAgent(server.app, admin)
  t.equal((await agent.api('POST', '/api/advicescenario', { adviceSetId: set.id, name: 'Young and bold', inputs: { Age: 40 } })).statusCode, 201)
  const browser = await launchBrowser(t)
  const context = await newQuietContext(browser)
  t.teardown(() => context.close())
  const page = await context.newPage()
  await signInByApi(page, server.url, admin)
  await page.goto(`${server.url}/admin/keywordMap`)
  await page.locator('main[data-island-state="mounted"]').waitFor()
  const scenarios = page.getByLabel('Scenario (optional)')
  const offered = () => scenarios.locator('optgroup:not([disabled]) option').allTextContents()

  t.same(await offered(), [], 'no set chosen: no scenario offered')
  await page.getByLabel('Advice set').selectOption(String(set.id))
  t.same(await offered(), ['Young and bold'], 'the set’s scenarios')
  await scenarios.selectOption({ label: 'Young and bold' })
  await page.getByLabel('Advice set').selectOption(String(other.id))
  t.same(await offered(), [], 'another set: its (none)')
  t.equal(await scenarios.inputValue(), '', 'the scenario of the other set is unselected')
  await page.getByText('Your team has no scenarios of this advice set: the map opens the set’s page.').waitFor()
  if (process.env.SCREENSHOT_DIR) await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/keyword-map-form.png`, fullPage: true })
})
