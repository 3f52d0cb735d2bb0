// Support (provider admins): finding users and advice sets across owners, impersonation with both people in the
// activity log, refusals (other admins, provider admins as targets, nested impersonation), and the way back.
import t from 'tap'
import { and, eq } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { Agent, signedInAgent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { buildRule } from '../../helpers/rules.ts'
import { activity } from '../../../src/db/schema/index.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const provider = await createOwner(db, { id: 'TF', name: 'Advice Studio' })
const admin = await createUser(db, { ownerId: provider, role: 'admin', name: 'Pat Provider' })
const otherProviderAdmin = await createUser(db, { ownerId: provider, role: 'admin', name: 'Pam Provider' })
const acme = await createOwner(db, { name: 'Acme Advisers' })
const acmeAdmin = await createUser(db, { ownerId: acme, role: 'admin', name: 'Ann Acme' })
const acmeAuthor = await createUser(db, { ownerId: acme, role: 'author', name: 'Art Acme' })
const acmeViewer = await createUser(db, { ownerId: acme, role: 'viewer', name: 'Vic Acme' })
const globex = await createOwner(db, { name: 'Globex' })
const globexAuthor = await createUser(db, { ownerId: globex, role: 'author', name: 'Gus Globex' })
const acmeSet = await createAdviceSet(db, { ownerId: acme, name: 'Pension options' })
await createAdviceSet(db, { ownerId: globex, name: 'Globex pensions' })

t.test('only provider admins reach support; others get 403 (pages) or are sent to sign in', async (t) => {
  for (const [who, user] of [['owner admin', acmeAdmin], ['author', acmeAuthor], ['viewer', acmeViewer], ['other owner', globexAuthor]] as const) {
    const agent = await signedInAgent(app, user)
    t.equal((await agent.get('/admin/support?q=acme')).statusCode, 403, `${who}: support`)
    t.equal((await agent.get(`/admin/support/impersonate?userId=${acmeAuthor.id}`)).statusCode, 403, `${who}: impersonate page`)
    const post = await agent.postForm('/admin/support/impersonate', { userId: String(acmeAuthor.id) }, { page: '/' })
    t.equal(post.statusCode, 403, `${who}: impersonate`)
    t.equal((await agent.postForm('/admin/support/reindex', {}, { page: '/' })).statusCode, 403, `${who}: reindex`)
  }
  t.equal((await new Agent(app).get('/admin/support')).statusCode, 302)
})

t.test('support finds users and advice sets of every owner', async (t) => {
  const agent = await signedInAgent(app, admin)
  const page = await agent.get('/admin/support?q=pension')
  t.equal(page.statusCode, 200)
  t.match(page.body, 'Pension options')
  t.match(page.body, 'Globex pensions')
  const people = await agent.get('/admin/support?q=acme')
  for (const u of [acmeAdmin, acmeAuthor, acmeViewer]) t.match(people.body, u.email)
  t.notMatch(people.body, globexAuthor.email)
  t.match((await agent.get(`/admin/support?q=${acmeSet.id}`)).body, 'Pension options', 'by id')
  const admins = await agent.get('/admin/support?q=Provider')
  t.notMatch(admins.body, `/admin/support/impersonate?userId=${otherProviderAdmin.id}`, 'no Impersonate button for a provider admin')
})

t.test('impersonation: banner naming both, writes carry both ids, stop returns to the admin', async (t) => {
  const agent = await signedInAgent(app, admin)
  const confirm = await agent.get(`/admin/support/impersonate?userId=${acmeAuthor.id}`)
  t.equal(confirm.statusCode, 200)
  t.match(confirm.body, 'Impersonate Art Acme?')
  const start = await agent.postForm('/admin/support/impersonate', { userId: String(acmeAuthor.id) })
  t.equal(start.statusCode, 303)
  const home = await agent.get('/library')
  t.match(home.body, /Pat Provider<\/strong> is impersonating <strong>Art Acme<\/strong>/)
  t.match(home.body, 'Stop impersonating')
  t.equal((await agent.get('/admin/support')).statusCode, 403, 'support is closed while impersonating')
  t.equal((await agent.get('/admin/users')).statusCode, 403)

  const write = await agent.api('PATCH', `/api/adviceset/${acmeSet.id}`, { description: 'Edited under impersonation' })
  t.equal(write.statusCode, 200)
  const [row] = await db.select().from(activity).where(and(eq(activity.entityType, 'adviceset'), eq(activity.entityId, String(acmeSet.id)), eq(activity.action, 'update')))
  t.match(row, { actorId: acmeAuthor.id, impersonatorId: admin.id, source: 'users' }, 'the write records both people')

  const stop = await agent.postForm('/admin/support/impersonate/stop', {})
  t.equal(stop.statusCode, 303)
  t.equal(stop.headers.location, '/admin/support')
  const back = await agent.get('/admin/support')
  t.equal(back.statusCode, 200, 'the session is the admin’s again')
  t.notMatch(back.body, 'Stop impersonating')
  const audits = await db.select().from(activity).where(eq(activity.entityType, 'impersonation'))
  t.same(audits.map((a) => [a.action, a.ownerId, a.actorId, a.impersonatorId]), [
    ['create', provider, admin.id, null], ['create', acme, admin.id, null], ['delete', provider, admin.id, null], ['delete', acme, admin.id, null],
  ], 'start and end are the admin’s own entries, in the provider’s log and the team’s')
  t.equal((await agent.postForm('/admin/support/impersonate/stop', {})).statusCode, 400, 'nothing to stop')
})

t.test('provider admins cannot be impersonated, nor can anyone impersonate themselves', async (t) => {
  const agent = await signedInAgent(app, admin)
  const other = await agent.postForm('/admin/support/impersonate', { userId: String(otherProviderAdmin.id) }, { page: '/admin/support' })
  t.equal(other.statusCode, 403)
  t.match(other.body, 'Provider admins cannot be impersonated.')
  t.equal((await agent.get(`/admin/support/impersonate?userId=${otherProviderAdmin.id}`)).statusCode, 403)
  const self = await agent.postForm('/admin/support/impersonate', { userId: String(admin.id) })
  t.equal(self.statusCode, 400)
  t.match(self.body, 'You cannot impersonate yourself.')
  t.equal((await agent.postForm('/admin/support/impersonate', { userId: '99999' })).statusCode, 404)
  t.equal((await agent.postForm('/admin/support/impersonate', { userId: 'abc' })).statusCode, 400)
  t.equal((await agent.get('/library')).body.includes('Stop impersonating'), false, 'still the admin')
})

t.test('changes made under impersonation read “by Pat Provider as Art Acme”; start and end are entries both teams see', async (t) => {
  const set = await createAdviceSet(db, { ownerId: acme, name: 'Savings plan' })
  const { rule, nodes } = await buildRule(db, set.id, 'Savings rule', [{ type: 'advice', headline: 'Save a tenth' }])
  const agent = await signedInAgent(app, admin)
  await agent.postForm('/admin/support/impersonate', { userId: String(acmeAuthor.id) }, { page: '/admin/support' })
  t.equal((await agent.api('PATCH', `/api/adviceset/${set.id}`, { description: 'Edited as Art' })).statusCode, 200)
  t.equal((await agent.api('DELETE', `/api/rule/${rule.id}/node/${nodes[0]!.id}`)).statusCode, 200)

  // The API: items carry the impersonator; the deleted list says who in one line.
  const index = (await agent.api('GET', '/api/activity/index?entityType=adviceset')).json().data.items
  const edit = index.find((i: { entityId: string; action: string }) => i.entityId === String(set.id) && i.action === 'update')
  t.same(edit.impersonator, { id: admin.id, name: 'Pat Provider' })
  t.equal(edit.byline, 'Pat Provider as Art Acme')
  const deleted = (await agent.api('GET', `/api/activity/roots/deleted?ruleId=${rule.id}`)).json().data
  t.equal(deleted[0].deletedBy, 'Pat Provider as Art Acme')
  t.same(deleted[0].impersonator, { id: admin.id, name: 'Pat Provider' })

  // The pages: the set's activity and the team's.
  for (const url of [`/adviceset/${set.id}/activity`, '/activity']) {
    const page = await agent.get(url)
    t.equal(page.statusCode, 200, url)
    t.match(page.body, '<strong class="activity-actor">Pat Provider as Art Acme</strong> changed', url)
    t.notMatch(page.body, '<strong class="activity-actor">Art Acme</strong>', `${url}: no entry of the impersonation names Art alone`)
  }
  await agent.postForm('/admin/support/impersonate/stop', {})

  // The provider's own log and the impersonated team's log both have the start and the end, as sentences.
  const started = '<strong class="activity-actor">Pat Provider</strong> started impersonating “<strong>Art Acme</strong>”.'
  const stopped = '<strong class="activity-actor">Pat Provider</strong> stopped impersonating “<strong>Art Acme</strong>”.'
  const own = await agent.get('/activity')
  t.match(own.body, started, 'the start in the provider\'s own log')
  t.match(own.body, stopped, 'the end in the provider\'s own log')
  const acmeAdminAgent = await signedInAgent(app, acmeAdmin)
  const team = await acmeAdminAgent.get('/activity')
  t.match(team.body, started, 'the start in the team\'s log')
  t.match(team.body, stopped, 'the end in the team\'s log')
  t.match(team.body, '<strong class="activity-actor">Pat Provider as Art Acme</strong> changed', 'the edit under both names')
  t.notMatch(team.body, 'impersonation #', 'no raw id')
  const api = (await acmeAdminAgent.api('GET', '/api/activity/index?entityType=impersonation')).json().data.items
  t.same(api.map((i: { summary: string }) => i.summary).slice(0, 2), ['Pat Provider stopped impersonating “Art Acme”.', 'Pat Provider started impersonating “Art Acme”.'])
  // The activity export says it as the pages do, in every format.
  const exported = (await acmeAdminAgent.get('/api/export/activity/data.json')).json() as { by: string; impersonator: string; entry: string }[]
  const editRow = exported.find((r) => r.entry.includes('Edited as Art') || r.entry.includes('Savings plan'))
  t.match(editRow, { by: 'Pat Provider as Art Acme', impersonator: 'Pat Provider' }, 'the JSON export names both')
  t.ok(exported.some((r) => r.entry === 'Pat Provider started impersonating “Art Acme”.' && r.by === 'Pat Provider'), 'the start is a row of its own')
  t.match((await acmeAdminAgent.get('/api/export/activity/data.csv')).body, 'Pat Provider as Art Acme,Pat Provider,', 'the CSV export names both')
  const other = await signedInAgent(app, globexAuthor)
  t.notMatch((await other.get('/activity')).body, 'impersonating', 'another team sees none of it')
})
