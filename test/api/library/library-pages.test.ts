// Issue 4 point 2: the library and advice set pages through app.inject — who may see what, filters and pages,
// the bulk editor's one confirmation, deletes blocked by dependents (221), delete and restore through Activity.
import t from 'tap'
import { and, eq, inArray } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { Agent } from '../../helpers/agent.ts'
import { activityItem } from '../../helpers/activity.ts'
import { createOwner, createUser, type TestUser } from '../../helpers/factories.ts'
import { activity, adviceSets } from '../../../src/db/schema/index.ts'
import { createAdviceSet, getAdviceSet } from '../../../src/services/library/advice-sets.ts'
import { createCategory } from '../../../src/services/library/categories.ts'
import { listVisibleTags } from '../../../src/services/library/tags.ts'
import type { Actor } from '../../../src/services/context.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const deps = app.deps

const actorOf = (u: TestUser): Actor => ({ userId: u.id, ownerId: u.ownerId, role: u.role, impersonatorId: null })
const ownerA = await createOwner(db, { name: 'Owner A' })
const ownerB = await createOwner(db, { name: 'Owner B' })
const authorA = await createUser(db, { ownerId: ownerA, role: 'author', name: 'Ann Author' })
const viewerA = await createUser(db, { ownerId: ownerA, role: 'viewer' })
const authorB = await createUser(db, { ownerId: ownerB, role: 'author' })
const admin = await createUser(db, { ownerId: 'TF', role: 'admin' })

async function signedIn(user: TestUser): Promise<Agent> {
  const agent = new Agent(app)
  await agent.signIn(user.email, user.password)
  return agent
}
const agentA = await signedIn(authorA)
const agentViewer = await signedIn(viewerA)
const agentB = await signedIn(authorB)
const agentAdmin = await signedIn(admin)

const pageOf = (body: string) => /<main data-page="([^"]+)"/.exec(body)?.[1]
const cardCount = (body: string) => (body.match(/<li class="set-card">/g) ?? []).length
const rowCount = (body: string) => (body.match(/<tr>\s*<td><a href="\/adviceset\/\d+\/show">/g) ?? []).length
const makeSet = (user: TestUser, fields: Record<string, unknown> = {}) =>
  createAdviceSet(deps, actorOf(user), { name: `Set ${Math.random().toString(36).slice(2, 8)}`, ...fields })
const tags = await listVisibleTags(deps, actorOf(authorA))
const exampleTag = tags.find((tag) => tag.slug === 'example')!

t.test('an empty library says what to do next', async (t) => {
  t.match((await agentA.get('/library')).body, /No advice sets yet — <a href="\/adviceset\/new">Create an advice set<\/a>/, 'writers are sent to create one')
  const viewer = await agentViewer.get('/library')
  t.notMatch(viewer.body, 'Create an advice set', 'viewers get no create link')
  t.match(viewer.body, 'explore public and starter sets')
})

