// Export: every question of an owner's live sets as CSV, JSON and XLSX that parse back with the expected rows; only
// admins (provider admins: any owner); large exports (and ?job=1) as a job whose download holds the file.
import t from 'tap'
import { eq, sql } from 'drizzle-orm'
import ExcelJS from 'exceljs'
import { parse } from 'csv-parse/sync'
import { buildTestApp } from '../../helpers/app.ts'
import { Agent, signedInAgent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { adminCast } from '../../helpers/team.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { buildRule, createVariable } from '../../helpers/rules.ts'
import { waitForJob } from '../../helpers/jobs.ts'
import { entities } from '../../../src/db/schema/index.ts'
import { rowsOf } from '../../../src/db/queries/rule-nodes.ts'
import { recordAdviceRequest } from '../../../src/services/library/advice-requests.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const { providerAdmin, acme, acmeAdmin, acmeAuthor, acmeViewer } = await adminCast(db)
const globex = await createOwner(db, { name: 'Globex' })
const globexAdmin = await createUser(db, { ownerId: globex, role: 'admin' })

const set = await createAdviceSet(db, { ownerId: acme, name: 'Retirement' })
await createVariable(db, acme, 'Age', { dataType: 'number' })
const plan = await createVariable(db, acme, 'Plan', { dataType: 'select' })
await db.update(entities).set({ validOptions: ['Basic', 'Plus, with extras'], isClosedSet: true }).where(eq(entities.id, plan.id))
const { rule, nodes } = await buildRule(db, set.id, 'Eligibility', [
  { type: 'inputRequest', variable: 'Age', question: 'How old are you?' },
  { type: 'inputRequest', variable: 'Plan', question: 'Which plan, "Basic" or "Plus"?' },
])
const globexSet = await createAdviceSet(db, { ownerId: globex, name: 'Globex secrets' })
await buildRule(db, globexSet.id, 'Hidden', [{ type: 'inputRequest', variable: 'Secret', question: 'Globex only question' }])

const expected = [
  { adviceSetId: set.id, adviceSet: 'Retirement', ruleId: rule.id, rule: 'Eligibility', nodeId: nodes[0]!.id, question: 'How old are you?', variable: 'Age', type: 'number', options: '', closedSet: false },
  { adviceSetId: set.id, adviceSet: 'Retirement', ruleId: rule.id, rule: 'Eligibility', nodeId: nodes[1]!.id, question: 'Which plan, "Basic" or "Plus"?', variable: 'Plan', type: 'select', options: 'Basic; Plus, with extras', closedSet: true },
]

t.test('an admin exports the questions as JSON, CSV and XLSX, which parse back', async (t) => {
  const agent = await signedInAgent(app, acmeAdmin)
  const json = await agent.api('GET', '/api/export/questions/data')
  t.equal(json.statusCode, 200)
  t.match(json.headers['content-type'], 'application/json')
  t.match(json.headers['content-disposition'], /attachment; filename="questions-acme-\d{4}-\d{2}-\d{2}\.json"/, 'the file is named after the team, not its id')
  const rows = json.json()
  t.match(rows, expected)
  t.equal(rows.length, 2, 'only this owner’s questions')
  t.match(rows[0].usedIn, `/adviceset/${set.id}/rule/${rule.id}/part/${nodes[0]!.id}`)

  const csv = await agent.api('GET', '/api/export/questions/data.csv')
  t.match(csv.headers['content-type'], 'text/csv')
  const records = parse(csv.body, { columns: true, bom: true }) as Array<Record<string, string>>
  t.same(Object.keys(records[0]!), ['Advice set id', 'Advice set', 'Rule id', 'Rule', 'Node id', 'Question', 'Variable', 'Type', 'Options', 'Only these options', 'Where used'])
  t.same(records.map((r) => [r.Question, r.Variable, r.Options, r['Only these options']]), [
    ['How old are you?', 'Age', '', 'no'], ['Which plan, "Basic" or "Plus"?', 'Plan', 'Basic; Plus, with extras', 'yes'],
  ])

  const xlsx = await agent.request({ method: 'GET', url: '/api/export/questions/data.xlsx' })
  t.equal(xlsx.statusCode, 200)
  const workbook = new ExcelJS.Workbook()
  await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer)
  const sheet = workbook.getWorksheet('Questions')!
  t.equal(sheet.rowCount, 3, 'a header and two questions')
  t.same((sheet.getRow(1).values as unknown[]).slice(1, 4), ['Advice set id', 'Advice set', 'Rule id'])
  t.same((sheet.getRow(3).values as unknown[]).slice(6, 10), ['Which plan, "Basic" or "Plus"?', 'Plan', 'select', 'Basic; Plus, with extras'])
})

t.test('only admins export, and only their own owner’s data unless provider admins', async (t) => {
  for (const user of [acmeAuthor, acmeViewer]) {
    const agent = await signedInAgent(app, user)
    t.equal((await agent.api('GET', '/api/export/questions/data.csv')).statusCode, 403)
    t.equal((await agent.get('/admin/export')).statusCode, 403)
  }
  t.equal((await new Agent(app).api('GET', '/api/export/questions/data', undefined, { csrf: false })).statusCode, 401)
  const globexAgent = await signedInAgent(app, globexAdmin)
  const own = (await globexAgent.api('GET', '/api/export/questions/data')).json()
  t.same(own.map((r: { question: string }) => r.question), ['Globex only question'])
  const other = await globexAgent.api('GET', `/api/export/questions/data.json?ownerId=${acme}`)
  t.equal(other.statusCode, 403)
  t.notMatch(other.body, 'How old are you?')
  const provider = await signedInAgent(app, providerAdmin)
  const any = (await provider.api('GET', `/api/export/questions/data.json?ownerId=${acme}`)).json()
  t.equal(any.length, 2, 'a provider admin exports any owner')
  t.equal((await provider.api('GET', '/api/export/questions/data.json?ownerId=nobody')).statusCode, 400)
  t.equal((await provider.api('GET', '/api/export/questions/data.pdf')).statusCode, 400)
  const page = await provider.get(`/admin/export?ownerId=${acme}`)
  t.equal(page.statusCode, 200)
  t.match(page.body, `/api/export/questions/data.xlsx?ownerId=${acme}`)
})

