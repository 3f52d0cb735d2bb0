// Support (provider admins): finding users and advice sets across owners, impersonation with both people in the
// activity log, refusals (other admins, provider admins as targets, nested impersonation), and the way back.
import t from 'tap'
import { and, eq } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { Agent, signedInAgent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
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
  t.match(audits.map((a) => [a.action, a.actorId, a.impersonatorId]), [['create', admin.id, null], ['delete', acmeAuthor.id, admin.id]])
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