t.test('each page renders with its page marker for the right users and refuses the wrong ones', async (t) => {
  const own = await makeSet(authorA, { name: 'Private of A' })
  const shared = await makeSet(authorA, { name: 'Public of A', isPublic: true })

  for (const url of ['/library', '/library/classic', '/library/bulkeditor', '/explore', '/adviceset/new', '/activity']) {
    const res = await agentA.get(url)
    t.equal(res.statusCode, 200, `${url} renders for an author`)
  }
  t.equal(pageOf((await agentA.get('/library')).body), 'rule-set-index')
  t.equal(pageOf((await agentA.get('/library/classic')).body), 'rule-set-index')
  t.equal(pageOf((await agentA.get('/library/bulkeditor')).body), 'bulk-editor')
  t.equal(pageOf((await agentA.get('/explore')).body), 'explore')
  t.equal(pageOf((await agentA.get('/adviceset/new')).body), 'rule-set-form')
  t.equal(pageOf((await agentA.get(`/adviceset/${own.id}/show`)).body), 'rule-set-show')
  t.equal(pageOf((await agentA.get(`/adviceset/${own.id}/edit`)).body), 'rule-set-form')
  t.equal(pageOf((await agentA.get(`/adviceset/${own.id}/activity`)).body), 'rule-set-activity')
  t.equal(pageOf((await agentA.get(`/adviceset/${own.id}/confirm-delete`)).body), 'rule-set-delete')

  const visitor = await new Agent(app).get('/library')
  t.equal(visitor.statusCode, 302, 'visitors are sent to sign in')
  t.match(visitor.headers.location, /^\/login\?next=%2Flibrary/)

  t.equal((await agentViewer.get('/adviceset/new')).statusCode, 403, 'viewers cannot open the create form')
  t.equal((await agentViewer.get(`/adviceset/${own.id}/edit`)).statusCode, 403, 'nor edit')
  t.equal((await agentViewer.get(`/adviceset/${own.id}/confirm-delete`)).statusCode, 403, 'nor delete')
  const viewerShow = await agentViewer.get(`/adviceset/${own.id}/show`)
  t.equal(viewerShow.statusCode, 200, 'viewers read their own owner’s sets')
  t.notMatch(viewerShow.body, 'data-island="inline-editor"', 'without the inline editor')
  t.notMatch(viewerShow.body, '/confirm-delete', 'and without a Delete link')
  t.notMatch((await agentViewer.get('/library/bulkeditor')).body, 'type="checkbox" name="ids"', 'the bulk editor offers viewers nothing to select')

  const hidden = await agentB.get(`/adviceset/${own.id}/show`)
  t.equal(hidden.statusCode, 404, 'another owner’s private set does not exist for B')
  t.notMatch(hidden.body, 'Private of A')
  for (const path of ['edit', 'confirm-delete', 'activity', 'show/header', 'show/sidebar', 'show/modal/details']) {
    t.equal((await agentB.get(`/adviceset/${own.id}/${path}`)).statusCode, 404, `${path} of a hidden set is 404`)
  }
  const publicShow = await agentB.get(`/adviceset/${shared.id}/show`)
  t.equal(publicShow.statusCode, 200, 'B reads A’s public set')
  t.notMatch(publicShow.body, `/adviceset/${shared.id}/edit`, 'without an Edit link')
  t.match(publicShow.body, `action="/adviceset/${shared.id}/copy"`, 'with a Copy button')
  t.equal((await agentB.get(`/adviceset/${shared.id}/edit`)).statusCode, 403, 'but cannot edit it')
  t.equal((await agentB.postForm(`/adviceset/${shared.id}/delete`, {})).statusCode, 403, 'nor delete it')
  t.equal((await agentB.postForm(`/adviceset/${shared.id}/edit`, { name: 'Taken over' })).statusCode, 403, 'nor rename it')
  t.equal((await getAdviceSet(deps, actorOf(authorA), shared.id)).name, 'Public of A', 'the set is unchanged')

  const badId = await agentA.get('/adviceset/abc/show')
  t.equal(badId.statusCode, 400)
  t.match(badId.body, 'Invalid item id format.')
})

t.test('the show page: inline editor for writers, recent item, fragments without layout, escaped', async (t) => {
  const set = await makeSet(authorA, { name: '<script>alert(1)</script> Pension', nameAlt: 'Pension advice', description: 'About pensions' })
  const res = await agentA.get(`/adviceset/${set.id}/show`)
  t.equal(res.statusCode, 200)
  t.notMatch(res.body, '<script>alert(1)</script>', 'the name is escaped')
  t.match(res.body, '&lt;script&gt;alert(1)&lt;/script&gt; Pension')
  const props = /data-island="inline-editor" data-props="([^"]+)"/.exec(res.body)?.[1]
  t.ok(props, 'the name is an inline editor')
  t.same(JSON.parse(props!.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&')).action, `/api/adviceset/${set.id}`)
  t.match(res.body, 'This advice set has no rules yet.', 'the rules area says what comes next')
  t.match(res.body, 'by Ann Author', 'created by names the author')

  const library = await agentA.get('/library')
  const recent = /<h2>Recently opened<\/h2>([\s\S]*?)<\/section>/.exec(library.body)?.[1] ?? ''
  t.match(recent, `href="/adviceset/${set.id}/show"`, 'the view was recorded as a recent item')

  for (const [path, marker] of [['header', 'ruleset-show-header'], ['sidebar', 'ruleset-show-sidebar'], ['modal/details', 'ruleset-show-details']]) {
    const fragment = await agentA.get(`/adviceset/${set.id}/show/${path}`)
    t.equal(fragment.statusCode, 200, `${path} fragment`)
    t.match(fragment.headers['content-type'], /text\/html/)
    t.match(fragment.body, new RegExp(`^\\s*<section [^>]*data-fragment="${marker}"`), `${path} is just its partial`)
    t.notMatch(fragment.body, /<html|<main/, 'without the layout')
    t.notMatch(fragment.body, '<script>alert(1)</script>', 'and escaped')
    t.ok(res.body.includes(`data-fragment="${marker}"`), 'the full page uses the same partial')
  }
})

