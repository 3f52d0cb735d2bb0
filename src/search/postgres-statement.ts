// The statements of a PostgreSQL search. The main one gathers the matches once — text, short prefixes and
// visibility together in one GIN condition (prefix-tokens.ts, filter-tokens.ts), up to one past MAX_HITS_REACHABLE — and returns the count, the facets and,
// when that was every match, the ranked page, all from that one candidate set. Only a broader query needs the
// second: the ranking tiers walked newest first, a later tier only when the earlier ones fell short.
import { sql, type SQL } from 'drizzle-orm'
import { conditionToken } from './filter-tokens.ts'
import { MAX_PREFIX_TOKEN_LENGTH, prefixToken } from './prefix-tokens.ts'
import type { QueryWord } from './text.ts'
import { MAX_HITS_REACHABLE, type Condition, type Filter, type FilterField } from './types.ts'

const MAX_FACET_VALUES = 100

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

/** A filter as index tokens (tsquery text, null when no clause is made of tokens) and the rest as row conditions. */
export interface SplitFilter {
  tokens: string | null
  rows: SQL
}

export function splitFilter(filter: Filter): SplitFilter {
  const tokenClauses: string[] = []
  const rowClauses: SQL[] = []
  for (const clause of filter) {
    const tokens = clause.map(conditionToken)
    if (clause.length > 0 && tokens.every((t) => t !== null)) tokenClauses.push(`(${tokens.join(' | ')})`)
    else rowClauses.push(clause.length === 0 ? sql`false` : sql`(${sql.join(clause.map(conditionSql), sql` OR `)})`)
  }
  return { tokens: tokenClauses.length === 0 ? null : tokenClauses.join(' & '), rows: rowClauses.length === 0 ? sql`true` : sql.join(rowClauses, sql` AND `) }
}

/**
 * The query's words as tsquery text; words are folded runs of letters and digits, so quoting them needs no escaping.
 * `search` holds prefix tokens, so a short prefix is one lexeme there; `name_search` has none.
 */
function wordsQuery(query: QueryWord[], typos: boolean, column: 'search' | 'name_search'): string {
  const term = (word: string, prefix: boolean) => !prefix ? `'${word}'`
    : column === 'search' && word.length <= MAX_PREFIX_TOKEN_LENGTH ? `'${prefixToken(word)}'` : `'${word}':*`
  return query.map((q) => `(${[q.word, ...(typos ? q.typos : [])].map((w) => term(w, q.prefix)).join(' | ')})`).join(' & ')
}

/** `search` holds the text and the tokens: one GIN condition for both. */
function searchMatches(text: string | null, tokens: string | null): SQL {
  const parts = [text, tokens].filter((p) => p !== null && p !== '')
  return parts.length === 0 ? sql`true` : sql`search @@ ${parts.map((p) => `(${p})`).join(' & ')}::tsquery`
}

interface Ranking {
  matches: SQL
  tierOf: SQL
  /** Each tier's documents, in rank order; together they are the matches. */
  tiers: SQL[]
}

function ranking(words: QueryWord[], { tokens, rows }: SplitFilter): Ranking {
  if (words.length === 0) {
    const all = sql`${searchMatches(null, tokens)} AND ${rows}`
    return { matches: all, tierOf: sql`1`, tiers: [all] }
  }
  const hasTypos = words.some((w) => w.typos.length > 0)
  const exact = wordsQuery(words, false, 'search')
  const any = hasTypos ? wordsQuery(words, true, 'search') : exact
  const exactSql = sql`${exact}::tsquery`
  const exactName = sql`${wordsQuery(words, false, 'name_search')}::tsquery`
  return {
    matches: sql`${searchMatches(any, tokens)} AND ${rows}`,
    tierOf: hasTypos
      ? sql`CASE WHEN name_search @@ ${exactName} THEN 1 WHEN search @@ ${exactSql} THEN 2 ELSE 3 END`
      : sql`CASE WHEN name_search @@ ${exactName} THEN 1 ELSE 2 END`,
    tiers: [
      sql`${searchMatches(exact, tokens)} AND name_search @@ ${exactName} AND ${rows}`,
      sql`${searchMatches(exact, tokens)} AND NOT name_search @@ ${exactName} AND ${rows}`,
      ...(hasTypos ? [sql`${searchMatches(any, tokens)} AND NOT search @@ ${exactSql} AND ${rows}`] : []),
    ],
  }
}

