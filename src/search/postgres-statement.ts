// The statements of a PostgreSQL search. The main one gathers the matches once — text, short prefixes and
// visibility together in one GIN condition (prefix-tokens.ts, filter-tokens.ts), up to one past MAX_HITS_REACHABLE,
// typo matches only when the plain ones are few (TYPOS_BELOW) — and returns the count, the facets and,
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
 * How a query is asked of a column: `index` is the GIN condition on `search`, where a prefix is its prefix token
 * (prefix-tokens.ts) — for a prefix longer than the tokens, its beginning's token, a superset then checked per row;
 * `row` is exact, every prefix as a tsquery prefix (`name_search` has no tokens).
 */
type Form = 'index' | 'row'

/** The query's words as tsquery text; words are folded runs of letters and digits, so quoting them needs no escaping. */
function wordsQuery(query: QueryWord[], typos: boolean, form: Form): string {
  const term = (word: string, prefix: boolean) => !prefix ? `'${word}'`
    : form === 'index' ? `'${prefixToken(word.slice(0, MAX_PREFIX_TOKEN_LENGTH))}'` : `'${word}':*`
  return query.map((q) => `(${[q.word, ...(typos ? q.typos : [])].map((w) => term(w, q.prefix)).join(' | ')})`).join(' & ')
}

/**
 * `search` holds the text and the tokens: one GIN condition for both. A prefix longer than the tokens is checked
 * on the rows that condition finds rather than in it: as a tsquery prefix the index would first merge the postings
 * of every word it begins ("pension…" — a large part of the library) before the other words could narrow anything.
 * ts_match_vq is the function behind @@; called by name it is a row condition the planner never turns into an index
 * scan of its own.
 */
function searchMatches(words: QueryWord[], typos: boolean, tokens: string | null): SQL {
  const parts = [words.length === 0 ? null : wordsQuery(words, typos, 'index'), tokens].filter((p) => p !== null && p !== '')
  if (parts.length === 0) return sql`true`
  const indexed = sql`search @@ ${parts.map((p) => `(${p})`).join(' & ')}::tsquery`
  const beyondTokens = words.some((q) => q.prefix && [q.word, ...(typos ? q.typos : [])].some((w) => w.length > MAX_PREFIX_TOKEN_LENGTH))
  return beyondTokens ? sql`${indexed} AND ts_match_vq(search, ${wordsQuery(words, typos, 'row')}::tsquery)` : indexed
}

interface Ranking {
  /** The matches without typos (the words and their prefixes), and the name tier (1) told from the text tier (2). */
  exact: SQL
  exactTierOf: SQL
  /** The matches only a typo finds (tier 3); null when no word has typo alternatives. */
  typosOnly: SQL | null
  /** Each tier's documents, in rank order; together they are the matches. */
  tiers: SQL[]
}

