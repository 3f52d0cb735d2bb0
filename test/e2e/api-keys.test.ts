// In Chromium: an admin creates an API key through the form, sees its secret once with a working Copy button,
// and a reload shows that the secret is gone. The key pages pass axe.
import t from 'tap'
import { startServer } from '../helpers/server.ts'
import { createOwner } from '../helpers/factories.ts'
import { axeViolationsInMain, chromiumMissing, islandsSettled, launchBrowser, newQuietContext, recordConsole, signInByApi } from '../helpers/browser.ts'
import { authenticateApiKey } from '../../src/services/delivery/api-keys.ts'

t.test('create an API key and see its secret once', { skip: chromiumMissing }, async (t) => {
  const server = await startServer()
  t.teardown(() => server.close())
  const browser = await launchBrowser(t)
  const ownerId = await createOwner(server.db, { name: 'Partner team' })
  const admin = await server.createUser({ role: 'admin', ownerId })
  const context = await newQuietContext(browser, { permissions: ['clipboard-read', 'clipboard-write'] })
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url })
  t.teardown(() => context.close())
  const page = await context.newPage()
  const console = recordConsole(page)
  await signInByApi(page, server.url, admin)

  await page.goto(`${server.url}/`)
  await page.getByRole('link', { name: 'API keys' }).click()
  await page.waitForURL(`${server.url}/admin/apikey`)
  await page.getByRole('link', { name: 'New API key' }).click()
  await page.getByLabel('Allowed embed origins').fill('portal.partner.example')
  await page.getByRole('button', { name: 'Create key' }).click()
  await page.getByText('Name is required.').waitFor()
  t.same(await axeViolationsInMain(page), [], 'the form with a field error passes axe')
  await page.getByLabel('Name').fill('Partner portal')
  await page.getByLabel('Environment').selectOption('preview')
  await page.getByLabel('Allowed embed origins').fill('https://portal.partner.example')
  await page.getByRole('button', { name: 'Create key' }).click()
  await page.waitForURL(/\/admin\/apikey\/\d+\/copy$/)
  t.equal(await islandsSettled(page), 'mounted')

  t.same(await axeViolationsInMain(page), [], 'the copy page passes axe')
  const field = page.getByLabel('Key')
  const secret = await field.inputValue()
  t.match(secret, /^as_prev_[0-9a-f]{8}_[A-Za-z0-9_-]{32}$/, 'the whole secret is shown')
  const box = await field.evaluate((input: HTMLInputElement) => {
    const style = getComputedStyle(input)
    return { fits: input.scrollWidth <= input.clientWidth, line: input.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom), font: parseFloat(style.fontSize) }
  })
  t.ok(box.fits, 'the field is wide enough for the whole key: nothing scrolled out of sight')
  t.ok(box.line >= 1.4 * box.font, `the field's line (${box.line}px for ${box.font}px text) leaves room for the underscores below the baseline`)
  const key = await authenticateApiKey(server.db, `Bearer ${secret}`)
  t.same([key.environment, key.allowedOrigins], ['preview', ['https://portal.partner.example']])

  await page.getByRole('button', { name: 'Copy' }).click()
  await page.getByText('Key copied to the clipboard.').waitFor()
  t.equal(await page.evaluate(() => navigator.clipboard.readText()), secret, 'Copy puts the secret on the clipboard')

  await page.reload()
  await page.getByText('The secret was shown once, when it was made. If it is lost, rotate the key for a new one.').waitFor()
  t.equal(await page.getByLabel('Key').count(), 0, 'no key field after a reload')
  t.notOk((await page.content()).includes(secret.slice(-32)), 'the secret is nowhere in the page')

  await page.goto(`${server.url}/admin/apikey`)
  t.equal(await page.getByRole('link', { name: 'Partner portal' }).count(), 1, 'the list shows the key')
  t.match(await page.locator('table.api-keys').innerText(), `${key.prefix}_…`)
  t.same(await axeViolationsInMain(page), [], 'the list passes axe')
  await page.getByRole('link', { name: 'Usage' }).click()
  await page.locator('main[data-page="api-keys-usage"]').waitFor()
  t.same(await axeViolationsInMain(page), [], 'the usage page passes axe')
  // The refused form answers 400 by design; Chromium logs every 4xx document load.
  const errors = console.messages.filter((m) => m.type === 'error' && !m.text.includes('status of 400'))
  t.same(errors, [], 'no console errors')
})
