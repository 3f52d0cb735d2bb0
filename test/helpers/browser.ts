// Browser tests drive the system Chromium through playwright-core (no downloaded browsers on these machines).
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { chromium } from 'playwright-core'
import { buildIslandsIfStale } from '../../scripts/build-islands.ts'
import type { Browser, BrowserContext, BrowserContextOptions, ConsoleMessage, Frame, Page } from 'playwright-core'

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** A reason to skip, or false when Chromium is there. Pass it as `{ skip: chromiumMissing }`. */
export const chromiumMissing: string | false = existsSync(CHROMIUM_PATH)
  ? false
  : `Chromium not found at ${CHROMIUM_PATH}: install it (apt-get install -y chromium) to run the browser tests`

const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run', '--disable-quic',
]

interface Teardown { teardown(fn: () => unknown): void }

/** One browser per test file (with up-to-date island bundles); playwright gives it a fresh temporary profile. */
export async function launchBrowser(t: Teardown): Promise<Browser> {
  // Browser tests must exercise the islands as they are now, not a bundle left over from before an edit.
  await buildIslandsIfStale()
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS })
  t.teardown(() => browser.close())
  return browser
}

/**
 * A context whose signed-in pages do not open the timezone prompt: its modal dialog would make every other page
 * inert. Tests of the prompt itself use a plain browser.newContext().
 */
export async function newQuietContext(browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext(options)
  await context.addInitScript(() => {
    localStorage.setItem('userCheckTimezone', Intl.DateTimeFormat().resolvedOptions().timeZone)
  })
  return context
}

export interface Credentials { email: string, password: string }

/** Signs in through the API (the sign-in form has its own test); the page's context keeps the session cookie. */
export async function signInByApi(page: Page, baseUrl: string, user: Credentials): Promise<void> {
  const form = await page.request.get(`${baseUrl}/login`)
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1]
  if (!csrf) throw new Error('The sign-in page has no _csrf field')
  const response = await page.request.post(`${baseUrl}/login`, {
    form: { email: user.email, password: user.password, _csrf: csrf },
    maxRedirects: 0,
  })
  if (response.status() !== 303) throw new Error(`Sign-in answered ${response.status()}`)
}

/** Waits until the loader has finished with the page (mounted or failed) and returns the state. */
export async function islandsSettled(page: Page): Promise<string | null> {
  const main = page.locator('main[data-island-state]')
  await main.waitFor({ state: 'attached' })
  return main.getAttribute('data-island-state')
}

export interface ConsoleLog {
  messages: Array<{ type: string, text: string }>
  /** Resolves with the first message of this type whose text contains `text`. */
  waitFor(type: string, text: string): Promise<ConsoleMessage>
}

export function recordConsole(page: Page): ConsoleLog {
  const messages: ConsoleLog['messages'] = []
  page.on('console', (message) => messages.push({ type: message.type(), text: message.text() }))
  return {
    messages,
    waitFor: (type, text) => page.waitForEvent('console', {
      predicate: (message) => message.type() === type && message.text().includes(text),
    }),
  }
}

export interface FixtureIsland { name: string, props?: unknown, rawProps?: string, fallback?: string }

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')
}

/**
 * Serves a minimal page at `${baseUrl}${path}` from inside the browser (no server route needed) that loads the
 * real loader bundle from the server: for loader and island behaviour the app's own pages cannot produce.
 */
export async function routeFixturePage(page: Page, baseUrl: string, path: string, fixture: {
  pageName: string
  islands: FixtureIsland[]
}): Promise<string> {
  const islands = fixture.islands.map((island) => {
    const props = island.rawProps ?? JSON.stringify(island.props ?? {})
    return `<div data-island="${island.name}" data-props="${escapeAttribute(props)}">${island.fallback ?? ''}</div>`
  }).join('\n')
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Fixture</title>
<meta name="csrf-token" content="fixture">
<link rel="stylesheet" href="/static/build/islands.css">
<script type="application/json" id="app-context">{"currentUser":null,"currentRule":null,"currentAdviceSet":null}</script>
<script type="module" src="/static/build/loader.js"></script></head>
<body><main data-page="${fixture.pageName}"><h1>Fixture</h1></main>
${islands}</body></html>`
  const url = `${baseUrl}${path}`
  await page.route(url, (route) => route.fulfill({ contentType: 'text/html', body: html }))
  return url
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/** axe-core's findings inside <main> of a page or frame, as "rule: targets" lines. */
export async function axeViolationsInMain(target: Page | Frame): Promise<string[]> {
  // Added through the debugger protocol, which the page's CSP does not govern.
  await target.evaluate(AXE_SOURCE)
  return target.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: unknown): Promise<{ violations: Array<{ id: string, nodes: Array<{ target: string[] }> }> }> } }).axe
    return (await axe.run({ include: [['main']] })).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
  })
}
