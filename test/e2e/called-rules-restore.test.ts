// Issue 24 defects 1 and 4 in Chromium: the rule header names a called rule that also runs on its own and marks it
// "runs only when called"; restoring version 1 over an edit keeps the nodes, so the next version's page lists one
// changed node with its text before and after, and the node's comment is still there. Both pages pass axe.
import t from 'tap'
import { eq } from 'drizzle-orm'
import { startServer } from '../helpers/server.ts'
import { createOwner } from '../helpers/factories.ts'
import { createAdviceSet } from '../helpers/advice-sets.ts'
import { buildRule, createVariable } from '../helpers/rules.ts'
import { publishVersion } from '../helpers/publishing.ts'
import { axeViolationsInMain, chromiumMissing, islandsSettled, launchBrowser, newQuietContext, recordConsole, signInByApi } from '../helpers/browser.ts'
import { ruleNodes } from '../../src/db/schema/index.ts'

const SCREENSHOTS = process.env.SCREENSHOT_DIR

t.test('runs only when called, and a restore that keeps its nodes', { skip: chromiumMissing }, async (t) => {
  const server = await startServer()
  t.teardown(() => server.close())
  const browser = await launchBrowser(t)
  const ownerId = await createOwner(server.db, { name: 'Drawdown team' })
  const author = await server.createUser({ role: 'author', ownerId, name: 'Ann Author' })
  await createVariable(server.db, ownerId, 'Age')
  const set = await createAdviceSet(server.db, { ownerId, name: 'Drawdown' })
  const { rule: plan, nodes: [, , call] } = await buildRule(server.db, set.id, 'Drawdown plan', [
    { type: 'inputRequest', variable: 'Age', question: 'How old are you?' },
    { type: 'condition', expression: '{{Age}} >= 55 && {{Age}} <= 75', children: [{ type: 'ruleCall' }] },
  ])
  const { rule: tax, nodes: [taxAdvice] } = await buildRule(server.db, set.id, 'Tax check', [{ type: 'advice', headline: 'Income tax will apply', text: 'At {{Age}} your drawdown is taxed.' }])
  await server.db.update(ruleNodes).set({ calledRuleId: tax.id }).where(eq(ruleNodes.id, call!.id))

  const context = await newQuietContext(browser)
  t.teardown(() => context.close())
  const page = await context.newPage()
  const console = recordConsole(page)
  await signInByApi(page, server.url, author)

  // The caller's tree marks the call, as it marks its other static checks.
  const warning = "Tax check runs on its own and is also called by Drawdown plan: its advice can appear twice. Mark it 'runs only when called'."
  await page.goto(`${server.url}/adviceset/${set.id}/rule/${plan.id}/show`)
  t.equal(await islandsSettled(page), 'mounted')
  await page.locator('[role="tree"][data-checks="done"]').waitFor()
  t.equal(await page.locator(`[data-node-id="${call!.id}"] [data-code="RULE_RUNS_TWICE"]`).textContent(), warning, 'the call node carries the warning')
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/rule-tree-call-runs-twice.png`, fullPage: true })

  await page.goto(`${server.url}/adviceset/${set.id}/rule/${tax.id}/show`)
  t.equal(await islandsSettled(page), 'mounted')
  const header = page.locator('.rule-run-mode')
  t.equal(await header.locator('[data-check="RULE_RUNS_TWICE"]').textContent(), warning, 'so does the called rule’s header, beside the button')
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/rule-header-runs-twice.png`, fullPage: true })
  await header.getByRole('button', { name: 'Run only when called' }).click()
  await page.locator('.rule-run-mode[data-only-when-called="true"]').waitFor()
  t.match(await header.textContent(), /Runs only when called/)
  t.equal(await header.locator('[data-check="RULE_RUNS_TWICE"]').count(), 0, 'the warning is gone')
  t.same(await axeViolationsInMain(page), [], 'the rule page passes axe')
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/rule-header-only-when-called.png`, fullPage: true })

  // v1, a comment, an edit published as v2, then v1 restored from its page and v3 made from the draft.
  const v1 = await publishVersion(server.db, { adviceSetId: set.id })
  const api = async (method: string, url: string, body?: unknown) => page.evaluate(async ({ method, url, body }) => {
    const token = document.querySelector('meta[name="csrf-token"]')!.getAttribute('content')!
    const res = await fetch(url, { method, headers: { 'content-type': 'application/json', 'x-csrf-token': token }, body: body === undefined ? undefined : JSON.stringify(body) })
    return res.status
  }, { method, url, body })
  t.equal(await api('POST', `/api/comment/${taxAdvice!.id}`, { body: 'Check the 2026 bands' }), 201)
  t.equal(await api('PATCH', `/api/rule/${tax.id}/node/${taxAdvice!.id}`, { text: 'At {{Age}} your drawdown may be taxed.' }), 200)
  await publishVersion(server.db, { adviceSetId: set.id })
  await page.goto(`${server.url}/adviceset/${set.id}/publish/versions/${v1.id}`)
  await page.getByRole('button', { name: 'Restore into the working draft' }).click()
  await page.waitForURL(`${server.url}/adviceset/${set.id}/show`)
  await page.goto(`${server.url}/adviceset/${set.id}/publish`)
  await page.getByLabel('Notes for the new version').fill('Back to version 1')
  await page.getByRole('button', { name: 'Create version' }).click()
  await page.locator('tr[data-version-id]').first().waitFor()
  await page.getByRole('link', { name: 'Version 3' }).click()
  await page.locator('main[data-page="publish-version-show"]').waitFor()

  const nodes = page.locator('.version-changes > div').nth(1)
  t.match(await nodes.locator('h3').textContent(), /Nodes\s*\(1\)/)
  const changed = nodes.locator('[data-changes="nodes-changed"] li')
  t.equal(await changed.count(), 1, 'one changed node')
  t.match(await changed.textContent(), /Advice: Income tax will apply\s+in Tax check/)
  t.equal(await changed.locator('[data-field="Text"] del').textContent(), 'At {{Age}} your drawdown may be taxed.')
  t.equal(await changed.locator('[data-field="Text"] ins').textContent(), 'At {{Age}} your drawdown is taxed.')
  t.same(await axeViolationsInMain(page), [], 'the version page passes axe')
  if (SCREENSHOTS) await page.locator('.version-changes').screenshot({ path: `${SCREENSHOTS}/version-changes-after-restore.png` })

  await page.goto(`${server.url}/adviceset/${set.id}/rule/${tax.id}/part/${taxAdvice!.id}`)
  t.equal(await islandsSettled(page), 'mounted')
  t.equal(await page.locator(`[data-node-id="${taxAdvice!.id}"] [aria-label="1 comment"]`).count(), 1, 'the restored node still has its comment')
  t.same(console.messages.filter((m) => m.type === 'error'), [], 'no console errors')
})
