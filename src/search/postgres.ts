// The default search index: PostgreSQL full-text in the application's own database (PGlite or PostgreSQL).
// Matching: the last query word as a prefix, the others as whole words, each also (4+ letters) through one typo
// found in the lexicon (typo-variants.ts). Ranking in tiers — name/name_alt matches, then other text, then typo-only
// matches — newest first within a tier. A search is one statement for count, page and facets (postgres-statement.ts),
// after one for the typo lexicon when it has words of 4+ letters, and before one for the ranked page when it matches
// too much.
import { sql, type SQL } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { searchDocuments, searchTerms } from '../db/schema/search.ts'
import { highlight, typoMatch, MIN_WORD_LENGTH_FOR_TYPO, queryWords, terms, type QueryWord } from './text.ts'
import { prefixTokens } from './prefix-tokens.ts'
import { looksUpVariants, typoLookups } from './typo-variants.ts'
import { searchStatement, tiersStatement, type StatementRow } from './postgres-statement.ts'
import {
  MAX_HITS_REACHABLE, type SearchDocument, type SearchHit, type SearchIndex, type SearchIndexStats, type SearchQuery, type SearchResult,
} from './types.ts'

/** After every term a variant begins, in byte order (text_pattern_ops): the last code point. */
const LAST_CHARACTER = String.fromCodePoint(0x10ffff)
/** Candidates read from the lexicon per word (of other letters than a-z and digits) before the exact one-typo check. */
const MAX_TYPO_CANDIDATES = 2000
/** Typo alternatives kept per word: each one is another entry the GIN index must read. */
const MAX_TYPO_ALTERNATIVES = 12
/**
 * One-typo candidates: a word with one edit keeps either its beginning up to just before the middle, or its second
 * half (possibly shifted by one), so every candidate starts with the one or contains the other. The trigram index
 * finds both patterns; withinOneEdit then decides.
 */
function typoPatterns(word: string): { start: string; middle: string } {
  const half = Math.ceil(word.length / 2)
  return { start: `${word.slice(0, half - 1)}%`, middle: `%${word.slice(half)}%` }
}

const UPSERT_BATCH = 500

type StoredHit = Omit<SearchHit, '_highlightResult'>

async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = await db.execute(query) as unknown
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[]
}

function parsed<T>(value: T | string): T {
  return typeof value === 'string' ? JSON.parse(value) as T : value
}

export class PostgresSearchIndex implements SearchIndex {
  readonly kind = 'postgres'

  constructor(private readonly db: Db) {}

  inTransaction(tx: Db): SearchIndex {
    return new PostgresSearchIndex(tx)
  }

  async upsert(documents: SearchDocument[]): Promise<void> {
    for (let i = 0; i < documents.length; i += UPSERT_BATCH) {
      const batch = documents.slice(i, i + UPSERT_BATCH)
      const rows = batch.map((d) => {
        const words = { nameTerms: terms(d.name), nameAltTerms: terms(d.name_alt), textTerms: terms(d.text) }
        return {
          objectId: d.objectID, entityTypeId: d.entityType.id, entityTypeName: d.entityType.displayName,
          ownerId: d.ownerId, ownerName: d.ownerName, adviceSetId: d.adviceset?.id ?? null,
          isPublic: d.adviceset?.isPublic ?? false, isStarter: d.adviceset?.isStarter ?? false, tags: d.tags, hit: storedHit(d),
          ...words, prefixTerms: prefixTokens(Object.values(words).join(' ')), updatedAt: d.updatedAt,
          // The moment of the write itself, not of its transaction: a write that lands after a rebuild's start is newer.
          indexedAt: sql`clock_timestamp()`,
        }
      })
      // In one order, as the documents are (sync.ts): two writers adding the same new words wait on each other in turn.
      const lexicon = [...new Set(rows.flatMap((r) => `${r.nameTerms} ${r.nameAltTerms} ${r.textTerms}`.split(' ')).filter((w) => w.length >= MIN_WORD_LENGTH_FOR_TYPO - 1))].sort()
      // The documents and their words are independent: sent together, one round trip (see services/audit/audit.ts).
      await Promise.all([
        this.db.insert(searchDocuments).values(rows).onConflictDoUpdate({
          target: searchDocuments.objectId,
          set: Object.fromEntries(['entityTypeId', 'entityTypeName', 'ownerId', 'ownerName', 'adviceSetId', 'isPublic', 'isStarter', 'tags', 'hit', 'nameTerms', 'nameAltTerms', 'textTerms', 'prefixTerms', 'updatedAt', 'indexedAt']
            .map((key) => [key, sql.raw(`excluded.${toSnake(key)}`)])),
        }),
        lexicon.length > 0 ? this.db.insert(searchTerms).values(lexicon.map((term) => ({ term }))).onConflictDoNothing() : undefined,
      ])
    }
  }

  async delete(objectIDs: string[]): Promise<number> {
    if (objectIDs.length === 0) return 0
    const removed = await rows<{ object_id: string }>(this.db,
      sql`DELETE FROM search_documents WHERE object_id IN (${sql.join(objectIDs.map((id) => sql`${id}`), sql`, `)}) RETURNING object_id`)
    return removed.length
  }

  async clear(): Promise<void> {
    await this.db.execute(sql`TRUNCATE search_documents, search_terms`)
  }

