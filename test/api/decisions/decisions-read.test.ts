// Issue 26, reading records back: a set's decisions for its team (page and API, every filter, keyset pagination over
// 10,000 records), one record's page in words, and a partner's read-back with the key that caused the record only.
import t from 'tap'
import { eq } from 'drizzle-orm'
import { decisionIdAt } from '../../../src/services/decisions/decision-id.ts'
import { apiKeys, decisionRecords, entities } from '../../../src/db/schema/index.ts'
import { insertDecisionRecords, type NewDecisionRecord } from '../../../src/db/queries/decisions.ts'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent } from '../../helpers/agent.ts'
import { createApiKey } from '../../helpers/api-keys.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { partnerCall, partnerFixture, query, RICH_ANSWERS } from '../delivery/advice-api-setup.ts'

const ctx = await buildTestApp(t)
const f = await partnerFixture(ctx)
const { db } = f
const production = partnerCall(ctx, f.production.secret)
const preview = partnerCall(ctx, f.preview.secret)
const advice = `/api/advice/${f.set.id}`
const pagePath = `/adviceset/${f.set.id}/decisions`
const apiPath = `/api/adviceset/${f.set.id}/decisions`

const admin = await createUser(db, { ownerId: f.ownerId, role: 'admin', name: 'Ada Owner' })
const viewer = await createUser(db, { ownerId: f.ownerId, role: 'viewer', name: 'Vera Viewer' })
const otherOwner = await createOwner(db, { name: 'Rival owner' })
const otherAdmin = await createUser(db, { ownerId: otherOwner, role: 'admin', name: 'Rex Rival' })
const team = await signedInAgent(ctx.app, admin)
const teamViewer = await signedInAgent(ctx.app, viewer)
const rival = await signedInAgent(ctx.app, otherAdmin)

/** Asks the Advice API and returns the Decision-Id of the answer, its record written. */
async function decide(call: ReturnType<typeof partnerCall>, inputs: Record<string, string | number | boolean>): Promise<string> {
  const res = await call({ url: `${advice}?${query(inputs)}` })
  if (res.statusCode !== 200) throw new Error(`advice: ${res.statusCode} ${res.body}`)
  await ctx.app.partner.recorder.flush()
  return String(res.headers['decision-id'])
}

const maxOut = await decide(production, RICH_ANSWERS)
const tooYoung = await decide(production, { Age: 16, Region: 'South' })
const asked = await decide(preview, { Age: 40 })
const [{ adviceNodeIds: [maxOutNode] }] = await db.select({ adviceNodeIds: decisionRecords.adviceNodeIds }).from(decisionRecords).where(eq(decisionRecords.id, maxOut)) as [{ adviceNodeIds: string[] }]

/** A record written directly: an older one with an error, to filter by date and errors. */
const erredAt = new Date('2026-01-15T10:00:00Z')
const erred: NewDecisionRecord = {
  id: decisionIdAt(erredAt.getTime()), receivedAt: erredAt, ownerId: f.ownerId, adviceSetId: f.set.id, versionId: f.version.id, versionNumber: f.version.number,
  apiKeyId: f.production.key.id, environment: 'production', endpoint: 'api', contentType: 'text', inputs: { Age: 40 }, status: 'complete',
  adviceNodeIds: [], hasErrors: true, outcome: { items: [], errors: [{ nodeId: '1', code: 'MISSING_VALUE', message: 'Income has no value' }] }, engineMicros: 120,
}
await insertDecisionRecords(db, [erred])

const idsOf = (res: { json: () => { data: { items: Array<{ id: string }> } } }) => res.json().data.items.map((item) => item.id)

