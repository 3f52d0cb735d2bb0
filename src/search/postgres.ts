// The default search index: PostgreSQL full-text in the application's own database (PGlite or PostgreSQL).
// Matching: the last query word as a prefix, the others as whole words, each also (4+ letters) through one typo
// found in the trigram lexicon. Ranking in tiers — name/name_alt matches, then other text, then typo-only matches —
// newest first within a tier. Matches are counted up to MAX_HITS_REACHABLE through the GIN index alone; a query
// with no more than that is ranked in one sort of its matches, a broader one tier by tier along the updated_at index
// (dense matches end that walk early).
import { sql, type SQL } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { searchDocuments, searchTerms } from '../db/schema/search.ts'
import { highlight, typoMatch, MIN_WORD_LENGTH_FOR_TYPO, queryWords, terms, type QueryWord } from './text.ts'
import {
  MAX_HITS_REACHABLE, type Condition, type Filter, type FilterField, type SearchDocument, type SearchHit,
  type SearchIndex, type SearchIndexStats, type SearchQuery, type SearchResult,
} from './types.ts'

const MAX_FACET_VALUES = 100
/** Candidates read from the lexicon per word before the exact one-typo check. */
const MAX_TYPO_CANDIDATES = 2000
/** Prefixes this short are not looked up in the index when other words are. */
const SHORT_PREFIX = 2
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

const COLUMNS: Record<Exclude<FilterField, 'tags'>, { column: SQL; type: 'int' | 'bool' | 'text' }> = {
  'entityType.id': { column: sql`entity_type_id`, type: 'int' },
  'entityType.displayName': { column: sql`entity_type_name`, type: 'text' },
  ownerId: { column: sql`owner_id`, type: 'text' },
  ownerName: { column: sql`owner_name`, type: 'text' },
  'adviceset.id': { column: sql`advice_set_id`, type: 'int' },
  'adviceset.isPublic': { column: sql`is_public`, type: 'bool' },
  'adviceset.isStarter': { column: sql`is_starter`, type: 'bool' },
}

function conditionSql(c: Condition): SQL {
  if (c.field === 'tags') return sql`${String(c.value)} = ANY(tags)`
  const { column, type } = COLUMNS[c.field]
  if (type === 'bool') return sql`${column} = ${c.value === true || c.value === 'true'}`
  if (type === 'int') {
    const n = Number(c.value)
    return Number.isSafeInteger(n) ? sql`${column} = ${n}` : sql`false`
  }
  return sql`${column} = ${String(c.value)}`
}

export function filterSql(filter: Filter): SQL {
  if (filter.length === 0) return sql`true`
  return sql.join(filter.map((clause) => clause.length === 0 ? sql`false` : sql`(${sql.join(clause.map(conditionSql), sql` OR `)})`), sql` AND `)
}

/** Words are folded runs of letters and digits, so quoting them needs no escaping. */
function tsquery(query: QueryWord[], typos: boolean): SQL {
  const text = query.map((q) => {
    const star = q.prefix ? ':*' : ''
    const alternatives = [`'${q.word}'${star}`, ...(typos ? q.typos.map((t) => `'${t}'${star}`) : [])]
    return `(${alternatives.join(' | ')})`
  }).join(' & ')
  return sql`to_tsquery('simple', ${text})`
}

/** Bitmap scans only (or not): finds matches through the GIN index however common the planner guesses a prefix is. */
async function bitmapScansOnly(tx: Db, on: boolean): Promise<void> {
  const value = on ? 'off' : 'on'
  await tx.execute(sql`SELECT set_config('enable_seqscan', ${value}, true), set_config('enable_indexscan', ${value}, true)`)
}

async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = await db.execute(query) as unknown
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[]
}

