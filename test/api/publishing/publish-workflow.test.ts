// Issue 7: every transition of the publishing workflow, allowed and refused by role and by the four-eyes rule; one
// published version per set; every transition audited and heard by served-version listeners.
import t from 'tap'
import { and, eq } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent, type Agent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { buildRule } from '../../helpers/rules.ts'
import { activityRows } from '../../helpers/activity.ts'
import { versions } from '../../../src/db/schema/index.ts'
import { onServedVersionChange, servedVersion } from '../../../src/services/publishing/versions.ts'
import { FOUR_EYES_MESSAGE } from '../../../src/services/publishing/workflow.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const ownerId = await createOwner(db)
await createOwner(db, { id: 'TF', name: 'Provider' })
const [author, author2, admin, admin2, viewer, outsider, providerAdmin] = await Promise.all([
  createUser(db, { ownerId, role: 'author' }), createUser(db, { ownerId, role: 'author' }), createUser(db, { ownerId, role: 'admin' }),
  createUser(db, { ownerId, role: 'admin' }), createUser(db, { ownerId, role: 'viewer' }), createUser(db, { role: 'admin' }),
  createUser(db, { ownerId: 'TF', role: 'admin' }),
])
const as = {
  author: await signedInAgent(app, author), author2: await signedInAgent(app, author2), admin: await signedInAgent(app, admin),
  admin2: await signedInAgent(app, admin2), viewer: await signedInAgent(app, viewer), outsider: await signedInAgent(app, outsider),
  provider: await signedInAgent(app, providerAdmin),
}
const production = { environment: 'production', audienceId: null } as const

async function publish(agent: Agent, body: Record<string, unknown>) {
  const res = await agent.api('POST', '/api/adviceset/publish', body)
  return { status: res.statusCode, body: res.json() }
}
async function newSet(name = 'Set') {
  const set = await createAdviceSet(db, { ownerId, name })
  await buildRule(db, set.id, 'Main', [{ type: 'advice', headline: `${name} advice` }])
  return set
}
async function draft(setId: number, agent = as.author) {
  const res = await publish(agent, { action: 'create', adviceSetId: setId, notes: 'Ready' })
  if (res.status !== 201) throw new Error(`create failed: ${JSON.stringify(res.body)}`)
  return res.body.data as { id: number; number: number; state: string }
}
async function stateOf(id: number) {
  const [row] = await db.select({ state: versions.state }).from(versions).where(eq(versions.id, id))
  return row!.state
}
/** draft → review → approved, submitted by `submitter`, approved by admin2. */
async function approved(setId: number, submitter = as.author) {
  const v = await draft(setId, submitter)
  for (const [agent, action] of [[submitter, 'submit'], [as.admin2, 'approve']] as const) {
    const res = await publish(agent, { action, versionId: v.id })
    if (res.status !== 200) throw new Error(`${action} failed: ${JSON.stringify(res.body)}`)
  }
  return v
}

t.test('create: authors and admins of the owner; viewers and other owners are refused', async (t) => {
  const set = await newSet()
  const created = await publish(as.author, { action: 'create', adviceSetId: set.id, notes: 'First cut' })
  t.equal(created.status, 201)
  t.match(created.body.data, { number: 1, state: 'draft', notes: 'First cut', createdBy: author.id })
  t.match(created.body.data.contentHash, /^[0-9a-f]{64}$/)
  t.notOk('snapshot' in created.body.data, 'the snapshot stays on the server')
  t.equal((await publish(as.admin, { action: 'create', adviceSetId: set.id })).body.data.number, 2, 'numbers count up per set')
  t.equal((await publish(as.viewer, { action: 'create', adviceSetId: set.id })).status, 403)
  t.equal((await publish(as.outsider, { action: 'create', adviceSetId: set.id })).status, 404, 'another owner’s private set is not revealed')
  t.equal((await publish(as.author, { action: 'create' })).status, 400)
  const bad = await publish(as.author, { action: 'launch', adviceSetId: set.id })
  t.equal(bad.status, 400)
  t.equal(bad.body.error.field, 'action')
  t.same((await activityRows(db, 'version', created.body.data.id)).map((r) => r.action), ['create'])
})

