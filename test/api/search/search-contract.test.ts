// Issue 6 acceptance: one contract for every SearchIndex — ranking (name before text), prefix and one-typo matches,
// highlights, facets, filters, pagination, deletes. Runs against the PostgreSQL index on PGlite and PostgreSQL
// (whichever the test run uses), and against Meilisearch when MEILI_URL is set.
import t, { type Test } from 'tap'
import { openTestDatabase } from '../../helpers/database.ts'
import { PostgresSearchIndex } from '../../../src/search/postgres.ts'
import { MeiliSearchIndex } from '../../../src/search/meilisearch.ts'
import { MAX_HITS_REACHABLE, type Filter, type FilterField, type SearchDocument, type SearchIndex, type SearchQuery } from '../../../src/search/types.ts'


const T0 = Date.UTC(2026, 0, 1)

function doc(id: string, fields: Partial<Omit<SearchDocument, 'objectID'>> & { minutes?: number } = {}): SearchDocument {
  const { minutes = 0, ...rest } = fields
  const name = rest.name ?? `Document ${id}`
  return {
    objectID: id, entityType: { id: 9, displayName: 'Advice Set' }, ownerId: 'TF', ownerName: 'Advice Studio', name, name_alt: rest.name_alt ?? name,
    uri: `/adviceset/${id}/show`, nodeId: null, rule: null,
    adviceset: { id: 1, name, name_alt: name, isPublic: false, isStarter: false }, tags: [], text: '',
    ...rest, updatedAt: new Date(T0 + minutes * 60_000),
  }
}

function query(text: string, more: Partial<SearchQuery> = {}): SearchQuery {
  return { text, filter: [], facets: [], page: 0, hitsPerPage: 15, highlightPreTag: '<mark>', highlightPostTag: '</mark>', ...more }
}

async function ids(index: SearchIndex, text: string, more: Partial<SearchQuery> = {}): Promise<string[]> {
  return (await index.search(query(text, more))).hits.map((h) => h.objectID)
}