t.test('the list API: newest first, every filter', async (t) => {
  const all = await team.api('GET', apiPath)
  t.equal(all.statusCode, 200)
  t.same(idsOf(all), [asked, tooYoung, maxOut, erred.id], 'newest first')
  t.equal(all.json().data.next, null, 'one page')
  const first = all.json().data.items.find((item: { id: string }) => item.id === maxOut)
  t.notOk('personalHashes' in first, 'no personal hashes')
  t.ok(first.outcome.items.some((item: { headline: string }) => item.headline === 'Max out your pension'), 'headlines from the version')

  const cases: Array<[string, Record<string, string>, string[]]> = [
    ['key', { key: String(f.preview.key.id) }, [asked]],
    ['version', { version: String(f.version.number) }, [asked, tooYoung, maxOut, erred.id]],
    ['another version', { version: String(f.version.number + 1) }, []],
    ['advice given', { advice: maxOutNode! }, [maxOut]],
    ['status question', { status: 'question' }, [asked]],
    ['status complete', { status: 'complete' }, [tooYoung, maxOut, erred.id]],
    // "Too young" leaves the example's Income unset: an error item.
    ['with errors', { errors: 'yes' }, [tooYoung, erred.id]],
    ['without errors', { errors: 'no' }, [asked, maxOut]],
    ['from a day', { from: '2026-02-01' }, [asked, tooYoung, maxOut]],
    ['to a day (inclusive)', { to: '2026-01-15' }, [erred.id]],
    ['from and to', { from: '2026-01-15', to: '2026-01-15' }, [erred.id]],
    ['combined', { key: String(f.production.key.id), errors: 'no' }, [maxOut]],
  ]
  for (const [name, filter, want] of cases) {
    const res = await team.api('GET', `${apiPath}?${new URLSearchParams(filter).toString()}`)
    t.equal(res.statusCode, 200, name)
    t.same(idsOf(res), want, name)
  }
})

t.test('a bad filter value is a 400 naming its field', async (t) => {
  const cases: Array<[Record<string, string>, string]> = [
    [{ from: 'yesterday' }, 'from'], [{ to: '2026-13-45' }, 'to'], [{ from: '2026-02-30' }, 'from'], [{ from: '2026-03-01', to: '2026-02-01' }, 'to'],
    [{ key: 'abc' }, 'key'], [{ version: '0' }, 'version'], [{ status: 'done' }, 'status'], [{ errors: 'maybe' }, 'errors'],
    [{ before: 'not-a-cursor' }, 'before'], [{ before: `2026-01-01T00:00:00.000Z_${'x'.repeat(36)}` }, 'before'],
  ]
  for (const [filter, field] of cases) {
    const res = await team.api('GET', `${apiPath}?${new URLSearchParams(filter).toString()}`)
    t.equal(res.statusCode, 400, JSON.stringify(filter))
    t.equal(res.json().error.field, field, `${JSON.stringify(filter)} names ${field}`)
  }
  const page = await team.get(`${pagePath}?status=done`)
  t.equal(page.statusCode, 400, 'the page too')
  t.match(page.body, /id="d-status-error">Status must be one of complete, question, pending\./, 'the message beside the field')
  t.notMatch(page.body, /data-decision-id=/, 'and no records')
})

t.test('the set page charts the last 30 days: answers per UTC day and the share of each advice given', async (t) => {
  const page = await team.get(`/adviceset/${f.set.id}/show`)
  t.equal(page.statusCode, 200)
  const section = /<section class="card" id="decisions"[\s\S]*?<\/section>/.exec(page.body)?.[0] ?? ''
  t.match(section, /data-total="decisions">3</, 'three answers in the last 30 days; the January one is older')
  const today = new Date().toISOString().slice(0, 10)
  t.match(section, new RegExp(`<rect [^>]*data-day="${today}" data-value="3"`), 'today’s bar holds all three')
  t.equal((section.match(/<rect [^>]*data-day=/g) ?? []).length, 30, 'one bar a day')
  t.match(section, new RegExp(`<tr data-day="${today}"><th scope="row">${today}</th><td>3</td></tr>`), 'and the table says the same')
  const share = new RegExp(`<tr data-advice-node="${maxOutNode}">\\s*<th scope="row">Max out your pension</th><td>1</td><td>33\\.3%</td>`)
  t.match(section, share, 'one answer of three gave “Max out your pension”, named by its headline')
  const viewerPage = await teamViewer.get(`/adviceset/${f.set.id}/show`)
  t.match(viewerPage.body, /data-total="decisions">3</, 'a viewer of the team sees it too')
  const rivalPage = await rival.get(`/adviceset/${f.set.id}/show`)
  t.notMatch(rivalPage.body, /data-decision-insights/, 'another owner’s admin does not')
})

