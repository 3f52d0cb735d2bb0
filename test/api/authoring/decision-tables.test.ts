// Issue 28, point 5: spreadsheet decision tables through the API — CSV and XLSX imports into a set's working draft,
// the dry run that writes nothing, errors by cell (a 400 that writes nothing), warnings, the two hit policies proven
// by the debugger's runs of the rule made, the XLSX export and its round trip, 409 for a rule of another shape, and
// hostile files.
import t from 'tap'
import { and, eq, isNull } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent, type Agent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { buildRule, createVariable } from '../../helpers/rules.ts'
import { upload } from '../../helpers/uploads.ts'
import { activity, ruleNodes, rules } from '../../../src/db/schema/index.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const ownerId = await createOwner(db, { name: 'Acme' })
const otherOwner = await createOwner(db, { name: 'Other' })
const author = await createUser(db, { ownerId, role: 'author' })
const viewer = await createUser(db, { ownerId, role: 'viewer' })
const stranger = await createUser(db, { ownerId: otherOwner, role: 'author' })
const agent = await signedInAgent(app, author)
const viewerAgent = await signedInAgent(app, viewer)
const strangerAgent = await signedInAgent(app, stranger)
await createVariable(db, ownerId, 'Age', { dataType: 'number' })
await createVariable(db, ownerId, 'Smoker', { dataType: 'boolean' })

const CSV = [
  '{{Age}},{{Smoker}},Headline,Text',
  '>= 65,-,Retired,Enjoy it',
  '< 30,yes,Young smoker,',
  '>= 60,-,Nearly retired,',
  '-,-,Everyone else,',
].join('\r\n')
const csvFile = (text: string, filename = 'Retirement advice.csv') => ({ filename, data: Buffer.from(text), type: 'text/csv' })

function importTable(who: Agent, file: { filename: string; data: Buffer; type?: string }, fields: Record<string, string>, query = '') {
  return upload(who, file, fields, `/api/adviceset/import/table${query}`)
}

async function countRules(adviceSetId: number) {
  return (await db.select().from(rules).where(and(eq(rules.adviceSetId, adviceSetId), isNull(rules.deletedAt)))).length
}

async function advice(ruleId: number, inputs: Record<string, unknown>): Promise<string[]> {
  const res = await agent.api('POST', '/api/rule/debug', { ruleId, inputs })
  t.equal(res.statusCode, 200, 'the debugger runs the rule')
  return (res.json().data.result.advice as Array<{ headline: string }>).map((a) => a.headline)
}

async function treeOf(ruleId: number) {
  const strip = (nodes: Array<Record<string, unknown>>): unknown[] => nodes.map((n) => ({
    type: n.type, expression: n.expression ?? null, headline: n.headline ?? null, text: n.text ?? null, children: strip(n.children as Array<Record<string, unknown>>),
  }))
  return strip((await agent.api('GET', `/api/rule/${ruleId}/node/tree`)).json().data)
}

async function xlsxOf(rows: Array<Array<string | number | boolean>>, sheetName = 'Sheet1'): Promise<Buffer> {
  const { default: ExcelJS } = await import('exceljs')
  const workbook = new ExcelJS.Workbook()
  const sheet = workbook.addWorksheet(sheetName)
  for (const row of rows) sheet.addRow(row)
  return Buffer.from(await workbook.xlsx.writeBuffer())
}

t.test('a CSV dry run previews rows and warnings and writes nothing', async (t) => {
  const set = await createAdviceSet(db, { ownerId })
  const activityBefore = (await db.select().from(activity)).length
  const res = await importTable(agent, csvFile(CSV), { into: String(set.id), dryRun: 'true' })
  t.equal(res.statusCode, 200, res.body)
  const preview = res.json().data
  t.match(preview, { dryRun: true, hitPolicy: 'first', name: 'Retirement advice', intoAdviceSetId: set.id, file: { name: 'Retirement advice.csv', format: 'csv' }, errors: [] })
  t.same(preview.columns.map((c: { header: string; kind: string }) => [c.header, c.kind]), [['{{Age}}', 'number'], ['{{Smoker}}', 'boolean']])
  t.same(preview.rows.map((r: { row: number; expression: string | null }) => [r.row, r.expression]), [
    [2, '{{Age}} >= 65'], [3, '{{Age}} < 30 && {{Smoker}} == true'], [4, '{{Age}} >= 60'], [5, null],
  ])
  t.same(preview.rows[1].conditions[0], { cell: 'A3', column: '{{Age}}', source: '< 30', items: [{ op: '<', value: 30 }] })
  t.same(preview.warnings.map((w: { rows: number[] }) => w.rows), [[4, 2], [5, 2, 3, 4]])
  t.match(preview.warnings[0].message, /^Row 4 overlaps row 2: where they meet, the earlier row wins/)
  t.notOk(preview.created)
  t.equal(await countRules(set.id), 0)
  t.equal((await db.select().from(activity)).length, activityBefore, 'no activity either')
})

