// Issue 26, export of a set's decision records: through the job queue as CSV (with BOM) or JSON, with the list's
// filters, read in keyset pages (more records than one page here), progress as "N of M records", the file downloaded
// from the job; the set's team (viewers too) and provider admins may, other owners get 404; no personal hash leaves.
import t from 'tap'
import { and, count, desc, eq, lt } from 'drizzle-orm'
import { decisionRecords, jobs } from '../../../src/db/schema/index.ts'
import { parse } from 'csv-parse/sync'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent, type Agent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { publishVersion } from '../../helpers/publishing.ts'
import { createApiKey } from '../../helpers/api-keys.ts'
import { insertRecords } from '../../helpers/decisions.ts'
import { waitForJob } from '../../helpers/jobs.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
await createOwner(db, { id: 'TF', name: 'Advice Studio' })
const providerAdmin = await createUser(db, { ownerId: 'TF', role: 'admin' })
const owner = await createOwner(db, { name: 'Acme' })
const viewer = await createUser(db, { ownerId: owner, role: 'viewer' })
const author = await createUser(db, { ownerId: owner, role: 'author' })
const globexAdmin = await createUser(db, { role: 'admin' })
const set = await createAdviceSet(db, { ownerId: owner, name: 'Retirement readiness' })
const version = await publishVersion(db, { adviceSetId: set.id })
const key = await createApiKey(db, { ownerId: owner, name: 'Production' })
const otherKey = await createApiKey(db, { ownerId: owner, name: 'Staging' })

const PERSONAL_HASH = 'a1b2c3d4e5f6a7b8c9d0a1b2c3d4e5f6a7b8c9d0a1b2c3d4e5f6a7b8c9d0feed'
const DAY = 24 * 60 * 60 * 1000
const now = Date.now()
const base = { ownerId: owner, adviceSetId: set.id, versionId: version.id, apiKeyId: key.key.id }
// 2,300 records over the last 3 days (more than two keyset pages), every 10th with errors, every 7th stopped at a
// question; each carries a personal hash that must not leave.
const records = await insertRecords(db, 2_300, base, (i) => ({
  receivedAt: new Date(now - 60_000 - (i % 3) * DAY - i * 10),
  status: i % 7 === 0 ? 'question' : 'complete',
  hasErrors: i % 10 === 0,
  outcome: { items: [], errors: i % 10 === 0 ? [{ nodeId: 'n9', code: 'unknown_variable', message: 'Income is not known' }] : [] },
  adviceNodeIds: i % 7 === 0 ? [] : i % 2 === 0 ? ['n1', 'n2'] : ['n3'],
  inputs: { Region: 'Nord', Age: 30 + (i % 40), Name: { personal: true } },
  personalHashes: [PERSONAL_HASH],
}))
// A few under another key and version 2, to filter on.
const special = await insertRecords(db, 3, { ...base, apiKeyId: otherKey.key.id }, (i) => ({
  versionNumber: 2, receivedAt: new Date(now - 120_000 - i * 1000), adviceNodeIds: ['n7'], inputs: { 'Ünïcödé': 'ja, “so”' },
}))

async function exportOf(agent: Agent, body: Record<string, string>) {
  const res = await agent.api('POST', `/api/adviceset/${set.id}/decisions/export`, body)
  return res
}

async function finished(agent: Agent, jobId: number) {
  const job = await waitForJob(db, jobId, (j) => j.state === 'completed' || j.state === 'failed')
  t.equal(job.state, 'completed', `job ${jobId} completed${job.error ? `: ${job.error}` : ''}`)
  const file = await agent.request({ method: 'GET', url: `/api/job/${jobId}/download` })
  return { job, file }
}

