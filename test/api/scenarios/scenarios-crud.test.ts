// Issue 14 part 1, /api/advicescenario: create, read, change, copy, delete and restore; rights for the owner's team,
// viewers and other owners; bad input named by field; activity rows; 221 while something uses a scenario.
import t from 'tap'
import { eq } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInTeam } from '../../helpers/team.ts'
import { signedInAgent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { activityRows } from '../../helpers/activity.ts'
import { retirementSet } from '../../helpers/scenarios.ts'
import { adviceScenarios } from '../../../src/db/schema/index.ts'
import { registerScenarioUse } from '../../../src/services/scenarios/uses.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const { ownerId, agent, viewerAgent, strangerAgent, author } = await signedInTeam(app, db)

/** Scenarios this file says are in use, as keyword maps will say of the ones they point at. */
const inUse = new Set<number>()
registerScenarioUse('testlink', async (_db, id) => inUse.has(id) ? [{ id: 99, name: 'Test link to the scenario', uri: '/somewhere' }] : [])

const fieldOf = (res: { json(): { error: { field?: string; message: string } } }) => res.json().error

t.test('the owner’s team creates, reads, changes, copies, deletes and restores', async (t) => {
  const { set, ids } = await retirementSet(db, ownerId)
  const made = await agent.api('POST', '/api/advicescenario', {
    adviceSetId: set.id, name: 'Young and bold', description: 'Takes risk', inputs: { Age: 30, Risk: 'high' },
    expected: { advice: [ids.assumption, Number(ids.shares)], focus: 'complete', variables: { Score: 60 } },
  })
  t.equal(made.statusCode, 201)
  const scenario = made.json().data
  t.match(scenario, { adviceSetId: set.id, name: 'Young and bold', inputs: { Age: 30, Risk: 'high' }, runAsOf: null })
  t.same(scenario.expected, { advice: [ids.assumption, ids.shares], focus: 'complete', variables: { Score: 60 } }, 'node ids are kept as text')

  const implicit = (await agent.api('POST', '/api/advicescenario', { adviceSetId: set.id, name: 'Stops at risk', inputs: { Age: 40 } })).json().data
  t.same(implicit.expected, { advice: [ids.assumption], focus: ids.askRisk, variables: {} }, 'without expected, the draft’s outcome now')

  const read = await viewerAgent.api('GET', `/api/advicescenario/${scenario.id}`)
  t.equal(read.statusCode, 200, 'viewers read')
  t.match(read.json().data, { name: 'Young and bold', status: 'notRun', lastRun: null, runs: [] })
  const listed = (await viewerAgent.api('GET', `/api/advicescenario/adviceset/${set.id}`)).json().data
  t.same(listed.map((s: { name: string }) => s.name), ['Stops at risk', 'Young and bold'], 'a set’s scenarios by name')
  t.same((await agent.api('GET', `/api/adviceset/list/scenarios?id=${set.id}`)).json().data.map((s: { id: number }) => s.id), [implicit.id, scenario.id], 'also as adviceset list/scenarios')

  const patched = await agent.api('PATCH', `/api/advicescenario/${scenario.id}`, { name: 'Young, bold', runAsOf: '2026-03-01' })
  t.equal(patched.statusCode, 200)
  t.match(patched.json().data, { name: 'Young, bold', runAsOf: '2026-03-01', inputs: { Age: 30, Risk: 'high' } }, 'only the fields sent change')

  const copy = await agent.api('POST', `/api/advicescenario/${scenario.id}/copy`)
  t.equal(copy.statusCode, 201)
  t.match(copy.json().data, { name: 'Copy of Young, bold', inputs: { Age: 30, Risk: 'high' }, runAsOf: '2026-03-01', expected: scenario.expected })
  const older = await agent.api('POST', `/api/advicescenario/${scenario.id}/copy`, { name: 'Old', inputs: { Age: 70 }, expected: { advice: [ids.assumption, ids.retire] } })
  t.match(older.json().data, { name: 'Old', inputs: { Age: 70 }, expected: { advice: [ids.assumption, ids.retire], focus: 'complete', variables: {} } }, 'a copy with changes')

  t.equal((await agent.api('DELETE', `/api/advicescenario/${scenario.id}`)).statusCode, 200)
  t.equal((await agent.api('GET', `/api/advicescenario/${scenario.id}`)).statusCode, 404, 'a deleted scenario is gone')
  t.notOk((await agent.api('GET', `/api/advicescenario/adviceset/${set.id}`)).json().data.some((s: { id: number }) => s.id === scenario.id))
  t.equal((await agent.api('POST', `/api/advicescenario/${scenario.id}/restore`)).statusCode, 200)
  t.equal((await agent.api('GET', `/api/advicescenario/${scenario.id}`)).json().data.name, 'Young, bold', 'restored as it was')
  t.equal((await agent.api('POST', `/api/advicescenario/${scenario.id}/restore`)).statusCode, 400, 'a live scenario is not restored')

  const rows = await activityRows(db, 'advicescenario', scenario.id)
  t.same(rows.map((r) => r.action), ['create', 'update', 'delete', 'restore'])
  t.match(rows[1]!.before, { name: 'Young and bold', runAsOf: null, adviceSetId: set.id })
  t.match(rows[1]!.after, { name: 'Young, bold', runAsOf: '2026-03-01' })
  t.ok(rows.every((r) => r.actorId === author.id && r.ownerId === ownerId))
  t.match((await activityRows(db, 'advicescenario', copy.json().data.id))[0]!.after, { copiedFrom: scenario.id })
})

t.test('the activity log restores a scenario’s change and undoes its creation', async (t) => {
  const { set } = await retirementSet(db, ownerId)
  const id = (await agent.api('POST', '/api/advicescenario', { adviceSetId: set.id, name: 'Before', inputs: { Age: 50 } })).json().data.id
  await agent.api('PATCH', `/api/advicescenario/${id}`, { name: 'After', inputs: { Age: 51 } })
  const [created, updated] = await activityRows(db, 'advicescenario', id)
  t.equal((await agent.api('POST', `/api/activity/${updated!.id}/restore`)).statusCode, 200)
  t.match((await agent.api('GET', `/api/advicescenario/${id}`)).json().data, { name: 'Before', inputs: { Age: 50 } }, 'back as before the change')
  const setLog = (await agent.get(`/adviceset/${set.id}/activity`)).body
  t.match(setLog, /advice scenario/, 'the set’s activity page lists its scenarios’ changes')
  t.equal((await agent.api('POST', `/api/activity/${created!.id}/restore`)).statusCode, 200, 'undoing the create deletes it')
  t.equal((await agent.api('GET', `/api/advicescenario/${id}`)).statusCode, 404)
  const deleted = (await activityRows(db, 'advicescenario', id)).at(-1)!
  t.equal(deleted.action, 'restore')
  t.match(deleted.after, { deleted: true })
  t.equal((await viewerAgent.api('POST', `/api/activity/${updated!.id}/restore`)).statusCode, 403, 'viewers restore nothing')
})

t.test('viewers read but never write; other owners see nothing', async (t) => {
  const { set, ids } = await retirementSet(db, ownerId)
  const id = (await agent.api('POST', '/api/advicescenario', { adviceSetId: set.id, name: 'Kept', inputs: { Age: 70 } })).json().data.id
  const body = { adviceSetId: set.id, name: 'Viewer’s', inputs: { Age: 1 } }
  for (const [method, url, payload] of [
    ['POST', '/api/advicescenario', body], ['PATCH', `/api/advicescenario/${id}`, { name: 'x' }], ['DELETE', `/api/advicescenario/${id}`, undefined],
    ['POST', `/api/advicescenario/${id}/copy`, undefined], ['POST', `/api/advicescenario/${id}/restore`, undefined],
    ['POST', '/api/advicescenario/test', { adviceSetId: set.id }],
  ] as const) {
    t.equal((await viewerAgent.api(method, url, payload)).statusCode, 403, `viewer ${method} ${url}`)
  }
  for (const url of [`/api/advicescenario/${id}`, `/api/advicescenario/${id}/list-uses`, `/api/advicescenario/adviceset/${set.id}`, `/api/advicescenario/index?adviceSetId=${set.id}`]) {
    t.equal((await viewerAgent.api('GET', url)).statusCode, 200, `viewer GET ${url}`)
    t.equal((await strangerAgent.api('GET', url)).statusCode, 404, `other owner GET ${url}`)
  }
  for (const [method, url, payload] of [
    ['POST', '/api/advicescenario', body], ['PATCH', `/api/advicescenario/${id}`, { name: 'x' }], ['DELETE', `/api/advicescenario/${id}`, undefined],
    ['POST', `/api/advicescenario/${id}/copy`, undefined], ['POST', `/api/advicescenario/${id}/restore`, undefined],
    ['POST', '/api/advicescenario/test', { adviceSetId: set.id }], ['POST', '/api/advicescenario/test', { adviceSetId: set.id, background: true }],
  ] as const) {
    t.equal((await strangerAgent.api(method, url, payload)).statusCode, 404, `other owner ${method} ${url}`)
  }
  t.equal((await strangerAgent.api('GET', '/api/advicescenario/index')).json().data.total, 0, 'the index shows other owners nothing')
  const [row] = await db.select().from(adviceScenarios).where(eq(adviceScenarios.id, id))
  t.match(row, { name: 'Kept', deletedAt: null }, 'nothing changed')
  t.same((await viewerAgent.api('GET', `/api/advicescenario/${id}`)).json().data.expected.advice, [ids.retire, ids.assumption], 'advice first, then assumptions')

  const shared = await retirementSet(db, ownerId, { isPublic: true })
  const sharedId = (await agent.api('POST', '/api/advicescenario', { adviceSetId: shared.set.id, name: 'Public one', inputs: { Age: 70 } })).json().data.id
  t.equal((await strangerAgent.api('GET', `/api/advicescenario/${sharedId}`)).statusCode, 200, 'readers of a public set read its scenarios')
  t.equal((await strangerAgent.api('PATCH', `/api/advicescenario/${sharedId}`, { name: 'x' })).statusCode, 403, 'and cannot change them')
})

t.test('bad input is refused naming the field, and nothing is saved', async (t) => {
  const { set, ids } = await retirementSet(db, ownerId)
  const id = (await agent.api('POST', '/api/advicescenario', { adviceSetId: set.id, name: 'Good', inputs: { Age: 70 } })).json().data.id
  const cases: Array<[string, Record<string, unknown>, string, RegExp]> = [
    ['a blank name', { name: '  ', inputs: {} }, 'name', /Name is required/],
    ['inputs not an object', { name: 'x', inputs: [30] }, 'inputs', /inputs: must be an object/],
    ['inputs a string', { name: 'x', inputs: 'Age=30' }, 'inputs', /inputs: must be an object/],
    ['an unknown variable', { name: 'x', inputs: { Nope: 1 } }, 'inputs.Nope', /no variable \{\{Nope\}\}/],
    ['a number that is not one', { name: 'x', inputs: { Age: 'old' } }, 'inputs.Age', /inputs.Age: The answer for \{\{Age\}\} cannot be used/],
    ['an option that is not one', { name: 'x', inputs: { Age: 30, Risk: 'medium' } }, 'inputs.Risk', /inputs.Risk/],
    ['an object as an answer', { name: 'x', inputs: { Age: { years: 3 } } }, 'inputs.Age', /must be text, a number/],
    ['a system variable', { name: 'x', inputs: { Context: 'run' } }, 'inputs.Context', /system variable/],
    ['a bad date', { name: 'x', runAsOf: '2026-02-30' }, 'runAsOf', /runAsOf: must be a date written YYYY-MM-DD/],
    ['a date in words', { name: 'x', runAsOf: 'tomorrow' }, 'runAsOf', /runAsOf/],
    ['expected not an object', { name: 'x', expected: ['a'] }, 'expected', /expected: must be an object/],
    ['an unknown node in expected', { name: 'x', expected: { advice: ['999999'] } }, 'expected.advice', /"999999" is not an advice node/],
    ['a question as expected advice', { name: 'x', expected: { advice: [ids.askAge] } }, 'expected.advice', /is not an advice node/],
    ['expected advice not a list', { name: 'x', expected: { advice: ids.retire } }, 'expected.advice', /must be a list/],
    ['an advice node as the focus', { name: 'x', expected: { focus: ids.retire } }, 'expected.focus', /complete' or the node id of a question/],
    ['an unknown expected variable', { name: 'x', expected: { variables: { Nope: 1 } } }, 'expected.variables.Nope', /no variable/],
    ['an object as an expected value', { name: 'x', expected: { variables: { Score: { a: 1 } } } }, 'expected.variables.Score', /must be text/],
  ]
  for (const [what, fields, field, message] of cases) {
    const created = await agent.api('POST', '/api/advicescenario', { adviceSetId: set.id, ...fields })
    t.equal(created.statusCode, 400, `create: ${what}`)
    t.equal(fieldOf(created).field, field, `create names ${field}`)
    t.match(fieldOf(created).message, message)
    const patched = await agent.api('PATCH', `/api/advicescenario/${id}`, fields)
    t.equal(patched.statusCode, 400, `change: ${what}`)
    t.equal(fieldOf(patched).field, field)
  }
  t.equal(fieldOf(await agent.api('POST', '/api/advicescenario', { adviceSetId: 'abc', name: 'x' })).field, 'adviceSetId')
  t.equal(fieldOf(await agent.api('POST', '/api/advicescenario', { adviceSetId: set.id, name: 'x', color: 'red' })).field, 'color', 'unknown fields are named')
  t.equal(fieldOf(await agent.api('GET', '/api/advicescenario/index?status=broken')).field, 'status')
  t.equal((await agent.api('PATCH', `/api/advicescenario/${id}`, {})).statusCode, 400, 'a change that changes nothing')
  t.equal((await agent.api('GET', '/api/advicescenario/abc')).json().error.message, 'Invalid item id format.')
  const rows = await db.select().from(adviceScenarios).where(eq(adviceScenarios.adviceSetId, set.id))
  t.same(rows.map((r) => r.name), ['Good'], 'no bad scenario was saved')
  t.same(rows[0]!.inputs, { Age: 70 }, 'and the good one is untouched')
})

t.test('a scenario something uses cannot be deleted: 221 with what uses it', async (t) => {
  const { set } = await retirementSet(db, ownerId)
  const id = (await agent.api('POST', '/api/advicescenario', { adviceSetId: set.id, name: 'Linked', inputs: { Age: 70 } })).json().data.id
  t.same((await agent.api('GET', `/api/advicescenario/${id}/list-uses`)).json().data, { keywordmap: [], testlink: [] }, 'every kind of use is listed, empty')
  inUse.add(id)
  const uses = (await agent.api('GET', `/api/advicescenario/${id}/list-uses`)).json().data
  t.same(uses, { keywordmap: [], testlink: [{ id: 99, name: 'Test link to the scenario', uri: '/somewhere', type: 'testlink' }] })
  const refused = await agent.api('DELETE', `/api/advicescenario/${id}`)
  t.equal(refused.statusCode, 221)
  t.match(refused.json().error, { status: 221, name: 'Delete Not Allowed', dependents: [{ type: 'testlink', id: 99 }] })
  const [created] = await activityRows(db, 'advicescenario', id)
  t.equal((await agent.api('POST', `/api/activity/${created!.id}/restore`)).statusCode, 221, 'nor removed by undoing its creation')
  const page = await agent.postForm(`/adviceset/${set.id}/advicescenario/${id}/delete`, {}, { page: `/adviceset/${set.id}/advicescenario/${id}/delete` })
  t.equal(page.statusCode, 221, 'the delete page says so too')
  t.match(page.body, 'Test link to the scenario')
  t.equal((await agent.api('GET', `/api/advicescenario/${id}`)).statusCode, 200, 'it is still there')
  inUse.delete(id)
  t.equal((await agent.api('DELETE', `/api/advicescenario/${id}`)).statusCode, 200, 'once nothing uses it, it goes')
})

t.test('index, recent and filters', async (t) => {
  const { set } = await retirementSet(db, ownerId, { name: 'Indexed set' })
  const other = await retirementSet(db, ownerId, { name: 'Other set' })
  const pass = (await agent.api('POST', '/api/advicescenario', { adviceSetId: set.id, name: 'Passes', inputs: { Age: 70 } })).json().data
  const fail = (await agent.api('POST', '/api/advicescenario', { adviceSetId: set.id, name: 'Fails', inputs: { Age: 70 }, expected: { advice: [] } })).json().data
  await agent.api('POST', '/api/advicescenario', { adviceSetId: other.set.id, name: 'Elsewhere', inputs: { Age: 70 } })
  await agent.api('POST', '/api/advicescenario/test', { adviceSetId: set.id })
  const bySet = (await agent.api('GET', `/api/advicescenario/index?adviceSetId=${set.id}`)).json().data
  t.same(bySet.items.map((s: { name: string }) => s.name), ['Fails', 'Passes'])
  t.equal(bySet.total, 2)
  const failing = (await agent.api('GET', `/api/advicescenario/index?adviceSetId=${set.id}&status=fail`)).json().data
  t.same(failing.items.map((s: { id: number }) => s.id), [fail.id])
  t.equal(failing.total, 1, 'a status filter counts by the latest run')
  t.equal((await agent.api('GET', `/api/advicescenario/index?adviceSetId=${set.id}&status=notRun`)).json().data.total, 0, 'both ran')
  t.same((await agent.api('GET', `/api/advicescenario/adviceset/${set.id}?status=pass`)).json().data.map((s: { id: number }) => s.id), [pass.id])
  t.same((await agent.api('GET', `/api/advicescenario/adviceset/${other.set.id}?status=notRun`)).json().data.map((s: { name: string }) => s.name), ['Elsewhere'])
  t.match((await agent.api('GET', '/api/advicescenario/index?q=elsew')).json().data.items, [{ name: 'Elsewhere', adviceSetName: 'Other set' }])
  const recent = (await agent.api('GET', '/api/advicescenario/recent')).json().data
  t.same(recent.slice(0, 3).map((s: { name: string }) => s.name).sort(), ['Elsewhere', 'Fails', 'Passes'], 'the author’s latest first')
  t.same((await viewerAgent.api('GET', '/api/advicescenario/recent')).json().data, [], 'the viewer made or ran none')
})

t.test('the index pages after the last scenario shown; recent lists what a user made, changed or ran', async (t) => {
  const owner = await createOwner(db, { name: 'Paged' })
  const first = await createUser(db, { ownerId: owner, role: 'author' })
  const second = await createUser(db, { ownerId: owner, role: 'author' })
  const [firstAgent, secondAgent] = [await signedInAgent(app, first), await signedInAgent(app, second)]
  const { set } = await retirementSet(db, owner, { name: 'Many scenarios' })
  // 53 names, some equal and in either case, so a page boundary falls inside a run of equal names.
  const names = Array.from({ length: 53 }, (_, i) => [`case ${i % 7}`, `Case ${i % 5}`, `b${i}`][i % 3]!)
  await db.insert(adviceScenarios).values(names.map((name) => ({ adviceSetId: set.id, name, expected: { advice: [], focus: 'complete', variables: {} }, createdBy: first.id })))
  const byName = (await db.select({ id: adviceScenarios.id, name: adviceScenarios.name }).from(adviceScenarios).where(eq(adviceScenarios.adviceSetId, set.id)))
    .sort((a, b) => a.name.toLowerCase() < b.name.toLowerCase() ? -1 : a.name.toLowerCase() > b.name.toLowerCase() ? 1 : a.id - b.id).map((s) => s.id)

  const walked: number[] = []
  let after: string | null = null
  do {
    const data: { total: number; items: Array<{ id: number }>; next: string | null } = (await firstAgent.api('GET', `/api/advicescenario/index?adviceSetId=${set.id}${after === null ? '' : `&after=${after}`}`)).json().data
    t.equal(data.total, 53)
    walked.push(...data.items.map((s) => s.id))
    after = data.next
  } while (after !== null && walked.length < 200)
  t.same(walked, byName, 'each scenario once, by name then id')
  const second50 = (await firstAgent.api('GET', `/api/advicescenario/index?adviceSetId=${set.id}&page=2`)).json().data
  t.same(second50.items.map((s: { id: number }) => s.id), byName.slice(50), 'page 2 is what follows the first page')
  t.equal(second50.next, null)
  t.equal((await firstAgent.api('GET', `/api/advicescenario/index?page=1&after=${byName[0]}`)).json().error.field, 'after', 'a page or after, not both')
  t.equal((await firstAgent.api('GET', '/api/advicescenario/index?after=x')).json().error.field, 'after')

  const [changed, ran, made] = [byName[0]!, byName[1]!, (await secondAgent.api('POST', '/api/advicescenario', { adviceSetId: set.id, name: 'Mine', inputs: { Age: 70 } })).json().data.id]
  t.equal((await secondAgent.api('PATCH', `/api/advicescenario/${changed}`, { description: 'looked at' })).statusCode, 200)
  t.equal((await secondAgent.api('POST', '/api/advicescenario/test', { adviceSetId: set.id, scenarioIds: [ran] })).statusCode, 200)
  const recent = (await secondAgent.api('GET', '/api/advicescenario/recent')).json().data.map((s: { id: number }) => s.id)
  t.same([...recent].sort(), [changed, ran, made].sort(), 'made, changed and ran: no other')
  t.equal(recent[0], ran, 'the latest first')
})

t.test('copying an advice set copies its scenarios, pointing at the copied nodes, and they pass there', async (t) => {
  const { set, ids } = await retirementSet(db, ownerId, { name: 'To copy' })
  await agent.api('POST', '/api/advicescenario', { adviceSetId: set.id, name: 'Old', inputs: { Age: 70 } })
  await agent.api('POST', '/api/advicescenario', { adviceSetId: set.id, name: 'Waits', inputs: { Age: 40 } })
  const gone = (await agent.api('POST', '/api/advicescenario', { adviceSetId: set.id, name: 'Deleted', inputs: { Age: 1 } })).json().data
  await agent.api('DELETE', `/api/advicescenario/${gone.id}`)
  const copy = (await agent.api('POST', '/api/adviceset/copy', { id: set.id })).json().data
  const copied = (await agent.api('GET', `/api/advicescenario/adviceset/${copy.id}`)).json().data as Array<{ name: string; expected: { advice: string[]; focus: string } }>
  t.same(copied.map((s) => s.name), ['Old', 'Waits'], 'the live ones')
  const original = new Set(Object.values(ids))
  t.ok(copied.every((s) => s.expected.advice.every((id) => !original.has(id))), 'their advice is the copy’s nodes')
  t.notOk(original.has(copied[1]!.expected.focus), 'and so is the focus')
  t.same((await agent.api('POST', '/api/advicescenario/test', { adviceSetId: copy.id })).json().data.counts, { pass: 2, fail: 0, error: 0 })
  t.match((await activityRows(db, 'adviceset', copy.id))[0]!.after, { copied: { scenarios: 2 } })
})