function facetSql(field: FilterField, i: number): SQL {
  const values = field === 'tags'
    ? sql`SELECT value FROM counted, unnest(counted.tags) AS value`
    : sql`SELECT ${COLUMNS[field].column}::text AS value FROM counted`
  return sql`(SELECT coalesce(json_agg(json_build_array(value, n) ORDER BY n DESC, value), '[]') FROM (
      SELECT value, count(*)::int AS n FROM (${values}) v WHERE value IS NOT NULL GROUP BY value ORDER BY n DESC, value LIMIT ${MAX_FACET_VALUES}
    ) f) AS ${sql.raw(`facet_${i}`)}`
}

export interface StatementInput {
  filter: Filter
  /** Empty: every visible document matches, newest first. */
  words: QueryWord[]
  facets: FilterField[]
  first: number
  size: number
}

export interface StatementRow {
  n: number
  /** Null when there were more matches than candidates: the page then comes from tiersStatement. */
  hits: unknown[] | string | null
  [facet: `facet_${number}`]: Array<[string, number]> | string
}

export function searchStatement({ filter, words, facets, first, size }: StatementInput): SQL {
  const { matches, tierOf } = ranking(words, splitFilter(filter))
  const complete = sql`(SELECT n FROM total) <= ${sql.raw(String(MAX_HITS_REACHABLE))}`
  return sql`WITH candidates AS MATERIALIZED (
      SELECT ${tierOf} AS tier, updated_at, object_id, hit, entity_type_id, entity_type_name, owner_id, owner_name, advice_set_id, is_public, is_starter, tags
      FROM search_documents WHERE ${matches} LIMIT ${MAX_HITS_REACHABLE + 1}
    ),
    total AS (SELECT count(*)::int AS n FROM candidates),
    counted AS (SELECT * FROM candidates LIMIT ${MAX_HITS_REACHABLE})
    SELECT (SELECT n FROM total) AS n,
      CASE WHEN ${complete} THEN (SELECT coalesce(json_agg(hit ORDER BY tier, updated_at DESC, object_id), '[]') FROM (
        SELECT * FROM candidates ORDER BY tier, updated_at DESC, object_id LIMIT ${size} OFFSET ${first}) page) END AS hits
      ${sql.join(facets.map((field, i) => sql`, ${facetSql(field, i)}`), sql``)}`
}

/** The newest documents a broad query's tier is first looked for in, before asking the index for all of it. */
const RECENT_WINDOW = 2000

/**
 * The page of a broad query: each tier newest first, a later one only when the earlier ones fell short. A tier is
 * first looked for among the newest documents — a broad query's best tier is usually dense there, and reading them
 * in order is cheaper than gathering every match of a short prefix — and gathered through the index only when
 * that window holds too few of it.
 */
export function tiersStatement({ filter, words, first, size }: Omit<StatementInput, 'facets'>): SQL {
  const { tiers } = ranking(words, splitFilter(filter))
  const wanted = first + size
  const ctes = tiers.flatMap((where, i) => {
    const n = i + 1
    const earlier = tiers.slice(0, i).map((_, j) => `(SELECT count(*) FROM tier_${j + 1})`).join(' + ')
    const needed = i === 0 ? sql`true` : sql`${sql.raw(earlier)} < ${wanted}`
    const walked = sql.raw(`(SELECT count(*) FROM walk_${n})`)
    return [
      sql`${sql.raw(`walk_${n}`)} AS (
        SELECT ${sql.raw(String(n))} AS tier, updated_at, object_id, hit FROM (
          SELECT * FROM search_documents WHERE ${needed} ORDER BY updated_at DESC LIMIT ${RECENT_WINDOW}) recent
        WHERE ${where} ORDER BY updated_at DESC, object_id LIMIT ${wanted})`,
      sql`${sql.raw(`tier_${n}`)} AS (
        SELECT * FROM ${sql.raw(`walk_${n}`)} WHERE ${walked} >= ${wanted}
        UNION ALL (
          SELECT ${sql.raw(String(n))} AS tier, updated_at, object_id, hit FROM search_documents
          WHERE ${needed} AND ${walked} < ${wanted} AND ${where} ORDER BY updated_at DESC, object_id LIMIT ${wanted}))`,
    ]
  })
  return sql`WITH ${sql.join(ctes, sql`, `)}
    SELECT coalesce(json_agg(hit ORDER BY tier, updated_at DESC, object_id), '[]') AS hits FROM (
      SELECT * FROM (${sql.raw(tiers.map((_, i) => `SELECT * FROM tier_${i + 1}`).join(' UNION ALL '))}) ranked
      ORDER BY tier, updated_at DESC, object_id LIMIT ${size} OFFSET ${first}) page`
}