t.test('a CSV import adds a rule to the working draft, audited per node; first match gives one advice', async (t) => {
  const set = await createAdviceSet(db, { ownerId })
  const res = await importTable(agent, csvFile(CSV), { into: String(set.id) })
  t.equal(res.statusCode, 201, res.body)
  const { created } = res.json().data
  t.same(created, { ruleId: created.ruleId, href: `/adviceset/${set.id}/rule/${created.ruleId}/show`, nodes: 12 })
  const [rule] = await db.select().from(rules).where(eq(rules.id, created.ruleId))
  t.match(rule, { name: 'Retirement advice', adviceSetId: set.id, onlyWhenCalled: false })
  const nodeIds = (await db.select().from(ruleNodes).where(eq(ruleNodes.ruleId, created.ruleId))).map((n) => String(n.id))
  const logged = await db.select().from(activity).where(eq(activity.entityType, 'rulenode'))
  t.equal(logged.filter((a) => nodeIds.includes(a.entityId) && a.action === 'create').length, 12, 'one create per node, as by hand')
  t.equal((await db.select().from(activity).where(and(eq(activity.entityType, 'rule'), eq(activity.entityId, String(created.ruleId))))).length, 1)
  t.same(await advice(created.ruleId, { Age: 70, Smoker: false }), ['Retired'])
  t.same(await advice(created.ruleId, { Age: 62, Smoker: false }), ['Nearly retired'])
  t.same(await advice(created.ruleId, { Age: 25, Smoker: true }), ['Young smoker'])
  t.same(await advice(created.ruleId, { Age: 25, Smoker: false }), ['Everyone else'])
  const page = await agent.get(created.href)
  t.equal(page.statusCode, 200)
  t.match(page.body, /Export as table/, 'the rule page offers the export')
})

t.test('an XLSX import with hit policy collect gives every matching row\'s advice', async (t) => {
  const set = await createAdviceSet(db, { ownerId })
  const data = await xlsxOf([['{{Age}}', '{{Smoker}}', 'Headline', 'Text'], ['>= 65', '-', 'Retired', 'Enjoy it'], [25, true, 'Young smoker', ''], ['>= 60', '-', 'Nearly retired', ''], ['-', '-', 'Everyone else', '']])
  const res = await importTable(agent, { filename: 'table.xlsx', data }, { into: String(set.id), name: 'Collected' }, '?hitPolicy=collect')
  t.equal(res.statusCode, 201, res.body)
  const preview = res.json().data
  t.match(preview, { hitPolicy: 'collect', name: 'Collected', file: { format: 'xlsx' } })
  t.same(preview.rows[1].expression, '{{Age}} == 25 && {{Smoker}} == true', 'number and true/false cells')
  const ruleId = preview.created.ruleId
  t.same(await advice(ruleId, { Age: 70, Smoker: false }), ['Retired', 'Nearly retired', 'Everyone else'])
  t.same(await advice(ruleId, { Age: 25, Smoker: true }), ['Young smoker', 'Everyone else'])
  t.same((await treeOf(ruleId)).map((n) => (n as { children: Array<{ type: string }> }).children.map((c) => c.type)), [['advice'], ['advice'], ['advice'], ['advice']])
})

t.test('errors by cell: a dry run lists them, an import is a 400 that writes nothing', async (t) => {
  const set = await createAdviceSet(db, { ownerId })
  const bad = '{{Age}},Headline\n>= 65,Old\n>= abc,Broken\n30,\n'
  const dry = await importTable(agent, csvFile(bad), { into: String(set.id), dryRun: 'true' })
  t.equal(dry.statusCode, 200)
  t.same(dry.json().data.errors, [
    { cell: 'B4', message: 'B4: the headline is empty: every row gives advice' },
    { cell: 'A3', message: "A3: '>= abc' is not a number" },
  ])
  const res = await importTable(agent, csvFile(bad), { into: String(set.id) })
  t.equal(res.statusCode, 400)
  const error = res.json().error
  t.match(error.message, /^file: the table has 2 errors, so nothing was imported\. B4: the headline is empty/)
  t.same(error.fields, [{ field: 'B4', message: 'B4: the headline is empty: every row gives advice' }, { field: 'A3', message: "A3: '>= abc' is not a number" }])
  t.equal(error.preview.errors.length, 2)
  t.equal(await countRules(set.id), 0)
  const header = await importTable(agent, csvFile('Age,Headline\n1,A\n'), { into: String(set.id) })
  t.equal(header.statusCode, 400)
  t.match(header.json().error.fields[0], { field: 'A1', message: "A1: 'Age' names no column: write a variable as {{Age}}, a formula as [[Age]], or Headline or Text" })
  t.equal((await importTable(agent, csvFile(CSV), { into: String(set.id), hitPolicy: 'all' })).statusCode, 400)
  t.match((await importTable(agent, csvFile(CSV), {})).json().error, { field: 'into' })
  t.match((await importTable(agent, csvFile(CSV), { into: String(set.id), name: 'A' }, '?name=B')).json().error, { field: 'name' })
  t.equal(await countRules(set.id), 0)
})

