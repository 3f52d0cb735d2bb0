// A query's candidates are first looked for among the newest RECENT_DOCUMENTS documents, and gathered from all of them
// only when those hold too few to say "more than 1,000" (postgres-statement.ts searchStatement). Either way the count
// is the same as if every match had been gathered: checked here with words whose matches sit inside that window,
// mostly outside it, and both.
import t from 'tap'
import { sql } from 'drizzle-orm'
import { openTestDatabase } from '../../helpers/database.ts'
import { PostgresSearchIndex } from '../../../src/search/postgres.ts'
import { RECENT_DOCUMENTS } from '../../../src/search/postgres-statement.ts'
import type { SearchDocument } from '../../../src/search/types.ts'

const T0 = Date.UTC(2026, 0, 1)
const minutesBefore = (minutes: number) => new Date(T0 - minutes * 60_000)

function doc(id: string, word: string, updatedAt: Date): SearchDocument {
  const name = `Plan ${id}`
  return {
    objectID: id, entityType: { id: 9, displayName: 'Advice Set' }, ownerId: 'TF', ownerName: 'Advice Studio', name, name_alt: name,
    uri: `/adviceset/1/show`, nodeId: null, rule: null, adviceset: { id: 1, name, name_alt: name, isPublic: false, isStarter: false },
    tags: [], text: `about a ${word}`, updatedAt,
  }
}

const database = await openTestDatabase()
t.teardown(() => database.close())
const index = new PostgresSearchIndex(database.db)

// The window: RECENT_DOCUMENTS documents a minute apart that match none of the words (written directly: the index's
// own upsert would take a minute on PGlite), with the recent matches among their newest half.
await database.db.execute(sql`
  insert into search_documents (object_id, entity_type_id, entity_type_name, owner_id, owner_name, is_public, is_starter, tags, hit,
    name_terms, name_alt_terms, text_terms, updated_at)
  select 'filler-' || g, 9, 'Advice Set', 'TF', 'Advice Studio', false, false, '{}', '{}'::jsonb, 'filler', 'filler', 'nothing',
    ${minutesBefore(0).toISOString()}::timestamptz - g * interval '1 minute'
  from generate_series(1, ${RECENT_DOCUMENTS}) g`)
const documents: SearchDocument[] = []
const add = (word: string, count: number, from: number, step: number) => {
  for (let k = 0; k < count; k++) documents.push(doc(`${word}-${from + k * step}`, word, minutesBefore(from + k * step + 0.5)))
}
add('fjord', 1100, 0, 9) // 1,100 in the window
add('glacier', 100, 5, 90) // 100 in the window …
add('glacier', 1500, 2 * RECENT_DOCUMENTS, 1) // … and 1,500 older
add('moraine', 50, 7, 150) // 50 in the window …
add('moraine', 300, 3 * RECENT_DOCUMENTS, 1) // … and 300 older
for (let i = 0; i < documents.length; i += 500) await index.upsert(documents.slice(i, i + 500))

const search = (text: string) => index.search({ text, filter: [], facets: ['entityType.displayName'], page: 0, hitsPerPage: 15, highlightPreTag: '<mark>', highlightPostTag: '</mark>' })

t.test('matches enough within the window: more than are counted', async (t) => {
  const result = await search('fjord')
  t.equal(result.nbHits, 1000)
  t.equal(result.exhaustive, false)
  t.same(result.hits.map((h) => h.objectID), Array.from({ length: 15 }, (_, k) => `fjord-${k * 9}`), 'the newest first')
  t.same(result.facets['entityType.displayName'], { 'Advice Set': 1000 }, 'the facets count the candidates')
})

t.test('few within the window, many before it: still more than are counted', async (t) => {
  const result = await search('glacier')
  t.equal(result.nbHits, 1000)
  t.equal(result.exhaustive, false)
  t.same(result.hits.slice(0, 3).map((h) => h.objectID), ['glacier-5', 'glacier-95', 'glacier-185'])
})

t.test('few within the window and few before it: every match counted', async (t) => {
  const result = await search('moraine')
  t.equal(result.nbHits, 350)
  t.equal(result.exhaustive, true)
  t.same(result.hits.slice(0, 2).map((h) => h.objectID), ['moraine-7', 'moraine-157'])
  t.equal(result.hits[14]!.objectID, 'moraine-2107')
})
