// In Chromium (issue 17 acceptance): an author creates an external API definition, sends a test request to a local
// (allow-listed) server, maps a value of the answer with one click, saves, and uses it from a rule node through the
// API Call node's picker (the apiselector); the debugger then shows the call's request and response.
import t from 'tap'
import { eq } from 'drizzle-orm'
import { startServer } from '../helpers/server.ts'
import { createAdviceSet } from '../helpers/advice-sets.ts'
import { buildRule, createVariable } from '../helpers/rules.ts'
import { startLocalServer } from '../helpers/outbound.ts'
import { axeViolationsInMain, chromiumMissing, islandsSettled, launchBrowser, newQuietContext, signInByApi } from '../helpers/browser.ts'
import { externalApis, ruleNodes } from '../../src/db/schema/index.ts'

const SCREENSHOTS = process.env.SCREENSHOT_DIR

t.test('define an external API, test it, map a field and call it from a rule', { skip: chromiumMissing, timeout: 120_000 }, async (t) => {
  const rates = await startLocalServer(t, (req, res) => {
    const currency = /\/rates\/(\w+)/.exec(req.url ?? '')?.[1] ?? 'EUR'
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ base: currency, data: { exchange_rate: 1.0842, updated: '2026-11-24' } }))
  })
  const server = await startServer({ env: { OUTBOUND_ALLOW: `127.0.0.1:${rates.port}` } })
  t.teardown(() => server.close())
  const browser = await launchBrowser(t)
  const author = await server.createUser({ role: 'author' })
  await createVariable(server.db, author.ownerId, 'Exchange_Rate')
  await createVariable(server.db, author.ownerId, 'Currency', { dataType: 'freetext' })
  const set = await createAdviceSet(server.db, { ownerId: author.ownerId, name: 'Travel money' })
  const { rule } = await buildRule(server.db, set.id, 'Rates', [{ type: 'inputRequest', variable: 'Currency', question: 'Which currency?' }])
  const context = await newQuietContext(browser)
  t.teardown(() => context.close())
  const page = await context.newPage()
  await signInByApi(page, server.url, author)

  await page.goto(`${server.url}/`)
  await page.getByRole('link', { name: 'External APIs' }).click()
  await page.getByText('No external APIs yet.').waitFor()
  await page.getByRole('link', { name: 'New external API' }).click()
  t.equal(await islandsSettled(page), 'mounted')
  await page.getByRole('button', { name: 'Create external API' }).click()
  await page.getByText('Name is required.').waitFor()

  await page.getByLabel('Name', { exact: true }).fill('Exchange rates')
  await page.getByLabel('URL').fill(`${rates.url}/rates/{{Currency}}`)
  await page.getByRole('button', { name: 'Add header' }).click()
  await page.getByLabel('Header 1 name').fill('Authorization')
  await page.getByLabel('Header 1 value').fill('Bearer browser-secret-42')
  await page.getByLabel('Header 1 is secret').check()
  await page.getByLabel('{{Currency}}').fill('USD')
  await page.getByRole('button', { name: 'Send test request' }).click()
  await page.locator('[data-test-outcome="ok"]').waitFor()
  t.equal(await page.locator('[data-test-status]').innerText(), '200')
  t.match(rates.requests.at(-1), { url: '/rates/USD', headers: { authorization: 'Bearer browser-secret-42' } })
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/external-api-new.png`, fullPage: true })

  await page.locator('[data-answer-path="/data/exchange_rate"]').getByRole('button', { name: 'Map' }).click()
  t.equal(await page.getByLabel('Mapping 1 path').inputValue(), '/data/exchange_rate')
  t.equal(await page.getByLabel('Mapping 1 variable').inputValue(), 'Exchange_Rate')
  t.equal(await page.getByLabel('Mapping 1 data type').inputValue(), 'number')
  await page.getByRole('button', { name: 'Create external API' }).click()
  await page.waitForURL(/\/api-manager\/\d+\/edit$/)
  t.equal(await islandsSettled(page), 'mounted')
  const [saved] = await server.db.select().from(externalApis).where(eq(externalApis.ownerId, author.ownerId))
  t.same(saved!.responseMapping, [{ path: '/data/exchange_rate', variable: 'Exchange_Rate', dataType: 'number' }])
  t.notOk((await page.content()).includes('browser-secret-42'), 'the saved secret is not in the edit page')
  t.equal(await page.getByLabel('Header 1 value').getAttribute('placeholder'), '•••••• (stored; leave empty to keep)')
  t.same(await axeViolationsInMain(page), [], 'the form passes axe')

  await page.goto(`${server.url}/adviceset/${set.id}/rule/${rule.id}/show`)
  t.equal(await islandsSettled(page), 'mounted')
  await page.getByRole('button', { name: 'Add node' }).click()
  await page.getByRole('option', { name: 'API Call' }).click()
  const apiField = page.locator('.rule-tree__editor select[name="apiId"]')
  await apiField.locator(`option[value="${saved!.id}"]`).waitFor({ state: 'attached' })
  await apiField.selectOption(String(saved!.id))
  t.equal(await page.locator('.rule-tree__editor input[name="variable"]').inputValue(), 'Exchange_Rate', 'choosing the API fills the variable it maps')
  const created = page.waitForResponse((response) => response.url().includes(`/api/rule/${rule.id}/node`) && response.request().method() === 'POST')
  await page.getByRole('button', { name: 'Save' }).click()
  t.equal((await created).status(), 201)
  const [node] = await server.db.select().from(ruleNodes).where(eq(ruleNodes.type, 'apiCall'))
  t.same([node!.apiId, node!.variable], [String(saved!.id), 'Exchange_Rate'])
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/rule-api-call.png`, fullPage: true })

  await page.goto(`${server.url}/api-manager/${saved!.id}/edit`)
  await page.locator(`[data-use-node="${node!.id}"]`).waitFor()
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/external-api-edit.png`, fullPage: true })

  await page.goto(`${server.url}/adviceset/${set.id}/rule/debug?ruleId=${rule.id}`)
  t.equal(await islandsSettled(page), 'mounted')
  await page.getByLabel('Which currency?').fill('CHF')
  await page.getByRole('button', { name: 'Run' }).click()
  const call = page.locator(`[data-api-call="${saved!.id}"]`)
  await call.waitFor()
  t.equal(await call.getAttribute('data-api-outcome'), 'ok')
  await call.locator('summary').click()
  t.equal(await call.locator('[data-api-request]').innerText(), `GET ${rates.url}/rates/CHF`)
  t.match(await call.locator('[data-api-response]').innerText(), '"exchange_rate":1.0842')
  t.match(await call.innerText(), 'Authorization: ••••••', 'the secret header is masked in the trace')
  t.notOk((await page.content()).includes('browser-secret-42'))
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/rule-debug-api.png`, fullPage: true })
})
