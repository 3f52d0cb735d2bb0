// In Chromium, as a new customer admin (issue 25): sign up, invite an author and a viewer through the mailed links,
// change a role, deactivate one (their session ends: their next page is sign-in), resend a pending invitation, rotate
// an API key (the old secret works during the grace period, then stops: the server runs in this process, so its clock
// is moved past the grace end); then as the provider admin impersonate, edit, stop, and read "by … as …" in the
// team's activity.
import t from 'tap'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { startServer, type TestServer } from '../helpers/server.ts'
import { createOwner } from '../helpers/factories.ts'
import { chromiumMissing, launchBrowser, newQuietContext, signInByApi } from '../helpers/browser.ts'

const SHOTS = process.env.SCREENSHOT_DIR

/** The link of the newest mail to `email` in the server's outbox. */
function mailedLink(server: TestServer, email: string): string {
  const dir = path.join(server.app.deps.config.dataDir, 'outbox')
  const mails = readdirSync(dir).sort().map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as { to: unknown; link?: string })
  const mail = mails.filter((m) => JSON.stringify(m.to).includes(email)).pop()
  if (!mail?.link) throw new Error(`no mail to ${email}`)
  return mail.link
}

async function memberPage(context: BrowserContext, server: TestServer, email: string, password: string): Promise<Page> {
  const page = await context.newPage()
  await page.goto(mailedLink(server, email))
  await page.getByLabel('New password', { exact: true }).fill(password)
  await page.getByLabel('Repeat the new password').fill(password)
  await page.getByRole('button', { name: 'Save password' }).click()
  await page.waitForURL(`${server.url}/`)
  return page
}

async function shot(page: Page, name: string): Promise<void> {
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true })
}

