// The global search box (issue 6 point 5; SPEC.md §2 "Global search box", §4, §9) on the real server: every
// keyboard behaviour, the panel's states and timings, the stored filter and the detached modal.
import t, { type Test } from 'tap'
import type { Page, Route } from 'playwright-core'
import { chromiumMissing, launchBrowser } from '../helpers/browser.ts'
import { PROVIDER_NAME, axeViolations, openPage, signedInPage, startSearchWorld, waitUntilIndexed } from './search-setup.ts'

// The whole file (many searches in Chromium) runs past tap's 120 s default on a busy 2-core machine.
t.setTimeout(400_000)

t.test('search box', { skip: chromiumMissing }, async (t) => {
  const browser = await launchBrowser(t)
  const world = await startSearchWorld(t, browser, [
    { name: 'Mortgage advice', isStarter: true },
    { name: 'Mortgage & savings', isStarter: true },
    { name: 'Mortgage draft' },
    { name: 'Pension planner', isStarter: true },
  ], [
    { name: 'Mortgage basics', isStarter: true, isPublic: true },
  ])
  const { server } = world

  const form = (page: Page) => page.locator('form.search-box')
  const input = (page: Page) => page.locator('#search-box-input')
  const panel = (page: Page) => page.locator('#search-box-panel')
  const options = (page: Page) => page.locator('#search-box-results [role="option"]')
  const titles = async (page: Page) => (await options(page).locator('.search-hit__title').allTextContents()).sort()

  async function library(t: Test, options: Parameters<typeof signedInPage>[4] = {}): Promise<Page> {
    const page = await signedInPage(t, browser, server.url, world.author, options)
    await openPage(t, page, `${server.url}/library`)
    return page
  }

  /** Types a query in one input event and waits for its results to be on screen. */
  async function search(page: Page, text: string, count: number): Promise<void> {
    await input(page).focus()
    await form(page).and(page.locator('[data-panel="ready"]')).waitFor()
    const answered = page.waitForResponse((response) => response.url().endsWith('/api/search'))
    await input(page).fill(text)
    await answered
    await page.waitForFunction(([n]) => document.querySelectorAll('#search-box-results [role="option"]').length === n
      && !document.querySelector('#search-box-panel')?.hasAttribute('hidden'), [count])
  }

  const page0 = await signedInPage(t, browser, server.url, world.author)
  await page0.goto(`${server.url}/library`)
  await waitUntilIndexed(page0, server.url, 'mortgage', 4)
  await page0.context().close()

  t.test('before any interaction: the plain form, no panel code; `/` focuses it and loads the panel', async (t) => {
    const page = await signedInPage(t, browser, server.url, world.author)
    const panelChunks: string[] = []
    page.on('request', (request) => { if (/\/chunks\/panel-\w+\.js$/.test(request.url())) panelChunks.push(request.url()) })
    await openPage(t, page, `${server.url}/library`)
    t.equal(await input(page).getAttribute('placeholder'), 'Search Advice Library')
    t.equal(await page.locator('[data-island="search-box"]').getAttribute('data-island-state'), 'mounted')
    t.equal(await form(page).getAttribute('action'), '/library/search', 'the fallback form goes to the screener')
    t.same(panelChunks, [], 'the panel is not loaded with the page')
    t.notOk(await form(page).evaluate((node) => node.classList.contains('search-box--active')))

    await page.getByLabel('Search', { exact: true }).and(page.locator('main input')).focus()
    await page.keyboard.press('/')
    t.notOk(await input(page).evaluate((node) => node === document.activeElement), '`/` typed in another field stays there')
    t.same(panelChunks, [])

    await page.locator('main h1').click()
    await page.keyboard.press('/')
    t.ok(await input(page).evaluate((node) => node === document.activeElement), '`/` focused the search box')
    t.equal(await input(page).inputValue(), '', 'and was not typed into it')
    t.ok(await form(page).evaluate((node) => node.classList.contains('search-box--active')), 'active style while focused')
    await form(page).and(page.locator('[data-panel="ready"]')).waitFor()
    t.equal(panelChunks.length, 1, 'the first interaction loaded the panel')
    await page.locator('main h1').click()
    t.notOk(await form(page).evaluate((node) => node.classList.contains('search-box--active')), 'no active style after blur')
  })

  t.test('results: icon by type, highlighted name, owner when it differs; No results; Advanced Search link', async (t) => {
    const page = await library(t)
    await search(page, 'mortgage', 3)
    t.same(await titles(page), ['Mortgage & savings', 'Mortgage advice', 'Mortgage basics'], 'starters (the default filter)')
    t.equal(await options(page).locator('.search-hit__icon.icon-advice-set').count(), 3, 'advice set icons')
    t.same(await options(page).first().locator('mark').allTextContents(), ['Mortgage'], 'the match is highlighted')
    const provider = options(page).filter({ hasText: 'Mortgage basics' })
    t.equal(await provider.locator('.search-hit__detail').textContent(), `By: ${PROVIDER_NAME}`)
    t.equal(await options(page).filter({ hasText: 'Mortgage advice' }).locator('.search-hit__detail').count(), 0,
      'no byline on the own owner\'s results')
    t.equal(await page.getByRole('link', { name: 'Advanced Search' }).getAttribute('href'), '/library/search?q=mortgage&type=Advice+Set')

    await search(page, 'zzzqqq', 0)
    t.ok(await panel(page).getByText('No results', { exact: true }).isVisible(), 'No results')
  })

  t.test('arrows move, Enter opens the result, Escape closes then clears, Tab closes', async (t) => {
    const page = await library(t)
    await search(page, 'mortgage', 3)
    const selected = () => options(page).evaluateAll((nodes) => nodes.findIndex((n) => n.getAttribute('aria-selected') === 'true'))
    t.equal(await selected(), -1)
    await page.keyboard.press('ArrowDown')
    t.equal(await selected(), 0)
    await page.keyboard.press('ArrowDown')
    t.equal(await selected(), 1)
    t.equal(await input(page).getAttribute('aria-activedescendant'), await options(page).nth(1).getAttribute('id'))
    await page.keyboard.press('ArrowUp')
    t.equal(await selected(), 0)
    await page.keyboard.press('ArrowUp')
    t.equal(await selected(), -1, 'back to the input')
    await page.keyboard.press('ArrowUp')
    t.equal(await selected(), 2, 'and round to the last')

    await page.keyboard.press('Escape')
    t.ok(await panel(page).isHidden(), 'Escape closed the panel')
    t.equal(await input(page).inputValue(), 'mortgage', 'and kept the text')
    await page.keyboard.press('ArrowDown')
    t.ok(await panel(page).isVisible(), 'an arrow reopens it')
    await page.keyboard.press('Escape')
    await page.keyboard.press('Escape')
    t.equal(await input(page).inputValue(), '', 'the second Escape cleared the text')
    t.ok(await panel(page).isHidden())

    await search(page, 'mortgage', 3)
    await page.keyboard.press('Tab')
    t.ok(await panel(page).isHidden(), 'Tab closed the panel')

    await search(page, 'mortgage advice', 1)
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('Enter')
    await page.waitForURL(`${server.url}/adviceset/${world.ids.get('Mortgage advice')}/show`)
    t.pass('Enter went to the result')
  })

  t.test('Enter without an active result submits the text to the screener; blank text submits nothing', async (t) => {
    const page = await library(t)
    const screenerLoads: string[] = []
    page.on('request', (request) => { if (request.isNavigationRequest()) screenerLoads.push(request.url()) })
    await search(page, 'mortgage', 3)
    await input(page).fill('   ')
    await page.keyboard.press('Enter')
    await search(page, 'mortgage', 3)
    await page.keyboard.press('Enter')
    await page.waitForURL(`${server.url}/library/search?q=mortgage`)
    t.same(screenerLoads, [`${server.url}/library/search?q=mortgage`], 'the blank Enter submitted nothing')
    await page.locator('.screener[data-search-state="ready"]').waitFor()
    t.equal(await page.locator('.screener .ais-SearchBox-input').inputValue(), 'mortgage')
  })

  t.test('ctrl+Enter and meta+Enter open a new tab, shift+Enter a new window; a click opens the result', async (t) => {
    const page = await library(t)
    await page.evaluate(() => {
      const calls: string[][] = []
      const open = window.open.bind(window)
      Object.assign(window, { openCalls: calls })
      window.open = (url?: string | URL, target?: string, features?: string) => {
        calls.push([String(url), target ?? '', features ?? ''])
        return open(url, target, features)
      }
    })
    const uri = `/adviceset/${world.ids.get('Mortgage advice')}/show`
    await search(page, 'mortgage advice', 1)
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('Control+Enter')
    await page.keyboard.press('Meta+Enter')
    // Headless Chromium keeps a ctrl/meta window.open (a background tab) to itself; the new window shows up.
    const opened = page.context().waitForEvent('page')
    await page.keyboard.press('Shift+Enter')
    const other = await opened
    await other.waitForURL(`${server.url}${uri}`)
    t.pass('shift+Enter opened the result in a new window')
    await other.close()
    t.same(await page.evaluate(() => (window as unknown as { openCalls: string[][] }).openCalls), [
      [uri, '_blank', 'noopener'], [uri, '_blank', 'noopener'], [uri, '_blank', 'noopener,popup'],
    ], 'new tabs for ctrl and meta, a popup window for shift')
    t.equal(page.url(), `${server.url}/library`, 'the page itself stayed')

    await input(page).focus()
    await page.waitForFunction(() => !document.querySelector('#search-box-panel')?.hasAttribute('hidden'))
    await options(page).first().click()
    await page.waitForURL(`${server.url}${uri}`)
    t.pass('a click went to the result')
  })

  t.test('the filter is stored under searchFilterEntityTypes and re-runs the search', async (t) => {
    const page = await library(t)
    t.equal(await page.evaluate(() => localStorage.getItem('searchFilterEntityTypes')), null)
    const sent: unknown[] = []
    page.on('request', (request) => {
      if (request.url().endsWith('/api/search')) sent.push(request.postDataJSON())
    })
    await search(page, 'mortgage', 3)
    const filter = panel(page).getByLabel('Show')
    t.equal(await filter.inputValue(), 'starters', 'starters by default')
    const rerun = page.waitForResponse((response) => response.url().endsWith('/api/search'))
    await filter.selectOption('all')
    await rerun
    await page.waitForFunction(() => document.querySelectorAll('#search-box-results [role="option"]').length === 4)
    t.same(await titles(page), ['Mortgage & savings', 'Mortgage advice', 'Mortgage basics', 'Mortgage draft'], 'all')
    t.equal(await page.evaluate(() => localStorage.getItem('searchFilterEntityTypes')), 'all')
    const last = sent.at(-1) as { requests: Array<{ params: Record<string, unknown> }> }
    t.equal(last.requests[0]?.params.searchFilter, 'all', 'sent as searchFilter')
    t.equal(last.requests[0]?.params.query, 'mortgage')
    t.equal((sent[0] as typeof last).requests[0]?.params.searchFilter, 'starters')

    await page.reload()
    await search(page, 'mortgage', 4)
    t.equal(await panel(page).getByLabel('Show').inputValue(), 'all', 'the choice survives a reload')
    await panel(page).getByLabel('Show').selectOption('9')
    await page.waitForFunction(() => document.querySelectorAll('#search-box-results [role="option"]').length === 4)
    t.equal(await page.evaluate(() => localStorage.getItem('searchFilterEntityTypes')), '9', 'the advice-set type id')
  })

  t.test('nothing under Starters while All has results: said, with a one-click switch to All', async (t) => {
    const page = await library(t)
    await search(page, 'draft', 0)
    const widen = panel(page).locator('.search-panel__widen')
    await widen.waitFor()
    t.equal(await widen.locator('.search-panel__widen-text').textContent(), 'No results under “Starters”.')
    t.notOk(await panel(page).getByText('No results', { exact: true }).isVisible(), 'not a bare No results')
    await page.screenshot({ path: '/tmp/shots-25c/search-box-widen.png' })
    const rerun = page.waitForResponse((response) => response.url().endsWith('/api/search'))
    await widen.getByRole('button', { name: 'Show 1 result under All' }).click()
    await rerun
    await page.waitForFunction(() => document.querySelectorAll('#search-box-results [role="option"]').length === 1)
    t.same(await titles(page), ['Mortgage draft'], 'the team’s own set')
    t.equal(await panel(page).getByLabel('Show').inputValue(), 'all')
    t.equal(await page.evaluate(() => localStorage.getItem('searchFilterEntityTypes')), 'all', 'the choice is stored')
    t.ok(await widen.isHidden())
    await search(page, 'zzzqqq', 0)
    t.ok(await panel(page).getByText('No results', { exact: true }).isVisible(), 'nothing anywhere: just No results')
  })

  t.test('states: idle, loading, stalled after 300 ms, idle again when the answer comes', async (t) => {
    const page = await signedInPage(t, browser, server.url, world.author)
    await page.clock.install()
    await openPage(t, page, `${server.url}/library`)
    await input(page).focus()
    await form(page).and(page.locator('[data-panel="ready"]')).waitFor()
    await page.clock.pauseAt(Date.now() + 1000)
    t.equal(await form(page).getAttribute('data-status'), 'idle')
    const held: Route[] = []
    const arrived = new Promise<void>((resolve) => {
      void page.route('**/api/search', (route) => { held.push(route); resolve() })
    })
    await input(page).fill('mortgage')
    await arrived
    t.equal(await form(page).getAttribute('data-status'), 'loading')
    await page.clock.runFor(299)
    t.equal(await form(page).getAttribute('data-status'), 'loading', 'still loading at 299 ms')
    t.ok(await page.locator('.search-box__spinner').isHidden())
    await page.clock.runFor(1)
    t.equal(await form(page).getAttribute('data-status'), 'stalled', 'stalled at 300 ms')
    t.ok(await page.locator('.search-box__spinner').isVisible(), 'the stalled state shows a spinner')
    await held[0]!.continue()
    await form(page).and(page.locator('[data-status="idle"]')).waitFor()
    t.equal(await options(page).count(), 3, 'idle with the results')
  })

  t.test('view events (search:view) 400 ms after the results settle; the panel hides 100 ms after blur', async (t) => {
    const page = await signedInPage(t, browser, server.url, world.author)
    await page.clock.install()
    await openPage(t, page, `${server.url}/library`)
    await page.evaluate(() => {
      const views: unknown[] = []
      Object.assign(window, { searchViews: views })
      document.addEventListener('search:view', (event) => views.push((event as CustomEvent).detail))
    })
    const views = () => page.evaluate(() => (window as unknown as { searchViews: unknown[] }).searchViews)
    await input(page).focus()
    await form(page).and(page.locator('[data-panel="ready"]')).waitFor()
    await page.clock.pauseAt(Date.now() + 1000)
    await search(page, 'mortgage', 3)
    await search(page, 'mortgage a', 1)
    await page.clock.runFor(399)
    t.same(await views(), [], 'nothing before 400 ms')
    await page.clock.runFor(1)
    t.same(await views(), [{ query: 'mortgage a', objectIDs: [`adviceset-${world.ids.get('Mortgage advice')}`], searchFilter: 'starters' }],
      'one view event for the settled results')

    await page.locator('main h1').click()
    t.ok(await panel(page).isVisible(), 'still open right after blur')
    await page.clock.runFor(99)
    t.ok(await panel(page).isVisible(), 'still open at 99 ms')
    await page.clock.runFor(1)
    t.ok(await panel(page).isHidden(), 'hidden at 100 ms')
    await page.clock.runFor(1000)
    t.equal((await views()).length, 1, 'no further view events')
  })

  t.test('narrow screens: a detached modal with Cancel; re-checked 20 ms after a resize', async (t) => {
    const page = await signedInPage(t, browser, server.url, world.author, { viewport: { width: 1280, height: 800 } })
    await page.clock.install()
    await openPage(t, page, `${server.url}/library`)
    await page.clock.pauseAt(Date.now() + 1000)
    t.equal(await form(page).getAttribute('data-detached'), 'false')
    await page.evaluate(() => window.addEventListener('resize', () => { document.body.dataset.resized = 'true' }, { once: true }))
    await page.setViewportSize({ width: 390, height: 800 })
    // The browser fires resize with its next frame; only then does the 20 ms debounce start.
    await page.locator('body[data-resized="true"]').waitFor({ state: 'attached' })
    await page.clock.runFor(19)
    t.equal(await form(page).getAttribute('data-detached'), 'false', 'not re-checked before 20 ms')
    await page.clock.runFor(1)
    t.equal(await form(page).getAttribute('data-detached'), 'true', 'detached after 20 ms')
    await page.clock.resume()

    await input(page).focus()
    t.equal(await form(page).getAttribute('data-modal'), 'true', 'focus opened the modal at once')
    await search(page, 'mortgage', 3)
    t.equal(await form(page).getAttribute('data-modal'), 'true', 'the results show in the modal')
    const box = await form(page).boundingBox()
    t.same([box?.x, box?.y, box?.width], [0, 0, 390], 'across the top of the screen')
    const cancel = page.getByRole('button', { name: 'Cancel' })
    t.ok(await cancel.isVisible())
    await cancel.click()
    t.equal(await form(page).getAttribute('data-modal'), 'false', 'Cancel closed it')
    t.ok(await panel(page).isHidden())

    await input(page).focus()
    t.equal(await form(page).getAttribute('data-modal'), 'true')
    for (const _ of ['close the panel', 'clear the text', 'leave the modal']) await page.keyboard.press('Escape')
    t.equal(await input(page).inputValue(), '')
    t.equal(await form(page).getAttribute('data-modal'), 'false', 'a third Escape left the modal')
  })

  t.test('the open panel with an active result passes axe', async (t) => {
    const page = await library(t)
    await search(page, 'mortgage', 3)
    await page.keyboard.press('ArrowDown')
    t.same(await axeViolations(page, ['form.search-box']), [])
  })

  t.test('Clear empties the text and keeps the focus', async (t) => {
    const page = await library(t)
    await search(page, 'mortgage', 3)
    await page.getByRole('button', { name: 'Clear' }).click()
    t.equal(await input(page).inputValue(), '')
    t.ok(await input(page).evaluate((node) => node === document.activeElement))
    t.ok(await panel(page).isHidden())
    t.ok(await page.getByRole('button', { name: 'Clear' }).isHidden(), 'nothing left to clear')
  })

  t.test('without JavaScript the header form goes to the screener with the text', async (t) => {
    const page = await signedInPage(t, browser, server.url, world.author, { javaScriptEnabled: false })
    await page.goto(`${server.url}/library`)
    await input(page).fill('mortgage')
    await page.getByRole('button', { name: 'Submit' }).click()
    await page.waitForURL(`${server.url}/library/search?q=mortgage`)
    t.ok(await page.getByText('You searched for “mortgage”').isVisible())
  })
})
