// Issue 28: an advice set as an advice-set@1 file. Export: keys and names instead of ids, the same bytes twice, the
// working draft or a version as published, ZIP with the supplements' files, only for the set's own team; the JSON
// Schema served. Import: a dry run that writes nothing, conflicts named by JSON pointer (and line and column), a new
// set or `into` an existing one (nodes keep their rows), one transaction, the scenarios run afterwards.
import t from 'tap'
import { and, count, eq, isNull } from 'drizzle-orm'
import { Compile } from 'typebox/compile'
import { buildTestApp } from '../../helpers/app.ts'
import { keywordMapTeams } from '../../helpers/keyword-maps.ts'
import { multipartBody, pngOf, upload, type UploadFile } from '../../helpers/uploads.ts'
import type { Agent } from '../../helpers/agent.ts'
import { activityItem, activityRows } from '../../helpers/activity.ts'
import { AdviceSetDocument } from '../../../src/services/library/portable-format.ts'
import { readPortableZip } from '../../../src/services/library/portable-zip.ts'
import { activity, adviceScenarios, adviceSets, ruleNodes, rules } from '../../../src/db/schema/index.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const { admin, author, viewer, strangerAdmin, providerAdmin, set } = await keywordMapTeams(app, db)
const validator = Compile(AdviceSetDocument)

async function importFile(agent: Agent, file: UploadFile, query = ''): Promise<{ statusCode: number; body: any }> {
  if (!agent.csrfToken) await agent.get('/')
  const { payload, contentType } = await multipartBody(file)
  const res = await agent.request({ method: 'POST', url: `/api/adviceset/import${query}`, payload, headers: { 'accept': 'application/json', 'content-type': contentType, 'x-csrf-token': agent.csrfToken } })
  return { statusCode: res.statusCode, body: res.json() }
}

const jsonFile = (text: string, filename = 'set.json'): UploadFile => ({ filename, data: Buffer.from(text), type: 'application/json' })

async function setCount(): Promise<number> {
  return (await db.select({ n: count() }).from(adviceSets))[0]!.n
}

// The set gets a scenario, so that an import has behaviour to prove.
const scenario = (await author.api('POST', '/api/advicescenario', { adviceSetId: set.id, name: 'Retired at 70', inputs: { Age: 70 } })).json().data
if (!scenario?.id) throw new Error('the fixture scenario was not created')
await admin.api('POST', '/api/keywordmap', { name: 'Retirement help', phrases: ['retire early'], adviceSetId: set.id, scenarioId: scenario.id })

let exported = ''

