// Issue 6 acceptance: writes reach the index after commit (create, rename, tag, delete, recover, restore from the
// activity log); a crash between commit and indexing is repaired at start-up; a failing index loses nothing; support
// deletes an index object.
import t from 'tap'
import { sql } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { Agent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { createAdviceSet as createAdviceSetRow } from '../../helpers/advice-sets.ts'
import { createAdviceSet } from '../../../src/services/library/advice-sets.ts'
import { reindexAll, searchRuntime } from '../../../src/services/search.ts'
import { SearchIndexer } from '../../../src/search/sync.ts'
import { countIndexTasks } from '../../../src/db/queries/search.ts'
import type { SearchDocument, SearchIndex } from '../../../src/search/types.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const ownerA = await createOwner(db, { name: 'Owner A' })
const author = await createUser(db, { ownerId: ownerA, role: 'author' })
const admin = await createUser(db, { ownerId: 'TF', role: 'admin' })
const agent = new Agent(app)
await agent.signIn(author.email, author.password)
const { index, indexer } = searchRuntime(app.deps)
const actor = { userId: author.id, ownerId: ownerA, role: 'author' as const, impersonatorId: null }
const silent = { warn: () => {} }

async function search(query: string, params: Record<string, unknown> = {}) {
  const res = await agent.api('POST', '/api/search', { requests: [{ indexName: 'advice_updatedAt', params: { query, searchFilter: 'all', ...params } }] })
  if (res.statusCode !== 200) throw new Error(`search answered ${res.statusCode}: ${res.body}`)
  return res.json().results[0] as { nbHits: number; hits: Array<{ objectID: string; name: string; name_alt: string; tags: string[]; _highlightResult: { name: { value: string } } }> }
}

/** `inner` with its upserts seen first by `before` (which may throw or wait), also inside the indexer's transactions. */
function watchedIndex(inner: SearchIndex, before: (docs: SearchDocument[]) => void | Promise<void>): SearchIndex {
  return {
    kind: inner.kind,
    search: (q) => inner.search(q),
    delete: (ids) => inner.delete(ids),
    clear: () => inner.clear(),
    stats: () => inner.stats(),
    upsert: async (docs: SearchDocument[]) => {
      await before(docs)
      return inner.upsert(docs)
    },
    inTransaction: (tx) => watchedIndex(inner.inTransaction!(tx), before),
  }
}

/** Fails `failures.left` upserts, then behaves as `inner`. */
function flakyIndex(inner: SearchIndex, failures: { left: number }): SearchIndex {
  return watchedIndex(inner, () => { if (failures.left-- > 0) throw new Error('index unavailable') })
}

/** The index as it is, without applying pending tasks first (the API search applies them). */
async function indexed(query: string): Promise<string[]> {
  const result = await index.search({ text: query, filter: [], facets: [], page: 0, hitsPerPage: 15, highlightPreTag: '', highlightPostTag: '' })
  return result.hits.map((h) => h.objectID)
}

t.test('create, rename, tag, delete, recover and restore show up in search', async (t) => {
  const created = await agent.api('POST', '/api/adviceset', { name: 'Quokka budgeting', nameAlt: 'Quokka budgets for families', description: 'Saving with marsupials' })
  t.equal(created.statusCode, 201)
  const id = created.json().data.id as number
  const objectID = `adviceset-${id}`

  let result = await search('quokka')
  t.same(result.hits.map((h) => h.objectID), [objectID], 'created: found')
  t.equal(result.hits[0]!.name_alt, 'Quokka budgets for families')
  t.equal(result.hits[0]!._highlightResult.name.value, '<mark>Quokka</mark> budgeting')
  t.same((await search('marsupials')).hits.map((h) => h.objectID), [objectID], 'found by its description')

  t.equal((await agent.api('PATCH', `/api/adviceset/${id}`, { name: 'Wombat budgeting' })).statusCode, 200)
  t.same((await search('wombat')).hits.map((h) => h.objectID), [objectID], 'renamed: found by the new name')
  result = await search('budgeting')
  t.equal(result.hits[0]!.name, 'Wombat budgeting', 'the hit carries the new name')

  const tag = await agent.api('POST', '/api/tags', { label: 'Family finance' })
  t.equal((await agent.api('POST', `/api/tags/${tag.json().data.id}/link`, { entityType: 'adviceset', entityId: id })).statusCode, 200)
  t.same((await search('wombat')).hits[0]!.tags, ['Family finance'], 'tagged: the hit lists the tag')

  t.equal((await agent.api('DELETE', `/api/adviceset/${id}`)).statusCode, 200)
  t.equal((await search('wombat')).nbHits, 0, 'deleted: gone')

  t.equal((await agent.api('POST', `/api/adviceset/${id}/recover`)).statusCode, 200)
  t.same((await search('wombat')).hits.map((h) => h.objectID), [objectID], 'recovered: back')

  const activity = await agent.api('GET', `/api/activity/index?entityType=adviceset&entityId=${id}&days=1`)
  const rename = (activity.json().data.items as Array<{ id: number; action: string; after: { name?: string } | null }>).find((a) => a.action === 'update' && a.after?.name === 'Wombat budgeting')
  t.ok(rename, 'the rename is in the activity log')
  t.equal((await agent.api('POST', `/api/activity/${rename!.id}/restore`)).statusCode, 200)
  t.same((await search('quokka')).hits.map((h) => h.objectID), [objectID], 'restored from the activity log: the old name is found again')
  t.equal(await countIndexTasks(db), 0, 'no index task is left over')
})

t.test("rules are found, and follow their set's name, visibility and deletion", async (t) => {
  const set = (await agent.api('POST', '/api/adviceset', { name: 'Koala loans' })).json().data as { id: number }
  const created = await agent.api('POST', '/api/rule', { adviceSetId: set.id, name: 'Dingo eligibility' })
  t.equal(created.statusCode, 201)
  const ruleId = created.json().data.id as number
  let [hit] = (await search('dingo')).hits as Array<Record<string, unknown>>
  t.match(hit, { objectID: `rule-${ruleId}`, entityType: { id: 11, displayName: 'Rule' }, name: 'Dingo eligibility', rule: { id: ruleId },
    uri: `/adviceset/${set.id}/rule/${ruleId}/show`, adviceset: { id: set.id, name: 'Koala loans', isPublic: false } })

  t.equal((await agent.api('PATCH', `/api/adviceset/${set.id}`, { name: 'Koala mortgages', isPublic: true })).statusCode, 200)
  ;[hit] = (await search('dingo')).hits as Array<Record<string, unknown>>
  t.match(hit, { adviceset: { name: 'Koala mortgages', isPublic: true } }, 'the rule carries the changed set')

  t.equal((await agent.api('DELETE', `/api/adviceset/${set.id}`)).statusCode, 200)
  t.equal((await search('dingo')).nbHits, 0, 'a deleted set takes its rules out of search')
  t.equal((await agent.api('POST', `/api/adviceset/${set.id}/recover`)).statusCode, 200)
  t.equal((await search('dingo')).nbHits, 1, 'and brings them back when recovered')

  t.equal((await agent.api('PATCH', `/api/rule/${ruleId}`, { name: 'Wallaby eligibility' })).statusCode, 200)
  t.same((await search('wallaby')).hits.map((h) => h.objectID), [`rule-${ruleId}`], 'a renamed rule is found by its new name')
  t.equal((await agent.api('DELETE', `/api/rule/${ruleId}`)).statusCode, 200)
  t.equal((await search('wallaby')).nbHits, 0, 'a deleted rule is gone')
})

t.test('a crash between commit and indexing is repaired at start-up', async (t) => {
  await indexer.stop()
  t.teardown(() => indexer.start())
  const set = await createAdviceSet(app.deps, actor, { name: 'Platypus pensions' })
  t.equal(await countIndexTasks(db), 1, 'the write left its index task')
  t.same(await indexed('platypus'), [], 'not in the index: the process "died" before indexing')

  const restarted = new SearchIndexer(db, index, silent)
  await restarted.start()
  t.equal(await restarted.caughtUp, 1, 'start-up applies the left-over task')
  await restarted.stop()
  t.same(await indexed('platypus'), [`adviceset-${set.id}`], 'now found')
  t.equal(await countIndexTasks(db), 0, 'and the task is gone')
})

t.test('readiness does not wait for a backlog, and a search behind one answers from the index as it stands', async (t) => {
  await indexer.stop()
  t.teardown(() => indexer.start())
  const set = await createAdviceSet(app.deps, actor, { name: 'Quokka quotas' })
  // An index whose upserts wait for the test: the start's catch-up is held inside its pass.
  let reach!: () => void
  const reached = new Promise<void>((resolve) => { reach = resolve })
  let open!: () => void
  const gate = new Promise<void>((resolve) => { open = resolve })
  const held = watchedIndex(index, async () => { reach(); await gate })
  const restarted = new SearchIndexer(db, held, silent)
  const first = await Promise.race([restarted.start().then(() => 'ready'), reached.then(() => 'held in the catch-up')])
  t.equal(first, 'ready', 'the start resolves before its catch-up is done')
  await reached
  await restarted.flushWithin(20)
  t.pass('a search waits at most its bound for a pass that is held')
  // Once the pass has run for longer than a search's bound, a search does not wait at all.
  const heldSince = performance.now()
  while (performance.now() - heldSince < 30) await Promise.resolve()
  const waits: number[] = []
  await restarted.flushWithin(25, async (ms) => { waits.push(ms) })
  t.same(waits, [], 'behind a pass running for longer than its bound, a search does not wait at all')
  // (Nothing reads the database here: on PGlite the held pass's transaction has the one connection.)
  open()
  t.equal(await restarted.caughtUp, 1, 'the catch-up goes on and applies the task')
  await restarted.stop()
  t.ok((await indexed('quokka')).includes(`adviceset-${set.id}`), 'now found')
})

t.test('an index that fails loses nothing: the task waits with backoff and is applied later', async (t) => {
  await indexer.stop()
  t.teardown(() => indexer.start())
  const failures = { left: 1 }
  const worker = new SearchIndexer(db, flakyIndex(index, failures), silent)
  const set = await createAdviceSet(app.deps, actor, { name: 'Echidna savings' })
  t.equal(await worker.flush(), 0, 'the first attempt fails')
  const [task] = await database.db.execute(sql`SELECT attempts, last_error, run_after > now() AS later FROM search_index_tasks`).then((r) => (Array.isArray(r) ? r : (r as unknown as { rows: unknown[] }).rows) as Array<{ attempts: number; last_error: string; later: boolean }>)
  t.match(task, { attempts: 1, last_error: 'index unavailable', later: true }, 'the task records the failure and waits')
  t.equal(await worker.flush(), 0, 'not retried before its time')
  t.equal(await worker.repair(), 1, 'applied on the next repair')
  await worker.stop()
  t.same(await indexed('echidna'), [`adviceset-${set.id}`])
  t.equal(await countIndexTasks(db), 0)
})

/** Behaves as `inner`, refusing any upsert with a document whose name has `poison`, and recording the upserts. */
function recordingIndex(inner: SearchIndex, upserts: string[][], poison: string): SearchIndex {
  return watchedIndex(inner, (docs) => {
    upserts.push(docs.map((d) => d.name))
    if (docs.some((d) => d.name.includes(poison))) throw new Error(`refused ${poison}`)
  })
}

t.test('the tasks of several entities are applied together; one that fails makes only its own tasks wait', async (t) => {
  await indexer.stop()
  t.teardown(() => indexer.start())
  const upserts: string[][] = []
  const worker = new SearchIndexer(db, recordingIndex(index, upserts, 'Poisoned'), silent)
  const names = ['Wombat one', 'Wombat two', 'Wombat three']
  for (const name of names) await createAdviceSet(app.deps, actor, { name })
  t.equal(await worker.flush(), 3, 'all three applied')
  t.same(upserts.map((docs) => [...docs].sort()), [[...names].sort()], 'in one upsert: one transaction for the pass')
  t.equal(await countIndexTasks(db), 0)

  upserts.length = 0
  const poisoned = await createAdviceSet(app.deps, actor, { name: 'Poisoned wombat' })
  const fine = await createAdviceSet(app.deps, actor, { name: 'Wombat four' })
  t.equal(await worker.flush(), 1, 'the other entity is applied')
  t.equal(upserts.length, 3, 'together first, then each on its own')
  const left = await database.db.execute(sql`SELECT entity_id, last_error FROM search_index_tasks`).then((r) => (Array.isArray(r) ? r : (r as unknown as { rows: unknown[] }).rows) as Array<{ entity_id: string; last_error: string }>)
  t.same(left, [{ entity_id: String(poisoned.id), last_error: 'refused Poisoned' }], 'only the failing entity\'s task waits, with its error')
  t.ok((await indexed('wombat')).includes(`adviceset-${fine.id}`), 'the other is found')
  await worker.stop()
  await database.db.execute(sql`DELETE FROM search_index_tasks`)
})

t.test('support deletes a search-index object', async (t) => {
  const set = await createAdviceSetRow(db, { ownerId: ownerA, name: 'Numbat leftovers' })
  await index.upsert([{
    objectID: `adviceset-${set.id}`, entityType: { id: 9, displayName: 'Advice Set' }, ownerId: ownerA, ownerName: 'Owner A', name: set.name,
    name_alt: set.name, uri: `/adviceset/${set.id}/show`, nodeId: null, rule: null,
    adviceset: { id: set.id, name: set.name, name_alt: set.name, isPublic: false, isStarter: false }, tags: [], text: '', updatedAt: new Date(),
  }])
  const url = `/api/admin/support/algolia/object/adviceset-${set.id}`
  t.equal((await agent.api('DELETE', url)).statusCode, 403, 'an author may not')
  t.same(await indexed('numbat'), [`adviceset-${set.id}`], 'still there')
  const support = new Agent(app)
  await support.signIn(admin.email, admin.password)
  const res = await support.api('DELETE', url)
  t.equal(res.statusCode, 200, 'a provider admin may')
  t.same(res.json(), { data: { deleted: `adviceset-${set.id}` } })
  t.same(await indexed('numbat'), [], 'gone from the index')

  const again = await support.api('DELETE', url)
  t.equal(again.statusCode, 404, 'the same object again: nothing to remove')
  t.match(again.json(), { error: { message: `Nothing in the search index has the object ID “adviceset-${set.id}”; nothing was removed.` } })
  const nonsense = await support.api('DELETE', `/api/admin/support/algolia/object/${encodeURIComponent('nonsense id !!')}`)
  t.equal(nonsense.statusCode, 404, 'an ID the index never held')
  t.match(nonsense.json(), { error: { message: /Nothing in the search index has the object ID “nonsense id !!”/ } })

  const form = await support.postForm('/admin/support/object', { objectID: 'nonsense id !!' }, { page: '/admin/support' })
  t.equal(form.statusCode, 303)
  const page = await support.get('/admin/support')
  t.match(page.body, 'Nothing in the search index has the object ID “nonsense id !!”; nothing was removed.', 'the support page says nothing was found')
  t.notMatch(page.body, 'Removed “nonsense id !!”')
})

t.test('a rebuild keeps answering searches while it runs, and removes what it did not write again', async (t) => {
  const set = (await agent.api('POST', '/api/adviceset', { name: 'Bilby budgets' })).json().data as { id: number }
  const rule = (await agent.api('POST', '/api/rule', { adviceSetId: set.id, name: 'Bilby eligibility' })).json().data as { id: number }
  t.same((await search('bilby')).hits.map((h) => h.objectID).sort(), [`adviceset-${set.id}`, `rule-${rule.id}`])
  // A document whose entity is gone (support's deletion or a lost task would leave one): the rebuild does not write it.
  const gone = `adviceset-${set.id + 100000}`
  await index.upsert([{
    objectID: gone, entityType: { id: 9, displayName: 'Advice Set' }, ownerId: ownerA, ownerName: 'Owner A', name: 'Bilby leftovers',
    name_alt: 'Bilby leftovers', uri: `/adviceset/${set.id + 100000}/show`, nodeId: null, rule: null,
    adviceset: { id: set.id + 100000, name: 'Bilby leftovers', name_alt: 'Bilby leftovers', isPublic: false, isStarter: false }, tags: [], text: '', updatedAt: new Date(),
  }])
  // Sets are written again first, rules after them: after the first batch, the rule must still be found.
  const seenMidway: string[][] = []
  await reindexAll(app.deps, async (done) => { if (done > 0 && seenMidway.length === 0) seenMidway.push(await indexed('bilby')) })
  t.ok(seenMidway[0]?.includes(`rule-${rule.id}`), `midway, the rule not yet written again is still found (${seenMidway[0]?.join(', ')})`)
  t.same((await indexed('bilby')).sort(), [`adviceset-${set.id}`, `rule-${rule.id}`], 'at the end, the live documents, and not the one whose entity is gone')
})
