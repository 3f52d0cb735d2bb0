// Sources in the embed (issue 15 part 4): the interview on a partner's page lists each advice's sources, the
// supplements linked to its node among them, as links the partner's users can open without signing in.
import t from 'tap'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { startServer } from '../helpers/server.ts'
import { chromiumMissing, launchBrowser, newQuietContext } from '../helpers/browser.ts'
import { createAdviceSet } from '../helpers/advice-sets.ts'
import { buildRule } from '../helpers/rules.ts'
import { createApiKey } from '../helpers/api-keys.ts'
import { publishVersion } from '../helpers/publishing.ts'
import { pngOf } from '../helpers/uploads.ts'
import { Readable } from 'node:stream'
import { createLinkSupplementFor } from '../../src/services/files/links.ts'
import { uploadSupplement } from '../../src/services/files/uploads.ts'
import type { Deps } from '../../src/services/context.ts'

t.test('the embedded interview lists the sources of its advice', { skip: chromiumMissing, timeout: 120_000 }, async (t) => {
  let deps!: Deps
  const studio = await startServer({ beforeReady: (app) => { deps = app.deps } })
  t.teardown(() => studio.close())
  const browser = await launchBrowser(t)
  const author = await studio.createUser({ role: 'author' })
  const actor = { userId: author.id, ownerId: author.ownerId, role: author.role, impersonatorId: null }
  const set = await createAdviceSet(studio.db, { ownerId: author.ownerId, name: 'Sourced advice' })
  const { nodes: [advice] } = await buildRule(studio.db, set.id, 'Main', [
    { type: 'advice', headline: 'Keep three months of pay aside', sources: [{ id: 'typed', name: 'Our research', uri: 'https://research.example/' }] },
  ])
  const target = { targetType: 'ruleNode' as const, targetId: advice!.id }
  await createLinkSupplementFor(deps, actor, { url: 'https://gov.example/savings', name: 'Government guide' }, target)
  const image = await uploadSupplement(deps, actor, (async function* () {
    yield { kind: 'field' as const, field: 'targetType', value: 'ruleNode' }
    yield { kind: 'field' as const, field: 'targetId', value: String(advice!.id) }
    yield { kind: 'file' as const, field: 'file', filename: 'Savings table.png', stream: Readable.from([await pngOf(30, 20)]) }
  })())
  await publishVersion(studio.db, { adviceSetId: set.id })

  const partner = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    response.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Partner</title></head><body>
<script src="${studio.url}/static/embed.js" data-advice-set="${set.id}" data-key="${key}"></script></body></html>`)
  })
  await new Promise<void>((resolve) => partner.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => partner.close(() => resolve())))
  const origin = `http://localhost:${(partner.address() as AddressInfo).port}`
  const key = (await createApiKey(studio.db, { ownerId: author.ownerId, allowedOrigins: [origin] })).secret

  const context = await newQuietContext(browser)
  t.teardown(() => context.close())
  const page = await context.newPage()
  await page.goto(`${origin}/`)
  const frame = page.frameLocator('iframe.advice-studio-embed')
  const sources = frame.locator('.advice-item .advice-sources')
  await sources.waitFor()
  t.equal((await sources.textContent())?.trim(), 'Sources: Our research, Government guide, Savings table')
  const links = sources.getByRole('link')
  t.same(await links.evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute('target'), a.getAttribute('rel')])), [
    ['Our research', '_blank', 'noopener noreferrer'], ['Government guide', '_blank', 'noopener noreferrer'], ['Savings table', '_blank', 'noopener noreferrer'],
  ])
  t.equal(await links.nth(1).getAttribute('href'), 'https://gov.example/savings')
  const fileLink = await links.nth(2).getAttribute('href')
  t.match(fileLink, new RegExp(`^${studio.url}/api/supplements/${image.id}/view\\?token=[A-Za-z0-9_-]+$`), 'an absolute link into the studio')
  const opened = await page.request.get(fileLink!)
  t.equal(opened.status(), 200, 'it opens for someone who never signed in')
  t.equal(opened.headers()['content-type'], 'image/png')
})
