// Issue 4 acceptance: every write leaves exactly one activity row with correct before/after; restore of an update
// returns the entity to its before state; recover of a delete brings it back with the same id; 221 with dependents.
import t from 'tap'
import { and, eq, isNull } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { activityRows } from '../../helpers/activity.ts'
import { signedInAgent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { adviceCategories, adviceSets, tags } from '../../../src/db/schema/index.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const ownerId = await createOwner(db, { name: 'Acme' })
const author = await createUser(db, { ownerId, role: 'author' })
const agent = await signedInAgent(app, author)

const rowsFor = (entityType: string, id: number) => activityRows(db, entityType, id)

t.test('create, update, restore of the update', async (t) => {
  const created = await agent.api('POST', '/api/adviceset', { name: 'Pension basics', nameAlt: 'Pensions', description: 'First draft' })
  t.equal(created.statusCode, 201)
  const id = created.json().data.id as number
  let rows = await rowsFor('adviceset', id)
  t.equal(rows.length, 1, 'one row for the create')
  t.equal(rows[0]!.action, 'create')
  t.equal(rows[0]!.before, null)
  t.match(rows[0]!.after, { id, name: 'Pension basics', nameAlt: 'Pensions', description: 'First draft', isPublic: false, tagIds: [], deleted: false })
  t.equal(rows[0]!.actorId, author.id)
  t.equal(rows[0]!.source, 'users')

  const updated = await agent.api('PATCH', `/api/adviceset/${id}`, { name: 'Pension essentials', isPublic: true })
  t.equal(updated.statusCode, 200)
  rows = await rowsFor('adviceset', id)
  t.equal(rows.length, 2, 'one more row for the update')
  t.match(rows[1]!.before, { name: 'Pension basics', isPublic: false })
  t.match(rows[1]!.after, { name: 'Pension essentials', isPublic: true })

  const unchanged = await agent.api('PATCH', `/api/adviceset/${id}`, { name: 'Pension essentials' })
  t.equal(unchanged.statusCode, 200)
  t.equal((await rowsFor('adviceset', id)).length, 2, 'a save that changes nothing writes no row')

  const restored = await agent.api('POST', `/api/activity/${rows[1]!.id}/restore`)
  t.equal(restored.statusCode, 200)
  const [set] = await db.select().from(adviceSets).where(eq(adviceSets.id, id))
  t.equal(set!.name, 'Pension basics', 'back to the before state')
  t.equal(set!.isPublic, false)
  rows = await rowsFor('adviceset', id)
  t.equal(rows.length, 3, 'the restore is itself one row')
  t.equal(rows[2]!.action, 'restore')
  t.match(rows[2]!.before, { name: 'Pension essentials' })
  t.match(rows[2]!.after, { name: 'Pension basics' })
})

t.test('tags: link and unlink are updates of the set; restoring puts the tags back', async (t) => {
  const set = (await agent.api('POST', '/api/adviceset', { name: 'Tagged set' })).json().data
  const [needsWork] = await db.select().from(tags).where(and(eq(tags.ownerId, 'TF'), eq(tags.slug, 'needs-work')))
  const link = await agent.api('POST', `/api/tags/${needsWork!.id}/link`, { entityType: 'adviceset', entityId: set.id })
  t.equal(link.statusCode, 200)
  t.same(link.json().data.tagIds, [needsWork!.id])
  let rows = await rowsFor('adviceset', set.id)
  t.equal(rows.length, 2)
  t.match(rows[1]!.before, { tagIds: [] })
  t.match(rows[1]!.after, { tagIds: [needsWork!.id] })
  const unlink = await agent.api('POST', `/api/tags/${needsWork!.id}/unlink`, { entityType: 'adviceset', entityId: set.id })
  t.same(unlink.json().data.tagIds, [])
  rows = await rowsFor('adviceset', set.id)
  await agent.api('POST', `/api/activity/${rows[2]!.id}/restore`)
  const shown = await agent.api('GET', `/api/adviceset/${set.id}`)
  t.same(shown.json().data.tags.map((tag: { slug: string }) => tag.slug), ['needs-work'], 'the unlink was undone')
})

t.test('delete, then recover: the same id comes back', async (t) => {
  const set = (await agent.api('POST', '/api/adviceset', { name: 'Short-lived' })).json().data
  const del = await agent.api('DELETE', `/api/adviceset/${set.id}`)
  t.equal(del.statusCode, 200)
  t.equal((await agent.api('GET', `/api/adviceset/${set.id}`)).statusCode, 404, 'a deleted set is gone from view')
  const inactive = await agent.api('GET', '/api/adviceset/list/inactive')
  t.ok(inactive.json().data.some((s: { id: number }) => s.id === set.id), 'listed as inactive')
  let rows = await rowsFor('adviceset', set.id)
  t.equal(rows.length, 2)
  t.equal(rows[1]!.action, 'delete')
  t.match(rows[1]!.after, { deleted: true })
  const recovered = await agent.api('POST', `/api/adviceset/${set.id}/recover`)
  t.equal(recovered.statusCode, 200)
  t.equal(recovered.json().data.id, set.id, 'same id')
  t.equal((await agent.api('GET', `/api/adviceset/${set.id}`)).json().data.name, 'Short-lived')
  rows = await rowsFor('adviceset', set.id)
  t.equal(rows.length, 3)
  t.equal(rows[2]!.action, 'restore')

  await agent.api('DELETE', `/api/adviceset/${set.id}`)
  rows = await rowsFor('adviceset', set.id)
  const viaLog = await agent.api('POST', `/api/activity/${rows[3]!.id}/restore`)
  t.equal(viaLog.statusCode, 200, 'restoring a delete row from the log recovers it too')
  t.equal((await agent.api('GET', `/api/adviceset/${set.id}`)).statusCode, 200)
})

t.test('restoring a create row deletes what it created', async (t) => {
  const set = (await agent.api('POST', '/api/adviceset', { name: 'Made by mistake' })).json().data
  const [row] = await rowsFor('adviceset', set.id)
  t.equal((await agent.api('POST', `/api/activity/${row!.id}/restore`)).statusCode, 200)
  t.equal((await agent.api('GET', `/api/adviceset/${set.id}`)).statusCode, 404)
})

t.test('221 Delete Not Allowed: a category with advice sets in it', async (t) => {
  const category = (await agent.api('POST', '/api/adviceset/category', { name: 'Retirement' })).json().data
  const set = (await agent.api('POST', '/api/adviceset', { name: 'Annuities', categoryId: category.id })).json().data
  const res = await agent.api('DELETE', `/api/adviceset/category/${category.id}`)
  t.equal(res.statusCode, 221)
  t.same(res.json().error.status, 221)
  t.equal(res.json().error.name, 'Delete Not Allowed')
  t.same(res.json().error.dependents, [{ type: 'adviceset', id: set.id, name: 'Annuities', uri: `/adviceset/${set.id}/show` }])
  const [still] = await db.select().from(adviceCategories).where(and(eq(adviceCategories.id, category.id), isNull(adviceCategories.deletedAt)))
  t.ok(still, 'the category is still there')
  t.equal((await rowsFor('category', category.id)).length, 1, 'only the create row: the refused delete wrote nothing')

  await agent.api('PATCH', `/api/adviceset/${set.id}`, { categoryId: null })
  t.equal((await agent.api('DELETE', `/api/adviceset/category/${category.id}`)).statusCode, 200, 'empty, it can go')
})

t.test('bulk update: one row per changed set, none for a set already in that state', async (t) => {
  const ids: number[] = []
  for (const name of ['Bulk one', 'Bulk two', 'Bulk three']) ids.push((await agent.api('POST', '/api/adviceset', { name })).json().data.id)
  await agent.api('PATCH', `/api/adviceset/${ids[2]}`, { isStarter: true })
  const before = (await rowsFor('adviceset', ids[2]!)).length
  const res = await agent.api('POST', '/api/adviceset/bulk', { ids, isStarter: true })
  t.equal(res.statusCode, 200)
  t.same(res.json().data, { changed: 2 })
  t.equal((await rowsFor('adviceset', ids[0]!)).length, 2)
  t.equal((await rowsFor('adviceset', ids[1]!)).length, 2)
  t.equal((await rowsFor('adviceset', ids[2]!)).length, before, 'already a starter: no row')
})

t.test('bad ids and bad fields are named', async (t) => {
  const bad = await agent.api('GET', '/api/adviceset/12abc')
  t.equal(bad.statusCode, 400)
  t.equal(bad.json().error.message, 'Invalid item id format.')
  const noName = await agent.api('POST', '/api/adviceset', { name: '  ' })
  t.equal(noName.statusCode, 400)
  t.equal(noName.json().error.message, 'Name is required.')
  const otherCategory = await agent.api('POST', '/api/adviceset', { name: 'x', categoryId: 999999 })
  t.equal(otherCategory.statusCode, 400)
  t.match(otherCategory.json().error.message, /Category does not exist/)
  const unknown = await agent.api('PATCH', '/api/adviceset/1', { owner: 'TF' })
  t.equal(unknown.statusCode, 400)
  t.match(unknown.json().error.message, /^owner: /)
})