function facetValue(field: FilterField): SQL {
  if (field === 'tags') return sql`unnest(tags)`
  return sql`${COLUMNS[field].column}::text`
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
      const rows = batch.map((d) => ({
        objectId: d.objectID, entityTypeId: d.entityType.id, entityTypeName: d.entityType.displayName,
        ownerId: d.ownerId, ownerName: d.ownerName, adviceSetId: d.adviceset?.id ?? null,
        isPublic: d.adviceset?.isPublic ?? false, isStarter: d.adviceset?.isStarter ?? false, tags: d.tags, hit: storedHit(d),
        nameTerms: terms(d.name), nameAltTerms: terms(d.name_alt), textTerms: terms(d.text), updatedAt: d.updatedAt,
      }))
      await this.db.insert(searchDocuments).values(rows).onConflictDoUpdate({
        target: searchDocuments.objectId,
        set: Object.fromEntries(['entityTypeId', 'entityTypeName', 'ownerId', 'ownerName', 'adviceSetId', 'isPublic', 'isStarter', 'tags', 'hit', 'nameTerms', 'nameAltTerms', 'textTerms', 'updatedAt']
          .map((key) => [key, sql.raw(`excluded.${toSnake(key)}`)])),
      })
      const lexicon = [...new Set(rows.flatMap((r) => `${r.nameTerms} ${r.nameAltTerms} ${r.textTerms}`.split(' ')).filter((w) => w.length >= MIN_WORD_LENGTH_FOR_TYPO - 1))]
      if (lexicon.length > 0) await this.db.insert(searchTerms).values(lexicon.map((term) => ({ term }))).onConflictDoNothing()
    }
  }

  async delete(objectIDs: string[]): Promise<void> {
    if (objectIDs.length === 0) return
    await this.db.execute(sql`DELETE FROM search_documents WHERE object_id IN (${sql.join(objectIDs.map((id) => sql`${id}`), sql`, `)})`)
  }

  async clear(): Promise<void> {
    await this.db.execute(sql`TRUNCATE search_documents, search_terms`)
  }

  async stats(): Promise<SearchIndexStats> {
    const [row] = await rows<{ documents: number; terms: number }>(this.db,
      sql`SELECT (SELECT count(*) FROM search_documents)::int AS documents, (SELECT count(*) FROM search_terms)::int AS terms`)
    return { documents: row!.documents, details: { terms: row!.terms } }
  }

  async search(q: SearchQuery): Promise<SearchResult> {
    const visible = filterSql(q.filter)
    const words = queryWords(q.text)
    const first = q.page * q.hitsPerPage
    const size = Math.max(0, Math.min(q.hitsPerPage, MAX_HITS_REACHABLE - first))
    const { query, count, stored, facets } = await this.db.transaction(async (tx) => {
      const query = await withTypos(tx, words)
      if (query.length === 0) {
        const count = await countUpTo(tx, visible)
        return { query, count, stored: await page(tx, [visible], first, size), facets: await facetCounts(tx, visible, q.facets, count) }
      }
      const hasTypos = query.some((w) => w.typos.length > 0)
      const exact = tsquery(query, false)
      const any = hasTypos ? tsquery(query, true) : exact
      // Beside other words, a one- or two-letter prefix would make the index gather most of the library; it is
      // checked on the rows the other words find instead.
      const indexed = query.filter((w) => !(query.length > 1 && w.prefix && w.word.length <= SHORT_PREFIX))
      const matches = indexed.length === query.length
        ? sql`${visible} AND search @@ ${any}`
        : sql`${visible} AND search @@ ${tsquery(indexed, hasTypos)} AND (search || ''::tsvector) @@ ${any}`
      // One word: the planner's estimate is good (a common prefix is best read by a scan that stops early). More
      // words: it is not, and the GIN index is always the better way to find them.
      const bitmaps = query.length > 1
      await bitmapScansOnly(tx, bitmaps)
      const count = await countUpTo(tx, matches)
      let stored: StoredHit[]
      if (count <= MAX_HITS_REACHABLE) {
        const rank = hasTypos ? sql`(name_search @@ ${exact}) DESC, (search @@ ${exact}) DESC,` : sql`(name_search @@ ${exact}) DESC,`
        stored = size === 0 ? [] : (await rows<{ hit: StoredHit | string }>(tx,
          sql`SELECT hit FROM search_documents WHERE ${matches} ORDER BY ${rank} updated_at DESC, object_id LIMIT ${size} OFFSET ${first}`)).map(parseHit)
      } else {
        await bitmapScansOnly(tx, false)
        stored = await page(tx, [
          sql`${visible} AND name_search @@ ${exact}`,
          sql`${visible} AND search @@ ${exact} AND NOT name_search @@ ${exact}`,
          ...(hasTypos ? [sql`${visible} AND search @@ ${any} AND NOT search @@ ${exact}`] : []),
        ], first, size)
        await bitmapScansOnly(tx, bitmaps)
      }
      return { query, count, stored, facets: await facetCounts(tx, matches, q.facets, count) }
    })
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
      facets,
      exhaustive: count <= MAX_HITS_REACHABLE,
    }
  }
}

