// In Chromium: a person makes a personal access token on their profile page, sees it once with a working Copy button
// and the warning that it will not be shown again, uses it (Bearer) for the advice set list, sees the use in the
// list and on the activity page, then revokes it after confirming, and the token stops working. The section passes axe.
import t from 'tap'
import { startServer } from '../helpers/server.ts'
import { createOwner } from '../helpers/factories.ts'
import { axeViolationsInMain, chromiumMissing, islandsSettled, launchBrowser, newQuietContext, recordConsole, signInByApi } from '../helpers/browser.ts'

t.test('make, copy, use and revoke a personal access token', { skip: chromiumMissing }, async (t) => {
  const server = await startServer()
  t.teardown(() => server.close())
  const browser = await launchBrowser(t)
  const ownerId = await createOwner(server.db, { name: 'Promotion team' })
  const author = await server.createUser({ role: 'author', ownerId, name: 'Pat Promoter' })
  const context = await newQuietContext(browser, { permissions: ['clipboard-read', 'clipboard-write'] })
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url })
  t.teardown(() => context.close())
  const page = await context.newPage()
  const console = recordConsole(page)
  await signInByApi(page, server.url, author)

  await page.goto(`${server.url}/profile`)
  const section = page.locator('#personal-access-tokens')
  await section.getByRole('heading', { name: 'Personal access tokens' }).waitFor()
  t.match(await section.innerText(), /No personal access tokens yet\./)
  await section.getByLabel('Name').fill('laptop')
  await section.getByRole('button', { name: 'Create token' }).click()
  await page.getByText('Choose at least one scope: export, import or both.').waitFor()
  t.same(await axeViolationsInMain(page), [], 'the form with a field error passes axe')
  await page.locator('#personal-access-tokens').getByLabel('export').check()
  await page.locator('#personal-access-tokens').getByLabel('Expires in (days)').fill('30')
  await page.locator('#personal-access-tokens').getByRole('button', { name: 'Create token' }).click()
  await page.waitForURL(`${server.url}/profile#personal-access-tokens`)
  t.equal(await islandsSettled(page), 'mounted')
  await page.getByText('Copy it now: it will not be shown again.').waitFor()
  const field = page.getByLabel('Token', { exact: true })
  const secret = await field.inputValue()
  t.match(secret, /^ast_[0-9a-f]{8}_[A-Za-z0-9_-]{32}$/, 'the whole token is shown')
  await page.getByRole('button', { name: 'Copy' }).click()
  await page.getByText('Token copied to the clipboard.').waitFor()
  t.equal(await page.evaluate(() => navigator.clipboard.readText()), secret, 'Copy puts the token on the clipboard')
  t.same(await axeViolationsInMain(page), [], 'the section with the new token passes axe')
  await section.screenshot({ path: process.env.SCREENSHOT_DIR ? `${process.env.SCREENSHOT_DIR}/access-tokens-new.png` : '/tmp/access-tokens-new.png' })

  // The command-line tool's request: the token alone, no cookie.
  const used = await fetch(`${server.url}/api/adviceset/show`, { headers: { authorization: `Bearer ${secret}` } })
  t.equal(used.status, 200)

  await page.reload()
  t.equal(await page.getByLabel('Token', { exact: true }).count(), 0, 'a reload shows the token no more')
  t.notOk((await page.content()).includes(secret.slice(-32)), 'the secret is nowhere in the page')
  const row = page.locator('table.access-token-list tbody tr').first()
  const text = await row.innerText()
  t.match(text, /laptop/)
  t.match(text, new RegExp(`${secret.slice(0, 12)}_…`), 'the prefix identifies it')
  t.match(text, /export/)
  t.notMatch(text, /never\s+never/, 'last used and expiry are both set')
  t.match(text, /Active/)

  await page.goto(`${server.url}/activity`)
  await page.getByText(`used the personal access token “laptop” (${secret.slice(0, 12)}) for “GET /api/adviceset/show”`).waitFor()

  await page.goto(`${server.url}/profile#personal-access-tokens`)
  await page.locator('table.access-token-list').getByText('Revoke', { exact: true }).click()
  await page.getByText('Requests with “laptop” are refused from the moment it is revoked.').waitFor()
  await section.screenshot({ path: process.env.SCREENSHOT_DIR ? `${process.env.SCREENSHOT_DIR}/access-tokens-revoke.png` : '/tmp/access-tokens-revoke.png' })
  await page.getByRole('button', { name: 'Yes, revoke “laptop”' }).click()
  await page.waitForURL(`${server.url}/profile#personal-access-tokens`)
  await page.getByText('The personal access token “laptop” is revoked. Requests with it are refused from now on.').waitFor()
  t.match(await page.locator('table.access-token-list tbody tr').first().innerText(), /Revoked/)
  t.equal(await page.locator('table.access-token-list').getByText('Revoke', { exact: true }).count(), 0, 'a revoked token offers no Revoke')
  const refused = await fetch(`${server.url}/api/adviceset/show`, { headers: { authorization: `Bearer ${secret}` } })
  t.equal(refused.status, 401)
  t.same(await axeViolationsInMain(page), [], 'the list passes axe')
  // The refused form answers 400 by design; Chromium logs every 4xx document load.
  const errors = console.messages.filter((m) => m.type === 'error' && !m.text.includes('status of 400'))
  t.same(errors, [], 'no console errors')
})
