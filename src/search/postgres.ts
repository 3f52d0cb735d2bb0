// The default search index: PostgreSQL full-text in the application's own database (PGlite or PostgreSQL).
// Matching: every query word as a prefix of an indexed word, or (4+ letters) through one typo found in the trigram
// lexicon. Ranking in tiers — name/name_alt matches, then other text, then typo-only matches — newest first within
// a tier; each tier is read with LIMIT, so a short prefix matching half the library still costs one index walk.
import { sql, type SQL } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { searchDocuments, searchTerms } from '../db/schema/search.ts'
import { highlight, isTypoMatch, MIN_WORD_LENGTH_FOR_TYPO, queryWords, terms, type QueryWord } from './text.ts'
import {
  MAX_HITS_REACHABLE, type Condition, type Filter, type FilterField, type SearchDocument, type SearchHit,
  type SearchIndex, type SearchIndexStats, type SearchQuery, type SearchResult,
} from './types.ts'

const MAX_FACET_VALUES = 100
/** Candidates read from the lexicon per word before the exact one-typo check; the best by similarity. */
const MAX_TYPO_CANDIDATES = 50
/** Loose on purpose: the trigram index only proposes, withinOneEdit decides. */
const TYPO_SIMILARITY = 0.3
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
function tsquery(query: QueryWord[], opts: { typos: boolean; nameOnly: boolean }): string {
  const weight = opts.nameOnly ? 'AB' : ''
  return query.map((q) => {
    const alternatives = [`'${q.word}'${q.prefix ? ':*' : weight ? ':' : ''}${weight}`, ...(opts.typos ? q.typos.map((t) => `'${t}'${weight ? `:${weight}` : ''}`) : [])]
    return `(${alternatives.join(' | ')})`
  }).join(' & ')
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
        ownerId: d.ownerId, ownerName: d.ownerName, adviceSetId: d.adviceset.id, isPublic: d.adviceset.isPublic,
        isStarter: d.adviceset.isStarter, tags: d.tags, hit: storedHit(d),
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
    const query = await this.withTypos(queryWords(q.text))
    const visible = filterSql(q.filter)
    const hasTypos = query.some((w) => w.typos.length > 0)
    const exact = sql`to_tsquery('simple', ${tsquery(query, { typos: false, nameOnly: false })})`
    const inName = sql`to_tsquery('simple', ${tsquery(query, { typos: false, nameOnly: true })})`
    const any = hasTypos ? sql`to_tsquery('simple', ${tsquery(query, { typos: true, nameOnly: false })})` : exact
    const matches = query.length === 0 ? visible : sql`${visible} AND search @@ ${any}`
    const tiers = query.length === 0 ? [visible] : [
      sql`${visible} AND search @@ ${inName}`,
      sql`${visible} AND search @@ ${exact} AND NOT search @@ ${inName}`,
      ...(hasTypos ? [sql`${visible} AND search @@ ${any} AND NOT search @@ ${exact}`] : []),
    ]
    const first = q.page * q.hitsPerPage
    const [count, stored] = await Promise.all([
      this.count(matches),
      first >= MAX_HITS_REACHABLE ? Promise.resolve([]) : this.page(tiers, first, Math.min(q.hitsPerPage, MAX_HITS_REACHABLE - first)),
    ])
    const exhaustive = count <= MAX_HITS_REACHABLE
    const facets = await this.facets(matches, q.facets, exhaustive)
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
      exhaustive,
    }
  }

  /** The lexicon terms each 4+ letter word reaches with one typo (and does not already reach as a prefix). */
  private async withTypos(words: Array<{ word: string; prefix: boolean }>): Promise<QueryWord[]> {
    const long = words.filter((w) => w.word.length >= MIN_WORD_LENGTH_FOR_TYPO)
    if (long.length === 0) return words.map((w) => ({ ...w, typos: [] }))
    const candidates = await this.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT set_config('pg_trgm.word_similarity_threshold', ${String(TYPO_SIMILARITY)}, true)`)
      return Promise.all(long.map(({ word }) => rows<{ term: string }>(tx,
        sql`SELECT term FROM search_terms WHERE ${word} <% term ORDER BY word_similarity(${word}, term) DESC, term LIMIT ${MAX_TYPO_CANDIDATES}`)))
    })
    const byWord = new Map(long.map((w, i) => [w.word, candidates[i]!.map((r) => r.term).filter((t) => isTypoMatch(w.word, t, w.prefix))]))
    return words.map((w) => ({ ...w, typos: byWord.get(w.word) ?? [] }))
  }

  /** Exact up to MAX_HITS_REACHABLE; one more means "more than that", so a two-letter prefix never counts the library. */
  private async count(where: SQL): Promise<number> {
    const [row] = await rows<{ n: number }>(this.db,
      sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM search_documents WHERE ${where} LIMIT ${MAX_HITS_REACHABLE + 1}) m`)
    return row!.n
  }

  /** Hits [first, first + size) across the ranking tiers, each tier newest first. */
  private async page(tiers: SQL[], first: number, size: number): Promise<StoredHit[]> {
    const hits: StoredHit[] = []
    let skip = first
    for (const tier of tiers) {
      if (hits.length >= size) break
      const found = await rows<{ hit: StoredHit | string }>(this.db,
        sql`SELECT hit FROM search_documents WHERE ${tier} ORDER BY updated_at DESC, object_id LIMIT ${skip + size - hits.length}`)
      if (found.length > skip) {
        hits.push(...found.slice(skip).map((r) => typeof r.hit === 'string' ? JSON.parse(r.hit) as StoredHit : r.hit))
        skip = 0
      } else {
        skip -= found.length
      }
    }
    return hits
  }

  /** Counts over all matches, or over MAX_HITS_REACHABLE of them when there are more (not exhaustive then). */
  private async facets(where: SQL, fields: FilterField[], exhaustive: boolean): Promise<SearchResult['facets']> {
    const matches = exhaustive
      ? sql`SELECT * FROM search_documents WHERE ${where}`
      : sql`SELECT * FROM search_documents WHERE ${where} LIMIT ${MAX_HITS_REACHABLE}`
    const counted = await Promise.all(fields.map((field) => rows<{ value: string; n: number }>(this.db,
      sql`SELECT value, count(*)::int AS n FROM (SELECT ${facetValue(field)} AS value FROM (${matches}) m) v
          WHERE value IS NOT NULL GROUP BY value ORDER BY n DESC, value LIMIT ${MAX_FACET_VALUES}`)))
    return Object.fromEntries(fields.map((field, i) => [field, Object.fromEntries(counted[i]!.map((r) => [r.value, r.n]))]))
  }
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
