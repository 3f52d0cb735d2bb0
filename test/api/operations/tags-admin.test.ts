// The tags admin: admins manage their team's tags, provider admins every tag; fixed provider tags keep slug and type
// and cannot be deleted or merged away; where used; merging moves the sets to the other tag; all audited.
import t from 'tap'
import { and, eq } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent } from '../../helpers/agent.ts'
import { adminCast } from '../../helpers/team.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { activity, tagLinks, tags } from '../../../src/db/schema/index.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const { providerAdmin, acme, acmeAdmin, acmeAuthor, otherAdmin: globexAdmin } = await adminCast(db)
const [followOn] = await db.select().from(tags).where(and(eq(tags.ownerId, 'TF'), eq(tags.slug, 'follow-on')))
const set1 = await createAdviceSet(db, { ownerId: acme, name: 'Pensions' })
const set2 = await createAdviceSet(db, { ownerId: acme, name: 'Savings' })

t.test('an owner admin creates, renames, merges and deletes the team’s tags; sets follow a merge', async (t) => {
  const agent = await signedInAgent(app, acmeAdmin)
  t.equal((await agent.postForm('/admin/tag', { label: 'Retirement', type: 'advice_group' }, { page: '/admin/tag' })).statusCode, 303)
  t.equal((await agent.postForm('/admin/tag', { label: 'Retire ment!', type: 'label' })).statusCode, 303)
  const list = await agent.get('/admin/tag')
  t.equal(list.statusCode, 200)
  t.match(list.body, 'Retirement')
  t.match(list.body, 'Follow-on', 'provider tags are listed too')
  const [retirement] = await db.select().from(tags).where(and(eq(tags.ownerId, acme), eq(tags.slug, 'retirement')))
  const [dup] = await db.select().from(tags).where(and(eq(tags.ownerId, acme), eq(tags.slug, 'retire-ment')))
  for (const set of [set1, set2]) t.equal((await agent.api('POST', `/api/tags/${dup!.id}/link`, { entityType: 'adviceset', entityId: set.id })).statusCode, 200)
  await agent.api('POST', `/api/tags/${retirement!.id}/link`, { entityType: 'adviceset', entityId: set1.id })

  const edit = await agent.get(`/admin/tag/${dup!.id}/edit`)
  t.match(edit.body, 'Pensions')
  t.match(edit.body, 'Savings')
  const renamed = await agent.api('PATCH', `/api/tags/${dup!.id}`, { label: 'Retire later', description: 'For late retirement' })
  t.equal(renamed.statusCode, 200)
  t.match(renamed.json().data, { label: 'Retire later', slug: 'retire-later', description: 'For late retirement' })
  t.equal((await agent.api('PATCH', `/api/tags/${dup!.id}`, { label: 'Retirement' })).statusCode, 409, 'a label another tag has is refused')
  t.equal((await agent.api('PATCH', `/api/tags/${dup!.id}`, { type: 'colour' })).statusCode, 400)

  const before = await db.select().from(tagLinks)
  const editPage = (await agent.get(`/admin/tag/${dup!.id}/edit`)).body
  t.match(editPage, `<form method="get" action="/admin/tag/${dup!.id}/confirm-merge"`, 'Merge asks first')
  t.notMatch(editPage, `action="/admin/tag/${dup!.id}/merge"`, 'the edit page does not merge at once')
  t.notMatch(editPage, `action="/admin/tag/${dup!.id}/delete"`, 'nor delete at once')
  t.match(editPage, `href="/admin/tag/${dup!.id}/confirm-delete"`)
  const confirmMerge = await agent.get(`/admin/tag/${dup!.id}/confirm-merge?into=${retirement!.id}`)
  t.equal(confirmMerge.statusCode, 200)
  t.match(confirmMerge.body, 'Merge “Retire later” into “Retirement”?')
  t.match(confirmMerge.body, '1 advice set tagged “Retire later” moves to “Retirement”. 1 advice set already tagged “Retirement” loses only “Retire later”.', 'how many links move')
  t.match(confirmMerge.body, `<form method="post" action="/admin/tag/${dup!.id}/merge">`)
  const confirmDelete = await agent.get(`/admin/tag/${dup!.id}/confirm-delete`)
  t.match(confirmDelete.body, 'Delete “Retire later”?')
  t.match(confirmDelete.body, '2 advice sets lose the tag “Retire later”.', 'how many links go')
  t.match(confirmDelete.body, `<form method="post" action="/admin/tag/${dup!.id}/delete">`)
  t.same(await db.select().from(tagLinks), before, 'asking changes nothing')
  t.equal((await agent.get(`/admin/tag/${dup!.id}/confirm-merge?into=${dup!.id}`)).statusCode, 400, 'merging into itself is refused at the question')

  const merged = await agent.postForm(`/admin/tag/${dup!.id}/merge`, { into: String(retirement!.id) })
  t.equal(merged.statusCode, 303)
  const links = await db.select().from(tagLinks).where(eq(tagLinks.tagId, retirement!.id))
  t.same(links.map((l) => l.entityId).sort(), [set1.id, set2.id].sort(), 'both sets carry the tag merged into, once each')
  t.equal((await db.select().from(tagLinks).where(eq(tagLinks.tagId, dup!.id))).length, 0)
  t.equal((await agent.get(`/admin/tag/${dup!.id}/edit`)).statusCode, 404, 'the merged tag is gone')

  t.equal((await agent.api('DELETE', `/api/tags/${retirement!.id}`)).statusCode, 200)
  t.equal((await db.select().from(tagLinks).where(eq(tagLinks.tagId, retirement!.id))).length, 0)
  const audits = await db.select().from(activity).where(eq(activity.entityType, 'tag'))
  t.match(audits.map((a) => a.action), ['create', 'create', 'update', 'delete', 'delete'])
})