/** The lexicon terms each 4+ letter word reaches with one typo (and does not already reach as itself or a prefix). */
async function withTypos(tx: Db, words: Array<{ word: string; prefix: boolean }>): Promise<QueryWord[]> {
  const result: QueryWord[] = []
  for (const w of words) {
    if (w.word.length < MIN_WORD_LENGTH_FOR_TYPO) {
      result.push({ ...w, typos: [] })
      continue
    }
    const { start, middle } = typoPatterns(w.word)
    const candidates = await rows<{ term: string }>(tx,
      sql`SELECT term FROM search_terms WHERE (term LIKE ${start} OR term LIKE ${middle}) AND length(term) >= ${w.word.length - 1} LIMIT ${MAX_TYPO_CANDIDATES}`)
    const matches = new Set(candidates.map((r) => typoMatch(w.word, r.term, w.prefix)).filter((m) => m !== null))
    // A prefix covering a whole term makes that term redundant; the closest (shortest) alternatives come first.
    const typos = [...matches].filter((m) => !(w.prefix && [...matches].some((other) => other !== m && m.startsWith(other))))
    result.push({ ...w, typos: typos.sort((a, b) => a.length - b.length || a.localeCompare(b)).slice(0, MAX_TYPO_ALTERNATIVES) })
  }
  return result
}

/** Exact up to MAX_HITS_REACHABLE; one more means "more than that", so a two-letter prefix never counts the library. */
async function countUpTo(tx: Db, where: SQL): Promise<number> {
  const [row] = await rows<{ n: number }>(tx,
    sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM search_documents WHERE ${where} LIMIT ${MAX_HITS_REACHABLE + 1}) m`)
  return row!.n
}

function parseHit(row: { hit: StoredHit | string }): StoredHit {
  return typeof row.hit === 'string' ? JSON.parse(row.hit) as StoredHit : row.hit
}

/** Hits [first, first + size) across ranking tiers, each tier newest first. */
async function page(tx: Db, tiers: SQL[], first: number, size: number): Promise<StoredHit[]> {
  const hits: StoredHit[] = []
  let skip = first
  for (const tier of tiers) {
    if (hits.length >= size) break
    const found = await rows<{ hit: StoredHit | string }>(tx,
      sql`SELECT hit FROM search_documents WHERE ${tier} ORDER BY updated_at DESC, object_id LIMIT ${skip + size - hits.length}`)
    if (found.length > skip) {
      hits.push(...found.slice(skip).map(parseHit))
      skip = 0
    } else {
      skip -= found.length
    }
  }
  return hits
}

/** Counts over all matches, or over MAX_HITS_REACHABLE of them when there are more (not exhaustive then). */
async function facetCounts(tx: Db, where: SQL, fields: FilterField[], count: number): Promise<SearchResult['facets']> {
  const matches = count <= MAX_HITS_REACHABLE
    ? sql`SELECT * FROM search_documents WHERE ${where}`
    : sql`SELECT * FROM search_documents WHERE ${where} LIMIT ${MAX_HITS_REACHABLE}`
  const counted: Array<Array<{ value: string; n: number }>> = []
  for (const field of fields) {
    counted.push(await rows<{ value: string; n: number }>(tx,
      sql`SELECT value, count(*)::int AS n FROM (SELECT ${facetValue(field)} AS value FROM (${matches}) m) v
          WHERE value IS NOT NULL GROUP BY value ORDER BY n DESC, value LIMIT ${MAX_FACET_VALUES}`))
  }
  return Object.fromEntries(fields.map((field, i) => [field, Object.fromEntries(counted[i]!.map((r) => [r.value, r.n]))]))
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
