// A dictionary entry limited to an advice set shows that set's name, on the list and on its card, and its edit form
// offers that set, however many sets the team has: both took the first 1,000 sets by name, so an entry limited to a
// later one showed no set name, and its form did not offer the set a save would have to keep.
import t from 'tap'
import { sql } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { createVariable } from '../../helpers/rules.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
await createOwner(db, { id: 'TF', name: 'Advice Studio' })
const ownerId = await createOwner(db, { name: 'Big team' })
const author = await signedInAgent(app, await createUser(db, { ownerId, role: 'author' }))
await db.execute(sql`insert into advice_sets (owner_id, name, name_alt, description, is_public, is_starter)
  select ${ownerId}, 'Plan ' || lpad(n::text, 4, '0'), '', '', false, false from generate_series(1, 1005) n`)
const last = await createAdviceSet(db, { ownerId, name: 'Zulu savings' })
const entry = await createVariable(db, ownerId, 'Zulu_Rate', { adviceSetId: last.id })
const stranger = await createAdviceSet(db, { ownerId: await createOwner(db, { name: 'Others' }), name: 'Not yours' })
await createVariable(db, ownerId, 'Hidden_Rate', { adviceSetId: stranger.id })

t.test('the list names the set of an entry limited to the 1,006th set by name', async (t) => {
  const page = await author.get('/admin/dictionary?q=zulu')
  t.equal(page.statusCode, 200)
  t.match(page.body, /<td data-cell="set">Zulu savings<\/td>/)
})

t.test("the entry's card names it too", async (t) => {
  const card = await author.get(`/card/variable/${entry.id}`)
  t.equal(card.statusCode, 200)
  t.match(card.body, 'Zulu savings')
})

t.test('a set the user may not read is not named', async (t) => {
  const page = await author.get('/admin/dictionary?q=hidden')
  t.equal(page.statusCode, 200)
  t.match(page.body, 'Hidden_Rate')
  t.notMatch(page.body, 'Not yours')
})

t.test("the entry's edit form offers its set, chosen, so that a save keeps it", async (t) => {
  const form = await author.get(`/card/variable/${entry.id}/edit`)
  t.equal(form.statusCode, 200)
  const props = JSON.parse(/data-props="([^"]+)"/.exec(form.body)![1]!.replace(/&quot;/g, '"').replace(/&amp;/g, '&').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>')) as { adviceSets: Array<{ id: number; name: string }>; values: { adviceSetId: unknown } }
  t.same(props.adviceSets[0], { id: last.id, name: 'Zulu savings' }, 'its set is offered, first')
  t.equal(String(props.values.adviceSetId), String(last.id), 'and chosen')
  t.equal(props.adviceSets.length, 1001, 'with the first 1,000 by name')
})

t.test('filtered by the 1,006th set, the filter shows that set chosen, so applying the filters again keeps it', async (t) => {
  const page = await author.get(`/admin/dictionary?set=${last.id}`)
  t.equal(page.statusCode, 200)
  t.match(page.body, 'Zulu_Rate', 'the filter applies')
  t.match(page.body, new RegExp(`<option value="${last.id}" selected>Zulu savings</option>`), 'and its set is chosen in the filter')
  const list = await author.get(`/admin/dictionary/list?set=${last.id}`)
  t.match(list.body, new RegExp(`<option value="${last.id}" selected>Zulu savings</option>`), 'on the full list too')
  const other = await author.get(`/admin/dictionary?set=${stranger.id}`)
  t.notMatch(other.body, 'Not yours', 'a set the user may not read is not offered')
})
