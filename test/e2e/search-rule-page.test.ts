// Choosing a search result on a rule page (SPEC.md §2): rules have no pages yet, so this fixture page carries
// what a rule page will — the app context's currentRule and a tree of `[data-node-id]` elements, the active one
// with aria-current — and /api/search answers from the test.
import t from 'tap'
import type { Page } from 'playwright-core'
import { startServer } from '../helpers/server.ts'
import { chromiumMissing, islandsSettled, launchBrowser } from '../helpers/browser.ts'

const hit = (nodeId: number, ruleId: number, name: string) => ({
  objectID: `node-${nodeId}`, entityType: { id: 1, displayName: 'Advice' }, ownerId: 'acme', ownerName: 'Acme',
  name, name_alt: '', uri: `/e2e/rule-${ruleId}#node-${nodeId}`, nodeId, rule: { id: ruleId },
  adviceset: { id: 3, name: 'Pensions', name_alt: '', isPublic: false, isStarter: true }, tags: [],
  _highlightResult: { name: { value: `<mark>Node</mark> ${name.slice(5)}`, matchLevel: 'full', matchedWords: ['node'] } },
})

const HITS = [hit(7, 5, 'Node seven'), hit(8, 5, 'Node eight'), hit(9, 6, 'Node nine')]

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Rule</title>
<meta name="csrf-token" content="fixture">
<link rel="stylesheet" href="/static/build/islands.css">
<script type="application/json" id="app-context">{"currentUser":{"id":1,"ownerId":"me"},"currentRule":{"id":5},"currentAdviceSet":{"id":3}}</script>
<script type="module" src="/static/build/loader.js"></script></head>
<body><div data-island="search-box"><form class="search-box" method="get" action="/library/search" role="search">
<label for="search-box-input">Search</label><input id="search-box-input" type="search" name="q" placeholder="Search Advice Library"></form></div>
<main data-page="rule-show"><h1>Rule five</h1>
<div data-node-id="8" aria-current="true">Node eight (active)</div>
<div style="height: 3000px"></div>
<div data-node-id="7">Node seven</div></main>
<div data-island="notifications" data-props='{"flash":[]}'></div></body></html>`

t.test('search results on a rule page', { skip: chromiumMissing }, async (t) => {
  const server = await startServer()
  t.teardown(() => server.close())
  const browser = await launchBrowser(t)
  const context = await browser.newContext()
  t.teardown(() => context.close())
  const page = await context.newPage()
  await page.route(`${server.url}/e2e/rule-*`, (route) => route.fulfill({ contentType: 'text/html', body: PAGE }))
  await page.route(`${server.url}/api/search`, (route) => route.fulfill({
    contentType: 'application/json',
    body: JSON.stringify({ results: [{ hits: HITS, nbHits: 3, page: 0, nbPages: 1, hitsPerPage: 15, facets: {}, query: 'node', params: '', index: 'advice_updatedAt', processingTimeMS: 1, exhaustiveNbHits: true }] }),
  }))
  await page.goto(`${server.url}/e2e/rule-5`)
  t.equal(await islandsSettled(page), 'mounted')

  const input = page.locator('#search-box-input')
  const option = (name: string) => page.locator('#search-box-results [role="option"]', { hasText: name })

  async function choose(p: Page, name: string): Promise<void> {
    await input.focus()
    await p.locator('form.search-box[data-panel="ready"]').waitFor()
    await input.fill('node')
    await option(name).waitFor()
    await option(name).click()
  }

  t.test('each result names its set as "This advice set" and its owner when it differs', async (t) => {
    await input.focus()
    await page.locator('form.search-box[data-panel="ready"]').waitFor()
    await input.fill('node')
    await option('Node seven').waitFor()
    t.same(await option('Node seven').locator('.search-hit__detail').allTextContents(), ['This advice set', 'By: Acme'])
    t.equal(await option('Node seven').locator('.search-hit__icon').getAttribute('class'), 'search-hit__icon icon-advice')
    await page.keyboard.press('Escape')
  })

  t.test('a result in this rule scrolls to its node and tells the tree', async (t) => {
    await page.evaluate(() => {
      document.querySelector('[data-node-id="7"]')?.addEventListener('search:select-node', (event) => {
        document.body.dataset.selectedNode = String((event as CustomEvent<{ nodeId: string }>).detail.nodeId)
      })
    })
    const inView = () => page.locator('[data-node-id="7"]').evaluate((node) => {
      const box = node.getBoundingClientRect()
      return box.top >= 0 && box.bottom <= window.innerHeight
    })
    t.notOk(await inView(), 'the node starts out of view')
    await choose(page, 'Node seven')
    await page.waitForFunction(() => document.body.dataset.selectedNode === '7')
    t.ok(await inView(), 'scrolled into view')
    t.equal(page.url(), `${server.url}/e2e/rule-5`, 'no navigation')
    t.ok(await page.locator('#search-box-panel').isHidden(), 'the panel closed')
  })

  t.test('the active node says it is already shown', async (t) => {
    await choose(page, 'Node eight')
    await page.locator('.notification', { hasText: "You're already viewing the search result you selected." }).waitFor()
    t.equal(page.url(), `${server.url}/e2e/rule-5`, 'no navigation')
  })

  t.test('a result in another rule goes to its uri', async (t) => {
    await choose(page, 'Node nine')
    await page.waitForURL(`${server.url}/e2e/rule-6#node-9`)
    t.pass('navigated')
  })
})
