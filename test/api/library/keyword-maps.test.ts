// Issue 14 part 6, /api/keywordmap (SPEC §7): admins of the owner create, change, delete and restore; its users read;
// other owners see nothing; bad input is named by field; a scenario a map points at cannot be deleted (221); every
// change is in the activity log and can be restored from it.
import t from 'tap'
import { and, eq } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { activitySentences } from '../../helpers/activity.ts'
import { keywordMapTeams } from '../../helpers/keyword-maps.ts'
import { retirementSet } from '../../helpers/scenarios.ts'
import { activity, keywordMaps } from '../../../src/db/schema/index.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const { acme, globex, admin, author, viewer, strangerAdmin, providerAdmin, set } = await keywordMapTeams(app, db)
const globexSet = (await retirementSet(db, globex, { name: 'Globex public pensions', isPublic: true })).set
const scenario = (await author.api('POST', '/api/advicescenario', { adviceSetId: set.id, name: 'Retired at 70', inputs: { Age: 70 } })).json().data
const globexScenario = (await strangerAdmin.api('POST', '/api/advicescenario', { adviceSetId: globexSet.id, name: 'Globex case', inputs: { Age: 30 } })).json().data

async function logOf(id: number) {
  return db.select().from(activity).where(and(eq(activity.entityType, 'keywordmap'), eq(activity.entityId, String(id)))).orderBy(activity.id)
}

t.test('an admin creates a map; its users read it; bad input is named by field', async (t) => {
  const created = await admin.api('POST', '/api/keywordmap', { name: 'Retirement help', phrases: ['retire early', '  Retire   EARLY ', 'pension age'], adviceSetId: set.id, scenarioId: scenario.id })
  t.equal(created.statusCode, 201)
  const map = created.json().data
  t.match(map, {
    name: 'Retirement help', phrases: ['retire early', 'pension age'], ownerId: acme,
    adviceSet: { id: set.id, name: 'Acme pensions' }, scenario: { id: scenario.id, name: 'Retired at 70' },
    uri: `/adviceset/${set.id}/rule/debug?scenario=${scenario.id}`, deleted: false, canWrite: true,
  }, 'phrases trimmed, spaces collapsed, duplicates (any case) once; the target is the debugger with the scenario')
  t.match((await viewer.api('GET', `/api/keywordmap/${map.id}`)).json().data, { id: map.id, canWrite: false }, 'viewers read')
  t.same((await author.api('GET', '/api/keywordmap/index')).json().data.map((m: { id: number }) => m.id), [map.id])
  t.same((await viewer.api('GET', '/api/keywordmap/index?q=pension')).json().data.map((m: { id: number }) => m.id), [map.id], 'q finds phrases')
  t.same((await viewer.api('GET', '/api/keywordmap/index?q=zzz')).json().data, [])
  t.same((await viewer.api('GET', `/api/keywordmap/adviceset/${set.id}`)).json().data.map((m: { id: number }) => m.id), [map.id])
  t.same((await viewer.api('GET', `/api/keywordmap/scenario/${scenario.id}`)).json().data.map((m: { id: number }) => m.id), [map.id])
  t.same((await providerAdmin.api('GET', '/api/keywordmap/index')).json().data.map((m: { id: number }) => m.id), [map.id], 'provider admins see every team’s maps')

  const bad = async (body: Record<string, unknown>, field: string, message: RegExp | string) => {
    const res = await admin.api('POST', '/api/keywordmap', { name: 'Bad', phrases: ['x y'], adviceSetId: set.id, ...body })
    t.equal(res.statusCode, 400, `${field} refused`)
    t.equal(res.json().error.field, field)
    t.match(res.json().error.message, message)
  }
  await bad({ name: '  ' }, 'name', 'Name is required.')
  await bad({ phrases: [] }, 'phrases', 'Phrases: give at least one phrase.')
  await bad({ phrases: '\n  \n' }, 'phrases', 'Phrases: give at least one phrase.')
  await bad({ phrases: [42] }, 'phrases', 'Phrases: each phrase must be text.')
  await bad({ phrases: ['x'.repeat(201)] }, 'phrases', /longer than 200 characters/)
  await bad({ phrases: Array.from({ length: 51 }, (_, i) => `p${i}`) }, 'phrases', 'Phrases: at most 50 phrases.')
  await bad({ adviceSetId: undefined }, 'adviceSetId', 'Advice set: choose the advice set the map leads to.')
  await bad({ adviceSetId: 'abc' }, 'adviceSetId', 'Advice set: “abc” is not an id.')
  await bad({ adviceSetId: 999999 }, 'adviceSetId', 'Advice set: there is no advice set 999999 this team can use.')
  await bad({ scenarioId: 999999 }, 'scenarioId', 'Scenario: “Acme pensions” has no scenario 999999.')
  await bad({ adviceSetId: globexSet.id, scenarioId: globexScenario.id }, 'scenarioId', 'Scenario: a keyword map can point only at scenarios of its own team’s advice sets.')
  const unknown = await admin.api('POST', '/api/keywordmap', { name: 'Bad', phrases: ['x'], adviceSetId: set.id, ownerId: globex })
  t.equal(unknown.statusCode, 400)
  t.match(unknown.json().error.message, 'ownerId: is not an accepted field')
  const publicSet = await admin.api('POST', '/api/keywordmap', { name: 'Their public set', phrases: ['globex'], adviceSetId: globexSet.id })
  t.equal(publicSet.statusCode, 201, 'a map may lead to any set the team reads (a public one)')
  await admin.api('DELETE', `/api/keywordmap/${publicSet.json().data.id}`)
  t.same((await logOf(map.id)).map((r) => r.action), ['create'], 'the creation is logged')
})

