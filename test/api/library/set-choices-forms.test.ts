// A big team's advice sets do not all fit in a form's list (services/library/set-choices.ts). The API key form (its
// allowed sets) and the keyword map form (its target) list the first 500 by name, always with the sets already
// chosen, so that saving never drops a choice it could not list: an API key whose only allowed set was left out
// would have been saved allowing every set. A "Find" button lists the sets whose name holds a text, keeping what was
// typed and saving nothing.
import t from 'tap'
import { eq, sql } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { createApiKey } from '../../helpers/api-keys.ts'
import { apiKeys, keywordMaps } from '../../../src/db/schema/index.ts'
import { SET_CHOICES_LIMIT } from '../../../src/services/library/set-choices.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const owner = await createOwner(db, { name: 'Big team' })
const admin = await signedInAgent(app, await createUser(db, { ownerId: owner, role: 'admin' }))
// More sets than a list holds, named so that "Zebra" and "Zulu" come after every one of them.
await db.execute(sql`insert into advice_sets (owner_id, name, name_alt, description, is_public, is_starter)
  select ${owner}, 'Plan ' || lpad(n::text, 4, '0'), '', '', false, false from generate_series(1, ${SET_CHOICES_LIMIT + 5}) n`)
const zebra = await createAdviceSet(db, { ownerId: owner, name: 'Zebra crossing advice' })
const zulu = await createAdviceSet(db, { ownerId: owner, name: 'Zulu time savings' })

const option = (id: number) => new RegExp(`<option value="${id}"( selected)?>`)
const selected = (id: number) => new RegExp(`<option value="${id}" selected>`)

t.test('API key form: a key allowing a set beyond the list keeps it when saved', async (t) => {
  const { key } = await createApiKey(db, { ownerId: owner, name: 'Partner', allowedAdviceSetIds: [zebra.id] })
  const form = await admin.get(`/admin/apikey/${key.id}/edit`)
  t.equal(form.statusCode, 200)
  t.match(form.body, /<select id="f-allowedAdviceSetIds"[^>]*>\s*<option value="\d+" selected>Zebra crossing advice</, 'the allowed set is listed first, chosen')
  t.notMatch(form.body, option(zulu.id), 'a set beyond the list that is not chosen is not')
  t.equal([...form.body.matchAll(/<option value="\d+"( selected)?>(Plan|Zebra|Zulu)/g)].length, SET_CHOICES_LIMIT + 1, 'the first 500 by name and the chosen one')
  t.match(form.body, 'Your team can use more than 500 advice sets')
  t.match(form.body, /<button type="submit" class="visually-hidden" tabindex="-1" aria-hidden="true">Save<\/button>\s*<div class="field set-finder">/, 'Save stays the default button, before Find')

  // The browser sends the chosen option back: the name changes, the allowed set stays.
  const saved = await admin.postForm(`/admin/apikey/${key.id}/edit`, { name: 'Partner renamed', allowedAdviceSetIds: String(zebra.id), rateLimit: '600', explain: 'refuse' })
  t.equal(saved.statusCode, 303)
  const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, key.id))
  t.equal(row!.name, 'Partner renamed')
  t.same(row!.allowedAdviceSetIds, [zebra.id], 'still only that set')
})

