// Issue 7: owner audiences (SPEC §7 owner {id}/audience): members read them, admins change them, other owners see
// nothing, deleting one that keys or assignments use is refused with 221, every change is audited.
import t from 'tap'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { createApiKey } from '../../helpers/api-keys.ts'
import { activityRows } from '../../helpers/activity.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const ownerId = await createOwner(db, { name: 'Acme' })
await createOwner(db, { id: 'TF', name: 'Provider' })
const admin = await signedInAgent(app, await createUser(db, { ownerId, role: 'admin' }))
const author = await signedInAgent(app, await createUser(db, { ownerId, role: 'author' }))
const outsider = await signedInAgent(app, await createUser(db, { role: 'admin' }))
const provider = await signedInAgent(app, await createUser(db, { ownerId: 'TF', role: 'admin' }))

t.test('create, rename, read and delete an audience', async (t) => {
  const created = await admin.api('POST', `/api/owner/${ownerId}/audience`, { name: 'Banks', description: 'Retail banks' })
  t.equal(created.statusCode, 201)
  const audience = created.json().data
  t.match(audience, { ownerId, name: 'Banks', description: 'Retail banks' })
  const owner = (await author.api('GET', `/api/owner/${ownerId}`)).json().data
  t.match(owner, { id: ownerId, name: 'Acme' })
  t.same(owner.audiences.map((a: { name: string }) => a.name), ['Banks'], 'members read the owner and its audiences')
  t.equal((await author.api('GET', `/api/owner/${ownerId}/audience/${audience.id}`)).json().data.name, 'Banks')

  const renamed = await admin.api('PATCH', `/api/owner/${ownerId}/audience/${audience.id}`, { name: 'Lenders' })
  t.equal(renamed.json().data.name, 'Lenders')
  const clash = await admin.api('POST', `/api/owner/${ownerId}/audience`, { name: 'lenders' })
  t.equal(clash.statusCode, 400)
  t.equal(clash.json().error.field, 'name')
  t.equal((await admin.api('POST', `/api/owner/${ownerId}/audience`, { name: '  ' })).statusCode, 400)

  t.equal((await admin.api('DELETE', `/api/owner/${ownerId}/audience/${audience.id}`)).statusCode, 200)
  t.same((await author.api('GET', `/api/owner/${ownerId}/audience`)).json().data, [])
  t.same((await activityRows(db, 'audience', audience.id)).map((r) => r.action), ['create', 'update', 'delete'])
})

t.test('only admins of the owner (or provider admins) change audiences; other owners see nothing', async (t) => {
  t.equal((await author.api('POST', `/api/owner/${ownerId}/audience`, { name: 'Nope' })).statusCode, 403)
  t.equal((await outsider.api('GET', `/api/owner/${ownerId}/audience`)).statusCode, 404)
  t.equal((await outsider.api('POST', `/api/owner/${ownerId}/audience`, { name: 'Nope' })).statusCode, 404)
  t.equal((await outsider.api('GET', `/api/owner/${ownerId}`)).statusCode, 404)
  const byProvider = await provider.api('POST', `/api/owner/${ownerId}/audience`, { name: 'Insurers' })
  t.equal(byProvider.statusCode, 201)
  const other = await createOwner(db)
  const audience = byProvider.json().data
  t.equal((await admin.api('GET', `/api/owner/${other}/audience/${audience.id}`)).statusCode, 404)
})

t.test('an audience in use cannot be deleted (221 with what uses it)', async (t) => {
  const audience = (await admin.api('POST', `/api/owner/${ownerId}/audience`, { name: 'Brokers' })).json().data
  const { key } = await createApiKey(db, { ownerId, name: 'Broker portal', audienceId: audience.id })
  const res = await admin.api('DELETE', `/api/owner/${ownerId}/audience/${audience.id}`)
  t.equal(res.statusCode, 221)
  t.match(res.json().error, { name: 'Delete Not Allowed', dependents: [{ type: 'apikey', id: key.id, name: 'Broker portal' }] })
})