t.test('a viewer exports the set’s records as CSV through a job, with filters, in pages', async (t) => {
  const agent = await signedInAgent(app, viewer)
  const res = await exportOf(agent, { format: 'csv', status: 'complete', errors: 'no' })
  t.equal(res.statusCode, 202, res.body)
  const job = res.json().data
  t.match(res.headers.location, `/api/job/${job.id}`)
  const expected = records.filter((r) => r.status === 'complete' && !r.hasErrors).length + special.length
  const { job: done, file } = await finished(agent, job.id)
  t.equal(done.progress, 100)
  t.equal(done.progressText, `${expected.toLocaleString('en')} of ${expected.toLocaleString('en')} records`, 'progress says N of M records')
  t.match(done.result, { rows: expected, fileName: /^retirement-readiness-decisions-\d{4}-\d{2}-\d{2}\.csv$/ })
  t.equal(file.statusCode, 200)
  t.match(file.headers['content-type'], 'text/csv')
  t.match(file.headers['content-disposition'], /filename="retirement-readiness-decisions-\d{4}-\d{2}-\d{2}\.csv"/)
  t.ok(file.rawPayload.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf])), 'starts with the UTF-8 BOM')
  const rows = parse(file.body, { columns: true, bom: true }) as Array<Record<string, string>>
  t.same(Object.keys(rows[0]!), ['id', 'receivedAt', 'apiKeyId', 'environment', 'endpoint', 'contentType', 'versionNumber', 'status', 'advice', 'errors', 'engineMicros', 'inputs'])
  t.equal(rows.length, expected, 'every selected record, across keyset pages')
  t.equal(new Set(rows.map((r) => r.id)).size, rows.length, 'no record twice')
  t.ok(rows.every((r) => r.status === 'complete' && r.errors === '0'), 'only what the filters select')
  const times = rows.map((r) => Date.parse(r.receivedAt!))
  t.ok(times.every((at, i) => i === 0 || at <= times[i - 1]!), 'newest first')
  const sample = records.find((r) => r.status === 'complete' && !r.hasErrors && r.adviceNodeIds!.length === 2)!
  const row = rows.find((r) => r.id === sample.id)!
  t.same(row, {
    id: sample.id, receivedAt: sample.receivedAt!.toISOString(), apiKeyId: String(key.key.id), environment: 'production', endpoint: 'api',
    contentType: 'text', versionNumber: '1', status: 'complete', advice: 'n1 n2', errors: '0', engineMicros: '120',
    inputs: JSON.stringify({ Age: sample.inputs.Age, Name: { personal: true }, Region: 'Nord' }),
  }, 'the columns of one record: ISO UTC time, advice joined by spaces, inputs as canonical JSON')
  t.notMatch(file.body, PERSONAL_HASH, 'no personal hash in the file')
  t.match(rows.find((r) => r.id === special[0]!.id)!.inputs, '"Ünïcödé":"ja, “so”"', 'UTF-8 kept')
})

t.test('JSON with key, version, advice and date filters; errors counted', async (t) => {
  const agent = await signedInAgent(app, author)
  const day = (at: number) => new Date(at).toISOString().slice(0, 10)
  const res = await exportOf(agent, { format: 'json', key: String(otherKey.key.id), version: '2', advice: 'n7', from: day(now - DAY), to: day(now) })
  t.equal(res.statusCode, 202)
  const { file, job } = await finished(agent, res.json().data.id)
  t.match(file.headers['content-type'], 'application/json')
  t.match(job.result, { fileName: /\.json$/ })
  const rows = JSON.parse(file.body) as Array<Record<string, unknown>>
  t.same(rows.map((r) => r.id), special.map((r) => r.id), 'only the other key’s version-2 records, newest first')
  t.same(rows[0], {
    id: special[0]!.id, receivedAt: special[0]!.receivedAt!.toISOString(), apiKeyId: otherKey.key.id, environment: 'production', endpoint: 'api',
    contentType: 'text', versionNumber: 2, status: 'complete', advice: ['n7'], errors: 0, engineMicros: 120, inputs: { 'Ünïcödé': 'ja, “so”' },
  })

  const withErrors = await exportOf(agent, { format: 'json', errors: 'yes' })
  const erred = JSON.parse((await finished(agent, withErrors.json().data.id)).file.body) as Array<{ errors: number }>
  t.equal(erred.length, records.filter((r) => r.hasErrors).length)
  t.ok(erred.every((r) => r.errors === 1), 'errors is the count of the answer’s errors')
})

t.test('the export is fixed when asked: records arriving later are not in it', async (t) => {
  const agent = await signedInAgent(app, viewer)
  const res = await exportOf(agent, { format: 'json', version: '2' })
  await insertRecords(db, 2, { ...base }, () => ({ versionNumber: 2, receivedAt: new Date(Date.now() + 60 * 60 * 1000) }))
  const rows = JSON.parse((await finished(agent, res.json().data.id)).file.body) as unknown[]
  t.equal(rows.length, special.length)
})

