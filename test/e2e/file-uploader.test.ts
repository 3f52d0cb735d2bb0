// The uploader on the real page where authors attach supplements to an advice node: the rule tree's Sources panel
// (issue 15 acceptance). Every state and message of SPEC §4 and §8: the progress percentage, "Processing uploaded
// file..." above 99%, "Saved!" with the bar hidden after 2000 ms (on a paused clock), "Oops!" with "The upload failed,
// try again." and the file removed, the too-big alert naming the file, the maximum count with the add button hidden and
// back, the "Whoa!" removal; from the keyboard, and announced in a live region.
import t, { type Test } from 'tap'
import { and, eq } from 'drizzle-orm'
import type { CDPSession, Page } from 'playwright-core'
import { startServer } from '../helpers/server.ts'
import { chromiumMissing, launchBrowser } from '../helpers/browser.ts'
import { openRuleTree, seedAuthor, seedRule, signedInContext, type RuleFixture } from './rule-tree-setup.ts'
import { ruleNodes, supplementLinks, supplements } from '../../src/db/schema/index.ts'
import { insertLink, insertSupplement } from '../../src/db/queries/supplements.ts'

t.test('file uploader in the Sources panel', { skip: chromiumMissing, timeout: 300_000 }, async (t) => {
  // The upload's answer can be held back, so the page stays in "Processing uploaded file..." as long as a test needs.
  let hold: Promise<void> | null = null
  const server = await startServer({
    beforeReady: (app) => app.addHook('onSend', async (request) => {
      if (request.url.startsWith('/api/supplements/upload') && hold) await hold
    }),
  })
  t.teardown(() => server.close())
  const browser = await launchBrowser(t)
  const author = await seedAuthor(server)
  const context = await signedInContext(browser, server, author.user)
  t.teardown(() => context.close())

  async function sourcesOf(fixture: RuleFixture, page: Page, nodeId: number) {
    const row = page.locator(`[role="treeitem"][data-node-id="${nodeId}"]`)
    await row.click()
    await row.getByRole('button', { name: 'Sources', exact: true }).click()
    const panel = page.locator(`.rule-tree__sources[data-sources-for="${nodeId}"]`)
    await panel.locator('.file-uploader').waitFor()
    return panel
  }
  async function adviceFixture() {
    const fixture = await seedRule(server, author, [{ type: 'advice', headline: 'Save more', text: 'Put 10% aside.' }])
    const [node] = await server.db.select().from(ruleNodes).where(eq(ruleNodes.ruleId, fixture.ruleId))
    return { fixture, nodeId: node!.id }
  }
  /** A page in a context of its own (a clock is the whole context's) whose clock moves only when the test says. */
  async function pausedClockPage(t: Test): Promise<Page> {
    const own = await signedInContext(browser, server, author.user)
    t.teardown(() => own.close())
    const page = await own.newPage()
    await page.clock.install()
    await page.clock.pauseAt(new Date('2030-01-01T10:00:00Z'))
    return page
  }
  const linkedCount = async (nodeId: number) => (await server.db.select().from(supplementLinks).where(and(eq(supplementLinks.targetType, 'ruleNode'), eq(supplementLinks.targetId, nodeId)))).length
  const file = (name: string, size: number, mimeType = 'application/octet-stream') => ({ name, mimeType, buffer: Buffer.alloc(size, 65) })

  t.test('percent, "Processing uploaded file...", then "Saved!" with the bar hidden after exactly 2000 ms', async (t) => {
    const { fixture, nodeId } = await adviceFixture()
    const page = await pausedClockPage(t)
    await page.goto(`${server.url}/adviceset/${fixture.setId}/rule/${fixture.ruleId}/show`)
    await page.locator('main[data-island-state="mounted"]').waitFor({ state: 'attached' })
    const panel = await sourcesOf(fixture, page, nodeId)
    // Slow uploads, so the percentage is seen on its way.
    const cdp: CDPSession = await page.context().newCDPSession(page)
    await cdp.send('Network.enable')
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 400 * 1024 })
    let release!: () => void
    hold = new Promise<void>((resolve) => { release = resolve })

    await panel.locator('input[type="file"]').setInputFiles(file('pension-table.csv', 1024 * 1024, 'text/csv'))
    // The only row; its name becomes the saved supplement's ("pension-table") once stored.
    const row = panel.locator('.file-uploader__file')
    const status = row.locator('.file-uploader__text')
    await status.filter({ hasText: /^([1-9]|[1-9][0-9])%$/ }).waitFor()
    t.pass(`a percentage on its way: ${await status.textContent()}`)
    t.match(await row.getByRole('progressbar').getAttribute('aria-valuenow'), /^\d+$/)
    await status.filter({ hasText: 'Processing uploaded file...' }).waitFor()
    t.equal(await status.textContent(), 'Processing uploaded file...', 'above 99%, while the server stores it')
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 })
    release()
    hold = null

    await status.filter({ hasText: 'Saved!' }).waitFor()
    t.equal(await row.getAttribute('data-file-state'), 'saved')
    t.equal(await panel.locator('[role="status"]').textContent(), 'pension-table: Saved!', 'announced')
    await page.clock.runFor(1999)
    t.ok(await row.getByRole('progressbar').isVisible(), 'the bar is still there at 1999 ms')
    t.equal(await status.textContent(), 'Saved!')
    await page.clock.runFor(1)
    await row.getByRole('progressbar').waitFor({ state: 'detached' })
    t.equal(await row.getAttribute('data-file-state'), 'stored', 'at 2000 ms the bar is gone; the file stays')
    t.equal(await row.locator('a').textContent(), 'pension-table')
    t.equal(await linkedCount(nodeId), 1, 'linked to the node')
    t.equal(await page.locator(`[data-node-id="${nodeId}"] .rule-tree__source-count`).textContent(), '1', 'the node shows its source count')
  })

  t.test('"Oops!" and "The upload failed, try again.", the file taken away after 2000 ms', async (t) => {
    const { fixture, nodeId } = await adviceFixture()
    const page = await pausedClockPage(t)
    await page.goto(`${server.url}/adviceset/${fixture.setId}/rule/${fixture.ruleId}/show`)
    await page.locator('main[data-island-state="mounted"]').waitFor({ state: 'attached' })
    const panel = await sourcesOf(fixture, page, nodeId)
    await page.route('**/api/supplements/upload', (route) => route.fulfill({
      status: 500, contentType: 'application/json', body: JSON.stringify({ error: { status: 500, name: 'Internal Server Error', message: 'Something went wrong on our side. Please try again.' } }),
    }), { times: 1 })
    await panel.locator('input[type="file"]').setInputFiles(file('broken.pdf', 2000))
    const dialog = page.getByRole('alertdialog')
    await dialog.waitFor()
    t.equal(await dialog.locator('h2').textContent(), 'Oops!')
    t.equal(await dialog.locator('p').textContent(), 'The upload failed, try again.')
    const row = panel.locator('.file-uploader__file[data-file-name="broken.pdf"]')
    t.equal(await row.locator('.file-uploader__text').textContent(), 'Oops!')
    t.equal(await panel.locator('[role="status"]').textContent(), 'broken.pdf: Oops! The upload failed, try again.')
    await dialog.getByRole('button', { name: 'OK' }).click()
    await page.clock.runFor(1999)
    t.equal(await row.count(), 1, 'still shown at 1999 ms')
    await page.clock.runFor(1)
    await row.waitFor({ state: 'detached' })
    t.equal(await linkedCount(nodeId), 0)
  })

  t.test('a file over 10 MB is refused by name, before and after sending it', async (t) => {
    const { fixture, nodeId } = await adviceFixture()
    const page = await openRuleTree(context, server, fixture)
    t.teardown(() => page.close())
    const panel = await sourcesOf(fixture, page, nodeId)
    await panel.locator('input[type="file"]').setInputFiles(file('huge scan.pdf', 10 * 1024 * 1024 + 1))
    const dialog = page.getByRole('alertdialog')
    t.equal(await dialog.locator('p').textContent(), 'That file, huge scan.pdf, is too big. 10 MB is the max file size allowed.')
    await dialog.getByRole('button', { name: 'OK' }).click()
    t.equal(await panel.locator('.file-uploader__file').count(), 0, 'not added')

    // The server's "File too large" (a browser that let a bigger file through) gives the same alert.
    await page.route('**/api/supplements/upload', (route) => route.fulfill({
      status: 413, contentType: 'application/json', body: JSON.stringify({ error: { status: 413, name: 'Payload Too Large', message: 'File too large' } }),
    }), { times: 1 })
    await panel.locator('input[type="file"]').setInputFiles(file('other.pdf', 1000))
    await dialog.waitFor()
    t.equal(await dialog.locator('p').textContent(), 'That file, other.pdf, is too big. 10 MB is the max file size allowed.')
    await dialog.getByRole('button', { name: 'OK' }).click()
    await panel.locator('.file-uploader__file[data-file-name="other.pdf"]').waitFor({ state: 'detached' })
    t.equal(await linkedCount(nodeId), 0)
  })

  t.test('the maximum count: extra files dropped with the message, the add button hidden, back after a removal', async (t) => {
    const { fixture, nodeId } = await adviceFixture()
    for (let i = 0; i < 8; i++) {
      const row = await insertSupplement(server.db, {
        ownerId: author.user.ownerId, name: `Guide ${i}`, format: 'link', contentType: 'text/uri-list', url: `https://example.com/${i}`, accessToken: `token-${nodeId}-${i}`, createdBy: null,
      })
      await insertLink(server.db, { supplementId: row.id, targetType: 'ruleNode', targetId: nodeId, createdBy: null })
    }
    const page = await openRuleTree(context, server, fixture)
    t.teardown(() => page.close())
    const panel = await sourcesOf(fixture, page, nodeId)
    t.equal(await panel.locator('.file-uploader__file').count(), 8)
    await panel.locator('input[type="file"]').setInputFiles([file('a.txt', 10, 'text/plain'), file('b.txt', 10, 'text/plain'), file('c.txt', 10, 'text/plain')])
    t.equal(await panel.getByRole('alert').textContent(), 'You can only attach 10 file(s).')
    // Saved files take their supplement's name (the file name without its extension).
    await panel.locator('.file-uploader__file[data-file-name="a"][data-file-state="saved"]').waitFor()
    await panel.locator('.file-uploader__file[data-file-name="b"][data-file-state="saved"]').waitFor()
    t.equal(await panel.locator('.file-uploader__file[data-file-name^="c"]').count(), 0, 'the extra file is removed')
    t.equal(await panel.getByRole('button', { name: 'Upload files' }).count(), 0, 'the add button is hidden at the maximum')
    t.equal(await panel.locator('.rule-tree__link-form').count(), 0, 'so are the other ways to add')
    t.equal(await linkedCount(nodeId), 10)

    await panel.getByRole('button', { name: 'Remove Guide 3' }).click()
    const dialog = page.getByRole('alertdialog')
    t.equal(await dialog.locator('h2').textContent(), 'Whoa!')
    t.equal(await dialog.locator('p').textContent(), 'Are you sure you want to remove Guide 3?')
    await dialog.getByRole('button', { name: 'Yes, delete now' }).click()
    await panel.getByRole('button', { name: 'Upload files' }).waitFor()
    t.equal(await panel.locator('.file-uploader__file[data-file-name="Guide 3"]').count(), 0)
    t.equal(await panel.getByRole('alert').count(), 0, 'the message goes with the removal')
    t.equal(await linkedCount(nodeId), 9, 'unlinked from the node')
    const [kept] = await server.db.select().from(supplements).where(eq(supplements.name, 'Guide 3'))
    t.equal(kept!.deletedAt, null, 'the supplement stays in the library')
    t.equal(await page.locator(`[data-node-id="${nodeId}"] .rule-tree__source-count`).textContent(), '9')
  })

  t.test('from the keyboard: S opens the sources, Enter on the add button chooses files, No keeps a file', async (t) => {
    const { fixture, nodeId } = await adviceFixture()
    const page = await openRuleTree(context, server, fixture)
    t.teardown(() => page.close())
    // Listened for from the start: Playwright turns on its file-chooser interception asynchronously.
    const chooser = page.waitForEvent('filechooser')
    await page.locator(`[role="treeitem"][data-node-id="${nodeId}"]`).focus()
    await page.keyboard.press('s')
    const panel = page.locator(`.rule-tree__sources[data-sources-for="${nodeId}"]`)
    await panel.getByRole('button', { name: 'Upload files' }).waitFor()
    await panel.getByRole('button', { name: 'Upload files' }).focus()
    await page.keyboard.press('Enter')
    await (await chooser).setFiles(file('notes.txt', 50, 'text/plain'))
    await panel.locator('.file-uploader__text').filter({ hasText: 'Saved!' }).waitFor()
    await panel.getByRole('button', { name: 'Remove notes' }).focus()
    await page.keyboard.press('Enter')
    const dialog = page.getByRole('alertdialog')
    await dialog.waitFor()
    t.equal(await page.evaluate(() => document.activeElement?.textContent), 'No', 'the safe answer has the focus')
    await page.keyboard.press('Enter')
    await dialog.waitFor({ state: 'detached' })
    t.equal(await panel.locator('.file-uploader__file').count(), 1, 'kept')
    await page.keyboard.press('Escape')
    await panel.waitFor({ state: 'detached' })
  })
})