t.test('filters and pagination', async (t) => {
  const owner = await createOwner(db, { name: 'Many Sets Ltd' })
  const author = await createUser(db, { ownerId: owner, role: 'author' })
  const agent = await signedIn(author)

  const category = await createCategory(deps, actorOf(author), { name: 'Pensions' })
  for (let i = 1; i <= 30; i++) {
    await makeSet(author, { name: `Numbered ${String(i).padStart(2, '0')}`, categoryId: i <= 3 ? category.id : null, isStarter: i === 30 })
  }
  const filter = `owner=${owner}`
  const first = await agent.get(`/library?${filter}&sort=name`)
  t.equal(cardCount(first.body), 24, 'page 1 shows 24 cards')
  t.match(first.body, '30 advice sets · page 1 of 2')
  t.match(first.body, `href="/library?owner=${owner}&amp;sort=name&amp;page=2"`, 'with a link to page 2 that keeps the filters')
  t.match(first.body, 'Numbered 01')
  const second = await agent.get(`/library?${filter}&sort=name&page=2`)
  t.equal(cardCount(second.body), 6, 'page 2 shows the other 6')
  t.match(second.body, 'Numbered 30')
  t.notMatch(second.body, 'Numbered 01')

  const classic = await agent.get(`/library/classic?${filter}`)
  t.equal(rowCount(classic.body), 30, 'the classic table shows all 30 on one page of 50')
  t.match(classic.body, `href="/library/classic?owner=${owner}&amp;sort=name"`, 'its Name header sorts by name')
  const byName = await agent.get(`/library/classic?${filter}&sort=name`)
  t.ok(byName.body.indexOf('Numbered 01') < byName.body.indexOf('Numbered 02'), 'sorted by name')

  const inCategory = await agent.get(`/library?category=${category.id}&tag=&q=&owner=&sort=updated`)
  t.equal(inCategory.statusCode, 200, 'empty choices of a submitted filter form are ignored')
  t.equal(cardCount(inCategory.body), 3, 'the category filter keeps its 3 sets')
  t.match(inCategory.body, 'Delete this category', 'a writable category filter offers its delete button')

  t.equal(cardCount((await agent.get(`/library?${filter}&starter=true`)).body), 1, 'starter filter')
  t.equal(cardCount((await agent.get(`/library?${filter}&q=numbered+2`)).body), 10, 'text filter (20–29)')
  const none = await agent.get(`/library?${filter}&q=no-such-set`)
  t.equal(cardCount(none.body), 0)
  t.match(none.body, /No advice sets match these filters — <a href="\/library">clear filters<\/a>/, 'no hits say how to get out')

  const other = await agentA.get(`/library?${filter}`)
  t.equal(cardCount(other.body), 1, 'another owner sees only the shared (starter) set')
  t.match(other.body, 'By: Many Sets Ltd', 'with its owner named')
  const explore = await agentA.get('/explore?q=Numbered')
  t.equal(cardCount(explore.body), 1, 'explore lists the starter set of another owner')
  t.match(explore.body, 'Copy to my library', 'with a copy button for writers')
  t.notMatch((await agentViewer.get('/explore?q=Numbered')).body, 'Copy to my library', 'but not for viewers')
})