t.test('keyset pagination: 10,000 records, each seen exactly once walking the pages', async (t) => {
  const { key } = await createApiKey(db, { ownerId: f.ownerId, name: 'Bulk' })
  const base = Date.parse('2026-09-01T00:00:00Z')
  const made = new Set<string>()
  for (let batch = 0; batch < 10; batch++) {
    const rows: NewDecisionRecord[] = []
    for (let i = 0; i < 1000; i++) {
      const n = batch * 1000 + i
      // Three records share each moment, so the order between them rests on the id.
      const receivedAt = new Date(base + Math.floor(n / 3) * 1000)
      const id = decisionIdAt(receivedAt.getTime())
      made.add(id)
      rows.push({ ...erred, id, receivedAt, apiKeyId: key.id, hasErrors: false, outcome: { items: [], errors: [] } })
    }
    await insertDecisionRecords(db, rows)
  }
  const seen = new Set<string>()
  let duplicates = 0
  let pages = 0
  let before: string | null = null
  let last: { at: string; id: string } | null = null
  let ordered = true
  do {
    const qs: URLSearchParams = new URLSearchParams({ key: String(key.id), ...(before ? { before } : {}) })
    const res = await team.api('GET', `${apiPath}?${qs.toString()}`)
    if (res.statusCode !== 200) { t.fail(`page ${pages}: ${res.statusCode} ${res.body}`); break }
    const data: { items: Array<{ id: string; receivedAt: string }>; next: string | null } = res.json().data
    pages += 1
    for (const item of data.items) {
      if (seen.has(item.id)) duplicates += 1
      seen.add(item.id)
      if (last && (item.receivedAt > last.at || (item.receivedAt === last.at && item.id >= last.id))) ordered = false
      last = { at: item.receivedAt, id: item.id }
    }
    if (data.next !== null && data.items.length !== 50) t.fail(`page ${pages} has ${data.items.length} records`)
    before = data.next
  } while (before !== null)
  t.equal(pages, 200, '200 pages of 50')
  t.equal(duplicates, 0, 'no record twice')
  t.equal(seen.size, 10_000, 'every record')
  t.ok([...made].every((id) => seen.has(id)), 'exactly the records made')
  t.ok(ordered, 'newest first, then by id, throughout')
})

t.test('the decisions page: a table newest first, the filter form, a link from the set page', async (t) => {
  const res = await team.get(`${pagePath}?key=${f.production.key.id}`)
  t.equal(res.statusCode, 200)
  t.match(res.body, '<main data-page="decisions">')
  const rows = [...res.body.matchAll(/<tr data-decision-id="([^"]+)">([\s\S]*?)<\/tr>/g)]
  t.same(rows.map((m) => m[1]), [tooYoung, maxOut, erred.id], 'the production key’s records, newest first')
  const maxOutRow = rows.find((m) => m[1] === maxOut)![2]!
  t.match(maxOutRow, `href="${pagePath}/${maxOut}"`, 'links to the record')
  t.match(maxOutRow, /<time[^>]*data-moment/, 'received at as a moment')
  t.match(maxOutRow, '>Production<', 'the key by name')
  t.match(maxOutRow, '<li>Max out your pension</li>', 'the advice given')
  t.match(rows.find((m) => m[1] === erred.id)![2]!, /<td class="num">1<\/td>/, 'the errors count')
  t.match(res.body, new RegExp(`<option value="${f.production.key.id}" selected>Production</option>`), 'the form keeps the filter')
  t.match(res.body, /<option value="[^"]+">Max out your pension<\/option>/, 'advice given offers the version’s advice')
  t.notMatch(res.body, 'rel="next"', 'no Older link on the last page')
  const set = await team.get(`/adviceset/${f.set.id}/show`)
  t.match(set.body, `href="${pagePath}">Decisions</a>`, 'the set page links to it')
  const viewerPage = await teamViewer.get(pagePath)
  t.equal(viewerPage.statusCode, 200, 'the team’s viewers read it too')
})

t.test('the Older link carries the cursor and the filters', async (t) => {
  const res = await team.get(`${pagePath}?status=complete`)
  const older = /<a href="([^"]+)" rel="next">Older<\/a>/.exec(res.body)?.[1]?.replace(/&amp;/g, '&')
  t.ok(older, 'more than one page')
  t.match(older!, /status=complete/)
  t.match(older!, /before=\d{4}-\d{2}-\d{2}T[^_]+_[0-9a-f-]{36}/)
  const next = await team.get(older!)
  t.equal(next.statusCode, 200)
  const firstIds = [...res.body.matchAll(/data-decision-id="([^"]+)"/g)].map((m) => m[1])
  const nextIds = [...next.body.matchAll(/data-decision-id="([^"]+)"/g)].map((m) => m[1])
  t.equal(firstIds.length, 50)
  t.ok(nextIds.length > 0 && nextIds.every((id) => !firstIds.includes(id)), 'the next page, none repeated')
})

