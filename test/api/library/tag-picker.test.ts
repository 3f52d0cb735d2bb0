// The set page's tags for an owner with many: up to 50 choices a select, beyond that a field that takes a tag's name
// (the tag-picker island suggests names from GET /api/tags?q=). The page no longer carries every tag of the owner.
import t from 'tap'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent } from '../../helpers/agent.ts'
import { createOwner, createUser, type TestUser } from '../../helpers/factories.ts'
import { createAdviceSet, getAdviceSet } from '../../../src/services/library/advice-sets.ts'
import { createTag } from '../../../src/services/library/tags.ts'
import type { Actor } from '../../../src/services/context.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const deps = app.deps
const actorOf = (u: TestUser): Actor => ({ userId: u.id, ownerId: u.ownerId, role: u.role, impersonatorId: null })

const few = await createUser(db, { ownerId: await createOwner(db, { name: 'Few tags' }), role: 'author' })
const many = await createUser(db, { ownerId: await createOwner(db, { name: 'Many tags' }), role: 'author' })
const manyViewer = await createUser(db, { ownerId: many.ownerId, role: 'viewer' })
await createTag(deps, actorOf(few), { label: 'Only Few' })
for (let i = 1; i <= 60; i++) await createTag(deps, actorOf(many), { label: `Topic ${String(i).padStart(2, '0')}` })
await createTag(deps, actorOf(many), { label: '100% sure' })

const fewAgent = await signedInAgent(app, few)
const manyAgent = await signedInAgent(app, many)
const fewSet = await createAdviceSet(deps, actorOf(few), { name: 'Few' })
const manySet = await createAdviceSet(deps, actorOf(many), { name: 'Many' })
const tagLabels = async (user: TestUser, setId: number) => (await getAdviceSet(deps, actorOf(user), setId)).tags.map((tag) => tag.label)

t.test('an owner with few tags chooses from a select', async (t) => {
  const page = (await fewAgent.get(`/adviceset/${fewSet.id}/show`)).body
  t.match(page, `<select id="tag-add-${fewSet.id}" name="tagId">`)
  t.match(page, '>Only Few</option>', 'with the owner’s own tags')
  t.notMatch(page, 'data-island="tag-picker"')
})

t.test('an owner with more tags than a select shows types a name', async (t) => {
  const page = (await manyAgent.get(`/adviceset/${manySet.id}/show`)).body
  t.match(page, 'data-island="tag-picker"')
  t.match(page, new RegExp(`<input id="tag-add-${manySet.id}" name="tagLabel" type="text" required`))
  t.notMatch(page, 'name="tagId">', 'no select')
  t.notMatch(page, 'Topic 60', 'and not every tag in the page')
  const viewerPage = (await (await signedInAgent(app, manyViewer)).get(`/adviceset/${manySet.id}/show`)).body
  t.notMatch(viewerPage, 'tag-picker', 'viewers cannot add tags')
})

t.test('the name finds the tag whatever its case and spacing; a refused name is kept and told at the field', async (t) => {
  const added = await manyAgent.postForm(`/adviceset/${manySet.id}/tags/add`, { tagLabel: '  topic   07 ' })
  t.equal(added.statusCode, 303)
  t.same(await tagLabels(many, manySet.id), ['Topic 07'])
  t.equal((await manyAgent.postForm(`/adviceset/${manySet.id}/tags/add`, { tagLabel: 'example' })).statusCode, 303, 'a provider tag by its name')
  t.same((await tagLabels(many, manySet.id)).sort(), ['Example', 'Topic 07'])

  const unknown = await manyAgent.postForm(`/adviceset/${manySet.id}/tags/add`, { tagLabel: 'Topic 99' })
  t.equal(unknown.statusCode, 400)
  t.match(unknown.body, `<p class="field-error" role="alert" id="tag-add-${manySet.id}-error">No tag is named “Topic 99”. Admins make tags on the Tags page.</p>`)
  t.match(unknown.body, /name="tagLabel"[^>]*value="Topic 99" aria-invalid="true" aria-describedby="tag-add-\d+-error"/, 'the name typed is kept')
  t.match(unknown.body, '&quot;value&quot;:&quot;Topic 99&quot;', 'for the island too')

  const otherOwners = await manyAgent.postForm(`/adviceset/${manySet.id}/tags/add`, { tagLabel: 'Only Few' })
  t.equal(otherOwners.statusCode, 400, 'another owner’s tag is no name here')
  t.match(otherOwners.body, 'No tag is named “Only Few”.')
  const empty = await manyAgent.postForm(`/adviceset/${manySet.id}/tags/add`, { tagLabel: '  ' })
  t.equal(empty.statusCode, 400)
  t.match(empty.body, 'Tag is required.')
  t.same((await tagLabels(many, manySet.id)).sort(), ['Example', 'Topic 07'], 'nothing refused changed the set')
  t.equal((await fewAgent.postForm(`/adviceset/${manySet.id}/tags/add`, { tagLabel: 'Topic 01' })).statusCode, 404, 'another owner’s set is not found')
})