t.test('submit and request changes', async (t) => {
  const set = await newSet()
  const v = await draft(set.id)
  t.equal((await publish(as.viewer, { action: 'submit', versionId: v.id })).status, 403, 'viewers cannot submit')
  const submitted = await publish(as.author, { action: 'submit', versionId: v.id })
  t.equal(submitted.status, 200)
  t.match(submitted.body.data, { state: 'review', submittedBy: author.id })
  const again = await publish(as.author, { action: 'submit', versionId: v.id })
  t.equal(again.status, 409, 'a version in review cannot be submitted again')
  t.match(again.body.error.message, /not possible for a version in state review/)
  t.equal((await publish(as.author2, { action: 'requestChanges', versionId: v.id })).status, 403, 'authors cannot request changes')
  const back = await publish(as.admin, { action: 'requestChanges', versionId: v.id, notes: 'Fix the wording' })
  t.equal(back.status, 200)
  t.equal(back.body.data.state, 'draft')
  const rows = await activityRows(db, 'version', v.id)
  t.same(rows.map((r) => [r.action, (r.before as { state: string } | null)?.state, (r.after as { state: string }).state]),
    [['create', undefined, 'draft'], ['update', 'draft', 'review'], ['update', 'review', 'draft']])
  t.match(rows[2]!.after, { transition: 'requestChanges', comment: 'Fix the wording' })
  t.equal(rows[2]!.actorId, admin.id)
})

t.test('approve: admins only, never the submitter (four-eyes)', async (t) => {
  const set = await newSet()
  const v = await draft(set.id, as.admin)
  t.equal((await publish(as.admin, { action: 'approve', versionId: v.id })).status, 409, 'a draft cannot be approved')
  await publish(as.admin, { action: 'submit', versionId: v.id })
  const own = await publish(as.admin, { action: 'approve', versionId: v.id })
  t.equal(own.status, 403, 'the submitter cannot approve')
  t.equal(own.body.error.message, FOUR_EYES_MESSAGE)
  t.match(own.body.error.message, /Four-eyes rule/)
  const byAuthor = await publish(as.author, { action: 'approve', versionId: v.id })
  t.equal(byAuthor.status, 403)
  t.match(byAuthor.body.error.message, /only an admin/)
  t.equal((await publish(as.outsider, { action: 'approve', versionId: v.id })).status, 404)
  t.equal(await stateOf(v.id), 'review', 'refusals change nothing')
  const ok = await publish(as.admin2, { action: 'approve', versionId: v.id })
  t.equal(ok.status, 200)
  t.match(ok.body.data, { state: 'approved', approvedBy: admin2.id, submittedBy: admin.id })
})

t.test('a provider admin may approve and publish any owner’s version', async (t) => {
  const set = await newSet()
  const v = await draft(set.id)
  await publish(as.author, { action: 'submit', versionId: v.id })
  t.equal((await publish(as.provider, { action: 'approve', versionId: v.id })).status, 200)
  t.equal((await publish(as.provider, { action: 'publish', versionId: v.id })).status, 200)
  t.equal((await servedVersion(db, set.id, production))?.id, v.id)
})

t.test('publish: admins, approved versions only; one published version per set', async (t) => {
  const set = await newSet()
  const heard: number[] = []
  t.teardown(onServedVersionChange((id) => { if (id === set.id) heard.push(id) }))
  const d = await draft(set.id)
  t.equal((await publish(as.admin, { action: 'publish', versionId: d.id })).status, 409, 'a draft cannot be published')
  const v1 = await approved(set.id)
  t.equal((await publish(as.author, { action: 'publish', versionId: v1.id })).status, 403, 'authors cannot publish')
  const first = await publish(as.admin, { action: 'publish', versionId: v1.id })
  t.equal(first.status, 200)
  t.match(first.body.data, { state: 'published', publishedBy: admin.id })
  t.equal((await servedVersion(db, set.id, production))?.id, v1.id)

  const v2 = await approved(set.id)
  t.equal((await publish(as.admin, { action: 'publish', versionId: v2.id })).status, 200)
  t.equal(await stateOf(v1.id), 'unpublished', 'the previously published version steps down in the same change')
  const published = await db.select().from(versions).where(and(eq(versions.adviceSetId, set.id), eq(versions.state, 'published')))
  t.same(published.map((v) => v.id), [v2.id], 'exactly one published version')
  t.match((await activityRows(db, 'version', v1.id)).at(-1)!.after, { state: 'unpublished', transition: 'replacedByPublish' })
  t.equal((await servedVersion(db, set.id, production))?.id, v2.id)
  t.equal(heard.length, 9, 'every create and transition is heard')
})

