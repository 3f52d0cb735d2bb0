// Issue 26 acceptance in Chromium: on a first run, the printed curl line gets an answer; the demo author finds it on
// the set's decisions page; its record page draws the path on the rule tree; "Run again on this version" says identical.
import t from 'tap'
import { seedFirstRun } from '../../src/services/library/demo.ts'
import { demoCurlLine } from '../../src/services/library/demo-delivery.ts'
import { startServer } from '../helpers/server.ts'
import { chromiumMissing, launchBrowser, newQuietContext, recordConsole, signInByApi } from '../helpers/browser.ts'

t.test('first run: the curl line, its record on the decisions page, the path, run again', { skip: chromiumMissing }, async (t) => {
  const server = await startServer()
  t.teardown(() => server.close())
  const browser = await launchBrowser(t)
  const { logins, served } = await seedFirstRun(server.app.deps, { demo: true })
  t.ok(served, 'the first run serves the demo set')

  // The printed line, as a user pastes it: its header and URL, sent as curl would send them.
  const line = demoCurlLine(server.url, served!)
  const [, header, url] = /^curl -i -H '([^']+)' '([^']+)'$/.exec(line) ?? []
  t.ok(header && url, `a ready curl line: ${line}`)
  const [name, value] = header!.split(': ')
  const answer = await fetch(url!, { headers: { [name!]: value! } })
  t.equal(answer.status, 200, 'the Advice API answers it')
  const decisionId = answer.headers.get('decision-id')
  t.match(decisionId, /^[0-9a-f-]{36}$/, 'with a Decision-Id')
  const headlines = ((await answer.json()) as { data: { advice: Array<{ headline: string }> } }).data.advice.map((a) => a.headline)
  await server.app.partner.recorder.flush()

  const context = await newQuietContext(browser)
  t.teardown(() => context.close())
  const page = await context.newPage()
  const console = recordConsole(page)
  await signInByApi(page, server.url, logins.find((l) => l.role === 'author')!)
  await page.goto(`${server.url}/adviceset/${served!.adviceSetId}/decisions`)
  const row = page.locator(`tr[data-decision-id="${decisionId}"]`)
  t.equal(await row.count(), 1, 'the decisions page lists the answer')
  t.match(await row.textContent(), headlines[0]!, 'with the advice it gave')

  await row.getByRole('link').click()
  await page.locator('main[data-page="decision"]').waitFor()
  const tree = page.locator('.decision-tree')
  const held = tree.locator('.debug-node.is-visited[data-node-type="condition"]')
  t.ok(await held.count() >= 1, 'the path is drawn on the rule tree: the conditions that held are marked')
  t.match(await held.first().textContent(), '= true', 'each with its value')
  t.ok(await tree.locator('.debug-node.is-skipped').count() >= 1, 'and what the answer did not go through is not')
  t.match(await page.locator('.decision-answer').textContent(), headlines[0]!, 'the answer as given')

  await page.getByRole('link', { name: 'Run again on this version' }).click()
  const result = page.locator('.decision-replay__result')
  await result.waitFor()
  t.equal(await result.getAttribute('data-identical'), 'true')
  t.match(await result.textContent(), 'Identical.', '"Run again on this version" says identical')
  t.same(console.messages.filter((m) => m.type === 'error'), [], 'no console errors')
})