t.test('an export as a job: 202 with the job, then its download holds the file', async (t) => {
  const agent = await signedInAgent(app, acmeAdmin)
  const res = await agent.api('GET', '/api/export/questions/data.csv?job=1')
  t.equal(res.statusCode, 202)
  const job = res.json().data
  t.match(job, { kind: 'export.data', state: 'queued' })
  t.equal(res.headers.location, `/api/job/${job.id}`)
  const done = await waitForJob(db, job.id, (j) => j.state === 'completed')
  t.match(done.result, { downloadUrl: `/api/job/${job.id}/download`, rows: 2 })
  const file = await agent.get(`/api/job/${job.id}/download`)
  t.equal(file.statusCode, 200)
  t.match(file.headers['content-disposition'], /attachment; filename="questions-.*\.csv"/)
  t.equal((parse(file.body, { columns: true }) as unknown[]).length, 2)
  const author = await signedInAgent(app, acmeAuthor)
  t.equal((await author.get(`/api/job/${job.id}/download`)).statusCode, 404, 'another user of the owner cannot download it')
  const form = await agent.postForm('/admin/export', { kind: 'questions', format: 'xlsx' }, { page: '/admin/export' })
  t.equal(form.statusCode, 303)
  const panel = await agent.get('/admin/export')
  t.match(panel.body, 'Export of questions (XLSX, Acme)')
})

t.test('spreadsheets read the files right: CSV starts with a UTF-8 BOM, XLSX dates are date cells', async (t) => {
  const author = { userId: acmeAuthor.id, ownerId: acme, role: 'author' as const, impersonatorId: null }
  const asked = await recordAdviceRequest(app.deps, author, set.id, { text: 'Ünïcödé pension question' })
  const agent = await signedInAgent(app, acmeAdmin)

  const csv = await agent.request({ method: 'GET', url: '/api/export/ai-user-requests/data.csv' })
  t.same([...csv.rawPayload.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'the BOM says UTF-8 to spreadsheet programs')
  const records = parse(csv.rawPayload.subarray(3).toString('utf8'), { columns: true }) as Array<Record<string, string>>
  t.equal(records[0]!.Request, 'Ünïcödé pension question')
  t.match(records[0]!.Received, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/, 'a CSV date is written in ISO 8601')
  t.equal((await agent.api('GET', '/api/export/questions/data.csv')).rawPayload.subarray(0, 3).toString('hex'), 'efbbbf', 'every CSV export')

  const json = (await agent.api('GET', '/api/export/ai-user-requests/data.json')).json()
  t.match(json[0], { text: 'Ünïcödé pension question', createdAt: /^\d{4}-\d{2}-\d{2}T/ }, 'JSON keeps ISO strings')

  const xlsx = await agent.request({ method: 'GET', url: '/api/export/ai-user-requests/data.xlsx' })
  const workbook = new ExcelJS.Workbook()
  await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer)
  const received = workbook.getWorksheet('Requests for advice')!.getRow(2).getCell(8)
  t.ok(received.value instanceof Date, 'the Received cell holds a date, not text')
  t.ok(Math.abs((received.value as Date).getTime() - asked.createdAt.getTime()) < 1000, 'the time it was received, to the second')
  t.match(received.numFmt, /yyyy-mm-dd/, 'shown as a date and time')
})

t.test('a large log: the page says "more than" without counting it all; the job counts every row', async (t) => {
  await db.execute(sql`insert into activity (owner_id, actor_id, source, action, entity_type, entity_id, created_at)
    select ${acme}, ${acmeAdmin.id}, 'users', 'update', 'adviceset', ${String(set.id)}, now() - g * interval '1 minute' from generate_series(1, 5001) g`)
  const agent = await signedInAgent(app, acmeAdmin)
  const page = await agent.get('/admin/export')
  const row = /<div class="export-row" data-export="activity">[\s\S]*?<\/div>\s*<\/div>|<div class="export-row" data-export="activity">[\s\S]*?<\/form>/.exec(page.body)?.[0] ?? ''
  t.match(row, /More than 5,000 rows/, 'above the inline limit, the page says so')
  t.match(row, /<form method="post" action="\/admin\/export"/, 'and offers a job')
  const exact = Number(rowsOf(await db.execute(sql`select count(*) as n from activity where owner_id = ${acme}`))[0]!.n)
  const form = await agent.postForm('/admin/export', { kind: 'activity', format: 'csv' }, { page: '/admin/export' })
  t.equal(form.statusCode, 303)
  const [job] = rowsOf(await db.execute(sql`select id from jobs where kind = 'export.data' order by id desc limit 1`))
  const done = await waitForJob(db, Number(job!.id), (j) => j.state === 'completed')
  const result = done.result as { rows: number; downloadUrl: string }
  t.ok(result.rows > exact, `the job counted every row (${exact} and its own start's)`)
  const file = await agent.request({ method: 'GET', url: result.downloadUrl })
  t.equal((parse(file.body, { columns: true, bom: true }) as unknown[]).length, result.rows, 'as many as the file holds')
})