t.test('create: bad input keeps what was typed; good input creates and opens the set', async (t) => {
  const bad = await agentA.postForm('/adviceset/new', { name: '  ', description: 'Kept text', isPublic: 'true' })
  t.equal(bad.statusCode, 400)
  t.match(bad.body, 'Name is required.')
  t.match(bad.body, 'Kept text', 'the description survives')
  t.match(bad.body, /name="isPublic" value="true" checked/, 'and so does the ticked box')

  const good = await agentA.postForm('/adviceset/new', { name: 'Fresh set', nameAlt: 'Fresh', description: '', categoryId: '', isStarter: 'true' })
  t.equal(good.statusCode, 303)
  const id = Number(/^\/adviceset\/(\d+)\/show$/.exec(good.headers.location as string)?.[1])
  const set = await getAdviceSet(deps, actorOf(authorA), id)
  t.match(set, { name: 'Fresh set', nameAlt: 'Fresh', isPublic: false, isStarter: true, ownerId: ownerA })
  t.match((await agentA.get(good.headers.location as string)).body, 'Advice set “Fresh set” created.', 'the flash says so')

  const edited = await agentA.postForm(`/adviceset/${id}/edit`, { name: '', nameAlt: 'Changed', description: 'New words' })
  t.equal(edited.statusCode, 400, 'the fallback edit form refuses an empty name')
  t.match(edited.body, 'New words', 'and keeps the other fields')
  t.equal((await getAdviceSet(deps, actorOf(authorA), id)).nameAlt, 'Fresh', 'nothing was saved')
  t.equal((await agentA.postForm(`/adviceset/${id}/edit`, { settings: '1', categoryId: '', isPublic: 'true' })).statusCode, 303)
  t.match(await getAdviceSet(deps, actorOf(authorA), id), { isPublic: true, isStarter: false }, 'the settings form saves both boxes')
})

t.test('copy from a shared set into the own library', async (t) => {
  const shared = await makeSet(authorA, { name: 'Worth copying', isPublic: true })
  const copied = await agentB.postForm(`/adviceset/${shared.id}/copy`, {})
  t.equal(copied.statusCode, 303)
  const id = Number(/^\/adviceset\/(\d+)\/show$/.exec(copied.headers.location as string)?.[1])
  t.not(id, shared.id, 'a new set')
  t.match(await getAdviceSet(deps, actorOf(authorB), id), { name: 'Copy of Worth copying', ownerId: ownerB, isPublic: false })
  t.match((await agentB.get(copied.headers.location as string)).body, 'Copied into your library as “Copy of Worth copying”.')
  t.equal((await agentViewer.postForm(`/adviceset/${shared.id}/copy`, {})).statusCode, 403, 'viewers cannot copy')
})

t.test('tags and transfer through page forms', async (t) => {
  const set = await makeSet(authorA, { name: 'Taggable' })
  t.equal((await agentA.postForm(`/adviceset/${set.id}/tags/add`, { tagId: String(exampleTag.id) })).statusCode, 303)
  t.same((await getAdviceSet(deps, actorOf(authorA), set.id)).tags.map((tag) => tag.slug), ['example'], 'tag added')
  t.match((await agentA.get(`/adviceset/${set.id}/show`)).body, 'aria-label="Remove tag Example"')
  t.equal((await agentA.postForm(`/adviceset/${set.id}/tags/remove`, { tagId: String(exampleTag.id) })).statusCode, 303)
  t.same((await getAdviceSet(deps, actorOf(authorA), set.id)).tags, [], 'tag removed')
  t.equal((await agentA.postForm(`/adviceset/${set.id}/tags/add`, { tagId: 'x' })).statusCode, 400, 'a bad tag id is refused')

  t.notMatch((await agentA.get(`/adviceset/${set.id}/show`)).body, 'Transfer to owner', 'authors get no transfer form')
  t.equal((await agentA.postForm(`/adviceset/${set.id}/transfer`, { ownerId: ownerB })).statusCode, 403, 'nor may they transfer')
  t.match((await agentAdmin.get(`/adviceset/${set.id}/show`)).body, 'Transfer to owner', 'provider admins do')
  const refused = await agentAdmin.postForm(`/adviceset/${set.id}/transfer`, { ownerId: '' })
  t.equal(refused.statusCode, 400)
  t.match(refused.body, 'Owner is required.')
  t.equal((await agentAdmin.postForm(`/adviceset/${set.id}/transfer`, { ownerId: ownerB })).statusCode, 303)
  t.equal((await getAdviceSet(deps, actorOf(authorB), set.id)).ownerId, ownerB, 'the set moved to B')
})