t.test('another owner gets 404; provider admins may; bad filters name their field', async (t) => {
  const globex = await signedInAgent(app, globexAdmin)
  const denied = await exportOf(globex, { format: 'csv' })
  t.equal(denied.statusCode, 404)
  t.notMatch(denied.body, 'Retirement')
  const provider = await signedInAgent(app, providerAdmin)
  const providers = await exportOf(provider, { format: 'csv', status: 'question' })
  t.equal(providers.statusCode, 202)
  // Finished before the test ends: a job still running when the app closes is stopped under it.
  await finished(provider, providers.json().data.id)

  const agent = await signedInAgent(app, viewer)
  const bad = await exportOf(agent, { format: 'csv', from: '2026-02-30' })
  t.equal(bad.statusCode, 400)
  t.match(bad.json().error.message, 'From must be a date (YYYY-MM-DD) or a moment in ISO 8601, not “2026-02-30”.')
  const backwards = await exportOf(agent, { format: 'csv', from: '2026-11-20', to: '2026-11-10' })
  t.equal(backwards.statusCode, 400)
  t.match(backwards.json().error.message, 'To must be after From.')
  const format = await exportOf(agent, { format: 'xlsx' })
  t.equal(format.statusCode, 400)
  t.match(format.body, 'format')
  const extra = await exportOf(agent, { format: 'csv', personalHashes: 'x' })
  t.equal(extra.statusCode, 400)
})

t.test('the decisions list offers to export what its filters select', async (t) => {
  const agent = await signedInAgent(app, viewer)
  const list = await agent.get(`/adviceset/${set.id}/decisions?status=complete&errors=no`)
  t.equal(list.statusCode, 200)
  const form = /<form method="post" action="\/adviceset\/\d+\/decisions\/export" class="decision-export-these"[^]*?<\/form>/.exec(list.body)?.[0] ?? ''
  t.match(form, '<input type="hidden" name="status" value="complete">', 'the status filter goes with it')
  t.match(form, '<input type="hidden" name="errors" value="no">', 'and the errors filter')
  t.match(form, 'Export the records these filters select')
  const res = await agent.postForm(`/adviceset/${set.id}/decisions/export`, { format: 'json', status: 'complete', errors: 'no' })
  t.equal(res.statusCode, 303)
  const shown = await agent.get(`/adviceset/${set.id}/show`)
  const counted = Number(/Preparing the export of ([\d,]+) decision record/.exec(shown.body)?.[1]?.replace(/,/g, ''))
  const [selected] = await db.select({ n: count() }).from(decisionRecords)
    .where(and(eq(decisionRecords.adviceSetId, set.id), eq(decisionRecords.status, 'complete'), eq(decisionRecords.hasErrors, false), lt(decisionRecords.receivedAt, new Date())))
  t.equal(counted, selected!.n, `it exports what the filters select up to now (${counted})`)
  t.ok(counted > 0 && counted < 2_300, 'some of the records, not all')
  const [latest] = await db.select({ id: jobs.id }).from(jobs).orderBy(desc(jobs.id)).limit(1)
  await finished(agent, latest!.id)
})

t.test('the set page’s form starts the job and shows it with its download', async (t) => {
  const agent = await signedInAgent(app, viewer)
  const page = await agent.get(`/adviceset/${set.id}/show`)
  t.match(page.body, `action="/adviceset/${set.id}/decisions/export"`, 'the form is on the set page')
  const form = /<form[^>]*data-decision-export>[\s\S]*?<\/form>/.exec(page.body)?.[0] ?? ''
  t.match(form, '>Export every record</button>', 'it exports every record')
  t.notMatch(form, /name="(key|version|advice)"/, 'ids are not typed in: the decisions page chooses keys, versions and advice by name')
  t.match(form, `href="/adviceset/${set.id}/decisions">filter them on the Decisions page</a>`)
  const res = await agent.postForm(`/adviceset/${set.id}/decisions/export`, { format: 'csv', from: '', to: '', key: '', version: '2', advice: '', status: '', errors: '' })
  t.equal(res.statusCode, 303)
  t.equal(res.headers.location, `/adviceset/${set.id}/show#decisions`)
  const started = await agent.get(`/adviceset/${set.id}/show`)
  t.match(started.body, 'Preparing the export of 3 decision records.')
  const jobId = Number(/data-job-id="(\d+)"/.exec(started.body)?.[1])
  await finished(agent, jobId)
  const after = await agent.get(`/adviceset/${set.id}/show`)
  t.match(after.body, `href="/api/job/${jobId}/download"`, 'the finished job offers its download')

  const bad = await agent.postForm(`/adviceset/${set.id}/decisions/export`, { format: 'csv', key: 'abc' })
  t.equal(bad.statusCode, 303)
  t.match((await agent.get(`/adviceset/${set.id}/show`)).body, 'Key must be a whole number of 1 or more.')
  const globex = await signedInAgent(app, globexAdmin)
  t.equal((await globex.postForm(`/adviceset/${set.id}/decisions/export`, { format: 'csv' }, { page: '/' })).statusCode, 404)
})
