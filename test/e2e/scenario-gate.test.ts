// Issue 14 parts 5–7 in the browser: fork a scenario in the tree builder (live preview, save, the new leaf), approve a
// version through the review gate's confirmation (refused without it, accepted with it, recorded in the history), and
// the search box showing a keyword map's target first.
import t from 'tap'
import { eq } from 'drizzle-orm'
import type { Page } from 'playwright-core'
import { startServer } from '../helpers/server.ts'
import { axeViolationsInMain, chromiumMissing, islandsSettled, launchBrowser, newQuietContext, signInByApi } from '../helpers/browser.ts'
import { retirementSet } from '../helpers/scenarios.ts'
import { publishVersion } from '../helpers/publishing.ts'
import { findUserById } from '../../src/db/queries/users.ts'
import { actorForUser } from '../../src/services/accounts/users.ts'
import { createScenario } from '../../src/services/scenarios/scenarios.ts'
import { createVersion } from '../../src/services/publishing/versions.ts'
import { transitionVersion } from '../../src/services/publishing/workflow.ts'
import { adviceScenarios, ruleNodes } from '../../src/db/schema/index.ts'

t.test('tree builder, review gate and keyword maps in the browser', { skip: chromiumMissing }, async (t) => {
  const server = await startServer()
  t.teardown(() => server.close())
  const browser = await launchBrowser(t)
  const author = await server.createUser({ role: 'author' })
  const admin = await server.createUser({ role: 'admin', ownerId: author.ownerId })
  const authorActor = actorForUser((await findUserById(server.db, author.id))!)
  const deps = server.app.deps
  const { set, ids } = await retirementSet(server.db, author.ownerId, { name: 'Pension paths' })
  const retired = await createScenario(deps, authorActor, { adviceSetId: set.id, name: 'Retired at 70', inputs: { Age: 70 } })
  await createScenario(deps, authorActor, { adviceSetId: set.id, name: 'Bold at 40', inputs: { Age: 40, Risk: 'high' } })

  async function signedIn(user: { email: string; password: string }) {
    const context = await newQuietContext(browser)
    t.teardown(() => context.close())
    const page = await context.newPage()
    await signInByApi(page, server.url, user)
    return async (path: string): Promise<Page> => {
      await page.goto(`${server.url}${path}`)
      t.equal(await islandsSettled(page), 'mounted', `${path} mounted its islands`)
      return page
    }
  }
  const asAuthor = await signedIn(author)
  const asAdmin = await signedIn(admin)

  t.test('fork a scenario in the tree builder', async (t) => {
    const page = await asAuthor(`/adviceset/${set.id}/advicescenario/tree`)
    t.same(await page.locator('.tree-question[data-splits="true"] > .tree-question__label').first().textContent().then((s) => s?.replace(/\s+/g, ' ').trim()), 'How old are you? {{Age}} Outcomes split', 'where outcomes split is marked')
    const summary = page.locator('.tree-answer > details > summary').first()
    await summary.focus()
    await page.keyboard.press('Enter')
    t.equal(await page.locator('.tree-answer > details').first().getAttribute('open'), null, 'a branch closes from the keyboard')
    await page.keyboard.press('Enter')

    await page.getByRole('link', { name: 'Fork “Bold at 40”' }).click()
    const panel = page.locator('.fork-panel[data-scenario-id]')
    await panel.waitFor()
    t.match(await page.getByRole('heading', { name: 'Fork “Bold at 40”' }).count(), 1)
    t.match(page.url(), /\/tree\?fork=\d+#fork$/, 'the address says which scenario is forked')
    const age = page.getByLabel('How old are you?')
    t.equal(await age.inputValue(), '40', 'it starts from the scenario’s answer')
    await age.fill('70')
    await page.locator('.fork-panel[data-preview-state="ready"]').waitFor()
    t.match(await page.locator('.fork-preview').textContent(), /Retire[\s\S]*Adds: Retire[\s\S]*No longer: Shares[\s\S]*Answers no longer asked are left out: Risk/, 'the draft’s outcome shows at once')
    await age.fill('40')
    await page.locator('.fork-panel[data-preview-state="error"]').waitFor()
    t.match(await panel.locator('[role="alert"]').textContent(), 'is the scenario’s own answer', 'its own answer is refused beside the field')
    await age.fill('72')
    await page.locator('.fork-panel[data-preview-state="ready"]').waitFor()
    await page.getByLabel('Name of the new scenario').fill('What if 72')
    await page.getByRole('button', { name: 'Save as scenario' }).click()
    await page.waitForURL(/\/tree\?created=\d+#scenario-\d+$/)
    t.equal(await islandsSettled(page), 'mounted')
    const leaf = page.locator('.tree-leaf.is-new')
    t.match(await leaf.textContent(), /What if 72[\s\S]*New[\s\S]*Advice now: Retire · Figures are before tax/)
    t.equal(await leaf.locator('xpath=ancestor::li[contains(@class, "tree-answer")][1]').getAttribute('data-answer'), '72', 'placed under its answer')
    const [saved] = await server.db.select().from(adviceScenarios).where(eq(adviceScenarios.name, 'What if 72'))
    t.same(saved!.inputs, { Age: 72 })
    t.same(await axeViolationsInMain(page), [], 'no accessibility violations')
  })

  t.test('approve a version through the review gate’s confirmation', async (t) => {
    const published = await publishVersion(server.db, { adviceSetId: set.id })
    await server.db.update(ruleNodes).set({ expression: '{{Age}} >= 80' }).where(eq(ruleNodes.id, Number(ids.old)))
    const version = await createVersion(deps, authorActor, { adviceSetId: set.id })
    await transitionVersion(deps, authorActor, version.id, 'submit')
    const page = await asAdmin(`/adviceset/${set.id}/publish/versions/${version.id}`)
    t.equal(await page.locator('.review-gate').getAttribute('data-risky'), 'true')
    const failing = page.locator(`.gate-scenarios tr[data-scenario-id="${retired.id}"]`)
    t.equal(await failing.getAttribute('data-status'), 'fail', 'the gate shows the failing scenario')
    t.equal(await failing.getAttribute('data-changed'), 'true', 'changed from the published version')
    t.equal(await page.locator('.gate-scenarios tbody tr').first().getAttribute('data-scenario-id'), String(retired.id), 'changed outcomes first')
    t.match(await page.locator('.gate-scenarios thead').textContent(), `Published version ${published.number}`)
    t.match(await page.locator('#coverage').textContent(), /\d+(\.\d)?% of the \d+ outcome branch(es)? reached by the \d+ saved scenarios/)
    t.match(await page.locator('#coverage').textContent(), /Advice covered: \d+ of \d+/)

    await page.getByRole('button', { name: `Approve version ${version.number}` }).click()
    await page.waitForLoadState()
    t.equal(await islandsSettled(page), 'mounted')
    t.match(await page.locator('#acknowledge-error').textContent(), 'acknowledgeRisks: this version has 2 failing scenarios.', 'refused without the confirmation')
    t.equal(await page.locator('[data-version-state]').getAttribute('data-version-state'), 'review', 'still in review')

    await page.getByLabel(/Approve anyway/).check()
    await page.getByRole('button', { name: `Approve version ${version.number}` }).click()
    await page.waitForURL(new RegExp(`/publish/versions/${version.id}$`))
    t.equal(await islandsSettled(page), 'mounted')
    t.equal(await page.locator('[data-version-state]').getAttribute('data-version-state'), 'approved', 'accepted with it')
    t.match(await page.locator('.version-log').textContent(), 'Approved despite 2 failing scenarios: the risks were acknowledged.', 'the history records the confirmation')
    t.same(await axeViolationsInMain(page), [], 'no accessibility violations')
  })

  t.test('the search box shows a keyword map’s target first', async (t) => {
    const page = await asAdmin('/admin/keywordMap')
    await page.getByLabel('Name', { exact: true }).fill('Retiring questions')
    await page.getByLabel('Phrases').fill('when can I retire\nretire at 70')
    await page.getByLabel('Advice set').selectOption({ label: 'Pension paths' })
    await page.getByLabel('Scenario (optional)').selectOption({ label: 'Retired at 70' })
    await page.getByRole('button', { name: 'Create keyword map' }).click()
    await page.waitForURL(/\/admin\/keywordMap$/)
    t.match(await page.locator('table.keyword-maps').textContent(), /Retiring questions[\s\S]*when can I retire/)

    const library = await asAuthor('/library')
    const input = library.locator('#search-box-input')
    await input.focus()
    await library.locator('form.search-box[data-panel="ready"]').waitFor()
    const answered = library.waitForResponse((response) => response.url().endsWith('/api/search'))
    await input.fill('retire at 70')
    await answered
    const first = library.locator('#search-box-results [role="option"]').first()
    await first.waitFor()
    t.ok(await first.evaluate((node) => node.classList.contains('search-hit--suggested')), 'the first result is the suggestion')
    t.match(await first.textContent(), /Pension paths[\s\S]*Suggested[\s\S]*Scenario: Retired at 70/)
    await input.press('ArrowDown')
    await input.press('Enter')
    await library.waitForURL(new RegExp(`/adviceset/${set.id}/rule/debug\\?scenario=${retired.id}$`))
    t.equal(await library.getByLabel('How old are you?').inputValue(), '70', 'following it opens the debugger with the scenario’s answers')
  })
})
