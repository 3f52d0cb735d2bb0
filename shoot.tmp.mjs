import { chromium } from 'playwright-core'
import { writeFileSync } from 'node:fs'
const base = 'http://localhost:3115'
const [email, password] = process.argv.slice(2)
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] })
const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
await context.addInitScript(() => localStorage.setItem('userCheckTimezone', Intl.DateTimeFormat().resolvedOptions().timeZone))
const page = await context.newPage()
page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') console.log('console:', m.type(), m.text()) })
await page.goto(`${base}/login`)
await page.fill('input[name=email]', email)
await page.fill('input[name=password]', password)
await page.click('button[type=submit]')
await page.waitForURL(`${base}/`)
const shots = JSON.parse(process.env.SHOTS ?? '[]')
for (const [name, url, action] of shots) {
  await page.goto(`${base}${url}`)
  await page.locator('main[data-island-state]').waitFor({ state: 'attached' })
  if (action) await eval(action)
  await page.screenshot({ path: `/tmp/i15-shots/${name}.png`, fullPage: true })
  console.log('shot', name, await page.locator('main').getAttribute('data-island-state'))
}
await browser.close()