t.test('API key form: Find lists the sets whose name holds the text, keeps what was typed, saves nothing', async (t) => {
  const { key } = await createApiKey(db, { ownerId: owner, name: 'Finder', allowedAdviceSetIds: [zebra.id] })
  const found = await admin.postForm(`/admin/apikey/${key.id}/edit`, { name: 'Typed, not saved', allowedAdviceSetIds: String(zebra.id), rateLimit: '600', explain: 'refuse', setFilter: 'zulu', findSets: '1' })
  t.equal(found.statusCode, 200)
  t.match(found.body, option(zulu.id), 'the set found is offered')
  t.match(found.body, selected(zebra.id), 'the chosen set stays chosen')
  t.notMatch(found.body, /<option value="\d+">Plan 0001/, 'the others are not listed')
  t.match(found.body, 'value="Typed, not saved"', 'what was typed is kept')
  t.match(found.body, 'The list shows the sets chosen, then those whose name holds “zulu”.')
  t.match(found.body, /id="f-setFilter"[^>]*autofocus/, 'the find field has the focus, so the page opens at it')
  const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, key.id))
  t.equal(row!.name, 'Finder', 'nothing saved')

  // Choosing the found set and saving allows both.
  const both = await admin.request({
    method: 'POST', url: `/admin/apikey/${key.id}/edit`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams([['_csrf', admin.csrfToken], ['name', 'Finder'], ['allowedAdviceSetIds', String(zebra.id)], ['allowedAdviceSetIds', String(zulu.id)], ['rateLimit', '600'], ['explain', 'refuse']]).toString(),
  })
  t.equal(both.statusCode, 303)
  const [after] = await db.select().from(apiKeys).where(eq(apiKeys.id, key.id))
  t.same([...after!.allowedAdviceSetIds].sort((a, b) => a - b), [zebra.id, zulu.id].sort((a, b) => a - b))
})

t.test('API key form: a new key with a set found, and a team that fits in the list gets no finder', async (t) => {
  const found = await admin.postForm('/admin/apikey/new', { name: 'New partner', environment: 'production', rateLimit: '600', setFilter: 'Zebra', findSets: '1' })
  t.equal(found.statusCode, 200)
  t.match(found.body, option(zebra.id))
  t.match(found.body, 'value="New partner"')
  t.equal((await db.select().from(apiKeys).where(eq(apiKeys.name, 'New partner'))).length, 0, 'no key made')

  const small = await createOwner(db, { name: 'Small team' })
  await createAdviceSet(db, { ownerId: small, name: 'Only set' })
  const smallAdmin = await signedInAgent(app, await createUser(db, { ownerId: small, role: 'admin' }))
  const form = await smallAdmin.get('/admin/apikey/new')
  t.equal(form.statusCode, 200)
  t.notMatch(form.body, 'set-finder', 'no finder when every set is listed')
})

t.test('keyword map form: a map pointing beyond the list keeps its target when saved; Find offers others', async (t) => {
  const created = await admin.postForm('/admin/keywordMap', { name: 'Crossings', phrases: 'zebra crossing', adviceSetId: String(zebra.id), scenarioId: '' })
  t.equal(created.statusCode, 303)
  const [map] = await db.select().from(keywordMaps).where(eq(keywordMaps.name, 'Crossings'))
  const page = await admin.get(`/admin/keywordMap/${map!.id}`)
  t.equal(page.statusCode, 200)
  t.match(page.body, selected(zebra.id), 'the target is listed, chosen')

  const saved = await admin.postForm(`/admin/keywordMap/${map!.id}`, { name: 'Crossings', phrases: 'zebra crossing\npedestrian crossing', adviceSetId: String(zebra.id), scenarioId: '' })
  t.equal(saved.statusCode, 303)
  const [row] = await db.select().from(keywordMaps).where(eq(keywordMaps.id, map!.id))
  t.equal(row!.adviceSetId, zebra.id, 'the target is unchanged')
  t.same(row!.phrases, ['zebra crossing', 'pedestrian crossing'])

  const found = await admin.postForm(`/admin/keywordMap/${map!.id}`, { name: 'Typed', phrases: 'zebra crossing', adviceSetId: String(zebra.id), scenarioId: '', setFilter: 'zulu', findSets: '1' })
  t.equal(found.statusCode, 200)
  t.match(found.body, option(zulu.id), 'the set found is offered')
  t.match(found.body, selected(zebra.id), 'the target stays chosen')
  t.match(found.body, 'value="Typed"')
  const [unchanged] = await db.select().from(keywordMaps).where(eq(keywordMaps.id, map!.id))
  t.equal(unchanged!.name, 'Crossings', 'nothing saved')

  const fresh = await admin.postForm('/admin/keywordMap', { name: 'Time', phrases: 'zulu', adviceSetId: '', scenarioId: '', setFilter: 'Zulu time', findSets: '1' })
  t.equal(fresh.statusCode, 200)
  t.match(fresh.body, option(zulu.id), 'the new map form finds sets too')
})
