// The screener /library/search (issue 6 point 6): instantsearch widgets on the real server, their state in the
// URL (reload, back, links from the search box), and the page without JavaScript.
import t, { type Test } from 'tap'
import type { Page } from 'playwright-core'
import { chromiumMissing, launchBrowser } from '../helpers/browser.ts'
import { PROVIDER_NAME, axeViolations, openPage, signedInPage, startSearchWorld, waitUntilIndexed } from './search-setup.ts'

const SCREENSHOTS = process.env.SCREENSHOT_DIR

const PLANS = Array.from({ length: 17 }, (_, i) => ({ name: `Pension plan ${String(i + 1).padStart(2, '0')}`, isStarter: i % 2 === 0 }))

t.test('screener', { skip: chromiumMissing }, async (t) => {
  const browser = await launchBrowser(t)
  const world = await startSearchWorld(t, browser, [...PLANS, { name: 'Mortgage advice', isStarter: true }], [
    { name: 'Pension basics', isStarter: true, isPublic: true },
  ])
  const { server } = world

  const hits = (page: Page) => page.locator('.screener .ais-Hits-item')
  const searchInput = (page: Page) => page.locator('.screener .ais-SearchBox-input')
  /** A refinement's checkbox; its accessible name is the label followed by the count. */
  const facet = (page: Page, heading: string, label: string) =>
    page.locator('.screener__facet', { has: page.getByRole('heading', { name: heading }) })
      .getByRole('checkbox', { name: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\d+$`) })
  const query = (page: Page) => new URL(page.url()).searchParams

  async function screener(t: Test, path: string): Promise<Page> {
    const page = await signedInPage(t, browser, server.url, world.author)
    await openPage(t, page, `${server.url}${path}`)
    await page.locator('.screener[data-search-state="ready"]').waitFor()
    return page
  }

  async function hitCount(page: Page, count: number): Promise<void> {
    await page.waitForFunction((n) => document.querySelectorAll('.screener .ais-Hits-item').length === n, count)
  }

  const setup = await signedInPage(t, browser, server.url, world.author)
  await setup.goto(`${server.url}/library`)
  await waitUntilIndexed(setup, server.url, 'pension', 18)
  await setup.context().close()

  t.test('the Advanced Search link lands on its state: text, advice set type, 15 hits a page', async (t) => {
    const page = await screener(t, '/library/search?q=pension&type=Advice+Set')
    t.equal(await page.locator('main').getAttribute('data-page'), 'screener')
    t.equal(await searchInput(page).inputValue(), 'pension')
    t.ok(await facet(page, 'Type', 'Advice Set').isChecked(), 'the type refinement is on')
    await hitCount(page, 15)
    t.match(await page.locator('.screener__stats').textContent(), /18 results/)
    t.ok(await page.locator('.ais-Hits-item mark', { hasText: 'Pension' }).first().isVisible(), 'highlighted names')

    await searchInput(page).fill('pension basics')
    await hitCount(page, 1)
    const byProvider = hits(page).filter({ hasText: 'Pension basics' })
    t.equal(await byProvider.locator('.search-hit__detail').textContent(), `By: ${PROVIDER_NAME}`)
    t.equal(await byProvider.getByRole('link').getAttribute('href'), `/adviceset/${world.ids.get('Pension basics')}/show`)
    t.same(await axeViolations(page, ['.screener']), [], 'the screener passes axe')
  })

  t.test('refinements and the page go into the URL and come back on reload and with Back', async (t) => {
    const page = await screener(t, '/library/search?q=pension')
    await hitCount(page, 15)
    await facet(page, 'Owner', PROVIDER_NAME).check()
    await page.waitForURL((url) => url.searchParams.get('owner') === PROVIDER_NAME)
    await hitCount(page, 1)
    t.same([...query(page).keys()].sort(), ['owner', 'q'])

    await facet(page, 'Owner', PROVIDER_NAME).uncheck()
    await page.waitForURL((url) => !url.searchParams.has('owner'))
    await hitCount(page, 15)
    await facet(page, 'Starter', 'Starter').check()
    await page.waitForURL((url) => url.searchParams.get('starter') === 'true')
    await hitCount(page, 10)
    t.ok(await facet(page, 'Public', 'Not public').isVisible(), 'flag facets read as words')
    await facet(page, 'Starter', 'Starter').uncheck()
    await page.waitForURL((url) => !url.searchParams.has('starter'))

    await page.locator('.ais-Pagination-link', { hasText: /^2$/ }).click()
    await page.waitForURL((url) => url.searchParams.get('page') === '2')
    await hitCount(page, 3)
    t.equal(query(page).get('q'), 'pension')

    await page.reload()
    await page.locator('.screener[data-search-state="ready"]').waitFor()
    await hitCount(page, 3)
    t.equal(await searchInput(page).inputValue(), 'pension', 'the text came back with the reload')
    t.equal(await page.locator('.ais-Pagination-item--selected').textContent(), '2', 'and the page')

    await page.goBack()
    await page.waitForURL((url) => !url.searchParams.has('page'))
    await hitCount(page, 15)
    t.pass('Back restored page 1')
  })

  t.test('typing in the screener updates q in the URL', async (t) => {
    const page = await screener(t, '/library/search')
    await searchInput(page).fill('mortgage')
    await page.waitForURL((url) => url.searchParams.get('q') === 'mortgage')
    await hitCount(page, 1)
    t.equal(await hits(page).locator('.search-hit__title').textContent(), 'Mortgage advice')
    t.ok(await page.locator('.screener .ais-Pagination').isHidden(), 'one page of results: no pagination')
    await searchInput(page).fill('zzzqqq')
    await page.locator('.ais-Hits--empty', { hasText: 'No results' }).waitFor()
    t.ok(await page.locator('.screener .ais-Pagination').isHidden(), 'no page "1" under No results')
    t.equal(await page.locator('.screener .ais-Pagination-link:visible').count(), 0)
    if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/screener-no-results.png`, fullPage: true })
  })

  t.test('refinements that leave nothing while the text alone finds results: said, with a one-click way out', async (t) => {
    const page = await screener(t, '/library/search?q=mortgage&public=true')
    const widen = page.locator('.screener-widen')
    await widen.waitFor()
    t.match(await widen.textContent(), /^No results with these filters\./)
    await page.screenshot({ path: '/tmp/shots-25c/screener-widen.png', fullPage: true })
    await widen.getByRole('button', { name: 'Show 1 result without filters' }).click()
    await hitCount(page, 1)
    t.equal(await hits(page).locator('.search-hit__title').textContent(), 'Mortgage advice')
    await page.waitForURL((url) => !url.searchParams.has('public'))
    t.equal(query(page).get('q'), 'mortgage', 'the text stays')
  })

  t.test('a keyword map’s phrase: the search box suggests its set, and Advanced Search shows it too', async (t) => {
    const page = await signedInPage(t, browser, server.url, world.author)
    await openPage(t, page, `${server.url}/library`)
    const token = await page.locator('meta[name="csrf-token"]').getAttribute('content') ?? ''
    const created = await page.request.post(`${server.url}/api/keywordmap`, {
      data: { name: 'Home buyers', phrases: ['buy a house'], adviceSetId: world.ids.get('Mortgage advice') }, headers: { 'x-csrf-token': token },
    })
    t.equal(created.status(), 201)
    const box = page.locator('#search-box-input')
    await box.focus()
    await page.locator('form.search-box[data-panel="ready"]').waitFor()
    await box.fill('buy a house')
    const suggested = page.locator('#search-box-results [role="option"]', { hasText: 'Mortgage advice' })
    await suggested.filter({ hasText: 'Suggested' }).waitFor()
    await page.getByRole('link', { name: 'Advanced Search' }).click()
    await page.waitForURL((url) => url.pathname === '/library/search' && url.searchParams.get('q') === 'buy a house')
    await page.locator('.screener[data-search-state="ready"]').waitFor()
    await hitCount(page, 1)
    t.ok(await facet(page, 'Type', 'Advice Set').isChecked(), 'refined to advice sets, as the link asks')
    t.match(await hits(page).first().textContent(), /Mortgage advice\s*Suggested/, 'the same set, marked as suggested')
    t.notOk(await page.getByText('No results').isVisible(), 'not "No results"')
    t.match(await page.locator('.screener__stats').textContent(), /1 result/)
    if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/screener-keyword-map.png`, fullPage: true })
  })

  t.test('without JavaScript: the query and a link to the library', async (t) => {
    const page = await signedInPage(t, browser, server.url, world.author, { javaScriptEnabled: false })
    await page.goto(`${server.url}/library/search?q=pension&type=Advice+Set`)
    t.ok(await page.getByText('You searched for “pension”').isVisible())
    const link = page.getByRole('link', { name: 'show matching advice sets in the library' })
    t.equal(await link.getAttribute('href'), '/library?q=pension')
    t.equal(await page.getByLabel('Search', { exact: true }).and(page.locator('main input')).inputValue(), 'pension')
    await link.click()
    await page.waitForURL(`${server.url}/library?q=pension`)
    t.pass('the link goes to the library filtered by the text')
  })
})
