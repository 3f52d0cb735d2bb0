// axe-core over the shared islands in their interactive states: the inline editor while editing and with
// Save/Reset showing, notifications of every type, flash alerts and a confirmation dialog.
import t from 'tap'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'
import { startServer } from '../helpers/server.ts'
import { chromiumMissing, islandsSettled, launchBrowser, signInByApi } from '../helpers/browser.ts'

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

interface AxeViolation { id: string, help: string, nodes: Array<{ target: string[] }> }

async function axeViolations(page: Page, include: string[]): Promise<Array<{ rule: string, targets: string[] }>> {
  // Added through the debugger protocol, which the page's CSP does not govern.
  await page.evaluate(AXE_SOURCE)
  const violations = await page.evaluate(async (selectors) => {
    const axe = (window as unknown as { axe: { run(context: unknown): Promise<{ violations: AxeViolation[] }> } }).axe
    return (await axe.run({ include: selectors.map((selector) => [selector]) })).violations
  }, include)
  return violations.map((v) => ({ rule: `${v.id}: ${v.help}`, targets: v.nodes.map((n) => n.target.join(' ')) }))
}

t.test('islands pass axe', { skip: chromiumMissing }, async (t) => {
  const server = await startServer()
  t.teardown(() => server.close())
  const browser = await launchBrowser(t)
  const user = await server.createUser({ name: 'Ada Admin' })
  const context = await browser.newContext({ timezoneId: 'Asia/Tokyo' })
  t.teardown(() => context.close())
  const page = await context.newPage()
  await signInByApi(page, server.url, user)
  await page.goto(`${server.url}/profile`)
  t.equal(await islandsSettled(page), 'mounted')

  const dialog = page.getByRole('alertdialog')
  await dialog.waitFor()
  t.same(await axeViolations(page, ['.app-dialog']), [], 'the confirmation dialog')
  await dialog.getByRole('button', { name: 'No' }).click()

  await page.evaluate(() => {
    for (const [type, text] of [['info', 'Copied.'], ['success', 'Saved.'], ['warning', 'Check it.'], ['error', 'It failed.']]) {
      document.dispatchEvent(new CustomEvent('app:notify', { detail: { type, text } }))
    }
  })
  await page.locator('.notification', { hasText: 'It failed.' }).waitFor()
  await page.locator('[data-name="title"] .inline-editor__text').click()
  await page.keyboard.type('Mathematician')
  t.same(await axeViolations(page, ['[data-island="inline-editor"]', '[data-island="notifications"]']), [],
    'the editor while editing, and notifications of every type')

  await page.keyboard.press('Tab')
  await page.getByRole('button', { name: 'Reset' }).waitFor()
  t.same(await axeViolations(page, ['[data-island="inline-editor"]']), [], 'the editor with Save and Reset showing')
})