t.test('the record page: facts, inputs, each item with its path, the question asked next, errors', async (t) => {
  const res = await team.get(`${pagePath}/${maxOut}`)
  t.equal(res.statusCode, 200)
  t.match(res.body, '<main data-page="decision">')
  t.match(res.body, /<dt>Key<\/dt><dd>Production<\/dd>/)
  t.match(res.body, /<dt>Environment<\/dt><dd>production<\/dd>/)
  t.match(res.body, /<dt>Endpoint<\/dt><dd>api<\/dd>/)
  t.match(res.body, /<dt>Content type<\/dt><dd>text<\/dd>/)
  t.match(res.body, `<a href="/adviceset/${f.set.id}/publish/versions/${f.version.id}">Version ${f.version.number}</a>`, 'the version, linked')
  t.match(res.body, /<dt>Engine time<\/dt><dd>\d+\.\d\d ms<\/dd>/)
  t.match(res.body, /<tr><th scope="row">Income<\/th><td>60000<\/td><\/tr>/, 'inputs as used')
  t.match(res.body, /<strong>Max out your pension<\/strong><\/p>\s*<ol class="decision-path" aria-label="Path">\s*<li><code>\{\{Employed\}\}<\/code><\/li>\s*<li><code>\{\{Income\}\} &gt; 50000<\/code><\/li>/, 'its path: the conditions in order')
  t.match(res.body, /<strong>Rules of \{\{Region\}\}<\/strong> <span class="badge">assumption<\/span>/, 'assumptions say so')

  const question = await team.get(`${pagePath}/${asked}`)
  t.match(question.body, /<h3>Question asked next<\/h3>\s*<p><strong>Are you employed, at \{\{Age\}\}\?<\/strong> <span class="muted">\(Employed\)<\/span><\/p>/)
  const withErrors = await team.get(`${pagePath}/${erred.id}`)
  t.match(withErrors.body, /<code>MISSING_VALUE<\/code> Income has no value/, 'errors')
  t.match(withErrors.body, 'No advice was given.')
})

t.test('a personal input shows as "personal, not kept"', async (t) => {
  await db.update(entities).set({ personal: true }).where(eq(entities.reservedName, 'Income'))
  ctx.app.partner.recorder.settings.forgetOwner(f.ownerId)
  const id = await decide(production, { ...RICH_ANSWERS, Income: 81234 })
  await db.update(entities).set({ personal: false }).where(eq(entities.reservedName, 'Income'))
  ctx.app.partner.recorder.settings.forgetOwner(f.ownerId)
  const res = await team.get(`${pagePath}/${id}`)
  t.match(res.body, /<tr><th scope="row">Income<\/th><td><span class="muted decision-personal">personal, not kept<\/span><\/td><\/tr>/)
  t.notMatch(res.body, '81234')
})

t.test('a record of another set, or no record, is a 404 under this set', async (t) => {
  const elsewhere = { ...erred, id: decisionIdAt(erredAt.getTime() + 5), adviceSetId: f.set.id + 1000 }
  await insertDecisionRecords(db, [elsewhere])
  t.equal((await team.get(`${pagePath}/${elsewhere.id}`)).statusCode, 404, 'another set’s record')
  t.equal((await team.get(`${pagePath}/${decisionIdAt(Date.now())}`)).statusCode, 404, 'no such record')
  t.equal((await team.get(`${pagePath}/not-a-uuid`)).statusCode, 404, 'not a decision id')
  t.equal((await team.get(`${pagePath}/ffffffff-ffff-7fff-bfff-ffffffffffff`)).statusCode, 404, 'a moment past what a date holds')
})

t.test('another owner’s admin finds nothing: 404 on the pages and the API', async (t) => {
  t.equal((await rival.get(pagePath)).statusCode, 404)
  t.equal((await rival.get(`${pagePath}/${maxOut}`)).statusCode, 404)
  const api = await rival.api('GET', apiPath)
  t.equal(api.statusCode, 404)
  t.notMatch(api.body, maxOut)
})