t.test('GET /api/tags?q= finds tags by a part of their name, in name order, at most `limit`', async (t) => {
  const found = await manyAgent.api('GET', '/api/tags?q=opic 1&limit=5')
  t.equal(found.statusCode, 200)
  t.same(found.json().data.map((tag: { label: string }) => tag.label), ['Topic 10', 'Topic 11', 'Topic 12', 'Topic 13', 'Topic 14'])
  t.same((await manyAgent.api('GET', '/api/tags?q=EXAMP')).json().data.map((tag: { label: string }) => tag.label), ['Example'], 'the provider’s tags too, case aside')
  t.same((await manyAgent.api('GET', '/api/tags?q=Only')).json().data, [], 'not another owner’s')
  t.same((await manyAgent.api('GET', '/api/tags?q=%25')).json().data.map((tag: { label: string }) => tag.label), ['100% sure'], 'a % is a character, not a wildcard')
  t.equal((await manyAgent.api('GET', '/api/tags?limit=3')).json().data.length, 3, 'without q, the first by name')
  t.ok((await manyAgent.api('GET', '/api/tags')).json().data.length > 60, 'without either, every tag as before')
  for (const limit of ['0', '101', 'x']) {
    const refused = await manyAgent.api('GET', `/api/tags?limit=${limit}`)
    t.equal(refused.statusCode, 400, `limit=${limit} is refused`)
    t.match(refused.body, 'limit', 'naming the field')
  }
})

t.test('GET /api/tags/{id}: a tag of the team or the provider; another team’s is not found', async (t) => {
  const own = (await manyAgent.api('GET', '/api/tags?q=Topic 01')).json().data[0]
  const example = (await manyAgent.api('GET', '/api/tags?q=Example')).json().data[0]
  const theirs = (await fewAgent.api('GET', '/api/tags?q=Only Few')).json().data[0]
  t.same((await manyAgent.api('GET', `/api/tags/${own.id}`)).json().data.label, 'Topic 01')
  t.same((await manyAgent.api('GET', `/api/tags/${example.id}`)).json().data.slug, 'example')
  t.equal((await manyAgent.api('GET', `/api/tags/${theirs.id}`)).statusCode, 404)
  t.equal((await manyAgent.api('GET', '/api/tags/999999')).statusCode, 404)
})