t.test('fixed provider tags: only provider admins edit them, never their slug or type, never delete or merge', async (t) => {
  const owner = await signedInAgent(app, acmeAdmin)
  t.equal((await owner.get(`/admin/tag/${followOn!.id}/edit`)).statusCode, 200, 'an owner admin sees a provider tag')
  t.equal((await owner.api('PATCH', `/api/tags/${followOn!.id}`, { label: 'Next' })).statusCode, 403)
  t.equal((await owner.api('DELETE', `/api/tags/${followOn!.id}`)).statusCode, 403)
  const provider = await signedInAgent(app, providerAdmin)
  const relabel = await provider.api('PATCH', `/api/tags/${followOn!.id}`, { label: 'Follows on' })
  t.equal(relabel.statusCode, 200)
  t.equal(relabel.json().data.slug, 'follow-on', 'the slug rule nodes carry stays')
  t.equal((await provider.api('PATCH', `/api/tags/${followOn!.id}`, { type: 'label' })).statusCode, 400)
  const del = await provider.api('DELETE', `/api/tags/${followOn!.id}`)
  t.equal(del.statusCode, 400)
  t.match(del.json().error.message, 'cannot be deleted')
  const [needsWork] = await db.select().from(tags).where(and(eq(tags.ownerId, 'TF'), eq(tags.slug, 'needs-work')))
  t.equal((await provider.api('POST', `/api/tags/${needsWork!.id}/merge`, { into: followOn!.id })).statusCode, 400)
  t.notMatch((await provider.get(`/admin/tag/${followOn!.id}/edit`)).body, 'Delete tag', 'no delete button for a fixed tag')
})

t.test('authors and other owners are refused', async (t) => {
  const [acmeTag] = await db.insert(tags).values({ ownerId: acme, slug: 'private', label: 'Private' }).returning()
  const author = await signedInAgent(app, acmeAuthor)
  t.equal((await author.get('/admin/tag')).statusCode, 403)
  t.equal((await author.api('PATCH', `/api/tags/${acmeTag!.id}`, { label: 'x' })).statusCode, 403)
  const other = await signedInAgent(app, globexAdmin)
  t.equal((await other.get(`/admin/tag/${acmeTag!.id}/edit`)).statusCode, 404)
  t.equal((await other.api('DELETE', `/api/tags/${acmeTag!.id}`)).statusCode, 404)
  t.notMatch((await other.get('/admin/tag')).body, 'Private')
  t.match((await (await signedInAgent(app, providerAdmin)).get('/admin/tag')).body, 'Private', 'provider admins see every team’s tags')
})

t.test('the edit page offers to merge into the other tags of the tag’s own team only', async (t) => {
  const [one] = await db.insert(tags).values([
    { ownerId: acme, slug: 'merge-one', label: 'Merge one' }, { ownerId: acme, slug: 'merge-two', label: 'Merge two' },
  ]).returning()
  await db.insert(tags).values({ ownerId: globexAdmin.ownerId, slug: 'globex-only', label: 'Globex only' })
  const targets = (body: string) => [...(/<select id="merge-into" name="into">([\s\S]*?)<\/select>/.exec(body)?.[1] ?? '').matchAll(/<option value="\d+">([^<]+)<\/option>/g)].map((m) => m[1])
  for (const [who, user] of [['the team’s admin', acmeAdmin], ['a provider admin', providerAdmin]] as const) {
    const offered = targets((await (await signedInAgent(app, user)).get(`/admin/tag/${one!.id}/edit`)).body)
    t.ok(offered.includes('Merge two'), `${who}: another tag of the team`)
    t.notOk(offered.includes('Merge one'), `${who}: not the tag itself`)
    t.notOk(offered.includes('Follow-on') || offered.includes('Globex only'), `${who}: neither the provider’s nor another team’s`)
  }
})