t.test('preview: from approved or review; the previous preview steps back', async (t) => {
  const set = await newSet()
  const v1 = await approved(set.id)
  t.equal((await publish(as.author, { action: 'preview', versionId: v1.id })).status, 403, 'authors cannot preview')
  t.equal((await publish(as.admin, { action: 'preview', versionId: v1.id })).status, 200)
  t.equal((await servedVersion(db, set.id, { environment: 'preview', audienceId: null }))?.id, v1.id)
  t.equal(await servedVersion(db, set.id, production), undefined, 'production keys do not get a preview')

  const v2 = await draft(set.id)
  await publish(as.author, { action: 'submit', versionId: v2.id })
  t.equal((await publish(as.admin, { action: 'preview', versionId: v2.id })).status, 200, 'a version in review can be previewed')
  t.equal(await stateOf(v1.id), 'approved', 'the approved preview goes back to approved')
  const early = await publish(as.admin, { action: 'publish', versionId: v2.id })
  t.equal(early.status, 409, 'a preview nobody approved cannot be published')
  t.match(early.body.error.message, /not been approved/)

  const v3 = await approved(set.id)
  t.equal((await publish(as.admin, { action: 'preview', versionId: v3.id })).status, 200)
  t.equal(await stateOf(v2.id), 'review', 'a preview that was never approved goes back to review')
  t.equal((await publish(as.admin, { action: 'publish', versionId: v3.id })).status, 200, 'an approved preview can be published')
  t.equal(await stateOf(v3.id), 'published')
})

t.test('unpublish', async (t) => {
  const set = await newSet()
  const none = await as.admin.api('POST', '/api/adviceset/unpublish', { adviceSetId: set.id })
  t.equal(none.statusCode, 409, 'nothing published: nothing to unpublish')
  const v = await approved(set.id)
  await publish(as.admin, { action: 'publish', versionId: v.id })
  t.equal((await as.author.api('POST', '/api/adviceset/unpublish', { adviceSetId: set.id })).statusCode, 403, 'authors cannot unpublish')
  const res = await as.admin.api('POST', '/api/adviceset/unpublish', { adviceSetId: set.id })
  t.equal(res.statusCode, 200)
  t.match(res.json().data, { id: v.id, state: 'unpublished' })
  t.ok(res.json().data.unpublishedAt)
  t.equal(await servedVersion(db, set.id, production), undefined, 'nothing is served any more')
  t.equal((await publish(as.admin, { action: 'unpublish', versionId: v.id })).status, 409, 'an unpublished version cannot be unpublished again')
  t.equal((await publish(as.admin, { action: 'publish', versionId: v.id })).status, 409, 'nor published again: publish a new version')
})

t.test('a draft edit after publishing does not change what is served until the next publish', async (t) => {
  const set = await newSet('Edits')
  const v1 = await approved(set.id)
  await publish(as.admin, { action: 'publish', versionId: v1.id })
  const before = await servedVersion(db, set.id, production)
  const edit = await as.author.api('POST', '/api/rule', { adviceSetId: set.id, name: 'Added after publishing' })
  t.equal(edit.statusCode, 201)
  const after = await servedVersion(db, set.id, production)
  t.same(after!.snapshot, before!.snapshot, 'the served snapshot is unchanged')
  t.same(after!.snapshot.model.rules.map((r) => r.name), ['Main'])
  const v2 = await approved(set.id)
  t.not((await db.select().from(versions).where(eq(versions.id, v2.id)))[0]!.contentHash,
    (await db.select().from(versions).where(eq(versions.id, v1.id)))[0]!.contentHash, 'new content, new hash')
  await publish(as.admin, { action: 'publish', versionId: v2.id })
  t.same((await servedVersion(db, set.id, production))!.snapshot.model.rules.map((r) => r.name), ['Main', 'Added after publishing'])
})

t.test('GET publish lists the versions with the actions the user may take', async (t) => {
  const set = await newSet()
  const v = await draft(set.id)
  await publish(as.author, { action: 'submit', versionId: v.id })
  const forAuthor = (await as.author.api('GET', `/api/adviceset/publish?id=${set.id}`)).json().data
  t.equal(forAuthor.canCreate, true)
  t.match(forAuthor.versions[0], { id: v.id, state: 'review', createdByName: author.name, submittedByName: author.name })
  const actions = Object.fromEntries(forAuthor.versions[0].actions.map((a: { action: string; refused: string | null }) => [a.action, a.refused]))
  t.same(Object.keys(actions).sort(), ['approve', 'preview', 'requestChanges'])
  t.match(actions.approve, /only an admin/)
  const forAdmin2 = (await as.admin2.api('GET', `/api/adviceset/publish?id=${set.id}`)).json().data
  t.equal(forAdmin2.versions[0].actions.find((a: { action: string }) => a.action === 'approve').refused, null)
  const forViewer = (await as.viewer.api('GET', `/api/adviceset/publish?id=${set.id}`)).json().data
  t.equal(forViewer.canCreate, false)
})
