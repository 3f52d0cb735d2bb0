// The island loader (DESIGN.md "Pages and islands", SPEC.md §2, §8) on fixture pages served on the app's
// origin, loading the real bundles: unknown names, a chunk that fails or never arrives, props that do not parse.
import t, { type Test } from 'tap'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { BUILD_DIR } from '../../scripts/build-islands.ts'
import type { BuildManifest } from '../../scripts/build-islands.ts'
import { startServer } from '../helpers/server.ts'
import { createOwner } from '../helpers/factories.ts'
import type { FixtureIsland } from '../helpers/browser.ts'
import {
  chromiumMissing, islandsSettled, launchBrowser, newQuietContext, recordConsole, routeFixturePage, signInByApi,
} from '../helpers/browser.ts'

const EDITOR: FixtureIsland = {
  name: 'inline-editor',
  props: { action: '/api/user/1', method: 'PATCH', fields: [{ name: 'name', label: 'Name', value: 'Ada', editor: 'input' }] },
  fallback: '<p class="fallback">Ada</p>',
}
const NOTIFICATIONS: FixtureIsland = { name: 'notifications', props: { flash: [] } }
const USER_CHUNK = '**/static/build/chunks/user-*.js'
// Issue 6 acceptance: JavaScript before the first interaction on a library page.
const LIBRARY_JS_BUDGET_GZIP_BYTES = 15 * 1024
const AREA_CHUNK = /\/static\/build\/chunks\/(ruleset|user)-\w+\.js$/