t.test('the working draft exports as a canonical document without database ids', async (t) => {
  const res = await author.api('GET', `/api/adviceset/${set.id}/export`)
  t.equal(res.statusCode, 200)
  t.match(res.headers['content-type'], /^application\/json/)
  t.match(res.headers['content-disposition'], /attachment; filename="acme-pensions.json"/)
  exported = res.body
  t.ok(exported.endsWith('}\n'), 'a final newline')
  t.match(exported, /^\{\n  "format": "advice-set@1",\n  "adviceSet": \{/, 'two spaces, fixed key order: format first')
  const doc = JSON.parse(exported)
  t.ok(validator.Check(doc), 'valid against the format')
  t.equal((await author.api('GET', `/api/adviceset/${set.id}/export`)).body, exported, 'exporting twice gives the same bytes')
  const nodeIds = (await db.select({ id: ruleNodes.id }).from(ruleNodes).innerJoin(rules, eq(rules.id, ruleNodes.ruleId)).where(eq(rules.adviceSetId, set.id))).map((r) => r.id)
  const keyOf = new Map((await db.select({ id: ruleNodes.id, key: ruleNodes.key }).from(ruleNodes).where(isNull(ruleNodes.deletedAt))).map((r) => [String(r.id), r.key]))
  t.same(doc.scenarios[0].expected.advice, scenario.expected.advice.map((id: string) => keyOf.get(id)), 'expected advice by node key')
  t.notOk(doc.scenarios[0].expected.advice.some((k: string) => nodeIds.map(String).includes(k)), 'no node id')
  t.same(doc.keywordMaps, [{ name: 'Retirement help', phrases: ['retire early'], scenario: 'Retired at 70' }], 'keyword maps name their scenario')
  t.same(doc.dictionary.map((e: { name: string }) => e.name), ['Age', 'Risk', 'Score'])
  const [rule] = await db.select().from(rules).where(eq(rules.adviceSetId, set.id))
  t.equal(doc.rules[0].key, rule!.key, 'the rule carries its key')
})

t.test('a version exports as it was published, after the draft changed', async (t) => {
  const version = (await admin.api('POST', '/api/adviceset/publish', { action: 'create', adviceSetId: set.id })).json().data
  await author.api('PATCH', `/api/rule/${(await db.select().from(rules).where(eq(rules.adviceSetId, set.id)))[0]!.id}`, { name: 'Plan, renamed' })
  const draft = JSON.parse((await author.api('GET', `/api/adviceset/${set.id}/export`)).body)
  const res = await author.api('GET', `/api/adviceset/${set.id}/export?version=${version.number}`)
  t.equal(res.statusCode, 200)
  t.match(res.headers['content-disposition'], /acme-pensions-v1\.json/)
  const doc = JSON.parse(res.body)
  t.equal(draft.rules[0].name, 'Plan, renamed')
  t.equal(doc.rules[0].name, 'Plan', 'the version’s rule name')
  t.match(doc.version, { number: 1, contentHash: version.contentHash })
  t.equal((await author.api('GET', `/api/adviceset/${set.id}/export?version=9`)).statusCode, 404)
  const bad = await author.api('GET', `/api/adviceset/${set.id}/export?version=x`)
  t.equal(bad.statusCode, 400)
  t.equal(bad.json().error.field, 'version')
})

t.test('only the set’s team exports; the JSON Schema is public', async (t) => {
  t.equal((await viewer.api('GET', `/api/adviceset/${set.id}/export`)).statusCode, 200, 'the team’s viewers read it')
  t.equal((await strangerAdmin.api('GET', `/api/adviceset/${set.id}/export`)).statusCode, 404)
  t.equal((await providerAdmin.api('GET', `/api/adviceset/${set.id}/export`)).statusCode, 200)
  const schema = await app.inject({ method: 'GET', url: '/schemas/advice-set-1.json' })
  t.equal(schema.statusCode, 200)
  t.match(schema.headers['content-type'], /^application\/schema\+json/)
  t.match(schema.json(), { $schema: 'https://json-schema.org/draft/2020-12/schema', properties: { format: { const: 'advice-set@1' } }, $defs: { Node: {} } })
})

t.test('a dry run shows what the import would do and writes nothing', async (t) => {
  const sets = await setCount()
  const res = await importFile(author, jsonFile(exported), '?dryRun=true')
  t.equal(res.statusCode, 200)
  t.match(res.body.data, {
    target: { adviceSetId: null, name: 'Acme pensions' }, rules: { create: ['Plan'], update: [], delete: [] }, nodes: { create: 9, keep: 0, delete: 0 },
    dictionary: { create: [], reuse: ['Age', 'Risk', 'Score'] }, scenarios: { create: ['Retired at 70'] }, keywordMaps: { create: [] }, errors: [],
    warnings: [{ pointer: '/keywordMaps', message: /keyword maps are kept by the team’s admins: the 1 of this document are left out/ }],
  })
  t.match((await importFile(admin, jsonFile(exported), '?dryRun=true')).body.data, { keywordMaps: { create: ['Retirement help'] }, warnings: [] }, 'an admin brings them')
  t.equal(await setCount(), sets, 'no set written')
  const into = await importFile(author, jsonFile(exported), `?dryRun=true&into=${set.id}`)
  t.match(into.body.data, { target: { adviceSetId: set.id }, rules: { create: [], update: ['Plan'], delete: [] }, nodes: { create: 0, keep: 9, delete: 0 }, scenarios: { update: ['Retired at 70'] } })
})

t.test('an import as a new set runs its scenarios; exporting it again gives the same rules', async (t) => {
  const res = await importFile(author, jsonFile(exported))
  t.equal(res.statusCode, 201)
  const created = res.body.data.adviceSet
  t.not(created.id, set.id)
  t.same(res.body.data.scenarios, { counts: { pass: 1, fail: 0, error: 0 }, results: [{ name: 'Retired at 70', status: 'pass' }] }, 'the scenario passes on the copy')
  const again = JSON.parse((await author.api('GET', `/api/adviceset/${created.id}/export`)).body)
  const original = JSON.parse(exported)
  t.same(again.rules, original.rules, 'rules and nodes with the same keys')
  t.same(again.scenarios, original.scenarios)
  t.same(again.dictionary, original.dictionary)
  const [entry] = await db.select().from(activity).where(and(eq(activity.entityType, 'adviceset'), eq(activity.entityId, String(created.id)), eq(activity.action, 'create')))
  t.match(entry!.after, { imported: { rules: 1, nodes: 9, scenarios: 1, format: 'advice-set@1' } }, 'an activity entry')
})

t.test('problems are named by JSON pointer, line and column; nothing is written', async (t) => {
  const sets = await setCount()
  const doc = JSON.parse(exported)
  doc.rules[0].nodes[2].type = 'question'
  const text = JSON.stringify(doc, null, 2)
  const res = await importFile(author, jsonFile(text))
  t.equal(res.statusCode, 400)
  t.equal(res.body.error.field, 'file')
  t.match(res.body.error.errors[0], { pointer: '/rules/0/nodes/2/type', message: /must be one of condition/, line: Number, column: Number })
  const line = text.split('\n')[res.body.error.errors[0].line - 1]
  t.match(line, /"type": "question"/, 'the line of the value')
  const syntax = await importFile(author, jsonFile('{\n  "format": "advice-set@1",\n  oops\n}'))
  t.equal(syntax.statusCode, 400)
  t.match(syntax.body.error.message, /line 3, column 3/)
  const dictionary = JSON.parse(exported)
  dictionary.dictionary[0].dataType = 'freetext'
  const conflict = await importFile(author, jsonFile(JSON.stringify(dictionary)))
  t.equal(conflict.statusCode, 400)
  t.match(conflict.body.error.errors, [{ pointer: '/dictionary/0', message: /“Age” is a variable \(freetext\) in this file, but a variable \(number\) here/ }])
  const dangling = JSON.parse(exported)
  dangling.scenarios[0].expected.advice = ['nope']
  const res2 = await importFile(author, jsonFile(JSON.stringify(dangling)))
  t.match(res2.body.error.errors, [{ pointer: '/scenarios/0/expected/advice/0', message: /no advice node of this document has the key “nope”/ }])
  t.equal(await setCount(), sets, 'no set written by any refused import')
})

t.test('into an existing set: one change of its draft; nodes keep their rows', async (t) => {
  const doc = JSON.parse(exported)
  doc.rules[0].nodes[2].children[0].headline = 'Retire now'
  const [assumption] = doc.rules[0].nodes.splice(1, 1)
  doc.scenarios[0].expected.advice = doc.scenarios[0].expected.advice.filter((key: string) => key !== assumption.key)
  const before = await db.select({ id: ruleNodes.id, key: ruleNodes.key }).from(ruleNodes).innerJoin(rules, eq(rules.id, ruleNodes.ruleId)).where(and(eq(rules.adviceSetId, set.id), isNull(ruleNodes.deletedAt)))
  const res = await importFile(author, jsonFile(JSON.stringify(doc)), `?into=${set.id}`)
  t.equal(res.statusCode, 201, JSON.stringify(res.body).slice(0, 500))
  t.match(res.body.data.plan, { nodes: { keep: 8, create: 0, delete: 1 } })
  t.match(res.body.data.scenarios, { counts: { pass: 1, fail: 0, error: 0 } }, 'the scenario, changed with the file, passes')
  const after = await db.select({ id: ruleNodes.id, key: ruleNodes.key, headline: ruleNodes.headline }).from(ruleNodes).innerJoin(rules, eq(rules.id, ruleNodes.ruleId)).where(and(eq(rules.adviceSetId, set.id), isNull(ruleNodes.deletedAt)))
  t.equal(after.length, before.length - 1)
  for (const node of after) t.equal(node.id, before.find((b) => b.key === node.key)?.id, `node ${node.key} keeps its row`)
  t.ok(after.some((n) => n.headline === 'Retire now'))
  t.equal((await db.select().from(adviceScenarios).where(and(eq(adviceScenarios.adviceSetId, set.id), isNull(adviceScenarios.deletedAt)))).length, 1, 'the scenario updated, not doubled')
  // The import is one activity entry of the set, found on its activity page; restoring it brings the draft back.
  const [entry] = await activityRows(db, 'advicesetimport', set.id)
  t.match(entry, { action: 'update', after: { imported: { rules: 1, nodes: 8 } } })
  const page = await author.get(`/adviceset/${set.id}/activity`)
  t.ok(activityItem(page.body, /imported a file into the working draft of the Advice Set “Acme pensions” \(1 rule, 8 nodes\)/), 'the set’s activity page shows it')
  const restored = await author.api('POST', `/api/activity/${entry!.id}/restore`)
  t.equal(restored.statusCode, 200)
  const back = await db.select({ id: ruleNodes.id, key: ruleNodes.key, headline: ruleNodes.headline }).from(ruleNodes).innerJoin(rules, eq(rules.id, ruleNodes.ruleId)).where(and(eq(rules.adviceSetId, set.id), isNull(ruleNodes.deletedAt)))
  t.same(back.map((n) => n.id).sort(), before.map((n) => n.id).sort(), 'every node of the draft before the import is back, in its own row')
  t.notOk(back.some((n) => n.headline === 'Retire now'), 'the imported change is gone')
  t.ok(activityItem((await author.get(`/adviceset/${set.id}/activity`)).body, /restored the working draft of the Advice Set “Acme pensions” as it was before an import/))
  t.equal((await importFile(viewer, jsonFile(exported), `?into=${set.id}`)).statusCode, 403, 'viewers do not import')
  t.equal((await importFile(strangerAdmin, jsonFile(exported), `?into=${set.id}`)).statusCode, 404, 'another team’s set is not there')
})

t.test('the ZIP form carries the supplements’ files', async (t) => {
  const png = await pngOf(4, 3)
  const uploaded = await upload(author, { filename: 'chart.png', data: png, type: 'image/png' }, { targetType: 'adviceSet', targetId: String(set.id) })
  t.equal(uploaded.statusCode, 201)
  const res = await author.api('GET', `/api/adviceset/${set.id}/export?format=zip`)
  t.equal(res.statusCode, 200)
  t.match(res.headers['content-disposition'], /acme-pensions\.zip/)
  const zip = await readPortableZip(res.rawPayload)
  const doc = JSON.parse(zip.setJson.toString('utf8'))
  t.match(doc.supplements, [{ key: 's1', name: 'chart', format: 'image', contentType: 'image/png', file: 'files/s1.png' }])
  t.same(doc.adviceSet.supplements, ['s1'])
  t.ok(zip.files.get('s1.png')?.equals(png), 'the file’s bytes')
  const imported = await importFile(author, { filename: 'set.zip', data: res.rawPayload, type: 'application/zip' })
  t.equal(imported.statusCode, 201)
  t.same(imported.body.data.plan.supplements, { create: [], reuse: ['chart'], leftOut: [] }, 'the same file of this team is reused')
})