t.test('the library filters by a tag’s name when the team has more tags than its select offers', async (t) => {
  await createAdviceSet(deps, actorOf(many), { name: 'Untagged one' })
  // A set's card (/library) or row (/library/classic), not the recently viewed list beside them.
  const shows = (body: string, name: string) => new RegExp(`<(li class="set-card"|tr)>[\\s\\S]{0,400}?>${name}</a>`).test(body)
  const plain = (await manyAgent.get('/library')).body
  t.match(plain, /<input id="filter-tag" name="tagName" type="text" maxlength="60"/)
  t.notMatch(plain, '<select name="tag">', 'no select')
  t.notMatch(plain, 'Topic 60', 'and not every tag in the page')
  t.ok(shows(plain, 'Many') && shows(plain, 'Untagged one'), 'unfiltered, every set')

  const filtered = await manyAgent.get('/library?tagName=topic+07')
  t.equal(filtered.statusCode, 200)
  t.ok(shows(filtered.body, 'Many') && !shows(filtered.body, 'Untagged one'), 'by the name, the sets with the tag')
  t.match(filtered.body, 'value="Topic 07"', 'the field shows the tag’s own name')
  t.match(filtered.body, 'href="/library/classic?tagName=topic+07"', 'the view links keep the filter')

  const topic07 = (await manyAgent.api('GET', '/api/tags?q=Topic 07')).json().data[0]
  const byId = (await manyAgent.get(`/library/classic?tag=${topic07.id}`)).body
  t.ok(shows(byId, 'Many') && !shows(byId, 'Untagged one'), 'a link with the tag’s id filters as before')
  t.match(byId, 'value="Topic 07"', 'and names it in the field')
  const theirs = (await fewAgent.api('GET', '/api/tags?q=Only Few')).json().data[0]
  const notOurs = await manyAgent.get(`/library?tag=${theirs.id}`)
  t.equal(notOurs.statusCode, 200, 'another team’s tag id filters as before')
  t.match(notOurs.body, /<input id="filter-tag" name="tagName"[^>]*value="">/, 'without naming it')

  const unknown = await manyAgent.get('/library?tagName=Nope')
  t.equal(unknown.statusCode, 200)
  t.match(unknown.body, '<p class="field-error" role="alert" id="filter-tag-error">No tag is named “Nope”.')
  t.ok(!shows(unknown.body, 'Many') && !shows(unknown.body, 'Untagged one'), 'a name that is no tag finds no set')

  t.match((await fewAgent.get('/library')).body, '<select name="tag">', 'a team with few tags keeps the select')
})

t.test('the bulk editor adds and removes tags by name when the team has more tags than a select offers', async (t) => {
  const sets = await Promise.all(['Bulk one', 'Bulk two'].map((name) => createAdviceSet(deps, actorOf(many), { name })))
  const editor = (await manyAgent.get('/library/bulkeditor')).body
  t.match(editor, 'name="tagName"', 'its filter takes a name')
  for (const field of ['addTagName', 'removeTagName']) t.match(editor, new RegExp(`<input id="f-${field}" name="${field}" type="text"`), `${field} is a field`)
  t.notMatch(editor, 'Topic 60', 'and the page lists no tags')

  const ids = sets.map((s) => String(s.id))
  const form = (fields: Record<string, string>) => new URLSearchParams([...ids.map((id) => ['ids', id]), ...Object.entries(fields), ['_csrf', manyAgent.csrfToken]]).toString()
  const post = (url: string, fields: Record<string, string>) => manyAgent.request({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form(fields) })
  const review = await post('/library/bulkeditor', { addTagName: 'TOPIC 12', removeTagName: '' })
  t.equal(review.statusCode, 200)
  t.match(review.body, 'Add the tag “Topic 12”', 'the confirmation names the tag')
  const topic12 = (await manyAgent.api('GET', '/api/tags?q=Topic 12')).json().data[0]
  t.match(review.body, `<input type="hidden" name="addTagId" value="${topic12.id}">`, 'and carries its id')
  t.equal((await post('/library/bulkeditor/confirm', { addTagId: String(topic12.id) })).statusCode, 303)
  for (const set of sets) t.same(await tagLabels(many, set.id), ['Topic 12'], `${set.name} has the tag`)

  const unknown = await post('/library/bulkeditor', { removeTagName: 'Topic 99' })
  t.equal(unknown.statusCode, 400)
  t.match(unknown.body, '<p class="field-error" id="f-removeTagName-error">No tag is named “Topic 99”. Admins make tags on the Tags page.</p>')
  t.match(unknown.body, /name="removeTagName" type="text"[^>]*value="Topic 99"/, 'the name typed is kept')
})