t.test('export as XLSX and import it again: the same tree; the sheet carries the hit policy', async (t) => {
  const set = await createAdviceSet(db, { ownerId })
  for (const policy of ['first', 'collect']) {
    const made = (await importTable(agent, csvFile(CSV), { into: String(set.id), hitPolicy: policy, name: `Table ${policy}` })).json().data.created
    const res = await agent.request({ method: 'GET', url: `/api/rule/${made.ruleId}/table.xlsx` })
    t.equal(res.statusCode, 200)
    t.equal(res.headers['content-type'], 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    t.match(res.headers['content-disposition'], `attachment; filename="Table ${policy}.xlsx"`)
    const again = await importTable(agent, { filename: 'back.xlsx', data: res.rawPayload }, { into: String(set.id) })
    t.equal(again.statusCode, 201, again.body)
    t.equal(again.json().data.hitPolicy, policy, 'read from the sheet')
    t.same(await treeOf(again.json().data.created.ruleId), await treeOf(made.ruleId), `${policy}: the same tree`)
  }
})

t.test('a rule of another shape is not a table: 409 saying why', async (t) => {
  const set = await createAdviceSet(db, { ownerId })
  const { rule } = await buildRule(db, set.id, 'Hand made', [{ type: 'inputRequest', variable: 'Age', question: 'How old?' }, { type: 'advice', headline: 'Hi' }])
  const res = await agent.api('GET', `/api/rule/${rule.id}/table.xlsx`)
  t.equal(res.statusCode, 409)
  t.match(res.json().error.message, /^This rule cannot be exported as a table\. Its top-level node \d+ is a inputRequest/)
  const page = await agent.get(`/adviceset/${set.id}/rule/${rule.id}/show`)
  t.notMatch(page.body, /Export as table/, 'nor offered on its page')
})

t.test('rights: as for creating a rule', async (t) => {
  const set = await createAdviceSet(db, { ownerId })
  t.equal((await importTable(viewerAgent, csvFile(CSV), { into: String(set.id) })).statusCode, 403)
  t.equal((await importTable(strangerAgent, csvFile(CSV), { into: String(set.id), dryRun: 'true' })).statusCode, 404)
  const made = (await importTable(agent, csvFile(CSV), { into: String(set.id) })).json().data.created
  t.equal((await strangerAgent.api('GET', `/api/rule/${made.ruleId}/table.xlsx`)).statusCode, 404)
  t.equal((await viewerAgent.request({ method: 'GET', url: `/api/rule/${made.ruleId}/table.xlsx` })).statusCode, 200, 'readers export')
  t.equal(await countRules(set.id), 1)
})

t.test('hostile files: not a workbook, lying ZIP entries, old .xls, binary, too large', async (t) => {
  const set = await createAdviceSet(db, { ownerId })
  const into = { into: String(set.id), dryRun: 'true' }
  const refused = async (file: { filename: string; data: Buffer }, pattern: RegExp, status = 400) => {
    const res = await importTable(agent, file, into)
    t.equal(res.statusCode, status, file.filename)
    t.match(res.json().error.message, pattern)
  }
  await refused({ filename: 'fake.xlsx', data: Buffer.from('{{Age}},Headline\n') }, /is not an XLSX workbook/)
  await refused({ filename: 'old.xls', data: Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0]), Buffer.alloc(100)]) }, /old Excel workbook/)
  await refused({ filename: 'bin.csv', data: Buffer.from([0xff, 0xfe, 0x00, 0x41]) }, /neither an XLSX workbook nor UTF-8 text/)
  // A workbook whose directory says an entry is smaller than it inflates to: refused before exceljs inflates it.
  const xlsx = await xlsxOf([['{{Age}}', 'Headline'], [1, 'A']])
  const lying = Buffer.from(xlsx)
  const eocd = lying.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]))
  const cd = lying.readUInt32LE(eocd + 16)
  lying.writeUInt32LE(Math.max(1, lying.readUInt32LE(cd + 24) - 1), cd + 24)
  await refused({ filename: 'lying.xlsx', data: lying }, /inflates to more than it declares|is not the size it declares/)
  await refused({ filename: 'cut.xlsx', data: xlsx.subarray(0, xlsx.length - 30) }, /not a workbook that can be read/)
  await refused({ filename: 'big.csv', data: Buffer.alloc(10 * 1024 * 1024 + 1, 0x41) }, /^File too large$/, 413)
  t.equal(await countRules(set.id), 0)
})