function contract(t: Test, index: SearchIndex) {
  t.beforeEach(() => index.clear())

  t.test('ranking: name and name_alt before other text, exact before typo, newest first within each', async (t) => {
    await index.upsert([
      doc('old-name', { name: 'Glacier pensions', minutes: 1 }),
      doc('alt-name', { name: 'Cold funds', name_alt: 'Glacier savings', minutes: 2 }),
      doc('text', { name: 'Unrelated', text: 'a glacier appears in the description', minutes: 9 }),
      doc('typo-name', { name: 'Glaceir fund', minutes: 10 }),
      doc('new-name', { name: 'Glacier mortgages', minutes: 5 }),
      doc('none', { name: 'Nothing here', minutes: 20 }),
    ])
    t.same(await ids(index, 'glacier'), ['new-name', 'alt-name', 'old-name', 'text', 'typo-name'])
  })

  t.test('prefix matches on the word being typed; earlier words are whole words', async (t) => {
    await index.upsert([
      doc('a', { name: 'Glacier pensions', minutes: 2 }),
      doc('b', { name: 'Glacier penguins', minutes: 1 }),
      doc('c', { name: 'Pensions only', minutes: 3 }),
    ])
    t.same(await ids(index, 'g'), ['a', 'b'], 'one letter')
    t.same(await ids(index, 'glac'), ['a', 'b'])
    t.same(await ids(index, 'glacier pen'), ['a', 'b'], 'two words, the last a prefix')
    t.same(await ids(index, 'glacier pensi'), ['a'])
    t.same(await ids(index, 'pens glacier'), [], 'a prefix that is not the last word does not match')
    t.same(await ids(index, 'glacier pensions '), ['a'], 'a trailing space ends the last word')
    t.same(await ids(index, 'GLACIER Pensions'), ['a'], 'case does not matter')
    t.same(await ids(index, 'zebra'), [])
  })

  t.test('one typo in words of four letters or more, also in the word being typed', async (t) => {
    await index.upsert([doc('a', { name: 'Glacier pension' }), doc('b', { name: 'Tax' })])
    for (const typo of ['glaceir', 'glacer', 'glaciers', 'glxcier', 'glaic', 'glacier pesnion']) {
      t.same(await ids(index, typo), ['a'], `"${typo}" finds it`)
    }
    t.same(await ids(index, 'glxcxer'), [], 'two typos do not')
    t.same(await ids(index, 'tex'), [], 'short words get no typo')
  })

  t.test('one typo in words of other letters than a to z, and in long words', async (t) => {
    await index.upsert([doc('a', { name: 'Пенсионный план' }), doc('b', { name: 'Superannuationaccounts' })])
    t.same(await ids(index, 'пенсеонный'), ['a'], 'a Cyrillic word with one letter changed')
    t.same(await ids(index, 'пенсеон'), ['a'], 'and being typed')
    t.same(await ids(index, 'superannuationaccuunts'), ['b'], 'a word of 22 letters with one letter changed')
    t.same(await ids(index, 'пенсеонннй'), [], 'two typos do not')
  })

  t.test('accents and case are folded', async (t) => {
    await index.upsert([doc('a', { name: 'Café crème' })])
    t.same(await ids(index, 'cafe creme'), ['a'])
    t.same(await ids(index, 'CAFÉ'), ['a'])
  })

  t.test('highlights: escaped text with the pre/post tags around what matched', async (t) => {
    await index.upsert([doc('a', { name: '<b>Glacier</b> & "pensions"', name_alt: 'Café pensions' })])
    let [hit] = (await index.search(query('glacier pen'))).hits
    t.same(hit!._highlightResult.name, { value: '&lt;b&gt;<mark>Glacier</mark>&lt;/b&gt; &amp; &quot;<mark>pen</mark>sions&quot;', matchLevel: 'full', matchedWords: ['glacier', 'pen'] })
    t.same(hit!._highlightResult.name_alt, { value: 'Café <mark>pen</mark>sions', matchLevel: 'partial', matchedWords: ['pen'] })
    t.equal(hit!.name, '<b>Glacier</b> & "pensions"', 'the plain name is unchanged');
    [hit] = (await index.search(query('cafe', { highlightPreTag: '__ais-highlight__', highlightPostTag: '__/ais-highlight__' }))).hits
    t.equal(hit!._highlightResult.name_alt.value, '__ais-highlight__Café__/ais-highlight__ pensions', 'custom tags; the accent kept')
    t.same(hit!._highlightResult.name, { value: '&lt;b&gt;Glacier&lt;/b&gt; &amp; &quot;pensions&quot;', matchLevel: 'none', matchedWords: [] })
    ;[hit] = (await index.search(query('glaceir'))).hits
    t.equal(hit!._highlightResult.name.value, '&lt;b&gt;<mark>Glacier</mark>&lt;/b&gt; &amp; &quot;pensions&quot;', 'a typo match highlights the word')
  })

  t.test('an empty query lists everything, newest first', async (t) => {
    await index.upsert([doc('a', { minutes: 1 }), doc('b', { minutes: 3 }), doc('c', { minutes: 2 })])
    t.same(await ids(index, ''), ['b', 'c', 'a'])
    t.same(await ids(index, ' !? '), ['b', 'c', 'a'], 'punctuation only is empty too')
  })

  t.test('filters: any condition within a clause, every clause', async (t) => {
    await index.upsert([
      doc('tf', { minutes: 4 }),
      doc('a-public', { ownerId: 'A', ownerName: 'Owner A', adviceset: { id: 2, name: 'x', name_alt: 'x', isPublic: true, isStarter: false }, minutes: 3 }),
      doc('a-rule', { ownerId: 'A', ownerName: 'Owner A', entityType: { id: 11, displayName: 'Rule' }, tags: ['Pensions', 'Tax'], minutes: 2 }),
      doc('b', { ownerId: 'B', ownerName: 'Owner B', tags: ['Tax'], minutes: 1 }),
    ])
    const filter = (f: Filter) => ids(index, '', { filter: f })
    t.same(await filter([[{ field: 'ownerId', value: 'A' }, { field: 'ownerId', value: 'TF' }]]), ['tf', 'a-public', 'a-rule'])
    t.same(await filter([[{ field: 'ownerId', value: 'A' }], [{ field: 'entityType.id', value: 11 }]]), ['a-rule'])
    t.same(await filter([[{ field: 'entityType.id', value: '11' }]]), ['a-rule'], 'numbers as text (facetFilters)')
    t.same(await filter([[{ field: 'adviceset.isPublic', value: true }]]), ['a-public'])
    t.same(await filter([[{ field: 'adviceset.isPublic', value: 'false' }], [{ field: 'tags', value: 'Tax' }]]), ['a-rule', 'b'])
    t.same(await filter([[{ field: 'entityType.displayName', value: 'Rule' }]]), ['a-rule'])
    t.same(await filter([[{ field: 'ownerName', value: 'Owner B' }]]), ['b'])
    t.same(await filter([[{ field: 'entityType.id', value: 'x' }]]), [], 'a non-number id matches nothing')
    t.same(await filter([[]]), [], 'an empty clause matches nothing')
  })

  t.test('facets count the matches of the query and filter', async (t) => {
    await index.upsert([
      doc('1', { name: 'Glacier one', tags: ['Tax', 'Pensions'] }),
      doc('2', { name: 'Glacier two', ownerId: 'A', ownerName: 'Owner A', tags: ['Tax'], adviceset: { id: 2, name: 'x', name_alt: 'x', isPublic: true, isStarter: true } }),
      doc('3', { name: 'Glacier three', entityType: { id: 11, displayName: 'Rule' } }),
      doc('4', { name: 'Other', tags: ['Tax'] }),
    ])
    const facets: FilterField[] = ['entityType.displayName', 'ownerName', 'tags', 'adviceset.isPublic', 'adviceset.isStarter', 'entityType.id']
    const result = await index.search(query('glacier', { facets }))
    t.same(result.facets, {
      'entityType.displayName': { 'Advice Set': 2, Rule: 1 },
      ownerName: { 'Advice Studio': 2, 'Owner A': 1 },
      tags: { Tax: 2, Pensions: 1 },
      'adviceset.isPublic': { false: 2, true: 1 },
      'adviceset.isStarter': { false: 2, true: 1 },
      'entityType.id': { 9: 2, 11: 1 },
    })
    const filtered = await index.search(query('glacier', { facets: ['tags'], filter: [[{ field: 'ownerId', value: 'TF' }]] }))
    t.same(filtered.facets, { tags: { Tax: 1, Pensions: 1 } })
    t.same((await index.search(query('glacier'))).facets, {}, 'no facets asked, none counted')
  })

  t.test('pagination: pages of hitsPerPage, no hit twice, nothing past the end', async (t) => {
    await index.upsert(Array.from({ length: 40 }, (_, i) => doc(`d${String(i).padStart(2, '0')}`, { name: `Glacier ${i}`, text: i % 2 ? 'glacier' : '', minutes: i })))
    const pages = await Promise.all([0, 1, 2, 3].map((page) => index.search(query('glacier', { page }))))
    t.same(pages.map((p) => p.hits.length), [15, 15, 10, 0])
    t.same(pages.map((p) => [p.nbHits, p.nbPages, p.page, p.hitsPerPage]), [[40, 3, 0, 15], [40, 3, 1, 15], [40, 3, 2, 15], [40, 3, 3, 15]])
    const all = pages.flatMap((p) => p.hits.map((h) => h.objectID))
    t.equal(new Set(all).size, 40, 'every hit exactly once')
    t.same(all.slice(0, 3), ['d39', 'd38', 'd37'], 'newest first')
  })

  t.test(`counting stops past ${MAX_HITS_REACHABLE} hits`, async (t) => {
    await index.upsert(Array.from({ length: MAX_HITS_REACHABLE + 5 }, (_, i) => doc(`m${i}`, { name: `Moraine ${i}`, minutes: i })))
    const result = await index.search(query('moraine', { facets: ['ownerName'] }))
    t.equal(result.nbHits, MAX_HITS_REACHABLE)
    t.equal(result.nbPages, Math.ceil(MAX_HITS_REACHABLE / 15))
    t.equal(result.exhaustive, false)
    t.same((await index.search(query('moraine', { page: Math.ceil(MAX_HITS_REACHABLE / 15) }))).hits, [], 'no page past the limit')
  })

  t.test('past the limit, ranking still holds: old name matches before thousands of newer text matches', async (t) => {
    const textMatches = Array.from({ length: 2 * MAX_HITS_REACHABLE + 100 }, (_, i) => doc(`t${i}`, { name: `Scree ${i}`, text: 'a moraine nearby', minutes: 100 + i }))
    const nameMatches = Array.from({ length: 20 }, (_, i) => doc(`n${i}`, { name: `Moraine ${i}`, minutes: i }))
    await index.upsert([...nameMatches, ...textMatches])
    for (const typed of ['moraine', 'mor', 'm']) {
      const result = await index.search(query(typed))
      t.equal(result.nbHits, MAX_HITS_REACHABLE, `"${typed}": more than the limit`)
      t.same(result.hits.map((h) => h.objectID), Array.from({ length: 15 }, (_, i) => `n${19 - i}`), `"${typed}": the name matches first, newest first`)
    }
    t.same((await index.search(query('moraine', { page: 1 }))).hits.map((h) => h.objectID), [...['n4', 'n3', 'n2', 'n1', 'n0'], ...Array.from({ length: 10 }, (_, i) => `t${2 * MAX_HITS_REACHABLE + 99 - i}`)],
      'then the newest text matches')
  })

  t.test('upsert replaces, delete removes, clear empties, stats count', async (t) => {
    await index.upsert([doc('a', { name: 'Glacier' }), doc('b', { name: 'Moraine' })])
    await index.upsert([doc('a', { name: 'Crevasse' })])
    t.same(await ids(index, 'glacier'), [], 'the old name is gone')
    t.same(await ids(index, 'crevasse'), ['a'])
    t.equal((await index.stats()).documents, 2)
    t.equal(await index.delete(['a', 'not-there']), 1, 'delete counts what it removed')
    t.same(await ids(index, 'crevasse'), [])
    t.same(await ids(index, ''), ['b'])
    await index.clear()
    t.equal((await index.stats()).documents, 0)
  })
}

t.test('PostgreSQL index', async (t) => {
  const database = await openTestDatabase()
  t.teardown(() => database.close())
  contract(t, new PostgresSearchIndex(database.db))
})

t.test('Meilisearch index', { skip: process.env.MEILI_URL ? false : 'MEILI_URL is not set: no Meilisearch server to test against (none can be installed here)' }, async (t) => {
  contract(t, new MeiliSearchIndex({ host: process.env.MEILI_URL!, apiKey: process.env.MEILI_KEY, indexName: `contract_${process.pid}_updatedAt` }))
})
