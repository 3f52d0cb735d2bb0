// The timezone prompt (SPEC.md §4, §7): the browser's timezone is emulated with the context's timezoneId.
import t, { type Test } from 'tap'
import { desc, eq } from 'drizzle-orm'
import type { Page } from 'playwright-core'
import { activity, users } from '../../src/db/schema/index.ts'
import { updateProfile } from '../../src/services/accounts/users.ts'
import { formatDateTime } from '../../src/engine/format/date-time.ts'
import { startServer } from '../helpers/server.ts'
import { chromiumMissing, islandsSettled, launchBrowser, signInByApi } from '../helpers/browser.ts'

t.test('timezone prompt', { skip: chromiumMissing }, async (t) => {
  const server = await startServer()
  t.teardown(() => server.close())
  const browser = await launchBrowser(t)

  async function storedTimezone(userId: number): Promise<string | undefined> {
    const [row] = await server.db.select({ preferences: users.preferences }).from(users).where(eq(users.id, userId))
    return row?.preferences.tz
  }

  async function signedInTokyoPage(t: Test) {
    const user = await server.createUser()
    const context = await browser.newContext({ timezoneId: 'Asia/Tokyo' })
    t.teardown(() => context.close())
    const page = await context.newPage()
    await signInByApi(page, server.url, user)
    return { user, page }
  }

  const offer = (page: Page) => page.getByRole('alertdialog', { name: 'Update your timezone?' })

  t.test('Yes stores the browser timezone as the preference and shows a notice for 1500 ms', async (t) => {
    const { user, page } = await signedInTokyoPage(t)
    t.equal(await storedTimezone(user.id), undefined, 'no preference to begin with')
    await page.clock.install()
    await page.clock.pauseAt(Date.now() + 1000)
    await page.goto(`${server.url}/`)
    t.equal(await islandsSettled(page), 'mounted')
    t.equal(await offer(page).count(), 1, 'the offer is open once the islands are mounted')
    t.match(await offer(page).textContent(), /Asia\/Tokyo/)
    t.equal(await page.evaluate(() => document.activeElement?.textContent), 'No', 'the safe answer has the focus')

    const stored = page.waitForResponse((r) => r.url() === `${server.url}/api/user/preferences`)
    await offer(page).getByRole('button', { name: 'Yes' }).click()
    const response = await stored
    t.equal(response.status(), 200)
    t.same(await response.json(), { data: { preferences: { tz: 'Asia/Tokyo' } } })
    t.equal(await offer(page).count(), 0, 'the dialog closed')
    const notice = page.locator('.notification', { hasText: 'Timezone updated to Asia/Tokyo.' })
    await notice.waitFor()
    await page.clock.runFor(1499)
    t.ok(await notice.isVisible(), 'the notice is still there at 1499 ms')
    await page.clock.runFor(1)
    await notice.waitFor({ state: 'detached' })
    t.equal(await storedTimezone(user.id), 'Asia/Tokyo', 'the database holds the new preference')

    await page.goto(`${server.url}/profile`)
    t.equal(await islandsSettled(page), 'mounted')
    t.equal(await offer(page).count(), 0, 'no offer once the preference matches')
    t.match(await page.locator('main').textContent(), /Time zone\s*Asia\/Tokyo/, 'the profile shows it')
  })

  t.test('after Yes, the page open shows its times in the new zone at once, without a reload', async (t) => {
    const { user, page } = await signedInTokyoPage(t)
    // Something in the activity log: the person renames themselves (an entry at a known moment).
    await updateProfile(server.app.deps, { userId: user.id, ownerId: user.ownerId, role: user.role, impersonatorId: null }, user.id, { name: 'Tomo Tanaka' })
    const [entry] = await server.db.select({ createdAt: activity.createdAt }).from(activity).where(eq(activity.entityId, String(user.id))).orderBy(desc(activity.id)).limit(1)
    await page.goto(`${server.url}/activity`)
    await offer(page).waitFor()
    const moment = page.locator('.activity-item time[data-moment]').first()
    t.equal(await moment.textContent(), formatDateTime(entry!.createdAt, 'UTC'), 'before: the time is in UTC, as no zone is chosen')
    t.equal(await page.locator('.time-zone-note').textContent(), 'Times are in UTC · Change time zone', 'and the page says so')
    let reloaded = false
    page.on('framenavigated', (frame) => { if (frame === page.mainFrame()) reloaded = true })
    await offer(page).getByRole('button', { name: 'Yes' }).click()
    await page.locator('.time-zone-note', { hasText: 'Times are in Asia/Tokyo' }).waitFor()
    t.equal(await moment.textContent(), formatDateTime(entry!.createdAt, 'Asia/Tokyo'), 'after: the same moment in Tokyo time')
    t.not(formatDateTime(entry!.createdAt, 'Asia/Tokyo'), formatDateTime(entry!.createdAt, 'UTC'), 'which reads differently (the test can fail)')
    t.notOk(reloaded, 'the page was not reloaded')
  })

  t.test('No (or Escape) is remembered under userCheckTimezone and nothing is stored', async (t) => {
    const { user, page } = await signedInTokyoPage(t)
    let posted = false
    page.on('request', (request) => { if (request.url().endsWith('/api/user/preferences')) posted = true })
    await page.goto(`${server.url}/`)
    await offer(page).waitFor()
    await page.keyboard.press('Escape')
    await offer(page).waitFor({ state: 'detached' })
    // The answer is stored once the dialog's close has run through the island's promise chain.
    const declined = await page.waitForFunction(() => localStorage.getItem('userCheckTimezone'))
    t.equal(await declined.jsonValue(), 'Asia/Tokyo')

    await page.reload()
    t.equal(await islandsSettled(page), 'mounted')
    t.equal(await offer(page).count(), 0, 'not asked again for the same timezone')
    t.notOk(posted, 'no preference request was sent')
    t.equal(await storedTimezone(user.id), undefined)
  })
})