function ranking(words: QueryWord[], { tokens, rows }: SplitFilter): Ranking {
  if (words.length === 0) {
    const all = sql`${searchMatches([], false, tokens)} AND ${rows}`
    return { exact: all, exactTierOf: sql`1`, typosOnly: null, tiers: [all] }
  }
  const hasTypos = words.some((w) => w.typos.length > 0)
  const exact = searchMatches(words, false, tokens)
  // A row check on what `search` found: through its own index, which has no prefix tokens, a short prefix would
  // first merge the postings of every name word it begins.
  const inName = sql`ts_match_vq(name_search, ${wordsQuery(words, false, 'row')}::tsquery)`
  const typosOnly = hasTypos
    ? sql`${searchMatches(words, true, tokens)} AND NOT search @@ ${wordsQuery(words, false, 'row')}::tsquery AND ${rows}` : null
  return {
    exact: sql`${exact} AND ${rows}`,
    exactTierOf: sql`CASE WHEN ${inName} THEN 1 ELSE 2 END`,
    typosOnly,
    tiers: [
      sql`${exact} AND ${inName} AND ${rows}`,
      sql`${exact} AND NOT ${inName} AND ${rows}`,
      ...(typosOnly ? [typosOnly] : []),
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

// Not the hit: a candidate set can hold a thousand rows, and only the page's hits are read (pageHits).
const CANDIDATE_COLUMNS = sql.raw('updated_at, object_id, entity_type_id, entity_type_name, owner_id, owner_name, advice_set_id, is_public, is_starter, tags')

/** The stored hits of a page of ranked rows (tier, updated_at, object_id), in rank order. */
function pageHits(ranked: SQL): SQL {
  return sql`(SELECT coalesce(json_agg(d.hit ORDER BY p.tier, p.updated_at DESC, p.object_id), '[]')
    FROM (${ranked}) p JOIN search_documents d ON d.object_id = p.object_id)`
}

/**
 * Typo matches are added only when the words as typed match fewer documents than this. They rank after every plain
 * match anyway, so past a hundred plain matches they would only be counted, never seen on the first pages, while
 * gathering them — a short prefix's typo alternatives reach a large part of the library — is most of a broad
 * query's cost.
 */
export const TYPOS_BELOW = 100

/**
 * How many of the newest documents a query's candidates are first looked for in. Beyond MAX_HITS_REACHABLE matches
 * the count is only "more than", the facets count the candidates, and the page is ranked apart (tiersStatement), so
 * any MAX_HITS_REACHABLE + 1 matches will do, and the newest are the ones most worth counting. Gathering every match
 * of a broad word costs as many as it has (136,827 documents for "mortgage advice" on the big tenant: 38 ms), while
 * the newest documents' range in the full-text index, read with the word, bounds it (3 ms at any size). A word of
 * ~6 % of the documents has 1,200 matches among these; a rarer one falls back to all of its matches, which are few.
 */
export const RECENT_DOCUMENTS = 20_000

/** The candidates are gathered without typos first, the typo alternatives only for a query with few plain matches. */
export function searchStatement({ filter, words, facets, first, size }: StatementInput): SQL {
  const { exact, exactTierOf, typosOnly } = ranking(words, splitFilter(filter))
  const limit = MAX_HITS_REACHABLE + 1
  const complete = sql`(SELECT n FROM total) <= ${sql.raw(String(MAX_HITS_REACHABLE))}`
  const enoughRecent = sql`(SELECT count(*) FROM recent) > ${sql.raw(String(MAX_HITS_REACHABLE))}`
  const matches = (where: SQL) => sql`SELECT ${exactTierOf} AS tier, ${CANDIDATE_COLUMNS} FROM search_documents WHERE ${where} AND ${exact} LIMIT ${limit}`
  const typoCandidates = typosOnly === null ? sql`` : sql`
      UNION ALL (SELECT 3 AS tier, ${CANDIDATE_COLUMNS} FROM search_documents
        WHERE (SELECT count(*) FROM exact) < ${sql.raw(String(TYPOS_BELOW))} AND ${typosOnly} LIMIT ${limit})`
  // With fewer documents than RECENT_DOCUMENTS there is no cut-off: recent is empty, and all matches are gathered.
  return sql`WITH recent AS MATERIALIZED (
      ${matches(sql`updated_at >= (SELECT updated_at FROM search_documents ORDER BY updated_at DESC OFFSET ${sql.raw(String(RECENT_DOCUMENTS))} LIMIT 1)`)}
    ),
    exact AS MATERIALIZED (SELECT * FROM recent WHERE ${enoughRecent} UNION ALL (${matches(sql`NOT ${enoughRecent}`)})),
    candidates AS MATERIALIZED (SELECT * FROM exact${typoCandidates} LIMIT ${limit}),
    total AS (SELECT count(*)::int AS n FROM candidates),
    counted AS (SELECT * FROM candidates LIMIT ${MAX_HITS_REACHABLE})
    SELECT (SELECT n FROM total) AS n,
      CASE WHEN ${complete} THEN ${pageHits(sql`SELECT tier, updated_at, object_id FROM candidates ORDER BY tier, updated_at DESC, object_id LIMIT ${size} OFFSET ${first}`)} END AS hits
      ${sql.join(facets.map((field, i) => sql`, ${facetSql(field, i)}`), sql``)}`
}

/** The newest documents a broad query's tier is first looked for in, before asking the index for all of it. */
const RECENT_WINDOW = 1000
/** How far the newest documents are read further when the first window held some of the tier, but too few. */
const FURTHER_WINDOW = 5000

/**
 * The page of a broad query: each tier newest first, a later one only when the earlier ones fell short. A tier is
 * first looked for among the newest documents — a broad query's best tier is usually dense there, and reading them
 * in order is cheaper than gathering every match of a short prefix. When that window held some of the tier but too
 * few, and as many again are likely within FURTHER_WINDOW, the reading goes on that far; only a tier sparse among
 * the newest documents is gathered through the index.
 */
export function tiersStatement({ filter, words, first, size }: Omit<StatementInput, 'facets'>): SQL {
  const { tiers } = ranking(words, splitFilter(filter))
  const wanted = first + size
  const newest = (name: string, where: SQL, runs: SQL, window: number) => sql`${sql.raw(name)} AS (
        SELECT updated_at, object_id FROM (
          SELECT * FROM search_documents WHERE ${runs} ORDER BY updated_at DESC LIMIT ${window}) recent
        WHERE ${where} ORDER BY updated_at DESC, object_id LIMIT ${wanted})`
  const ctes = tiers.flatMap((where, i) => {
    const n = i + 1
    const earlier = tiers.slice(0, i).map((_, j) => `(SELECT count(*) FROM tier_${j + 1})`).join(' + ')
    const needed = i === 0 ? sql`true` : sql`${sql.raw(earlier)} < ${wanted}`
    const walked = sql.raw(`(SELECT count(*) FROM walk_${n})`)
    const further = sql.raw(`(SELECT count(*) FROM further_${n})`)
    const goesFurther = sql`${walked} < ${wanted} AND ${walked} * ${FURTHER_WINDOW} >= ${wanted * RECENT_WINDOW}`
    return [
      newest(`walk_${n}`, where, needed, RECENT_WINDOW),
      newest(`further_${n}`, where, sql`${needed} AND ${goesFurther}`, FURTHER_WINDOW),
      // Every match of the tier, gathered through the index before sorting: asked for in order, the planner may walk
      // the date index past many thousands of rows, yet this runs only when the newest ones held too few of the tier.
      sql`${sql.raw(`gathered_${n}`)} AS MATERIALIZED (
        SELECT updated_at, object_id FROM search_documents
        WHERE ${needed} AND ${walked} < ${wanted} AND ${further} < ${wanted} AND ${where})`,
      sql`${sql.raw(`tier_${n}`)} AS (
        SELECT ${sql.raw(String(n))} AS tier, updated_at, object_id FROM (
          SELECT updated_at, object_id FROM ${sql.raw(`walk_${n}`)} WHERE ${walked} >= ${wanted}
          UNION ALL SELECT updated_at, object_id FROM ${sql.raw(`further_${n}`)} WHERE ${further} >= ${wanted}
          UNION ALL (SELECT * FROM ${sql.raw(`gathered_${n}`)} ORDER BY updated_at DESC, object_id LIMIT ${wanted})) found)`,
    ]
  })
  return sql`WITH ${sql.join(ctes, sql`, `)}
    SELECT ${pageHits(sql`SELECT * FROM (${sql.raw(tiers.map((_, i) => `SELECT * FROM tier_${i + 1}`).join(' UNION ALL '))}) ranked
      ORDER BY tier, updated_at DESC, object_id LIMIT ${size} OFFSET ${first}`)} AS hits`
}
