// Issue 26, personal variables and subject rights: a dictionary variable marked "Personal data" (API and card form;
// formulas refused naming the field) is kept in decision records only as a keyed hash; an owner's admin finds the
// records where it held a value (access), exports them (JSON, no hashes) and erases them after a confirmation with
// the count; each request is in the activity log with its count, readable on /activity; authors and viewers are
// refused, another owner is not found.
import t from 'tap'
import { and, eq, sql } from 'drizzle-orm'
import { decisionRecords, entities } from '../../../src/db/schema/index.ts'
import { ENTITY_TYPES } from '../../../src/engine/index.ts'
import { ENTITY_DECISION_SUBJECT } from '../../../src/services/decisions/subject-rights.ts'
import { activityRows, activitySentences } from '../../helpers/activity.ts'
import { query, RICH_ANSWERS } from '../delivery/advice-api-setup.ts'
import { decisionsTeam } from './decisions-team.ts'

const { ctx, f, db, admin, as, call } = await decisionsTeam(t)
const PAGE = '/admin/decisions/subject'
const entityOf = async (name: string) => (await db.select().from(entities).where(and(eq(entities.ownerId, f.ownerId), eq(entities.reservedName, name))))[0]!

/** Answers the set with this income; the record's id. */
async function answer(income: number): Promise<string> {
  const res = await call({ url: `/api/advice/${f.set.id}?${query({ ...RICH_ANSWERS, Income: income })}` })
  t.equal(res.statusCode, 200)
  return String(res.headers['decision-id'])
}

/** How many rows of decision_records contain `text` anywhere in their columns. */
async function rowsContaining(text: string): Promise<number> {
  await ctx.app.partner.recorder.flush()
  const result = await db.execute<{ n: number }>(sql`select count(*)::int as n from decision_records where decision_records::text like ${`%${text}%`}`)
  const rows = Array.isArray(result) ? result : (result as unknown as { rows: Array<{ n: number }> }).rows
  return rows[0]!.n
}

t.test('the personal flag through the API; formulas cannot be personal', async (t) => {
  const income = await entityOf('Income')
  const res = await as.admin.api('PATCH', `/api/entity/${income.id}`, { personal: true })
  t.equal(res.statusCode, 200)
  t.equal(res.json().data.entity.personal, true)
  t.equal((await entityOf('Income')).personal, true)
  const audit = (await activityRows(db, 'entity', income.id)).at(-1)!
  t.match(audit.after, { personal: true }, 'the change is in the log')
  t.match((await as.admin.get('/activity')).body, /Personal data[\s\S]*?No[\s\S]*?Yes/, 'and reads as a field change')

  const created = await as.author.api('POST', '/api/entity', { reservedName: 'Email', dataType: 'freetext', personal: true })
  t.equal(created.statusCode, 201)
  t.equal(created.json().data.personal, true)

  const formula = await entityOf('Tenth')
  const refused = await as.admin.api('PATCH', `/api/entity/${formula.id}`, { personal: true })
  t.equal(refused.statusCode, 400)
  t.match(refused.json().error.message, /^personal: a formula cannot be personal data/)
  t.equal((await entityOf('Tenth')).personal, false, 'nothing saved')
  const newFormula = await as.admin.api('POST', '/api/entity', { reservedName: 'Double', entityTypeId: ENTITY_TYPES.formula.id, expression: '{{Income}} * 2', personal: true })
  t.equal(newFormula.statusCode, 400)
  t.match(newFormula.json().error, { message: /^personal: /, field: 'personal' })
  t.equal((await as.viewer.api('PATCH', `/api/entity/${income.id}`, { personal: false })).statusCode, 403, 'a viewer cannot change it')
})

t.test('the personal flag on the card form', async (t) => {
  const age = await entityOf('Age')
  const form = await as.admin.get(`/card/variable/${age.id}/edit`)
  t.equal(form.statusCode, 200)
  t.match(form.body, /name="personal" value="true"[^>]*> Personal data<\/label>/, 'a checkbox')
  t.match(form.body, /Its values are kept in decision records only as a keyed hash\./, 'with its hint')
  const saved = await as.admin.postForm(`/card/variable/${age.id}/edit`, { kind: 'variable', reservedName: 'Age', dataType: 'number', personal: 'true' })
  t.equal(saved.statusCode, 303)
  t.equal((await entityOf('Age')).personal, true)
  t.match((await as.admin.get(`/card/variable/${age.id}`)).body, /<dt>Personal data<\/dt><dd data-personal="true">Yes/, 'the card says so')
  const cleared = await as.admin.postForm(`/card/variable/${age.id}/edit`, { kind: 'variable', reservedName: 'Age', dataType: 'number' })
  t.equal(cleared.statusCode, 303)
  t.equal((await entityOf('Age')).personal, false, 'unticked, it is cleared')
  t.notMatch((await as.admin.get(`/card/formula/${(await entityOf('Tenth')).id}/edit`)).body, /name="personal"/, 'a formula’s form does not offer it')
})