t.test('partner read-back: the key that caused the record reads it; any other key gets 404', async (t) => {
  const res = await production({ url: `/api/decision/${maxOut}` })
  t.equal(res.statusCode, 200)
  const data = res.json().data
  t.equal(data.id, maxOut)
  t.equal(data.apiKeyId, f.production.key.id)
  t.equal(data.versionId, f.version.id)
  t.equal(data.status, 'complete')
  t.equal(data.inputs.Income, 60000)
  t.ok(data.outcome.items.some((item: { headline: string; path: unknown[] }) => item.headline === 'Max out your pension' && item.path.length === 2))
  t.equal(data.outcome.question, null)
  t.notOk('personalHashes' in data, 'without the personal hashes')
  t.notOk('ownerId' in data)

  t.equal((await preview({ url: `/api/decision/${maxOut}` })).statusCode, 404, 'another key of the same owner')
  t.equal((await preview({ url: `/api/decision/${asked}` })).statusCode, 200, 'which reads its own')
  const { secret } = await createApiKey(db, { ownerId: otherOwner, name: 'Rival key' })
  const other = await partnerCall(ctx, secret)({ url: `/api/decision/${maxOut}` })
  t.equal(other.statusCode, 404, 'another owner’s key')
  t.notMatch(other.body, 'Max out')
  t.equal((await partnerCall(ctx, undefined)({ url: `/api/decision/${maxOut}` })).statusCode, 401, 'no key')
  t.equal((await team.api('GET', `/api/decision/${maxOut}`)).statusCode, 401, 'a session is no key')
})

t.test('the key filter lists the 100 keys used most recently; the chosen key and each row’s key are named all the same', async (t) => {
  // Last in this file: it gives the owner 120 more keys and a newer record.
  const bulk = []
  for (let i = 0; i < 120; i++) bulk.push((await createApiKey(db, { ownerId: f.ownerId, name: `Bulk key ${i}` })).key)
  const [unlisted, recent] = [bulk[0]!, bulk[5]!]
  await db.update(apiKeys).set({ lastUsedAt: new Date() }).where(eq(apiKeys.id, recent.id))
  const keyOptions = (body: string) => [...(/<select name="key"[^>]*>([\s\S]*?)<\/select>/.exec(body)?.[1] ?? '').matchAll(/<option value="(\d+)"[^>]*>([^<]*)</g)].map((m) => ({ id: Number(m[1]), name: m[2] }))

  const page = await team.get(pagePath)
  const offered = keyOptions(page.body)
  t.equal(offered.length, 100, 'at most 100 keys, of the owner’s 122')
  t.same(offered[0], { id: recent.id, name: 'Bulk key 5' }, 'the key used most recently first')
  t.notOk(offered.some((k) => k.id === unlisted.id), 'a key never used, made first, is not among them')
  t.match(page.body, 'The 100 keys used most recently.', 'the form says the list is cut')
  t.match(page.body, /<select name="key" aria-describedby="d-key-hint">/, 'and the key field is described by it')

  const chosen = await team.get(`${pagePath}?key=${unlisted.id}`)
  t.match(chosen.body, `<option value="${unlisted.id}" selected>Bulk key 0</option>`, 'a key chosen from elsewhere (its usage page) is named and kept')
  t.match(chosen.body, 'The 100 keys used most recently.', 'the chosen key is not counted among them')

  const at = new Date()
  const record: NewDecisionRecord = { ...erred, id: decisionIdAt(at.getTime()), receivedAt: at, apiKeyId: unlisted.id, hasErrors: false, outcome: { items: [], errors: [] } }
  await insertDecisionRecords(db, [record])
  await db.update(apiKeys).set({ deletedAt: new Date() }).where(eq(apiKeys.id, unlisted.id))
  const newest = await team.get(pagePath)
  t.match(newest.body, new RegExp(`<tr data-decision-id="${record.id}">[\\s\\S]*?>Bulk key 0<`), 'a row’s key outside the list is named')
  t.match((await team.get(`${pagePath}/${record.id}`)).body, 'Bulk key 0 (deleted)', 'and on the record’s page, deleted')

  const { key: rivalKey } = await createApiKey(db, { ownerId: otherOwner, name: 'Rival secret project' })
  const foreign = await team.get(`${pagePath}?key=${rivalKey.id}`)
  t.equal(foreign.statusCode, 200)
  t.notMatch(foreign.body, 'Rival secret project', 'another owner’s key is never named')
})
