// Issue 7 contract: servedVersion gives each kind of key its version, a draft edit never changes it until the next
// publish, and onServedVersionChange hears every change of what a set serves.
import t from 'tap'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { buildRule, createVariable } from '../../helpers/rules.ts'
import { publishVersion } from '../../helpers/publishing.ts'
import { insertNode } from '../../../src/db/queries/rule-nodes.ts'
import { upsertAssignment } from '../../../src/db/queries/versions.ts'
import { updateAdviceSet } from '../../../src/db/queries/advice-sets.ts'
import { audiences } from '../../../src/db/schema/index.ts'
import { createVersion, onServedVersionChange, servedVersion } from '../../../src/services/publishing/versions.ts'
import { compileAdviceSet, evaluate } from '../../../src/engine/index.ts'
import { sql } from 'drizzle-orm'

const { app, database } = await buildTestApp(t)
const db = database.db
const ownerId = await createOwner(db)
const author = await createUser(db, { ownerId, role: 'author' })
const actor = { userId: author.id, ownerId, role: author.role, impersonatorId: null }
const production = { environment: 'production', audienceId: null } as const
const preview = { environment: 'preview', audienceId: null } as const

function headlines(snapshot: Parameters<typeof compileAdviceSet>[0], inputs: Record<string, unknown> = {}) {
  return evaluate(compileAdviceSet(snapshot), inputs).advice.map((a) => a.headline)
}

t.test('nothing is served before a publish', async (t) => {
  const set = await createAdviceSet(db, { ownerId })
  await createVersion(app.deps, actor, { adviceSetId: set.id, notes: 'first' })
  t.equal(await servedVersion(db, set.id, production), undefined, 'a draft is not served')
  t.equal(await servedVersion(db, 999999, production), undefined, 'an unknown set gives undefined')
})

t.test('a draft edit after publishing does not change the served snapshot until the next publish', async (t) => {
  const set = await createAdviceSet(db, { ownerId, name: 'Savings' })
  await createVariable(db, ownerId, 'Deposit')
  await createVariable(db, ownerId, 'Unused_Here')
  const { rule } = await buildRule(db, set.id, 'Main', [{ type: 'advice', headline: 'Deposit is {{Deposit}}' }])
  const heard: number[] = []
  const stop = onServedVersionChange((id) => heard.push(id))
  t.teardown(stop)

  const v1 = await publishVersion(db, { adviceSetId: set.id })
  t.same(heard, [set.id], 'publishing is heard')
  const served = await servedVersion(db, set.id, production)
  t.equal(served?.id, v1.id)
  t.equal(served?.ownerId, ownerId)
  t.equal(served?.snapshot.adviceSet.name, 'Savings')
  t.same(served!.snapshot.model.entities.map((e) => e.name), ['Deposit'], 'only the dictionary entries the rules use')
  t.same(headlines(served!.snapshot.model, { Deposit: 5 }), ['Deposit is 5'])

  await insertNode(db, { ruleId: rule.id, parentId: null, position: 1, type: 'advice', expression: null, variable: null, headline: 'Added later', text: null, question: null, calledRuleId: null, apiId: null, tags: [], sources: [], createdBy: null })
  const after = await servedVersion(db, set.id, production)
  t.same(headlines(after!.snapshot.model, { Deposit: 5 }), ['Deposit is 5'], 'the draft edit is not served')

  const v2 = await publishVersion(db, { adviceSetId: set.id })
  const next = await servedVersion(db, set.id, production)
  t.equal(next?.id, v2.id)
  t.equal(next?.number, v1.number + 1)
  t.same(headlines(next!.snapshot.model, { Deposit: 5 }), ['Deposit is 5', 'Added later'], 'the next publish serves it')
  t.same(heard, [set.id, set.id])
})