const ids = { a: '', b: '', other: '' }

t.test('restoring the flag’s change from the activity log counts from the next answer', async (t) => {
  const age = await entityOf('Age')
  t.equal((await as.admin.api('PATCH', `/api/entity/${age.id}`, { personal: true })).statusCode, 200)
  const inputsOf = async (id: string) => {
    await ctx.app.partner.recorder.flush()
    return (await db.select({ inputs: decisionRecords.inputs }).from(decisionRecords).where(eq(decisionRecords.id, id)))[0]!.inputs
  }
  t.same((await inputsOf(await answer(50_001))).Age, { personal: true }, 'marked personal: the age is not kept')
  const change = (await activityRows(db, 'entity', age.id)).at(-1)!
  const restored = await as.admin.api('POST', `/api/activity/${change.id}/restore`)
  t.equal(restored.statusCode, 200)
  t.equal((await entityOf('Age')).personal, false, 'the change is undone')
  // The recorder keeps the personal names for 5 s; the restore must make it read them again at once.
  t.equal((await inputsOf(await answer(50_002))).Age, RICH_ANSWERS.Age, 'the next answer keeps the age again')
})

t.test('a run with the flag on keeps no plain value anywhere in the table', async (t) => {
  // No cache to clear by hand: the flag set through the API above counts from the next answer on.
  ids.a = await answer(73519)
  ids.b = await answer(73519)
  ids.other = await answer(61234)
  t.equal(await rowsContaining('73519'), 0, 'the value is nowhere in decision_records')
  t.equal(await rowsContaining('61234'), 0)
  const [row] = await db.select().from(decisionRecords).where(eq(decisionRecords.id, ids.a))
  t.same(row!.inputs.Income, { personal: true })
  t.equal(row!.personalHashes.length, 1)
})

const find = (agent = as.admin, value = '73519', extra: Record<string, string> = {}) => agent.postForm(PAGE, { variable: 'Income', value, action: 'find', ...extra }, { page: '/' })

t.test('the page offers the owner’s personal variables', async (t) => {
  const page = await as.admin.get(PAGE)
  t.equal(page.statusCode, 200)
  t.match(page.body, /<main data-page="admin-decisions-subject">/)
  t.match(page.body, /<option value="Email"[^>]*>\{\{Email\}\}<\/option>[\s\S]*<option value="Income"[^>]*>\{\{Income\}\}<\/option>/)
  t.notMatch(page.body, /<option value="Region"/, 'not the others')
})

t.test('find: the matching records, logged as an access with the count', async (t) => {
  const res = await find()
  t.equal(res.statusCode, 200)
  t.match(res.body, /2 records<\/span>|2 records where \{\{Income\}\} held this value/)
  for (const id of [ids.a, ids.b]) t.match(res.body, `<a href="/adviceset/${f.set.id}/decisions/${id}">Open record</a>`, 'links each record')
  t.notMatch(res.body, ids.other, 'not another value’s')
  t.match(res.body, /Pension check[\s\S]*?Version 1[\s\S]*?Complete/, 'advice set, version and status')
  const api = await as.admin.api('POST', '/api/decisions/subject/find', { variable: 'Income', value: '73519' })
  t.equal(api.statusCode, 200)
  t.equal(api.json().data.count, 2)
  t.same(api.json().data.records.map((r: { id: string }) => r.id).sort(), [ids.a, ids.b].sort())
  t.equal((await as.admin.api('POST', '/api/decisions/subject/find', { variable: 'Income', value: ' 73519.0 ' })).json().data.count, 2, 'read as the number it is')
  const rows = await activityRows(db, ENTITY_DECISION_SUBJECT, 'Income')
  t.equal(rows.length, 3)
  t.match(rows.at(-1), { action: 'create', actorId: admin.id, ownerId: f.ownerId, after: { request: 'access', variable: 'Income', count: 2 } })
  t.notMatch(JSON.stringify(rows), '73519', 'the value is not logged')
})

t.test('export: a JSON download of the records, without hashes', async (t) => {
  const res = await as.admin.postForm(PAGE, { variable: 'Income', value: '73519', action: 'export' })
  t.equal(res.statusCode, 200)
  t.match(res.headers['content-type'], /^application\/json/)
  t.match(res.headers['content-disposition'], /attachment; filename="decision-records-Income-\d{4}-\d{2}-\d{2}\.json"/)
  const doc = res.json()
  t.equal(doc.count, 2)
  t.same(doc.records.map((r: { id: string }) => r.id).sort(), [ids.a, ids.b].sort())
  t.match(doc.records[0], { adviceSetId: f.set.id, versionNumber: 1, status: 'complete', inputs: { Income: { personal: true }, Age: 40 } })
  t.notOk('personalHashes' in doc.records[0], 'no keyed hashes')
  t.notMatch(res.body, '73519')
  const api = await as.admin.api('POST', '/api/decisions/subject/export', { variable: 'Income', value: '73519' })
  t.equal(api.statusCode, 200)
  t.equal(api.json().count, 2)
  t.match((await activityRows(db, ENTITY_DECISION_SUBJECT, 'Income')).at(-1), { after: { request: 'export', count: 2 } })
})

