// The PostgreSQL index adds typo matches only to a query with few plain matches (TYPOS_BELOW): past that they would
// rank after every plain match, unseen, while gathering them was most of a broad query's cost.
import t from 'tap'
import { openTestDatabase } from '../../helpers/database.ts'
import { PostgresSearchIndex } from '../../../src/search/postgres.ts'
import { TYPOS_BELOW } from '../../../src/search/postgres-statement.ts'
import type { SearchDocument, SearchQuery } from '../../../src/search/types.ts'

const T0 = Date.UTC(2026, 0, 1)

function doc(id: string, name: string, minutes: number): SearchDocument {
  return {
    objectID: id, entityType: { id: 9, displayName: 'Advice Set' }, ownerId: 'TF', ownerName: 'Advice Studio', name, name_alt: name,
    uri: `/adviceset/${id}/show`, nodeId: null, rule: null,
    adviceset: { id: 1, name, name_alt: name, isPublic: false, isStarter: false }, tags: [], text: '', updatedAt: new Date(T0 + minutes * 60_000),
  }
}

const query = (text: string): SearchQuery => ({ text, filter: [], facets: [], page: 0, hitsPerPage: 15, highlightPreTag: '<mark>', highlightPostTag: '</mark>' })

const database = await openTestDatabase()
t.teardown(() => database.close())
const index = new PostgresSearchIndex(database.db)

t.test('below the threshold a typo match follows the plain ones and is counted', async (t) => {
  await index.clear()
  const plain = Array.from({ length: TYPOS_BELOW - 1 }, (_, i) => doc(`plain-${i}`, `Glacier plan ${i}`, i))
  await index.upsert([...plain, doc('typo', 'Glaceir plan', 1000)])
  const result = await index.search(query('glacier'))
  t.equal(result.nbHits, TYPOS_BELOW)
  t.notOk(result.hits.some((h) => h.objectID === 'typo'), 'the typo match ranks after the plain ones, past the first page')
  t.same((await index.search({ ...query('glacier'), page: Math.floor((TYPOS_BELOW - 1) / 15) })).hits.at(-1)?.objectID, 'typo', 'it is the last hit')
})

t.test('from the threshold on only the plain matches are found', async (t) => {
  await index.clear()
  const plain = Array.from({ length: TYPOS_BELOW }, (_, i) => doc(`plain-${i}`, `Glacier plan ${i}`, i))
  await index.upsert([...plain, doc('typo', 'Glaceir plan', 1000)])
  const result = await index.search(query('glacier'))
  t.equal(result.nbHits, TYPOS_BELOW)
  t.equal(result.hits[0]!.objectID, `plain-${TYPOS_BELOW - 1}`, 'newest plain match first')
  const misspelt = await index.search(query('glaceir'))
  t.equal(misspelt.hits[0]!.objectID, 'typo', 'typed as it is spelled, it is found first')
  t.equal(misspelt.nbHits, TYPOS_BELOW + 1, 'and, being one plain match, gets the typo matches after it')
})
