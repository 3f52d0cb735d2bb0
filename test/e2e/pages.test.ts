// In the browser: signing in through the form, and on every page that exists the loader reads the page marker
// the SPEC names and mounts the page's islands (the server-side marker test is pages-markers.test.ts).
import t from 'tap'
import { startServer } from '../helpers/server.ts'
import { createOwner } from '../helpers/factories.ts'
import { chromiumMissing, islandsSettled, launchBrowser, newQuietContext, recordConsole, signInByApi } from '../helpers/browser.ts'

const SIGNED_OUT_PAGES = [
  ['/login', 'sign-in'],
  ['/signup', 'sign-up'],
  ['/password/forgot', 'password-reset'],
] as const

const SIGNED_IN_PAGES = [
  ['/', 'index', []],
  ['/profile', 'user-page', ['inline-editor']],
  ['/profile/edit', 'user-page', []],
  ['/profile/password', 'user-page', []],
  ['/password/edit', 'password-reset', []],
  ['/user/team', 'user-page', []],
  ['/user/new', 'user-page', []],
  ['/admin/users', 'admin-users', []],
  ['/admin/users/new', 'admin-users-new', []],
] as const

const SHARED_ISLANDS = ['notifications', 'timezone-prompt', 'search-box']

t.test('pages in the browser', { skip: chromiumMissing }, async (t) => {
  const server = await startServer()
  t.teardown(() => server.close())
  const browser = await launchBrowser(t)
  await createOwner(server.db, { id: 'TF', name: 'Provider' })
  const admin = await server.createUser({ role: 'admin', ownerId: 'TF' })

  t.test('sign in through the form lands on the mounted home page', async (t) => {
    const context = await newQuietContext(browser)
    t.teardown(() => context.close())
    const page = await context.newPage()
    await page.goto(`${server.url}/login`)
    t.equal(await islandsSettled(page), 'mounted')
    await page.getByLabel('E-mail').fill(admin.email)
    await page.getByLabel('Password').fill(admin.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL(`${server.url}/`)
    t.equal(await islandsSettled(page), 'mounted')
    t.equal(await page.locator('main').getAttribute('data-page'), 'index')
    t.equal(await page.locator('[data-island="search-box"]').getAttribute('data-island-state'), 'mounted',
      'the search box mounted')
  })

  t.test('signed-out pages carry their SPEC names and mount', async (t) => {
    const context = await newQuietContext(browser)
    t.teardown(() => context.close())
    const page = await context.newPage()
    const console = recordConsole(page)
    for (const [path, name] of SIGNED_OUT_PAGES) {
      await page.goto(`${server.url}${path}`)
      t.equal(await islandsSettled(page), 'mounted', `${path} mounted`)
      t.equal(await page.locator('main').getAttribute('data-page'), name, `${path} is ${name}`)
      t.equal(await page.locator('[data-island="notifications"]').getAttribute('data-island-state'), 'mounted')
    }
    t.same(console.messages.filter((m) => m.type === 'error' || m.type === 'warning'), [], 'nothing warned or failed')
  })

  t.test('signed-in pages carry their SPEC names and mount every island', async (t) => {
    const context = await newQuietContext(browser)
    t.teardown(() => context.close())
    const page = await context.newPage()
    const console = recordConsole(page)
    await signInByApi(page, server.url, admin)
    for (const [path, name, pageIslands] of SIGNED_IN_PAGES) {
      await page.goto(`${server.url}${path}`)
      t.equal(await islandsSettled(page), 'mounted', `${path} mounted`)
      t.equal(await page.locator('main').getAttribute('data-page'), name, `${path} is ${name}`)
      for (const island of [...SHARED_ISLANDS, ...pageIslands]) {
        t.equal(await page.locator(`[data-island="${island}"]`).getAttribute('data-island-state'), 'mounted',
          `${path}: ${island} mounted`)
      }
    }
    t.same(console.messages.filter((m) => m.type === 'error' || m.type === 'warning'), [], 'nothing warned or failed')
  })
})
