// Shared by the search browser tests: a real server with advice sets created through the API (so they are
// audited and indexed like any author's), signed-in pages, and a wait until the index has caught up.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Test } from 'tap'
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core'
import { startServer, type TestServer } from '../helpers/server.ts'
import { createOwner } from '../helpers/factories.ts'
import type { TestUser } from '../helpers/factories.ts'
import { islandsSettled, newQuietContext, signInByApi } from '../helpers/browser.ts'

export const PROVIDER_NAME = 'Advice Studio'

export interface SetSpec { name: string, nameAlt?: string, isStarter?: boolean, isPublic?: boolean }

export interface SearchWorld {
  server: TestServer
  provider: TestUser
  author: TestUser
  /** Advice set ids by name. */
  ids: Map<string, number>
}

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>
const sessions = new Map<string, StorageState>()

/** A new context signed in as `user`; the session is reused, as sign-in is rate limited. */
export async function signedInPage(t: Test, browser: Browser, baseUrl: string, user: TestUser, options: BrowserContextOptions = {}): Promise<Page> {
  const key = `${baseUrl} ${user.email}`
  const context = await newQuietContext(browser, { ...options, storageState: sessions.get(key) })
  t.teardown(() => context.close())
  const page = await context.newPage()
  if (!sessions.has(key)) {
    await signInByApi(page, baseUrl, user)
    sessions.set(key, await context.storageState())
  }
  return page
}

export async function openPage(t: Test, page: Page, url: string): Promise<void> {
  await page.goto(url)
  t.equal(await islandsSettled(page), 'mounted', `${new URL(url).pathname} mounted`)
}

async function csrfOf(page: Page, baseUrl: string): Promise<string> {
  if (!page.url().startsWith(baseUrl)) await page.goto(`${baseUrl}/library`)
  const token = await page.locator('meta[name="csrf-token"]').getAttribute('content')
  if (!token) throw new Error('no CSRF token on the page')
  return token
}

export async function createSets(page: Page, baseUrl: string, sets: readonly SetSpec[]): Promise<Map<string, number>> {
  const token = await csrfOf(page, baseUrl)
  const ids = new Map<string, number>()
  for (const set of sets) {
    const response = await page.request.post(`${baseUrl}/api/adviceset`, { data: set, headers: { 'x-csrf-token': token } })
    if (response.status() !== 201) throw new Error(`creating ${set.name} answered ${response.status()}`)
    const body = await response.json() as { data: { id: number } }
    ids.set(set.name, body.data.id)
  }
  return ids
}

/** Asks /api/search until `query` finds `count` hits: indexing runs after the commit, not inside the request. */
export async function waitUntilIndexed(page: Page, baseUrl: string, query: string, count: number): Promise<void> {
  const token = await csrfOf(page, baseUrl)
  let last = -1
  for (let attempt = 0; attempt < 200; attempt++) {
    const response = await page.request.post(`${baseUrl}/api/search`, {
      data: { requests: [{ indexName: 'advice_updatedAt', params: { query, searchFilter: 'all' } }] },
      headers: { 'x-csrf-token': token },
    })
    if (!response.ok()) throw new Error(`/api/search answered ${response.status()}: ${await response.text()}`)
    const body = await response.json() as { results: Array<{ nbHits: number }> }
    last = body.results[0]?.nbHits ?? -1
    if (last >= count) return
    // The next request only goes out once the indexer has had the event loop: no timers involved.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)))
  }
  throw new Error(`"${query}" found ${last} hits, expected ${count}`)
}

export async function startSearchWorld(t: Test, browser: Browser, authorSets: readonly SetSpec[], providerSets: readonly SetSpec[]): Promise<SearchWorld> {
  const server = await startServer()
  t.teardown(() => server.close())
  await createOwner(server.db, { id: 'TF', name: PROVIDER_NAME })
  const provider = await server.createUser({ role: 'admin', ownerId: 'TF', name: 'Pat Provider' })
  const author = await server.createUser({ role: 'admin', name: 'Ada Author' })
  const ids = new Map<string, number>()
  for (const [user, sets] of [[provider, providerSets], [author, authorSets]] as const) {
    const setup = await signedInPage(t, browser, server.url, user)
    for (const [name, id] of await createSets(setup, server.url, sets)) ids.set(name, id)
    await setup.context().close()
  }
  return { server, provider, author, ids }
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

interface AxeViolation { id: string, help: string, nodes: Array<{ target: string[] }> }

/** axe-core's violations inside the given selectors (as test/e2e/accessibility.test.ts runs it). */
export async function axeViolations(page: Page, include: string[]): Promise<Array<{ rule: string, targets: string[] }>> {
  await page.evaluate(AXE_SOURCE)
  const violations = await page.evaluate(async (selectors) => {
    const axe = (window as unknown as { axe: { run(context: unknown): Promise<{ violations: AxeViolation[] }> } }).axe
    return (await axe.run({ include: selectors.map((selector) => [selector]) })).violations
  }, include)
  return violations.map((v) => ({ rule: `${v.id}: ${v.help}`, targets: v.nodes.map((n) => n.target.join(' ')) }))
}
