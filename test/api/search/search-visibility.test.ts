// Issue 6 acceptance: for each kind of user and each search filter, POST /api/search returns exactly the hits SPEC §6
// allows — also when the request body is tampered with. Issue 22: starter sets of other owners are found as the pages
// show them (DESIGN offers them to every team to read and copy), so search and the library agree.
import t from 'tap'
import { buildTestApp } from '../../helpers/app.ts'
import { Agent } from '../../helpers/agent.ts'
import { createOwner, createUser, type TestUser } from '../../helpers/factories.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { buildRule, createFormula, createVariable } from '../../helpers/rules.ts'
import { reindexAll, searchRuntime } from '../../../src/services/search.ts'
import { ENTITY_TYPES } from '../../../src/engine/entity-types.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const ownerA = await createOwner(db, { name: 'Owner A' })
const ownerB = await createOwner(db, { name: 'Owner B' })
const people: Record<string, TestUser> = {
  'provider admin': await createUser(db, { ownerId: 'TF', role: 'admin' }),
  'provider author': await createUser(db, { ownerId: 'TF', role: 'author' }),
  'owner A': await createUser(db, { ownerId: ownerA, role: 'author' }),
  'owner B': await createUser(db, { ownerId: ownerB, role: 'viewer' }),
}

const KINDS = [
  { kind: 'private', isPublic: false, isStarter: false },
  { kind: 'public', isPublic: true, isStarter: false },
  { kind: 'starter', isPublic: false, isStarter: true },
  { kind: 'public starter', isPublic: true, isStarter: true },
]
// Every kind of document: sets, and in each a rule, a node and a set-kept variable; per owner a formula kept for
// the owner as a whole (no set: visible to its owner only, never a starter).
for (const ownerId of ['TF', ownerA, ownerB]) {
  for (const [i, k] of KINDS.entries()) {
    const set = await createAdviceSet(db, { ownerId, name: `Zebra ${ownerId} ${k.kind}`, isPublic: k.isPublic, isStarter: k.isStarter })
    await buildRule(db, set.id, `Zebra rule of ${set.name}`, [{ type: 'advice', headline: `Zebra advice of ${set.name}` }])
    await createVariable(db, ownerId, `Zebra_count_${i}`, { adviceSetId: set.id })
  }
  await createFormula(db, ownerId, 'Zebra_total', '1 + 2')
}
await reindexAll(app.deps)

const { index } = searchRuntime(app.deps)
const allDocs = (await index.search({ text: 'zebra', filter: [], facets: [], page: 0, hitsPerPage: 100, highlightPreTag: '', highlightPostTag: '' })).hits
const KIND_COUNTS = { 'Advice Set': 12, Rule: 12, Advice: 12, Variable: 12, Formula: 3 }
const found = Object.fromEntries(Object.keys(KIND_COUNTS).map((kind) => [kind, allDocs.filter((d) => d.entityType.displayName === kind).length]))
if (JSON.stringify(found) !== JSON.stringify(KIND_COUNTS)) throw new Error(`expected every document indexed, found ${JSON.stringify(found)}`)

function expected(person: string, searchFilter: string) {
  const user = people[person]!
  const providerAdmin = person === 'provider admin'
  const providerUser = user.ownerId === 'TF'
  const choice = searchFilter === 'all' ? 'all' : searchFilter === '9' ? 'sets' : 'starters'
  return allDocs.filter((d) => {
    const ownerOk = providerAdmin || d.ownerId === 'TF' || d.ownerId === user.ownerId || d.adviceset?.isPublic === true || d.adviceset?.isStarter === true
    const typeOk = choice === 'sets' || (providerUser && choice !== 'all') ? d.entityType.id === ENTITY_TYPES.adviceSet.id : true
    const starterOk = choice === 'starters' ? d.adviceset?.isStarter === true : true
    return ownerOk && typeOk && starterOk
  }).map((d) => d.objectID).sort()
}

const agents = new Map<string, Agent>()
for (const [person, user] of Object.entries(people)) {
  const agent = new Agent(app)
  await agent.signIn(user.email, user.password)
  agents.set(person, agent)
}

/** Every page of one search, as object ids. */
async function searchAll(agent: Agent, params: Record<string, unknown>): Promise<string[]> {
  const ids: string[] = []
  for (let page = 0; ; page++) {
    const res = await agent.api('POST', '/api/search', { requests: [{ indexName: 'advice_updatedAt', params: { query: 'zebra', ...params, page } }] })
    if (res.statusCode !== 200) throw new Error(`search answered ${res.statusCode}: ${res.body}`)
    const result = res.json().results[0]
    ids.push(...result.hits.map((h: { objectID: string }) => h.objectID))
    if (page + 1 >= result.nbPages) return ids.sort()
  }
}