t.test('erase: a confirmation that says how many, then the records are gone', async (t) => {
  const confirm = await as.admin.postForm(PAGE, { variable: 'Income', value: '73519', action: 'erase' })
  t.equal(confirm.statusCode, 200)
  t.match(confirm.body, /<h1>Erase 2 decision records\?<\/h1>/)
  t.match(confirm.body, /data-erase-count="2"/)
  t.equal((await db.select().from(decisionRecords).where(eq(decisionRecords.id, ids.a))).length, 1, 'asking erases nothing')
  const answersOnSetPage = async () => Number(/data-total="decisions">(\d+)</.exec((await as.admin.get(`/adviceset/${f.set.id}/show`)).body)?.[1])
  const before = await answersOnSetPage()
  t.ok(before >= 3, `the set page counts the answers so far (${before})`)
  const erased = await as.admin.postForm(`${PAGE}/erase`, { variable: 'Income', value: '73519' })
  t.equal(erased.statusCode, 303)
  t.equal(erased.headers.location, PAGE)
  t.match((await as.admin.get(PAGE)).body, /2 decision records erased where \{\{Income\}\} held the value given\./)
  for (const id of [ids.a, ids.b]) t.equal((await db.select().from(decisionRecords).where(eq(decisionRecords.id, id))).length, 0, 'erased')
  t.equal((await db.select().from(decisionRecords).where(eq(decisionRecords.id, ids.other))).length, 1, 'another value’s record stays')
  t.equal(await answersOnSetPage(), before - 2, 'the set page counts two answers fewer')
  t.match((await activityRows(db, ENTITY_DECISION_SUBJECT, 'Income')).at(-1), { action: 'delete', after: { request: 'erase', count: 2 } })
  const again = await find()
  t.match(again.body, /0 records where \{\{Income\}\} held this value/)
  const api = await as.admin.api('POST', '/api/decisions/subject/erase', { variable: 'Income', value: '61234' })
  t.equal(api.statusCode, 200)
  t.equal(api.json().data.erased, 1)
})

t.test('each request reads as a sentence on /activity', async (t) => {
  const sentences = activitySentences((await as.admin.get('/activity')).body)
  t.ok(sentences.some((s) => s === 'Ada Admin looked up 2 decision records whose “{{Income}}” held the value asked for (a data subject request).'), 'access')
  t.ok(sentences.some((s) => s === 'Ada Admin exported 2 decision records whose “{{Income}}” held the value asked for (a data subject request).'), 'export')
  t.ok(sentences.some((s) => s === 'Ada Admin erased 2 decision records whose “{{Income}}” held the value asked for (a data subject request).'), 'erase')
  t.ok(sentences.some((s) => s.startsWith('Ada Admin erased 1 decision record whose')), 'one record in the singular')
})

t.test('bad input names the field', async (t) => {
  const noValue = await as.admin.postForm(PAGE, { variable: 'Income', value: ' ', action: 'find' })
  t.equal(noValue.statusCode, 400)
  t.match(noValue.body, /value: type the value to look for\./)
  const notPersonal = await as.admin.api('POST', '/api/decisions/subject/find', { variable: 'Region', value: 'North' })
  t.equal(notPersonal.statusCode, 400)
  t.match(notPersonal.json().error, { message: /^variable: /, field: 'variable' })
})

t.test('authors and viewers are refused; another owner is not found; provider admins may', async (t) => {
  for (const [who, agent] of [['author', as.author], ['viewer', as.viewer]] as const) {
    t.equal((await agent.get(PAGE)).statusCode, 403, `${who}: page`)
    t.equal((await find(agent)).statusCode, 403, `${who}: find`)
    t.equal((await agent.api('POST', '/api/decisions/subject/erase', { variable: 'Income', value: '61234' })).statusCode, 403, `${who}: API`)
  }
  t.equal((await as.outsider.get(`${PAGE}?ownerId=${f.ownerId}`)).statusCode, 404, 'another owner’s admin: page')
  t.equal((await as.outsider.api('POST', '/api/decisions/subject/find', { ownerId: f.ownerId, variable: 'Income', value: '1' })).statusCode, 404, 'and API')
  const outsiderOwn = await as.outsider.api('POST', '/api/decisions/subject/find', { variable: 'Income', value: '1' })
  t.equal(outsiderOwn.statusCode, 400, 'in its own team the variable is not a personal one')
  const providerPage = await as.provider.get(`${PAGE}?ownerId=${f.ownerId}`)
  t.equal(providerPage.statusCode, 200)
  t.match(providerPage.body, /<option value="Income"/)
  const providerFind = await as.provider.api('POST', '/api/decisions/subject/find', { ownerId: f.ownerId, variable: 'Income', value: '61234' })
  t.equal(providerFind.statusCode, 200)
  t.equal(providerFind.json().data.count, 0, 'already erased')
})
