// Issue 7: publish-config shows which version each environment and audience gets; assigning a version to an
// audience changes what its keys are served (and is heard); publish-config/{keyId} shows what one key gets.
import t from 'tap'
import { eq } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { buildRule } from '../../helpers/rules.ts'
import { publishVersion } from '../../helpers/publishing.ts'
import { createApiKey } from '../../helpers/api-keys.ts'
import { activityRows } from '../../helpers/activity.ts'
import { adviceSets } from '../../../src/db/schema/index.ts'
import { onServedVersionChange, servedVersion, createVersion } from '../../../src/services/publishing/versions.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const ownerId = await createOwner(db)
const adminUser = await createUser(db, { ownerId, role: 'admin' })
const admin = await signedInAgent(app, adminUser)
const author = await signedInAgent(app, await createUser(db, { ownerId, role: 'author' }))
const outsider = await signedInAgent(app, await createUser(db, { role: 'admin' }))
const audience = (await admin.api('POST', `/api/owner/${ownerId}/audience`, { name: 'Banks' })).json().data
const set = await createAdviceSet(db, { ownerId, name: 'Loans' })
await buildRule(db, set.id, 'Main', [{ type: 'advice', headline: 'One' }])
const v1 = await publishVersion(db, { adviceSetId: set.id })
await buildRule(db, set.id, 'Second', [{ type: 'advice', headline: 'Two' }])
const v2 = await publishVersion(db, { adviceSetId: set.id })
const pre = await publishVersion(db, { adviceSetId: set.id, environment: 'preview' })

async function assign(agent = admin, versionId: number | null = v1.id) {
  return agent.api('PUT', '/api/adviceset/publish-config', { adviceSetId: set.id, audienceId: audience.id, versionId })
}

t.test('the environments and audiences of a set', async (t) => {
  const config = (await author.api('GET', `/api/adviceset/publish-config?id=${set.id}`)).json().data
  t.match(config, {
    adviceSetId: set.id,
    production: { versionId: v2.id, state: 'published' },
    preview: { versionId: pre.id, state: 'preview' },
    audiences: [{ audienceId: audience.id, name: 'Banks', assigned: false, version: { versionId: v2.id } }],
  })
  t.equal((await outsider.api('GET', `/api/adviceset/publish-config?id=${set.id}`)).statusCode, 404)
})

t.test('assigning a version to an audience', async (t) => {
  const draft = await createVersion(app.deps, { userId: adminUser.id, ownerId, role: 'admin', impersonatorId: null }, { adviceSetId: set.id })
  const heard: number[] = []
  t.teardown(onServedVersionChange((id) => heard.push(id)))
  t.equal((await assign(author)).statusCode, 403, 'authors cannot assign')
  const unapproved = await assign(admin, draft.id)
  t.equal(unapproved.statusCode, 400, 'a version nobody approved cannot be assigned')
  t.equal(unapproved.json().error.field, 'versionId')
  t.equal((await admin.api('PUT', '/api/adviceset/publish-config', { adviceSetId: set.id, audienceId: 999999, versionId: v1.id })).statusCode, 400)

  const res = await assign()
  t.equal(res.statusCode, 200)
  t.match(res.json().data.audiences, [{ audienceId: audience.id, assigned: true, version: { versionId: v1.id, state: 'unpublished' } }])
  t.same(heard, [set.id], 'listeners hear the assignment')
  t.equal((await servedVersion(db, set.id, { environment: 'production', audienceId: audience.id }))?.id, v1.id, 'the audience’s keys get the assigned version')
  t.equal((await servedVersion(db, set.id, { environment: 'production', audienceId: null }))?.id, v2.id, 'other keys still get the published one')

  const { key } = await createApiKey(db, { ownerId, audienceId: audience.id, allowedAdviceSetIds: [set.id] })
  const forKey = await admin.api('GET', `/api/adviceset/publish-config/${key.id}`)
  t.equal(forKey.statusCode, 200)
  t.match(forKey.json().data, { keyId: key.id, environment: 'production', audienceId: audience.id, adviceSets: [{ adviceSetId: set.id, name: 'Loans', version: { versionId: v1.id }, source: 'audience' }] })
  t.equal((await author.api('GET', `/api/adviceset/publish-config/${key.id}`)).statusCode, 404, 'only admins see a key’s config')

  t.equal((await assign(admin, null)).statusCode, 200)
  t.equal((await servedVersion(db, set.id, { environment: 'production', audienceId: audience.id }))?.id, v2.id, 'unassigned: back to the published one')
  t.same((await activityRows(db, 'audience', audience.id)).slice(-2).map((r) => [r.before, r.after]), [
    [{ adviceSetId: set.id, versionId: null }, { adviceSetId: set.id, versionId: v1.id }],
    [{ adviceSetId: set.id, versionId: v1.id }, { adviceSetId: set.id, versionId: null }],
  ])
})