for (const person of Object.keys(people)) {
  t.test(person, async (t) => {
    const agent = agents.get(person)!
    for (const searchFilter of ['9', 'starters', 'all']) {
      t.same(await searchAll(agent, { searchFilter }), expected(person, searchFilter), `filter ${searchFilter}`)
    }
    t.same(await searchAll(agent, {}), expected(person, 'starters'), 'no filter means starters')
    t.same(await searchAll(agent, { searchFilter: 9 }), expected(person, '9'), 'the type id as a number')

    t.test('tampered bodies never widen', async (t) => {
      const widest = expected(person, 'all')
      for (const searchFilter of ['bogus', '11', '', 'ALL', { all: true }, ['all']]) {
        t.same(await searchAll(agent, { searchFilter }), expected(person, 'starters'), `searchFilter ${JSON.stringify(searchFilter)} is the default`)
      }
      for (const other of [ownerA, ownerB, 'TF']) {
        const ids = await searchAll(agent, { searchFilter: 'all', facetFilters: [[`ownerId:${other}`]] })
        t.same(ids, widest.filter((id) => allDocs.find((d) => d.objectID === id)!.ownerId === other), `facetFilters naming ${other} only narrow`)
      }
      const either = await searchAll(agent, { searchFilter: 'all', facetFilters: [[`ownerId:${ownerA}`, `ownerId:${ownerB}`, 'adviceset.isPublic:false']] })
      t.ok(either.every((id) => widest.includes(id)), 'an OR of owners and private sets stays within what is visible')
      t.same(await searchAll(agent, { searchFilter: 'all', filters: `ownerId:${ownerB} OR ownerId:${ownerA}`, visibility: 'all', userToken: 'someone-else' }), widest,
        'filters, unknown params and a foreign user token change nothing')
      const bad = await agent.api('POST', '/api/search', { requests: [{ indexName: 'advice_updatedAt', params: { facetFilters: [['owner_id:x']] } }] })
      t.equal(bad.statusCode, 400, 'an unknown filter attribute is refused')
    })
  })
}

t.test('search and the pages agree on which advice sets each person sees', async (t) => {
  for (const [person, agent] of agents) {
    const found = (await searchAll(agent, { searchFilter: 'all' }))
      .map((id) => allDocs.find((d) => d.objectID === id)!).filter((d) => d.entityType.id === ENTITY_TYPES.adviceSet.id).map((d) => d.adviceset!.id).sort()
    const library = await agent.api('GET', '/api/adviceset/show?q=Zebra', undefined, { csrf: false })
    const listed = (library.json().data.entries as Array<{ id: number }>).map((e) => e.id).sort()
    t.same(found, listed, `${person}: the sets search finds are the sets the library lists`)
    const opened = await Promise.all(allDocs.filter((d) => d.entityType.id === ENTITY_TYPES.adviceSet.id)
      .map(async (d) => ({ id: d.adviceset!.id, status: (await agent.get(`/adviceset/${d.adviceset!.id}/show`)).statusCode })))
    t.same(opened.filter((o) => o.status === 200).map((o) => o.id).sort(), found, `${person}: the sets search finds are the sets whose page opens`)
  }
})

t.test('the search endpoint itself', async (t) => {
  const anonymous = new Agent(app)
  await anonymous.get('/login')
  const signedOut = await anonymous.api('POST', '/api/search', { requests: [{ indexName: 'advice_updatedAt', params: {} }] })
  t.equal(signedOut.statusCode, 401, 'signed out: 401')

  const agent = agents.get('owner A')!
  const noCsrf = await agent.api('POST', '/api/search', { requests: [{ indexName: 'advice_updatedAt', params: {} }] }, { csrf: false })
  t.equal(noCsrf.statusCode, 403, 'without the CSRF header: 403')

  const wrongIndex = await agent.api('POST', '/api/search', { requests: [{ indexName: 'other_index', params: {} }] })
  t.equal(wrongIndex.statusCode, 400, 'an unknown index: 400')

  const res = await agent.api('POST', '/api/search', {
    requests: [
      { indexName: 'advice_updatedAt', params: { query: 'zebra', hitsPerPage: 1000, searchFilter: 'all', facets: ['ownerName', 'entityType.displayName', 'adviceset.isStarter'] } },
      { indexName: 'advice_updatedAt', params: { query: 'x'.repeat(600) } },
    ],
  })
  t.equal(res.statusCode, 200)
  const [first, second] = res.json().results
  t.equal(first.hitsPerPage, 15, 'hitsPerPage is forced to 15')
  t.equal(first.hits.length, 15)
  t.equal(first.nbHits, expected('owner A', 'all').length)
  t.equal(first.index, 'advice_updatedAt')
  t.equal(first.exhaustiveNbHits, true)
  t.type(first.processingTimeMS, 'number')
  const visible = expected('owner A', 'all').map((id) => allDocs.find((d) => d.objectID === id)!)
  const countBy = (value: (d: (typeof visible)[number]) => string) => visible.reduce<Record<string, number>>((counts, d) => ({ ...counts, [value(d)]: (counts[value(d)] ?? 0) + 1 }), {})
  t.same(first.facets.ownerName, countBy((d) => d.ownerName), 'facet counts cover only visible results')
  t.same(first.facets.ownerName, { 'Advice Studio': 17, 'Owner A': 17, 'Owner B': 12 }, "B's public, starter and public starter sets with their rule, node and variable")
  t.same(first.facets['entityType.displayName'], countBy((d) => d.entityType.displayName))
  t.same(first.facets['adviceset.isStarter'], countBy((d) => String(d.adviceset?.isStarter ?? false)))
  const hit = first.hits[0]
  for (const key of ['objectID', 'entityType', 'ownerId', 'ownerName', 'name', 'name_alt', 'uri', 'nodeId', 'rule', 'adviceset', 'tags', '_highlightResult']) {
    t.ok(key in hit, `a hit has ${key}`)
  }
  t.equal(second.query.length, 512, 'the query is capped at 512 characters')
})
