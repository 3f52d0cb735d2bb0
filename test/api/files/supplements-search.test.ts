// Supplements in the app's search (issue 15 part 6): media and visualizations are found by name with the search
// filter "all", each owner's only by its own team and provider admins, the provider's by everyone; edits, deletes and
// restores reach the index through the audit log's index tasks.
import t from 'tap'
import { buildTestApp } from '../../helpers/app.ts'
import { Agent, signedInAgent } from '../../helpers/agent.ts'
import { createOwner, createUser, type TestUser } from '../../helpers/factories.ts'
import { HTML_PAGE, pngOf, upload } from '../../helpers/uploads.ts'
import { LIBRARY_TYPES } from '../../../src/engine/entity-types.ts'

const ctx = await buildTestApp(t)
const db = ctx.database.db
const ownerA = await createOwner(db, { name: 'Owner A' })
const ownerB = await createOwner(db, { name: 'Owner B' })
const people: Record<string, TestUser> = {
  'provider admin': await createUser(db, { ownerId: 'TF', role: 'admin' }),
  'provider author': await createUser(db, { ownerId: 'TF', role: 'author' }),
  'owner A': await createUser(db, { ownerId: ownerA, role: 'author' }),
  'owner B': await createUser(db, { ownerId: ownerB, role: 'author' }),
}
const agents = new Map<string, Agent>()
for (const [person, user] of Object.entries(people)) agents.set(person, await signedInAgent(ctx.app, user))

const ids: Record<string, number> = {}
for (const [person, ownerId] of [['provider author', 'TF'], ['owner A', ownerA], ['owner B', ownerB]] as const) {
  const agent = agents.get(person)!
  ids[`image ${ownerId}`] = (await upload(agent, { filename: `Quokka photo ${ownerId}.png`, data: await pngOf(10, 10) })).json().data.id
  ids[`chart ${ownerId}`] = (await upload(agent, { filename: `Quokka chart ${ownerId}.html`, data: HTML_PAGE })).json().data.id
}

interface Hit { objectID: string; entityType: { id: number; displayName: string }; ownerId: string; uri: string; name: string }

async function search(agent: Agent, text: string, searchFilter = 'all'): Promise<Hit[]> {
  const res = await agent.api('POST', '/api/search', { requests: [{ indexName: 'advice_updatedAt', params: { query: text, searchFilter } }] })
  if (res.statusCode !== 200) throw new Error(`search answered ${res.statusCode}: ${res.body}`)
  return res.json().results[0].hits
}

t.test('each person finds the supplements of its own team and the provider’s, never another team’s', async (t) => {
  for (const [person, user] of Object.entries(people)) {
    const hits = await search(agents.get(person)!, 'quokka')
    const owners = [...new Set(hits.map((h) => h.ownerId))].sort()
    const expected = person === 'provider admin' ? ['TF', ownerA, ownerB].sort() : [...new Set(['TF', user.ownerId])].sort()
    t.same(owners, expected, person)
    t.equal(hits.length, expected.length * 2, `${person}: an image and a chart per owner`)
  }
})

t.test('hits say what they are and where they open', async (t) => {
  const hits = await search(agents.get('owner A')!, `quokka chart ${ownerA}`)
  const chart = hits.find((h) => h.objectID === `supplement-${ids[`chart ${ownerA}`]}`)!
  t.match(chart, { entityType: { id: LIBRARY_TYPES.visualization.id, displayName: 'Visualization' }, uri: `/visualizations/${ids[`chart ${ownerA}`]}/show` })
  const image = (await search(agents.get('owner A')!, `quokka photo ${ownerA}`)).find((h) => h.objectID === `supplement-${ids[`image ${ownerA}`]}`)!
  t.match(image, { entityType: { id: LIBRARY_TYPES.supplement.id, displayName: 'Supplement' }, uri: `/media/${ids[`image ${ownerA}`]}/show` })
  t.same(await search(agents.get('owner A')!, 'quokka', 'starters'), [], 'they are not starter advice sets')
})

t.test('a rename, a delete and a restore reach the index', async (t) => {
  const agent = agents.get('owner A')!
  const id = ids[`image ${ownerA}`]
  await agent.api('PATCH', `/api/supplements/${id}`, { name: 'Wombat portrait' })
  t.same((await search(agent, 'wombat')).map((h) => h.objectID), [`supplement-${id}`])
  await agent.api('DELETE', `/api/supplements/${id}`)
  t.same(await search(agent, 'wombat'), [], 'a deleted supplement is not found')
  await agent.api('POST', `/api/supplements/${id}/restore`)
  t.same((await search(agent, 'wombat')).map((h) => h.objectID), [`supplement-${id}`], 'found again once restored')
})
