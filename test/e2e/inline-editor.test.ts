// The inline editor on /profile (issue 2 point 7; SPEC.md §2, §4, §5). Each scenario has its own user.
import t, { type Test } from 'tap'
import type { Page } from 'playwright-core'
import { startServer } from '../helpers/server.ts'
import { chromiumMissing, islandsSettled, launchBrowser, newQuietContext, signInByApi } from '../helpers/browser.ts'

t.test('inline editor', { skip: chromiumMissing }, async (t) => {
  const server = await startServer()
  t.teardown(() => server.close())
  const browser = await launchBrowser(t)

  async function openProfile(t: Test): Promise<Page> {
    const user = await server.createUser({ name: 'Ada Admin' })
    const context = await newQuietContext(browser)
    t.teardown(() => context.close())
    const page = await context.newPage()
    await signInByApi(page, server.url, user)
    await page.goto(`${server.url}/profile`)
    t.equal(await islandsSettled(page), 'mounted')
    return page
  }

  async function reload(t: Test, page: Page): Promise<void> {
    await page.reload()
    t.equal(await islandsSettled(page), 'mounted')
  }

  const editor = (page: Page) => page.locator('[data-island="inline-editor"]')
  const field = (page: Page, name: string) => editor(page).locator(`[data-name="${name}"]`)
  const text = (page: Page, name: string) => field(page, name).locator('.inline-editor__text')
  const control = (page: Page, name: string) => field(page, name).locator('input, textarea')
  const saveButton = (page: Page) => editor(page).getByRole('button', { name: 'Save' })
  const resetButton = (page: Page) => editor(page).getByRole('button', { name: 'Reset' })
  const patched = (page: Page) => page.waitForResponse((response) =>
    response.url().startsWith(`${server.url}/api/user/`) && response.request().method() === 'PATCH')

  t.test('clicking a text swaps in an input or a one-row textarea; Escape restores the text', async (t) => {
    const page = await openProfile(t)
    await page.getByRole('button', { name: 'Name Ada Admin' }).click()
    const input = editor(page).getByLabel('Name', { exact: true }).and(page.locator('input'))
    t.equal(await input.inputValue(), 'Ada Admin', 'the input holds the current text')
    t.ok(await input.evaluate((node) => node === document.activeElement), 'the input has the focus')

    await input.fill('Someone Else')
    await saveButton(page).waitFor()
    await input.press('Escape')
    t.equal(await control(page, 'name').count(), 0, 'Escape removed the input')
    t.equal(await text(page, 'name').textContent(), 'Ada Admin', 'and restored the text')
    t.equal(await saveButton(page).count(), 0, 'no Save button')
    t.equal(await resetButton(page).count(), 0, 'no Reset button')
    t.ok(await text(page, 'name').evaluate((node) => node === document.activeElement), 'focus is back on the text')

    await text(page, 'title').click()
    const textarea = editor(page).getByLabel('About', { exact: true }).and(page.locator('textarea'))
    t.equal(await textarea.getAttribute('rows'), '1', 'the textarea has one row')
    await text(page, 'name').click()
    t.equal(await control(page, 'title').count(), 0, 'leaving the textarea removed it')
  })

  t.test('Enter saves (Shift+Enter is a new line in a textarea) and the values survive a reload', async (t) => {
    const page = await openProfile(t)
    await text(page, 'name').click()
    const nameSaved = patched(page)
    await control(page, 'name').fill('Ada Lovelace')
    await page.keyboard.press('Enter')
    t.equal((await nameSaved).status(), 200, 'Enter in the input saved')
    await page.locator('.notification', { hasText: 'Saved.' }).first().waitFor()
    t.equal(await control(page, 'name').count(), 0, 'the input is gone')
    t.equal(await saveButton(page).count(), 0, 'nothing is left to save')

    await text(page, 'title').click()
    const aboutSaved = patched(page)
    await page.keyboard.type('Line one')
    await page.keyboard.press('Shift+Enter')
    await page.keyboard.type('Line two')
    t.equal(await control(page, 'title').inputValue(), 'Line one\nLine two', 'Shift+Enter added a line')
    await page.keyboard.press('Enter')
    t.equal((await aboutSaved).status(), 200, 'Enter in the textarea saved')

    await reload(t, page)
    t.equal(await text(page, 'name').textContent(), 'Ada Lovelace')
    t.equal(await text(page, 'title').textContent(), 'Line one\nLine two')
    t.equal(await field(page, 'name').getAttribute('data-original-value'), 'Ada Lovelace')
  })

  t.test('leaving keeps the edit and shows Save and Reset; Reset restores and hides them; line breaks alone are no change', async (t) => {
    const page = await openProfile(t)
    await text(page, 'title').click()
    await page.keyboard.type('Mathematician')
    await page.keyboard.press('Tab')
    t.equal(await control(page, 'title').count(), 0, 'the textarea is gone')
    t.equal(await text(page, 'title').textContent(), 'Mathematician', 'the edited text shows')
    t.ok(await saveButton(page).isVisible(), 'Save appeared')
    t.ok(await resetButton(page).isVisible(), 'Reset appeared')
    await resetButton(page).click()
    t.equal(await saveButton(page).count(), 0, 'Save is hidden again')
    t.equal(await resetButton(page).count(), 0, 'Reset is hidden again')
    t.equal(await text(page, 'title').textContent(), 'Click to add', 'the original (empty) value is back')

    await text(page, 'title').click()
    await page.keyboard.press('Shift+Enter')
    await page.keyboard.press('Shift+Enter')
    t.equal(await control(page, 'title').inputValue(), '\n\n')
    await page.keyboard.press('Tab')
    t.equal(await saveButton(page).count(), 0, 'line breaks alone do not count as a change')
    t.equal(await editor(page).locator('form').getAttribute('data-changed'), 'false')

    await reload(t, page)
    t.equal(await text(page, 'title').textContent(), 'Click to add', 'nothing was saved')
  })

  t.test('an invalid field keeps the form from saving; fields carry the SPEC data attributes; code can set a value', async (t) => {
    const page = await openProfile(t)
    const name = field(page, 'name')
    t.equal(await name.getAttribute('data-original-value'), 'Ada Admin')
    t.equal(await name.getAttribute('data-editor'), 'input')
    t.equal(await name.getAttribute('data-id'), 'name')
    t.match(await name.getAttribute('data-target'), /^\/api\/user\/\d+$/)
    t.equal(await name.getAttribute('data-set-value'), 'false')
    t.equal(await field(page, 'title').getAttribute('data-editor'), 'textarea')

    let sent = false
    page.on('request', (request) => { if (request.method() === 'PATCH') sent = true })
    await text(page, 'name').click()
    await control(page, 'name').fill('')
    t.equal(await control(page, 'name').getAttribute('aria-invalid'), 'true')
    t.equal(await name.locator('.inline-editor__error').textContent(), 'Name is required.')
    await page.keyboard.press('Enter')
    t.ok(await saveButton(page).isDisabled(), 'Save is disabled while a field is invalid')
    await resetButton(page).click()
    t.equal(await text(page, 'name').textContent(), 'Ada Admin')
    t.equal(await name.locator('.inline-editor__error').count(), 0, 'the error went with the reset')
    await reload(t, page)
    t.equal(await text(page, 'name').textContent(), 'Ada Admin')
    t.notOk(sent, 'no save was sent')

    await field(page, 'title').evaluate((node) =>
      node.dispatchEvent(new CustomEvent('inline-editor:set-value', { bubbles: true, detail: { value: 'Set by code' } })))
    t.equal(await text(page, 'title').textContent(), 'Set by code', 'code can set a value')
    t.equal(await field(page, 'title').getAttribute('data-set-value'), 'true', 'and the field says so')
    t.ok(await resetButton(page).isVisible(), 'a value set by code that differs reveals Reset')
    await resetButton(page).click()
    t.equal(await field(page, 'title').getAttribute('data-set-value'), 'false')
    t.equal(await text(page, 'title').textContent(), 'Click to add')
  })
})