t.test('only admins of the owner write; other owners see nothing', async (t) => {
  const map = (await admin.api('POST', '/api/keywordmap', { name: 'Rights', phrases: ['rights'], adviceSetId: set.id })).json().data
  for (const [who, agent] of [['author', author], ['viewer', viewer]] as const) {
    t.equal((await agent.api('POST', '/api/keywordmap', { name: 'Mine', phrases: ['mine'], adviceSetId: set.id })).statusCode, 403, `${who} cannot create`)
    t.equal((await agent.api('PATCH', `/api/keywordmap/${map.id}`, { name: 'Renamed' })).statusCode, 403, `${who} cannot change`)
    t.equal((await agent.api('DELETE', `/api/keywordmap/${map.id}`)).statusCode, 403, `${who} cannot delete`)
  }
  t.equal((await strangerAdmin.api('GET', `/api/keywordmap/${map.id}`)).statusCode, 404, 'another owner’s admin does not see it')
  t.equal((await strangerAdmin.api('PATCH', `/api/keywordmap/${map.id}`, { name: 'Taken' })).statusCode, 404)
  t.equal((await strangerAdmin.api('DELETE', `/api/keywordmap/${map.id}`)).statusCode, 404)
  t.equal((await strangerAdmin.api('POST', `/api/keywordmap/${map.id}/restore`)).statusCode, 404)
  t.notOk((await strangerAdmin.api('GET', '/api/keywordmap/index')).json().data.some((m: { id: number }) => m.id === map.id))
  t.equal((await strangerAdmin.api('GET', `/api/keywordmap/adviceset/${set.id}`)).statusCode, 404, 'nor the set')
  t.equal((await strangerAdmin.api('GET', `/api/keywordmap/scenario/${scenario.id}`)).statusCode, 404, 'nor the scenario')
  t.equal((await admin.api('GET', '/api/keywordmap/abc')).statusCode, 400)
  t.equal((await admin.api('GET', '/api/keywordmap/abc')).json().error.message, 'Invalid item id format.')
  const [row] = await db.select().from(keywordMaps).where(eq(keywordMaps.id, map.id))
  t.equal(row!.name, 'Rights', 'nothing changed')
  t.equal(row!.deletedAt, null)
  t.equal((await providerAdmin.api('PATCH', `/api/keywordmap/${map.id}`, { phrases: 'rights\nduties' })).statusCode, 200, 'provider admins may')
  await admin.api('DELETE', `/api/keywordmap/${map.id}`)
})