t.test('bulk editor: one confirmation, then exactly the selected sets change, one activity row each', async (t) => {
  const sets = await Promise.all([1, 2, 3, 4, 5].map((i) => makeSet(authorA, { name: `Bulk ${i}` })))
  const picked = sets.slice(0, 3).map((s) => s.id)
  const countRows = async () => (await db.select().from(activity)
    .where(and(eq(activity.entityType, 'adviceset'), inArray(activity.entityId, sets.map((s) => String(s.id)))))).length
  const before = await countRows()

  const form = await agentA.get('/library/bulkeditor?q=Bulk')
  t.equal((form.body.match(/type="checkbox" name="ids"/g) ?? []).length, 5, 'a checkbox per writable set')

  const noPick = await agentA.postForm('/library/bulkeditor?q=Bulk', { addTagId: String(exampleTag.id) })
  t.equal(noPick.statusCode, 400)
  t.match(noPick.body, 'Select at least one advice set.')
  const noChange = await agentA.request({ method: 'POST', url: '/library/bulkeditor', form: { _csrf: agentA.csrfToken, ids: String(picked[0]) } })
  t.equal(noChange.statusCode, 400)
  t.match(noChange.body, 'Choose at least one change to make.')
  t.match(noChange.body, new RegExp(`value="${picked[0]}"[^>]*checked`), 'the selection is kept')

  const body = new URLSearchParams({ _csrf: agentA.csrfToken, addTagId: String(exampleTag.id), isPublic: 'true', isStarter: '', categoryId: '', removeTagId: '' })
  for (const id of picked) body.append('ids', String(id))
  const preview = await agentA.request({ method: 'POST', url: '/library/bulkeditor', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: body.toString() })
  t.equal(preview.statusCode, 200)
  t.equal(pageOf(preview.body), 'bulk-editor')
  t.match(preview.body, 'Add the tag “Example”')
  t.match(preview.body, 'Make public')
  t.match(preview.body, 'Apply to 3 advice sets')
  for (const s of sets.slice(0, 3)) t.match(preview.body, s.name)
  t.notMatch(preview.body, 'Bulk 4')
  t.equal(await countRows(), before, 'the confirmation page changes nothing')

  body.set('_csrf', agentA.csrfToken)
  const applied = await agentA.request({ method: 'POST', url: '/library/bulkeditor/confirm', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: body.toString() })
  t.equal(applied.statusCode, 303)
  t.match((await agentA.get(applied.headers.location as string)).body, '3 advice sets changed.')
  const rows = await db.select().from(adviceSets).where(inArray(adviceSets.id, sets.map((s) => s.id)))
  for (const s of sets) {
    const row = rows.find((r) => r.id === s.id)!
    const chosen = picked.includes(s.id)
    t.equal(row.isPublic, chosen, `${s.name} public: ${chosen}`)
    t.same((await getAdviceSet(deps, actorOf(authorA), s.id)).tags.map((tag) => tag.id), chosen ? [exampleTag.id] : [])
  }
  const logged = await db.select().from(activity)
    .where(and(eq(activity.entityType, 'adviceset'), eq(activity.action, 'update'), inArray(activity.entityId, sets.map((s) => String(s.id)))))
  t.same(logged.map((r) => Number(r.entityId)).sort(), [...picked].sort(), 'one update row for each selected set, none for the others')

  const foreign = await makeSet(authorB, { name: 'Not yours', isPublic: true })
  const sneaky = await agentA.postForm('/library/bulkeditor/confirm', { ids: String(foreign.id), isStarter: 'true' })
  t.equal(sneaky.statusCode, 403, 'another owner’s set cannot be slipped in')
})

t.test('a category with advice sets answers 221 with its dependents and stays', async (t) => {
  const created = await agentA.postForm('/library/categories', { name: 'Holds sets' })
  t.equal(created.statusCode, 303)
  const categoryId = Number(/category=(\d+)/.exec(created.headers.location as string)?.[1])
  const inside = await makeSet(authorA, { name: 'Inside the category', categoryId })

  const blocked = await agentA.postForm(`/library/categories/${categoryId}/delete`, {})
  t.equal(blocked.statusCode, 221)
  t.equal(pageOf(blocked.body), 'rule-set-delete')
  t.match(blocked.body, 'Delete not allowed')
  t.match(blocked.body, `<a href="/adviceset/${inside.id}/show">Inside the category</a>`, 'the dependent is listed')
  t.match(blocked.body, 'Nothing was deleted.')
  const library = await agentA.get(`/library?category=${categoryId}`)
  t.match(library.body, /<option value="\d+" selected>Holds sets<\/option>/, 'the category is still there')
  t.equal(cardCount(library.body), 1)

  const emptyName = await agentA.postForm('/library/categories', { name: '' })
  t.equal(emptyName.statusCode, 400)
  t.match(emptyName.body, 'Category name is required.')

  const spare = await agentA.postForm('/library/categories', { name: 'Spare' })
  const spareId = Number(/category=(\d+)/.exec(spare.headers.location as string)?.[1])
  t.equal((await agentB.postForm(`/library/categories/${spareId}/delete`, {})).statusCode, 404, 'another owner cannot delete it')
  t.equal((await agentA.postForm(`/library/categories/${spareId}/delete`, {})).statusCode, 303, 'an empty category is deleted')
  t.notMatch((await agentA.get('/library')).body, '>Spare</option>')
})