t.test('island loader', { skip: chromiumMissing }, async (t) => {
  const server = await startServer()
  t.teardown(() => server.close())
  const browser = await launchBrowser(t)

  async function newPage(t: Test): Promise<Page> {
    const context = await browser.newContext()
    t.teardown(() => context.close())
    return context.newPage()
  }

  const islandState = (page: Page, name: string) =>
    page.locator(`[data-island="${name}"]`).getAttribute('data-island-state')

  t.test('an unknown page module is warned about and the shared islands still mount', async (t) => {
    const page = await newPage(t)
    const console = recordConsole(page)
    const url = await routeFixturePage(page, server.url, '/e2e/unknown', {
      pageName: 'no-such-page',
      islands: [NOTIFICATIONS, { name: 'future-island', fallback: '<form class="fallback"></form>' }],
    })
    const warned = console.waitFor('warning', 'Unknown page module: no-such-page')
    await page.goto(url)
    await warned
    t.equal(await islandsSettled(page), 'mounted')
    t.equal(await islandState(page, 'notifications'), 'mounted')
    t.equal(await islandState(page, 'future-island'), null, 'an island without code is left alone')
    t.equal(await page.locator('[data-island="future-island"] form.fallback').count(), 1, 'with its fallback')
    t.ok(console.messages.some((m) => m.type === 'debug' && m.text === 'Unknown island: future-island'))
    t.notOk(console.messages.some((m) => m.type === 'error'), 'no errors')
  })

  t.test('a page island mounts from its area chunk, replacing the fallback', async (t) => {
    const page = await newPage(t)
    const chunks: string[] = []
    page.on('request', (request) => { if (request.url().includes('/static/build/')) chunks.push(new URL(request.url()).pathname) })
    await page.goto(await routeFixturePage(page, server.url, '/e2e/user', { pageName: 'user-page', islands: [NOTIFICATIONS, EDITOR] }))
    t.equal(await islandsSettled(page), 'mounted')
    t.equal(await islandState(page, 'inline-editor'), 'mounted')
    t.equal(await page.locator('.fallback').count(), 0, 'the fallback is gone')
    t.ok(await page.getByRole('button', { name: 'Name Ada' }).isVisible())
    t.ok(chunks.some((path) => /^\/static\/build\/chunks\/user-\w+\.js$/.test(path)), 'the user area chunk was loaded')
  })

  t.test('a chunk that cannot be fetched: "Failed to load page module" with a network ChunkLoadError', async (t) => {
    const page = await newPage(t)
    const console = recordConsole(page)
    await page.route(USER_CHUNK, (route) => route.abort('connectionrefused'))
    const failed = console.waitFor('error', 'Failed to load page module: user-page')
    await page.goto(await routeFixturePage(page, server.url, '/e2e/user', { pageName: 'user-page', islands: [NOTIFICATIONS, EDITOR] }))
    const message = await failed
    t.match(String(await message.args()[1]?.evaluate((error) => `${(error as Error).name}: ${(error as Error).message}`)),
      'ChunkLoadError: Loading chunk user failed (network)')
    t.equal(await islandsSettled(page), 'failed')
    t.equal(await islandState(page, 'notifications'), 'mounted', 'the shared islands still work')
    t.equal(await islandState(page, 'inline-editor'), null)
    t.equal(await page.locator('.fallback').count(), 1, 'the page island keeps its fallback')
  })

  t.test('a chunk that never arrives fails after 120 s with a timeout ChunkLoadError', async (t) => {
    const page = await newPage(t)
    const console = recordConsole(page)
    await page.clock.install()
    await page.clock.pauseAt(Date.now() + 1000)
    let requested: () => void = () => {}
    const chunkRequested = new Promise<void>((resolve) => { requested = resolve })
    await page.route(USER_CHUNK, () => requested())
    await page.goto(await routeFixturePage(page, server.url, '/e2e/user', { pageName: 'user-page', islands: [NOTIFICATIONS, EDITOR] }))
    await chunkRequested
    await page.clock.runFor(119_999)
    t.equal(await page.locator('main').getAttribute('data-island-state'), null, 'still waiting at 119 999 ms')
    const failed = console.waitFor('error', 'Failed to load page module: user-page')
    await page.clock.runFor(1)
    const message = await failed
    t.match(String(await message.args()[1]?.evaluate((error) => (error as Error).message)), 'Loading chunk user failed (timeout)')
    t.equal(await islandsSettled(page), 'failed')
    t.equal(await islandState(page, 'notifications'), 'mounted')
  })

  t.test('props that do not parse are reported with the island name; the other islands mount', async (t) => {
    const page = await newPage(t)
    const console = recordConsole(page)
    const failed = console.waitFor('error', 'Island inline-editor failed to mount')
    await page.goto(await routeFixturePage(page, server.url, '/e2e/user', {
      pageName: 'user-page',
      islands: [NOTIFICATIONS, { ...EDITOR, rawProps: '{"action": "/api/user/1", ' }],
    }))
    const message = await failed
    t.match(String(await message.args()[1]?.evaluate((error) => (error as Error).message)),
      'Could not parse props of island inline-editor')
    t.equal(await islandState(page, 'inline-editor'), 'failed')
    t.equal(await page.locator('.fallback').count(), 1, 'its fallback stays')
    t.equal(await islandState(page, 'notifications'), 'mounted')
    t.equal(await islandsSettled(page), 'failed')
  })

  t.test('a library page loads no area chunk (no React) and under 15 KB gzip of JS before any interaction', async (t) => {
    const ownerId = await createOwner(server.db, { name: 'Budget Advisers' })
    const user = await server.createUser({ ownerId, role: 'author' })
    const context = await newQuietContext(browser)
    t.teardown(() => context.close())
    const page = await context.newPage()
    await signInByApi(page, server.url, user)
    const scripts: string[] = []
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname)
    })
    await page.goto(`${server.url}/library`)
    t.equal(await islandsSettled(page), 'mounted')
    t.equal(await islandState(page, 'notifications'), 'mounted')
    t.equal(await islandState(page, 'timezone-prompt'), 'mounted')
    t.equal(await islandState(page, 'search-box'), 'mounted')
    t.same(scripts.filter((script) => AREA_CHUNK.test(script)), [], 'no area chunk was loaded')
    const manifest = JSON.parse(await readFile(path.join(BUILD_DIR, 'manifest.json'), 'utf8')) as BuildManifest
    const gzipBytes = new Map(manifest.files.map((file) => [`/static/build/${file.file}`, file.gzipBytes]))
    const unknown = scripts.filter((script) => !gzipBytes.has(script))
    t.same(unknown, [], 'every script is a built island file')
    const total = scripts.reduce((sum, script) => sum + (gzipBytes.get(script) ?? 0), 0)
    t.ok(total < LIBRARY_JS_BUDGET_GZIP_BYTES, `${(total / 1024).toFixed(1)} KB gzip is under 15 KB`)
  })
})