t.test('preview keys get the preview version, else the published one; audiences get their assigned version', async (t) => {
  const set = await createAdviceSet(db, { ownerId })
  await buildRule(db, set.id, 'Main', [{ type: 'advice', headline: 'One' }])
  const published = await publishVersion(db, { adviceSetId: set.id })
  t.equal((await servedVersion(db, set.id, preview))?.id, published.id, 'no preview: preview keys get the published version')
  const pre = await publishVersion(db, { adviceSetId: set.id, environment: 'preview' })
  t.equal((await servedVersion(db, set.id, preview))?.id, pre.id)
  t.equal((await servedVersion(db, set.id, production))?.id, published.id, 'production keys never get the preview')

  const [audience] = await db.insert(audiences).values({ ownerId, name: 'Banks' }).returning()
  await upsertAssignment(db, { adviceSetId: set.id, audienceId: audience!.id, versionId: pre.id, assignedBy: null })
  t.equal((await servedVersion(db, set.id, { environment: 'production', audienceId: audience!.id }))?.id, pre.id, 'the audience gets its version')
  t.equal((await servedVersion(db, set.id, { environment: 'production', audienceId: audience!.id + 1000 }))?.id, published.id, 'other audiences get the published one')

  await updateAdviceSet(db, set.id, { deletedAt: new Date(), updatedBy: null })
  t.equal(await servedVersion(db, set.id, production), undefined, 'a deleted set is not served')
})

t.test('changes made by another app instance are heard through NOTIFY version_changed, this instance’s only once', async (t) => {
  const set = await createAdviceSet(db, { ownerId })
  const heard: number[] = []
  const marker = 900000 + set.id
  let markerHeard: () => void = () => {}
  const markerArrived = new Promise<void>((resolve) => { markerHeard = resolve })
  t.teardown(onServedVersionChange((id) => { heard.push(id); if (id === marker) markerHeard() }))
  await publishVersion(db, { adviceSetId: set.id })
  // Notifications arrive in order: once another instance's marker is heard, this instance's own one has been too.
  await db.execute(sql`select pg_notify('version_changed', ${`another-instance:${marker}`})`)
  await markerArrived
  t.same(heard, [set.id, marker], 'the other instance’s change is heard; this instance’s own notification is not heard twice')
})

t.test('a set with a published or preview version cannot be deleted until it is unpublished', async (t) => {
  const agent = await signedInAgent(app, await createUser(db, { ownerId, role: 'admin' }))
  const set = await createAdviceSet(db, { ownerId })
  await buildRule(db, set.id, 'Only rule', [{ type: 'advice', headline: 'Hello' }])
  const published = await publishVersion(db, { adviceSetId: set.id })
  const refused = await agent.api('DELETE', `/api/adviceset/${set.id}`)
  t.equal(refused.statusCode, 221)
  t.equal(refused.json().error.name, 'Delete Not Allowed')
  t.match(refused.json().error.dependents, [{ type: 'version', id: published.id, name: `Version ${published.number} (published)` }])
  t.ok(await servedVersion(db, set.id, production), 'still served')
  const unpublished = await agent.api('POST', '/api/adviceset/unpublish', { versionId: published.id })
  t.equal(unpublished.statusCode, 200)
  t.equal((await agent.api('DELETE', `/api/adviceset/${set.id}`)).statusCode, 200, 'deleted once nothing is served')
})

t.test('version steps show in the advice set activity with a link to the version', async (t) => {
  const admin = await createUser(db, { ownerId, role: 'admin' })
  const agent = await signedInAgent(app, admin)
  const set = await createAdviceSet(db, { ownerId, name: 'Logged set' })
  await buildRule(db, set.id, 'Only rule', [{ type: 'advice', headline: 'Hello' }])
  const created = await agent.api('POST', '/api/adviceset/publish', { action: 'create', adviceSetId: set.id, notes: 'First cut' })
  t.equal(created.statusCode, 201)
  const versionId = created.json().data.id
  const page = await agent.get(`/adviceset/${set.id}/activity`)
  t.equal(page.statusCode, 200)
  t.match(page.body, `/adviceset/${set.id}/publish/versions/${versionId}`)
  t.match(page.body, 'Version 1')
})
