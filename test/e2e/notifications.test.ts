// Notifications (SPEC.md §4, §8, §9), requested the way any island or script does: the `app:notify` DOM event.
// Timers run on Playwright's fake clock, so 3 s and 5 s pass instantly and exactly.
import t, { type Test } from 'tap'
import type { Page } from 'playwright-core'
import type { NotifyOptions } from '../../islands/shared/notify.ts'
import { startServer } from '../helpers/server.ts'
import { chromiumMissing, islandsSettled, launchBrowser, routeFixturePage } from '../helpers/browser.ts'

// Installed and paused: page time moves only with runFor, never with the real time the test takes.
async function pauseClock(page: Page): Promise<void> {
  const start = new Date('2026-01-05T09:00:00Z')
  await page.clock.install({ time: start })
  await page.clock.pauseAt(new Date(start.getTime() + 1000))
}

t.test('notifications', { skip: chromiumMissing }, async (t) => {
  const server = await startServer()
  t.teardown(() => server.close())
  const browser = await launchBrowser(t)

  async function openPage(t: Test, path = '/login'): Promise<Page> {
    const context = await browser.newContext()
    t.teardown(() => context.close())
    const page = await context.newPage()
    await pauseClock(page)
    await page.goto(`${server.url}${path}`)
    t.equal(await islandsSettled(page), 'mounted')
    return page
  }

  const notify = (page: Page, options: NotifyOptions) =>
    page.evaluate((detail) => document.dispatchEvent(new CustomEvent('app:notify', { detail })), options)
  const notice = (page: Page, text: string) => page.locator('.notification', { hasText: text })
  const notices = (page: Page) => page.locator('.notification')

  t.test('info closes after 3 s, or after its own timeout', async (t) => {
    const page = await openPage(t)
    await notify(page, { type: 'info', text: 'Copied to the clipboard' })
    await notify(page, { type: 'success', text: 'Quick one', timeout: 1500 })
    await notice(page, 'Copied to the clipboard').waitFor()
    t.ok(await notice(page, 'Quick one').isVisible())
    await page.clock.runFor(1499)
    t.ok(await notice(page, 'Quick one').isVisible(), 'still there at 1499 ms')
    await page.clock.runFor(1)
    await notice(page, 'Quick one').waitFor({ state: 'detached' })
    await page.clock.runFor(1499)
    t.ok(await notice(page, 'Copied to the clipboard').isVisible(), 'info still there at 2999 ms')
    await page.clock.runFor(1)
    await notice(page, 'Copied to the clipboard').waitFor({ state: 'detached' })
    t.equal(await notices(page).count(), 0, 'both closed by themselves')
  })

  t.test('an error stays until closed and is headed "Error"', async (t) => {
    const page = await openPage(t)
    await notify(page, { type: 'error', text: 'The save failed.' })
    const error = notice(page, 'The save failed.')
    await error.waitFor()
    t.equal(await error.locator('.notification__body').getAttribute('role'), 'alert', 'announced at once')
    t.equal(await error.locator('.notification__heading').textContent(), 'Error')
    await page.clock.runFor(600_000)
    t.ok(await error.isVisible(), 'still there ten minutes later')
    await error.getByRole('button', { name: 'Close notification' }).click()
    await error.waitFor({ state: 'detached' })
    t.pass('closed by its button')
  })

  t.test('never more than 5: the oldest go first', async (t) => {
    const page = await openPage(t)
    for (let n = 1; n <= 7; n++) await notify(page, { type: 'error', text: `Problem ${n}` })
    await notice(page, 'Problem 7').waitFor()
    t.same(await notices(page).locator('.notification__text').allTextContents(),
      ['Problem 3', 'Problem 4', 'Problem 5', 'Problem 6', 'Problem 7'])
  })

  t.test('a notification without text shows nothing', async (t) => {
    const page = await openPage(t)
    await notify(page, { type: 'error', heading: 'Heading only' })
    await notify(page, { type: 'info', text: 'Visible one' })
    await notice(page, 'Visible one').waitFor()
    t.equal(await notices(page).count(), 1)
    t.equal(await page.locator('ol.notification-stack').getAttribute('aria-live'), 'polite', 'a polite live region')
  })

  t.test('flash alerts: non-sticky info slides up after 5 s, others stay', async (t) => {
    const context = await browser.newContext()
    t.teardown(() => context.close())
    const page = await context.newPage()
    await pauseClock(page)
    const url = await routeFixturePage(page, server.url, '/e2e/flash', {
      pageName: 'index',
      islands: [{ name: 'notifications', props: { flash: [
        { type: 'info', text: 'Profile updated.' },
        { type: 'info', text: 'Read me.', sticky: true },
        { type: 'warning', heading: 'Careful', text: 'Check the dates.' },
      ] } }],
    })
    await page.goto(url)
    t.equal(await islandsSettled(page), 'mounted')
    const alert = (text: string) => page.locator('.flash-alert', { hasText: text })
    t.equal(await page.locator('.flash-alert').count(), 3)
    t.equal(await alert('Profile updated.').getAttribute('role'), 'status')
    await page.clock.runFor(4999)
    t.equal(await alert('Profile updated.').getAttribute('data-state'), 'open', 'open at 4999 ms')
    await page.clock.runFor(1)
    t.equal(await alert('Profile updated.').getAttribute('data-state'), 'closing', 'slides up at 5000 ms')
    await page.clock.runFor(200)
    await alert('Profile updated.').waitFor({ state: 'detached' })
    await page.clock.runFor(600_000)
    t.same(await page.locator('.flash-alert .notification__text').allTextContents(), ['Read me.', 'Check the dates.'],
      'the sticky info and the warning stay')
    await alert('Check the dates.').getByRole('button', { name: 'Close message' }).click()
    await alert('Check the dates.').waitFor({ state: 'detached' })
    t.pass('closed by its button')
  })
})
