// Issue 28 acceptance in Chromium: an author exports the demo set from its page, imports the file from the import
// page (checked first: what would be created, no problem), and sees the set's scenarios pass on the imported copy.
import { readFileSync } from 'node:fs'
import t from 'tap'
import { seedFirstRun } from '../../src/services/library/demo.ts'
import { startServer } from '../helpers/server.ts'
import { axeViolationsInMain, chromiumMissing, islandsSettled, launchBrowser, newQuietContext, recordConsole, signInByApi } from '../helpers/browser.ts'

t.test('export the demo set, import it from the page, its scenarios pass', { skip: chromiumMissing }, async (t) => {
  const server = await startServer()
  t.teardown(() => server.close())
  const browser = await launchBrowser(t)
  const { logins, served } = await seedFirstRun(server.app.deps, { demo: true })
  const setId = served!.adviceSetId
  const context = await newQuietContext(browser, { acceptDownloads: true })
  t.teardown(() => context.close())
  const page = await context.newPage()
  const console = recordConsole(page)
  await signInByApi(page, server.url, logins.find((l) => l.role === 'author')!)

  // The header's buttons stay where the server drew them when its name editor mounts: a click aimed at Export while
  // the page loads must not land on a neighbour (it did, when the mounted editor added its label above them).
  const exportLink = (on: typeof page) => on.getByRole('link', { name: 'Export', exact: true })
  const withoutScripts = await newQuietContext(browser, { javaScriptEnabled: false, storageState: await context.storageState() })
  t.teardown(() => withoutScripts.close())
  const serverDrawn = await withoutScripts.newPage()
  await serverDrawn.goto(`${server.url}/adviceset/${setId}/show`)
  await page.goto(`${server.url}/adviceset/${setId}/show`)
  t.equal(await islandsSettled(page), 'mounted')
  t.same(await exportLink(page).boundingBox(), await exportLink(serverDrawn).boundingBox(), 'Export has not moved')

  const [download] = await Promise.all([page.waitForEvent('download'), exportLink(page).click()])
  t.match(download.suggestedFilename(), /^retirement-readiness\.json$/)
  const file = await download.path()
  const text = readFileSync(file, 'utf8')
  t.match(text, /^\{\n  "format": "advice-set@1",/, 'the file is an advice-set@1 document')
  const scenarioCount = (JSON.parse(text) as { scenarios: unknown[] }).scenarios.length
  t.ok(scenarioCount > 0, 'the demo set has scenarios to prove the import')

  await page.goto(`${server.url}/adviceset/import`)
  t.equal(await islandsSettled(page), 'mounted')
  await page.getByLabel('File', { exact: true }).setInputFiles(file)
  await page.getByRole('button', { name: 'Check file' }).click()
  await page.getByRole('heading', { name: 'What the import will do' }).waitFor()
  t.match(await page.locator('.set-import__plan').innerText(), /A new advice set “Retirement readiness”/)
  t.same(await axeViolationsInMain(page), [], 'the plan passes axe')
  await page.locator('main').screenshot({ path: `${process.env.SCREENSHOT_DIR ?? '/tmp'}/import-plan.png` })
  await page.getByRole('button', { name: 'Import', exact: true }).click()
  await page.getByRole('heading', { name: 'Imported as a new advice set “Retirement readiness”' }).waitFor()
  t.match(await page.locator('.set-import__result').innerText(), new RegExp(`Scenarios on the imported draft: ${scenarioCount} passed, 0 failed, 0 could not run\\.`))
  await page.locator('main').screenshot({ path: `${process.env.SCREENSHOT_DIR ?? '/tmp'}/import-result.png` })
  const href = await page.getByRole('link', { name: 'Open the advice set' }).getAttribute('href')
  t.match(href, /^\/adviceset\/\d+\/show$/)
  t.not(href, `/adviceset/${setId}/show`, 'a new set')

  t.same(console.messages.filter((m) => m.type === 'error'), [], 'no console errors')

  // A broken file is refused with its place (the browser logs the 400 itself), and nothing is written.
  await page.getByRole('button', { name: 'Import another file' }).click()
  await page.getByLabel('File', { exact: true }).setInputFiles({ name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{\n  "format": "advice-set@1",\n  "rules": [}\n') })
  await page.getByRole('button', { name: 'Check file' }).click()
  await page.getByText(/line 3, column 13/).waitFor()
})