  async markForSweep(): Promise<() => Promise<number>> {
    // The database's clock, as the writes' indexed_at is; kept as text, at the microsecond that JavaScript's Date would lose.
    const [mark] = await rows<{ at: string }>(this.db, sql`SELECT clock_timestamp()::text AS at`)
    return async () => {
      const [row] = await rows<{ n: number }>(this.db, sql`WITH gone AS (DELETE FROM search_documents WHERE indexed_at < ${mark!.at}::timestamptz RETURNING 1) SELECT count(*)::int AS n FROM gone`)
      return row!.n
    }
  }

  async stats(): Promise<SearchIndexStats> {
    const [row] = await rows<{ documents: number; terms: number }>(this.db,
      sql`SELECT (SELECT count(*) FROM search_documents)::int AS documents, (SELECT count(*) FROM search_terms)::int AS terms`)
    return { documents: row!.documents, details: { terms: row!.terms } }
  }

  async search(q: SearchQuery): Promise<SearchResult> {
    const query = await withTypos(this.db, queryWords(q.text))
    const first = q.page * q.hitsPerPage
    const size = Math.max(0, Math.min(q.hitsPerPage, MAX_HITS_REACHABLE - first))
    const statement = { filter: q.filter, words: query, first, size }
    const [row] = await rows<StatementRow>(this.db, searchStatement({ ...statement, facets: q.facets }))
    const count = row!.n
    const page = row!.hits ?? (await rows<{ hits: unknown[] | string }>(this.db, tiersStatement(statement)))[0]!.hits
    const stored = parsed(page) as StoredHit[]
    return {
      hits: stored.map((hit) => ({
        ...hit,
        _highlightResult: {
          name: highlight(hit.name, query, q.highlightPreTag, q.highlightPostTag),
          name_alt: highlight(hit.name_alt, query, q.highlightPreTag, q.highlightPostTag),
        },
      })),
      nbHits: Math.min(count, MAX_HITS_REACHABLE),
      page: q.page,
      nbPages: Math.ceil(Math.min(count, MAX_HITS_REACHABLE) / q.hitsPerPage),
      hitsPerPage: q.hitsPerPage,
      facets: Object.fromEntries(q.facets.map((field, i) => [field, Object.fromEntries(parsed(row![`facet_${i}`]!))])),
      exhaustive: count <= MAX_HITS_REACHABLE,
    }
  }
}

/**
 * The lexicon terms each 4+ letter word reaches with one typo (and does not already reach as itself or a prefix),
 * read for all words in one statement.
 */
async function withTypos(db: Db, words: Array<{ word: string; prefix: boolean }>): Promise<QueryWord[]> {
  const checked = words.map((w, i) => ({ ...w, i })).filter((w) => w.word.length >= MIN_WORD_LENGTH_FOR_TYPO)
  const candidates = checked.length === 0 ? [] : await rows<{ i: number; term: string }>(db, sql.join(checked.map((w) => {
    const i = sql.raw(String(w.i))
    if (looksUpVariants(w.word)) {
      // The variants are letters and digits only, so a space-separated list carries them as one parameter.
      const { equal, beginning } = typoLookups(w.word, w.prefix)
      return sql`(SELECT ${i} AS i, v AS term FROM unnest(string_to_array(${equal.join(' ')}, ' ')) v
          WHERE EXISTS (SELECT 1 FROM search_terms WHERE term = v)
        UNION ALL SELECT ${i} AS i, v AS term FROM unnest(string_to_array(${beginning.join(' ')}, ' ')) v
          WHERE EXISTS (SELECT 1 FROM search_terms WHERE term ~>=~ v AND term ~<~ (v || ${LAST_CHARACTER})))`
    }
    const { start, middle } = typoPatterns(w.word)
    return sql`(SELECT ${i} AS i, term FROM search_terms
      WHERE (term LIKE ${start} OR term LIKE ${middle}) AND length(term) >= ${w.word.length - 1} LIMIT ${MAX_TYPO_CANDIDATES})`
  }), sql` UNION ALL `))
  return words.map((w, i) => {
    if (w.word.length < MIN_WORD_LENGTH_FOR_TYPO) return { ...w, typos: [] }
    const matches = new Set(candidates.filter((c) => Number(c.i) === i).map((c) => typoMatch(w.word, c.term, w.prefix)).filter((m) => m !== null))
    // The letter just typed is taken as meant: beginnings differing only there would be one more index entry per
    // letter of the alphabet, together most of the library, for matches ranked last anyway.
    const stem = w.word.slice(0, -1)
    if (w.prefix) for (const m of matches) if (m.length === w.word.length && m.startsWith(stem)) matches.delete(m)
    // A prefix covering a whole term makes that term redundant; the closest (shortest) alternatives come first.
    const typos = [...matches].filter((m) => !(w.prefix && [...matches].some((other) => other !== m && m.startsWith(other))))
    return { ...w, typos: typos.sort((a, b) => a.length - b.length || a.localeCompare(b)).slice(0, MAX_TYPO_ALTERNATIVES) }
  })
}

function storedHit(d: SearchDocument): StoredHit {
  return {
    objectID: d.objectID, entityType: d.entityType, ownerId: d.ownerId, ownerName: d.ownerName, name: d.name,
    name_alt: d.name_alt, uri: d.uri, nodeId: d.nodeId, rule: d.rule, adviceset: d.adviceset, tags: d.tags,
  }
}

function toSnake(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
}
