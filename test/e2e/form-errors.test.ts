// In Chromium: a refused form shows each message at its field and the focus moves to the first field in error, on
// server-rendered forms (autofocus) and on island forms (focus after the answer): a name already taken in the
// dictionary and among tags, an API key with a bad origin and a rate limit of 0 (both told at once), an external API
// with two bad fields, and a name refused when the inline editor saves it (issues 24, 25).
import t from 'tap'
import type { Page } from 'playwright-core'
import { startServer } from '../helpers/server.ts'
import { createOwner } from '../helpers/factories.ts'
import { createVariable } from '../helpers/rules.ts'
import { axeViolationsInMain, chromiumMissing, islandsSettled, launchBrowser, newQuietContext, signInByApi } from '../helpers/browser.ts'

const shotDir = process.env.SCREENSHOT_DIR

async function shot(page: Page, name: string): Promise<void> {
  if (shotDir) await page.screenshot({ path: `${shotDir}/${name}.png`, fullPage: true })
}

/** The focused element: its name, and the text of the messages its aria-describedby points at. */
function focused(page: Page): Promise<{ name: string | null; describedBy: string }> {
  return page.evaluate(() => {
    const active = document.activeElement
    const ids = active?.getAttribute('aria-describedby')?.split(/\s+/) ?? []
    return {
      name: active?.getAttribute('name') ?? active?.id ?? null,
      describedBy: ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' '),
    }
  })
}

t.test('refused forms: messages at their fields, focus on the first', { skip: chromiumMissing }, async (t) => {
  const server = await startServer()
  t.teardown(() => server.close())
  const browser = await launchBrowser(t)
  const ownerId = await createOwner(server.db, { name: 'Pension team' })
  const admin = await server.createUser({ role: 'admin', ownerId })
  await createVariable(server.db, ownerId, 'Birth_Date', { dataType: 'date' })
  const context = await newQuietContext(browser)
  t.teardown(() => context.close())
  const page = await context.newPage()
  await signInByApi(page, server.url, admin)

  await t.test('a dictionary name already taken (island form)', async (t) => {
    await page.goto(`${server.url}/card/variable`)
    t.equal(await islandsSettled(page), 'mounted')
    await page.getByLabel('Name').fill('Birth_Date')
    await page.getByRole('button', { name: 'Create' }).click()
    const message = page.locator('.field-error', { hasText: 'Birth_Date is already in the dictionary.' })
    await message.waitFor()
    await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'reservedName')
    const now = await focused(page)
    t.equal(now.name, 'reservedName', 'the Name field has the focus')
    t.match(now.describedBy, 'Birth_Date is already in the dictionary.', 'and points at its message')
    t.equal(await page.getByLabel('Name').getAttribute('aria-invalid'), 'true')
    t.same(await axeViolationsInMain(page), [], 'the refused form passes axe')
    await shot(page, 'dictionary-name-taken')
  })

  await t.test('a tag name already taken (server-rendered form)', async (t) => {
    await page.goto(`${server.url}/admin/tag`)
    await page.getByLabel('Tag', { exact: true }).fill('Pensions')
    await page.getByRole('button', { name: 'Create tag' }).click()
    await page.getByText('Tag “Pensions” created.').waitFor()
    await page.getByLabel('Tag', { exact: true }).fill('Pensions')
    await page.getByRole('button', { name: 'Create tag' }).click()
    await page.locator('.field-error', { hasText: 'A tag “Pensions” already exists.' }).waitFor()
    const now = await focused(page)
    t.equal(now.name, 'label', 'the Tag field has the focus')
    t.match(now.describedBy, 'A tag “Pensions” already exists.')
    await shot(page, 'tag-name-taken')
  })

  await t.test('an API key with a bad origin and a rate limit of 0: both at once', async (t) => {
    await page.goto(`${server.url}/admin/apikey/new`)
    await page.getByLabel('Name').fill('Partner portal')
    await page.getByLabel('Allowed embed origins').fill('ftp://files.example')
    await page.getByLabel('Rate limit (requests per minute)').fill('0')
    await page.getByRole('button', { name: 'Create key' }).click()
    await page.getByText('Please correct the 2 fields marked below.').waitFor()
    const now = await focused(page)
    t.equal(now.name, 'allowedOrigins', 'the first field in error has the focus')
    t.match(now.describedBy, '"ftp://files.example" is not an origin')
    const rate = page.getByLabel('Rate limit (requests per minute)')
    t.equal(await rate.getAttribute('aria-invalid'), 'true', 'the second field is marked too')
    t.match(await page.locator(`#${await rate.getAttribute('aria-describedby')}`).textContent(), 'Rate limit must be a whole number')
    t.equal(await page.getByLabel('Name').inputValue(), 'Partner portal', 'what was typed is kept')
    t.same(await axeViolationsInMain(page), [], 'the refused form passes axe')
    await shot(page, 'api-key-two-fields')
  })

  await t.test('an external API with two bad fields (island form): both at once', async (t) => {
    await page.goto(`${server.url}/api-manager/new`)
    t.equal(await islandsSettled(page), 'mounted')
    await page.getByLabel('URL').fill('https://rates.example/latest')
    await page.getByLabel('Timeout (ms)').fill('999999')
    await page.getByRole('button', { name: 'Create external API' }).click()
    await page.getByText('Please correct the 2 fields marked below.').waitFor()
    await page.waitForFunction(() => document.activeElement?.id === 'api-name')
    t.pass('the Name field, the first in error, has the focus')
    await page.locator('.field-error', { hasText: 'Name is required.' }).waitFor()
    await page.locator('.field-error', { hasText: 'Timeout (ms): a whole number from' }).waitFor()
    await shot(page, 'external-api-two-fields')
  })
  await t.test('a refused inline edit (profile name): told at the field, which opens again with the focus', async (t) => {
    await page.goto(`${server.url}/profile`)
    t.equal(await islandsSettled(page), 'mounted')
    const field = page.locator('[data-island="inline-editor"] [data-name="name"]')
    await field.locator('.inline-editor__text').click()
    await field.locator('input').fill('Bell\u0007Name')
    await field.locator('input').press('Enter')
    await field.locator('.inline-editor__error', { hasText: 'Name must be one line without control characters' }).waitFor()
    await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'name')
    const now = await focused(page)
    t.match(now.describedBy, 'Name must be one line without control characters', 'the focused field points at its message')
    await shot(page, 'profile-inline-refused')
  })
})