t.test('a scenario a live map points at cannot be deleted (221 naming the map)', async (t) => {
  const map = (await admin.api('GET', `/api/keywordmap/scenario/${scenario.id}`)).json().data[0]
  const uses = await author.api('GET', `/api/advicescenario/${scenario.id}/list-uses`)
  t.same(uses.json().data, { keywordmap: [{ id: map.id, name: 'Retirement help', uri: `/admin/keywordMap/${map.id}`, type: 'keywordmap' }] })
  const refused = await author.api('DELETE', `/api/advicescenario/${scenario.id}`)
  t.equal(refused.statusCode, 221)
  t.equal(refused.json().error.name, 'Delete Not Allowed')
  t.match(refused.json().error.dependents, [{ type: 'keywordmap', name: 'Retirement help' }], 'the map is named')
  const page = await author.postForm(`/adviceset/${set.id}/advicescenario/${scenario.id}/delete`, {}, { page: `/adviceset/${set.id}/advicescenario/index` })
  t.equal(page.statusCode, 221)
  t.match(page.body, 'Retirement help', 'the delete page names it too')

  t.equal((await admin.api('DELETE', `/api/keywordmap/${map.id}`)).statusCode, 200)
  t.same((await author.api('GET', `/api/advicescenario/${scenario.id}/list-uses`)).json().data, { keywordmap: [] }, 'a deleted map uses nothing')
  t.equal((await author.api('DELETE', `/api/advicescenario/${scenario.id}`)).statusCode, 200, 'now the scenario can go')
  const blocked = await admin.api('POST', `/api/keywordmap/${map.id}/restore`)
  t.equal(blocked.statusCode, 400, 'the map cannot come back to a deleted scenario')
  t.equal(blocked.json().error.field, 'scenarioId')
  t.equal(blocked.json().error.message, 'Its scenario is deleted: restore the scenario first.')
  await author.api('POST', `/api/advicescenario/${scenario.id}/restore`)
  const restored = await admin.api('POST', `/api/keywordmap/${map.id}/restore`)
  t.equal(restored.statusCode, 200)
  t.equal(restored.json().data.deleted, false)
  t.equal((await admin.api('POST', `/api/keywordmap/${map.id}/restore`)).json().error.message, 'This keyword map is not deleted.')
})

t.test('changes are logged and can be undone from the activity log', async (t) => {
  const map = (await admin.api('POST', '/api/keywordmap', { name: 'Logged', phrases: ['first phrase'], adviceSetId: set.id })).json().data
  const changed = await admin.api('PATCH', `/api/keywordmap/${map.id}`, { name: 'Logged again', phrases: ['second phrase'], scenarioId: scenario.id })
  t.equal(changed.statusCode, 200)
  t.match(changed.json().data, { name: 'Logged again', phrases: ['second phrase'], scenario: { id: scenario.id } })
  t.equal((await admin.api('PATCH', `/api/keywordmap/${map.id}`, {})).json().error.message, 'Nothing to change: send name, phrases, adviceSetId or scenarioId.')
  t.equal((await admin.api('PATCH', `/api/keywordmap/${map.id}`, { phrases: [] })).json().error.field, 'phrases')
  await admin.api('DELETE', `/api/keywordmap/${map.id}`)
  const log = await logOf(map.id)
  t.same(log.map((r) => r.action), ['create', 'update', 'delete'])
  t.match(log[1]!.before, { name: 'Logged', phrases: ['first phrase'], scenarioId: null })
  t.match(log[1]!.after, { name: 'Logged again', phrases: ['second phrase'], scenarioId: scenario.id })

  const undoDelete = await admin.api('POST', `/api/activity/${log[2]!.id}/restore`)
  t.equal(undoDelete.statusCode, 200)
  t.match((await admin.api('GET', `/api/keywordmap/${map.id}`)).json().data, { deleted: false, name: 'Logged again' }, 'restoring the delete brings it back')
  t.equal((await admin.api('POST', `/api/activity/${log[1]!.id}/restore`)).statusCode, 200)
  t.match((await admin.api('GET', `/api/keywordmap/${map.id}`)).json().data, { name: 'Logged', phrases: ['first phrase'], scenario: null }, 'restoring the update puts the old fields back')
  t.equal((await author.api('POST', `/api/activity/${log[0]!.id}/restore`)).statusCode, 403, 'authors cannot restore maps')
  t.equal((await admin.api('POST', `/api/activity/${log[0]!.id}/restore`)).statusCode, 200, 'undoing the creation deletes it')
  t.equal((await admin.api('GET', `/api/keywordmap/${map.id}`)).statusCode, 404)
  t.same((await logOf(map.id)).map((r) => r.action), ['create', 'update', 'delete', 'restore', 'restore', 'restore'])
  const activityPage = await admin.get('/activity')
  t.ok(activitySentences(activityPage.body).some((line) => line.endsWith('the keyword map “Logged”.')), 'the activity page names keyword maps')
})