t.test('delete through confirm-delete, then restore from Activity', async (t) => {
  const set = await makeSet(authorA, { name: 'Doomed set' })
  const confirm = await agentA.get(`/adviceset/${set.id}/confirm-delete`)
  t.match(confirm.body, 'Delete “Doomed set”?')
  t.match(confirm.body, `action="/adviceset/${set.id}/delete"`)

  const deleted = await agentA.postForm(`/adviceset/${set.id}/delete`, {})
  t.equal(deleted.statusCode, 303)
  t.equal(deleted.headers.location, `/library?deleted=${set.id}`)
  const library = await agentA.get(deleted.headers.location as string)
  t.match(library.body, 'Advice set “Doomed set” deleted.')
  t.match(library.body, /“Doomed set” was deleted\. Changed your mind\? <a href="\/activity">Restore it from Activity<\/a>/)
  t.notMatch(library.body, 'href="/adviceset/' + set.id + '/show"', 'the set is gone from the library')
  t.equal((await agentA.get(`/adviceset/${set.id}/show`)).statusCode, 404)

  const log = await agentA.get('/activity')
  const item = /action="\/activity\/(\d+)\/restore"/.exec(activityItem(log.body, 'deleted the Advice Set “Doomed set”.') ?? '')
  t.ok(item, 'the delete is in Activity with a Restore button')
  t.match(log.body, /<th scope="row">Deleted<\/th><td class="diff__before">No<\/td><td aria-hidden="true">→<\/td><td class="diff__after">Yes<\/td>/, 'and a readable diff')

  const restored = await agentA.postForm(`/activity/${item![1]}/restore`, { next: '/activity?days=1' })
  t.equal(restored.statusCode, 303)
  t.equal(restored.headers.location, '/activity?days=1')
  t.match((await agentA.get('/activity')).body, 'Restored the advice set as it was before that change.')
  t.match((await agentA.get('/library?q=Doomed')).body, `href="/adviceset/${set.id}/show"`, 'the set is back with the same id')
  t.equal((await agentB.postForm(`/activity/${item![1]}/restore`, {})).statusCode, 404, 'another owner cannot restore it')
})

t.test('activity: timeframes, tags and categories by name, 15 items then more', async (t) => {
  const owner = await createOwner(db)
  const author = await createUser(db, { ownerId: owner, role: 'author' })
  const agent = await signedIn(author)
  const category = await createCategory(deps, actorOf(author), { name: 'Mortgages' })
  const set = await makeSet(author, { name: 'Logged' })
  await agent.postForm(`/adviceset/${set.id}/tags/add`, { tagId: String(exampleTag.id) })
  await agent.postForm(`/adviceset/${set.id}/edit`, { settings: '1', categoryId: String(category.id) })
  const page = await agent.get(`/adviceset/${set.id}/activity`)
  t.match(page.body, /<th scope="row">Tags<\/th><td class="diff__before">none<\/td><td aria-hidden="true">→<\/td><td class="diff__after">Example<\/td>/, 'tag ids read as labels')
  t.match(page.body, /<th scope="row">Category<\/th><td class="diff__before">—<\/td><td aria-hidden="true">→<\/td><td class="diff__after">Mortgages<\/td>/, 'category ids as names')
  for (const d of [1, 5, 15, 30, 60, 90]) t.match(page.body, `href="/adviceset/${set.id}/activity?days=${d}"`, `${d}-day link`)
  t.match(page.body, /href="[^"]+\?days=1" aria-current="true"/, '1 day is the default')

  for (let i = 0; i < 16; i++) await makeSet(author, { name: `Busy ${i}` })
  const all = await agent.get('/activity')
  t.equal((all.body.match(/<li class="activity-item">/g) ?? []).length, 15, '15 items')
  t.match(all.body, 'href="/activity?days=1&amp;limit=30">more</a>', 'then a more link')
  t.equal(((await agent.get('/activity?days=1&limit=30')).body.match(/<li class="activity-item">/g) ?? []).length, 20, 'which shows the rest')
})