t.test('a preview key and a key for every set of the owner', async (t) => {
  const other = await createAdviceSet(db, { ownerId, name: 'Another' })
  const { key } = await createApiKey(db, { ownerId, environment: 'preview' })
  const data = (await admin.api('GET', `/api/adviceset/publish-config/${key.id}`)).json().data
  t.match(data.adviceSets, [{ adviceSetId: other.id, version: null, source: null }, { adviceSetId: set.id, version: { versionId: pre.id }, source: 'preview' }])
})

t.test('a key’s sets come in pages by name, each after the last set shown', async (t) => {
  const team = await createOwner(db, { name: 'Many sets' })
  const teamAdmin = await signedInAgent(app, await createUser(db, { ownerId: team, role: 'admin' }))
  // Names equal but for case, so a page ends inside a run of names that sort alike.
  const sets: Array<{ id: number; name: string }> = []
  for (const name of ['b', 'A', 'a', 'C', 'c', 'gone']) sets.push(await createAdviceSet(db, { ownerId: team, name }))
  await buildRule(db, sets[1]!.id, 'Main', [{ type: 'advice', headline: 'One' }])
  const published = await publishVersion(db, { adviceSetId: sets[1]!.id })
  await db.update(adviceSets).set({ deletedAt: new Date() }).where(eq(adviceSets.id, sets[5]!.id))
  const byName = (ids: number[]) => sets.filter((s) => ids.includes(s.id))
    .sort((x, y) => x.name.toLowerCase().localeCompare(y.name.toLowerCase()) || x.id - y.id).map((s) => s.id)

  async function walk(keyId: number) {
    const seen: Array<{ adviceSetId: number; version: { versionId: number } | null }> = []
    let after: string | null = null
    do {
      const res = await teamAdmin.api('GET', `/api/adviceset/publish-config/${keyId}?limit=2${after === null ? '' : `&after=${after}`}`)
      t.equal(res.statusCode, 200)
      const data: { adviceSets: typeof seen; next: string | null } = res.json().data
      t.ok(data.adviceSets.length <= 2)
      seen.push(...data.adviceSets)
      after = data.next
    } while (after !== null && seen.length < 20)
    return seen
  }
  const everySet = (await createApiKey(db, { ownerId: team })).key
  const all = await walk(everySet.id)
  t.same(all.map((s) => s.adviceSetId), byName(sets.slice(0, 5).map((s) => s.id)), 'every live set once, by name then id')
  t.match(all.find((s) => s.adviceSetId === sets[1]!.id), { version: { versionId: published.id } }, 'with the version it is served')
  // A limited key may name another team's public set as well.
  sets.push(await createAdviceSet(db, { ownerId, name: 'B public', isPublic: true }))
  const some = (await createApiKey(db, { ownerId: team, allowedAdviceSetIds: [sets[0]!.id, sets[2]!.id, sets[4]!.id, sets[5]!.id, sets[6]!.id] })).key
  t.same((await walk(some.id)).map((s) => s.adviceSetId), byName([sets[0]!.id, sets[2]!.id, sets[4]!.id, sets[6]!.id]), 'a limited key: its live sets only, whoever owns them')
  const first = (await teamAdmin.api('GET', `/api/adviceset/publish-config/${everySet.id}`)).json().data
  t.equal(first.adviceSets.length, 5, 'without a limit, a page of 200')
  t.equal(first.next, null)

  for (const [query, field] of [['after=x', 'after'], ['limit=0', 'limit'], ['limit=1001', 'limit']] as const) {
    const bad = await teamAdmin.api('GET', `/api/adviceset/publish-config/${everySet.id}?${query}`)
    t.equal(bad.statusCode, 400, query)
    t.equal(bad.json().error.field, field, `${query} names ${field}`)
  }
})
