// Issue 7: the catalog lists published sets each reader may see (own owner, provider, public), their published
// version and advice; other owners see only versions that were published, the set's team sees all of them.
import t from 'tap'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { buildRule } from '../../helpers/rules.ts'
import { publishVersion } from '../../helpers/publishing.ts'
import { createVersion } from '../../../src/services/publishing/versions.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
await createOwner(db, { id: 'TF', name: 'Provider' })
const acme = await createOwner(db, { name: 'Acme' })
const globex = await createOwner(db, { name: 'Globex' })
const acmeUser = await createUser(db, { ownerId: acme, role: 'author' })
const acmeAgent = await signedInAgent(app, acmeUser)
const globexAgent = await signedInAgent(app, await createUser(db, { ownerId: globex, role: 'author' }))

async function published(ownerId: string, name: string, opts: { isPublic?: boolean } = {}) {
  const set = await createAdviceSet(db, { ownerId, name, isPublic: opts.isPublic })
  await buildRule(db, set.id, 'Main', [{ type: 'condition', expression: 'true', children: [{ type: 'advice', headline: `${name} says hi`, text: 'More', tags: ['example'] }] }])
  return { set, version: await publishVersion(db, { adviceSetId: set.id }) }
}
const privateAcme = await published(acme, 'Acme private')
const publicAcme = await published(acme, 'Acme public', { isPublic: true })
const provider = await published('TF', 'Provider set')
const privateGlobex = await published(globex, 'Globex private')
const unpublished = await createAdviceSet(db, { ownerId: acme, name: 'Acme never published' })
const acmeActor = { userId: acmeUser.id, ownerId: acme, role: acmeUser.role, impersonatorId: null }
const draft = await createVersion(app.deps, acmeActor, { adviceSetId: privateAcme.set.id })

async function data(agent: typeof acmeAgent, url: string) {
  const res = await agent.api('GET', url)
  return { status: res.statusCode, data: res.json().data }
}

t.test('index: the published sets each reader may see, by name', async (t) => {
  t.same((await data(acmeAgent, '/api/catalog/index')).data.map((s: { name: string }) => s.name), ['Acme private', 'Acme public', 'Provider set'])
  const globexView = (await data(globexAgent, '/api/catalog/index')).data
  t.same(globexView.map((s: { name: string }) => s.name), ['Acme public', 'Globex private', 'Provider set'], 'another owner’s private set stays hidden')
  t.match(globexView[0], { id: publicAcme.set.id, ownerId: acme, publishedVersion: { id: publicAcme.version.id, number: 1 } })
  t.notOk(globexView.some((s: { id: number }) => s.id === unpublished.id))
  t.same((await data(acmeAgent, '/api/catalog/version')).data.map((v: { id: number }) => v.id).sort(),
    [privateAcme.version.id, publicAcme.version.id, provider.version.id].sort())
  t.equal((await app.inject({ method: 'GET', url: '/api/catalog/index' })).statusCode, 401, 'signed-in users only')
})

t.test('version/{versionId}: what a version holds; unpublished versions only for the team', async (t) => {
  const one = await data(globexAgent, `/api/catalog/version/${publicAcme.version.id}`)
  t.equal(one.status, 200)
  t.match(one.data, { id: publicAcme.version.id, state: 'published', content: { adviceSet: { name: 'Acme public' }, rules: [{ name: 'Main', nodes: 2 }], nodes: 2 } })
  t.equal((await data(globexAgent, `/api/catalog/version/${privateAcme.version.id}`)).status, 404, 'a private set’s version is hidden from other owners')
  t.equal((await data(acmeAgent, `/api/catalog/version/${draft.id}`)).status, 200, 'the team sees its drafts')
  const publicDraft = await createVersion(app.deps, acmeActor, { adviceSetId: publicAcme.set.id })
  t.equal((await data(globexAgent, `/api/catalog/version/${publicDraft.id}`)).status, 404, 'other readers never see a draft')
})

t.test('advice/{ruleSetId} and its versions', async (t) => {
  const advice = await data(globexAgent, `/api/catalog/advice/${provider.set.id}`)
  t.match(advice.data, { adviceSet: { id: provider.set.id }, version: { id: provider.version.id }, advice: [{ headline: 'Provider set says hi', text: 'More', tags: ['example'], rule: { name: 'Main' } }] })
  t.equal((await data(acmeAgent, `/api/catalog/advice/${unpublished.id}`)).status, 404, 'nothing published, no advice')
  t.equal((await data(acmeAgent, `/api/catalog/advice/${privateGlobex.set.id}`)).status, 404)
  t.same((await data(acmeAgent, `/api/catalog/advice/${privateAcme.set.id}/versions`)).data.map((v: { state: string }) => v.state), ['draft', 'published'], 'the team sees every version')
  const forGlobex = (await data(globexAgent, `/api/catalog/advice/${publicAcme.set.id}/versions`)).data
  t.ok(forGlobex.every((v: { state: string }) => v.state === 'published'), 'other readers see only published ones')
  t.equal(forGlobex.length, 1)
})