t.test('a new customer admin manages the team; impersonation reads “by … as …”', { skip: chromiumMissing, timeout: 400_000 }, async (t) => {
  const server = await startServer()
  t.teardown(() => server.close())
  const browser = await launchBrowser(t)
  await createOwner(server.db, { id: 'TF', name: 'Advice Studio' })
  const provider = await server.createUser({ role: 'admin', ownerId: 'TF', name: 'Pat Provider' })

  // Sign up as the admin of a new organisation.
  const adminContext = await newQuietContext(browser)
  t.teardown(() => adminContext.close())
  const admin = await adminContext.newPage()
  await admin.goto(`${server.url}/signup`)
  await admin.getByLabel('Your name').fill('Ada Customer')
  await admin.getByLabel('E-mail').fill('ada@customer.test')
  await admin.getByLabel('Organisation').fill('Customer Pensions')
  await admin.getByLabel('Password').fill('ada-secret-pw-1')
  await admin.getByRole('button', { name: 'Create account' }).click()
  await admin.waitForURL((url) => !url.pathname.startsWith('/signup'))

  // Invite an author and a viewer, and someone who does not answer.
  for (const [name, email, role] of [['Aaron Author', 'aaron@customer.test', 'author'], ['Vera Viewer', 'vera@customer.test', 'viewer'], ['Nat Notyet', 'nat@customer.test', 'viewer']]) {
    await admin.goto(`${server.url}/user/new`)
    await admin.getByLabel('Name').fill(name!)
    await admin.getByLabel('E-mail').fill(email!)
    await admin.getByLabel('Role').selectOption(role!)
    await admin.getByRole('button', { name: 'Send invitation' }).click()
    await admin.waitForURL(`${server.url}/user/team`)
  }
  const memberContext = await newQuietContext(browser)
  t.teardown(() => memberContext.close())
  const aaron = await memberPage(memberContext, server, 'aaron@customer.test', 'aaron-secret-pw-1')
  await aaron.getByText('Welcome to Advice Studio, Aaron Author.').first().waitFor()
  await shot(aaron, 'welcome-after-setup')
  const viewerContext = await newQuietContext(browser)
  t.teardown(() => viewerContext.close())
  const vera = await memberPage(viewerContext, server, 'vera@customer.test', 'vera-secret-pw-1')

  // Change Vera's role.
  await admin.goto(`${server.url}/user/team`)
  const veraRow = admin.locator('tr', { has: admin.getByText('vera@customer.test') })
  await veraRow.getByLabel('Role of Vera Viewer').selectOption('author')
  await veraRow.getByRole('button', { name: 'Change role' }).click()
  await admin.getByText('Vera Viewer is now an author.').waitFor()

  // Resend Nat's pending invitation: the old link stops working.
  const natFirst = mailedLink(server, 'nat@customer.test')
  const natRow = admin.locator('#invitations tr', { has: admin.getByText('nat@customer.test') })
  await natRow.getByRole('button', { name: 'Resend invitation' }).click()
  await admin.getByText('A new invitation is on its way to nat@customer.test.').waitFor()
  t.not(mailedLink(server, 'nat@customer.test'), natFirst, 'a new link was mailed')
  await shot(admin, 'team-page')

  // Deactivate Vera: confirmed first; her next request goes to sign-in.
  const veraAgain = admin.locator('tr', { has: admin.getByText('vera@customer.test') })
  await veraAgain.getByText('Deactivate…').click()
  await shot(admin, 'team-deactivate-confirm')
  await veraAgain.getByRole('button', { name: 'Yes, deactivate Vera Viewer' }).click()
  await admin.getByText('Vera Viewer is deactivated and signed out everywhere.').waitFor()
  await vera.goto(`${server.url}/library`)
  t.match(new URL(vera.url()).pathname, '/login', 'Vera’s session ended')
  await vera.getByLabel('E-mail').fill('vera@customer.test')
  await vera.getByLabel('Password').fill('vera-secret-pw-1')
  await vera.getByRole('button', { name: 'Sign in' }).click()
  await vera.getByText('Your account at Customer Pensions is deactivated, so you cannot sign in.').waitFor()
  await shot(vera, 'sign-in-deactivated')

  const aaronId = Number(await admin.locator('tr', { has: admin.getByText('aaron@customer.test') }).getAttribute('data-member'))

  // Rotate an API key: the old secret works during the grace period, then stops; the new one goes on.
  await admin.goto(`${server.url}/admin/apikey/new`)
  await admin.getByLabel('Name').fill('Partner site')
  await admin.getByRole('button', { name: 'Create key' }).click()
  const oldSecret = await admin.locator('#api-key-secret').inputValue()
  await admin.getByRole('link', { name: 'Edit settings or rotate' }).click()
  await admin.getByLabel('Old secret keeps working for (hours)').fill('2')
  await admin.getByRole('button', { name: 'Rotate' }).click()
  await admin.getByText(/The old secret keeps working until/).waitFor()
  await shot(admin, 'api-key-rotated')
  const newSecret = await admin.locator('#api-key-secret').inputValue()
  t.not(newSecret, oldSecret, 'a new secret')
  await admin.getByRole('link', { name: 'Edit settings or rotate' }).click()
  const graceEnd = Date.parse((await admin.locator('.api-key-grace time').getAttribute('datetime'))!)
  await shot(admin, 'api-key-grace')
  // A key that authenticates gets 404 for a set that does not exist; one that does not, 401.
  const callWith = async (secret: string) => (await fetch(`${server.url}/api/advice/999999`, { headers: { authorization: `Bearer ${secret}`, accept: 'application/json' } })).status
  t.equal(await callWith(newSecret), 404, 'the new secret works')
  t.equal(await callWith(oldSecret), 404, 'the old secret works during the grace period')
  const realNow = Date.now
  Date.now = () => graceEnd + 1
  try {
    t.equal(await callWith(oldSecret), 401, 'the old secret stops when the grace period ends')
    t.equal(await callWith(newSecret), 404, 'the new one goes on')
  } finally {
    Date.now = realNow
  }

  // The provider admin impersonates Aaron, edits, stops.
  const providerContext = await newQuietContext(browser)
  t.teardown(() => providerContext.close())
  const pat = await providerContext.newPage()
  await signInByApi(pat, server.url, provider)
  await pat.goto(`${server.url}/admin/support/impersonate?userId=${aaronId}`)
  await pat.getByRole('button', { name: 'Impersonate Aaron Author' }).click()
  await pat.waitForURL(`${server.url}/`)
  // An edit as the page's own script would make it (same origin, the page's CSRF token).
  const status = await pat.evaluate(async () => {
    const token = document.querySelector('meta[name="csrf-token"]')?.getAttribute('content') ?? ''
    const res = await fetch('/api/adviceset', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json', 'x-csrf-token': token }, body: JSON.stringify({ name: 'Edited as Aaron' }) })
    return res.status
  })
  t.ok(status === 200 || status === 201, `the edit is saved (${status})`)
  await pat.getByRole('button', { name: 'Stop impersonating' }).click()
  await pat.waitForURL(`${server.url}/admin/support`)

  await admin.goto(`${server.url}/activity`)
  // The edit reads under both names; the start and the end are entries of their own, in sentences.
  await admin.locator('.activity-item__sentence', { hasText: /Pat Provider as Aaron Author created the .* “Edited as Aaron”/ }).first().waitFor()
  await admin.locator('.activity-item__sentence', { hasText: 'Pat Provider started impersonating “Aaron Author”.' }).first().waitFor()
  await admin.locator('.activity-item__sentence', { hasText: 'Pat Provider stopped impersonating “Aaron Author”.' }).first().waitFor()
  await shot(admin, 'activity-impersonation')
  await pat.goto(`${server.url}/admin/users`)
  await shot(pat, 'admin-users')
  await aaron.close()
})
