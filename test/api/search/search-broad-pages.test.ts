// A broad query (more matches than are counted) takes its first page from the newest documents: from the first
// window when the best tier is dense there, from a further window when it is thinner, from the index when it is
// sparse (postgres-statement.ts tiersStatement). Each way, the page is the tier's newest documents.
import t from 'tap'
import { openTestDatabase } from '../../helpers/database.ts'
import { PostgresSearchIndex } from '../../../src/search/postgres.ts'
import type { SearchDocument } from '../../../src/search/types.ts'

const T0 = Date.UTC(2026, 0, 1)
const DOCUMENTS = 3000

function doc(i: number, inName: boolean): SearchDocument {
  const name = inName ? `Glacier plan ${i}` : `Plan ${i}`
  return {
    objectID: `d${i}`, entityType: { id: 9, displayName: 'Advice Set' }, ownerId: 'TF', ownerName: 'Advice Studio', name, name_alt: name,
    uri: `/adviceset/${i}/show`, nodeId: null, rule: null, adviceset: { id: 1, name, name_alt: name, isPublic: false, isStarter: false },
    tags: [], text: 'about a glacier', updatedAt: new Date(T0 - i * 60_000),
  }
}

const database = await openTestDatabase()
t.teardown(() => database.close())
const index = new PostgresSearchIndex(database.db)

/** Documents d0 (newest) … d2999, every one matching "glacier", the ones at `named` positions in their name too. */
async function library(named: number[]): Promise<void> {
  await index.clear()
  const inName = new Set(named)
  const docs = Array.from({ length: DOCUMENTS }, (_, i) => doc(i, inName.has(i)))
  for (let i = 0; i < docs.length; i += 500) await index.upsert(docs.slice(i, i + 500))
}

const range = (from: number, count: number, step: number) => Array.from({ length: count }, (_, k) => from + k * step)

for (const [how, named] of [
  ['dense among the newest', range(0, 40, 20)],
  ['a few among the newest, more further on', [...range(100, 5, 100), ...range(1100, 20, 50)]],
  ['sparse among the newest', [...range(500, 2, 100), ...range(2000, 20, 40)]],
] as const) {
  t.test(`the name tier ${how}`, async (t) => {
    await library([...named])
    const result = await index.search({ text: 'glacier', filter: [], facets: [], page: 0, hitsPerPage: 15, highlightPreTag: '<mark>', highlightPostTag: '</mark>' })
    t.equal(result.nbHits, 1000, 'more matches than are counted')
    t.same(result.hits.map((h) => h.objectID), [...named].sort((a, b) => a - b).slice(0, 15).map((i) => `d${i}`), 'the 15 newest with "glacier" in the name')
  })
}
