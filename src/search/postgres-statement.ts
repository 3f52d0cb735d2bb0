// The one statement a PostgreSQL search runs: matches (visibility and text together, so the planner can use the
// partial indexes for starter, public and advice-set documents) gathered once, up to one past MAX_HITS_REACHABLE;
// count, facets and — when that is every match — the ranked page all come from that one candidate set. Only a
// broader query walks the ranking tiers newest first instead; those walks are gated on the count, so the database
// skips them whenever the candidates were complete, and a later tier runs only when the earlier ones fell short.
import { sql, type SQL } from 'drizzle-orm'
import type { QueryWord } from './text.ts'
import { MAX_HITS_REACHABLE, type Condition, type Filter, type FilterField } from './types.ts'

const MAX_FACET_VALUES = 100
/** Prefixes this short are not looked up in the index when other words are. */
const SHORT_PREFIX = 2

const COLUMNS: Record<Exclude<FilterField, 'tags'>, { column: SQL; type: 'int' | 'bool' | 'text' }> = {
  'entityType.id': { column: sql`entity_type_id`, type: 'int' },
  'entityType.displayName': { column: sql`entity_type_name`, type: 'text' },
  ownerId: { column: sql`owner_id`, type: 'text' },
  ownerName: { column: sql`owner_name`, type: 'text' },
  'adviceset.id': { column: sql`advice_set_id`, type: 'int' },
  'adviceset.isPublic': { column: sql`is_public`, type: 'bool' },
  'adviceset.isStarter': { column: sql`is_starter`, type: 'bool' },
}

/** Booleans as bare columns or NOT: the form the partial indexes' predicates are proven from. */
function conditionSql(c: Condition): SQL {
  if (c.field === 'tags') return sql`${String(c.value)} = ANY(tags)`
  const { column, type } = COLUMNS[c.field]
  if (type === 'bool') return c.value === true || c.value === 'true' ? column : sql`NOT ${column}`
  if (type === 'int') {
    const n = Number(c.value)
    return Number.isSafeInteger(n) ? sql`${column} = ${sql.raw(String(n))}` : sql`false`
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

function facetSql(field: FilterField, i: number): SQL {
  const values = field === 'tags'
    ? sql`SELECT value FROM counted, unnest(counted.tags) AS value`
    : sql`SELECT ${COLUMNS[field].column}::text AS value FROM counted`
  return sql`(SELECT coalesce(json_agg(json_build_array(value, n) ORDER BY n DESC, value), '[]') FROM (
      SELECT value, count(*)::int AS n FROM (${values}) v WHERE value IS NOT NULL GROUP BY value ORDER BY n DESC, value LIMIT ${MAX_FACET_VALUES}
    ) f) AS ${sql.raw(`facet_${i}`)}`
}

export interface StatementInput {
  visible: SQL
  /** Empty: every visible document matches, newest first. */
  words: QueryWord[]
  facets: FilterField[]
  first: number
  size: number
}

export interface StatementRow {
  n: number
  hits: unknown[] | string
  [facet: `facet_${number}`]: Array<[string, number]> | string
}

export function searchStatement({ visible, words, facets, first, size }: StatementInput): SQL {
  const hasTypos = words.some((w) => w.typos.length > 0)
  const exact = tsquery(words, false)
  const any = hasTypos ? tsquery(words, true) : exact
  // Beside other words, a one- or two-letter prefix would make the index gather most of the library; it is
  // checked on the rows the other words find instead.
  const indexed = words.filter((w) => !(words.length > 1 && w.prefix && w.word.length <= SHORT_PREFIX))
  const matches = words.length === 0 ? visible
    : indexed.length === words.length ? sql`${visible} AND search @@ ${any}`
      : sql`${visible} AND search @@ ${tsquery(indexed, hasTypos)} AND (search || ''::tsvector) @@ ${any}`
  const tierOf = words.length === 0 ? sql`1`
    : hasTypos ? sql`CASE WHEN name_search @@ ${exact} THEN 1 WHEN search @@ ${exact} THEN 2 ELSE 3 END`
      : sql`CASE WHEN name_search @@ ${exact} THEN 1 ELSE 2 END`
  const tiers = words.length === 0 ? [visible] : [
    sql`${visible} AND name_search @@ ${exact}`,
    sql`${visible} AND search @@ ${exact} AND NOT name_search @@ ${exact}`,
    ...(hasTypos ? [sql`${visible} AND search @@ ${any} AND NOT search @@ ${exact}`] : []),
  ]
  const wanted = first + size
  const broad = sql`(SELECT n FROM total) > ${sql.raw(String(MAX_HITS_REACHABLE))}`
  const tierCtes = tiers.map((where, i) => {
    const found = tiers.slice(0, i).map((_, j) => `(SELECT count(*) FROM tier_${j + 1})`).join(' + ')
    const earlier = i === 0 ? sql`` : sql` AND ${sql.raw(found)} < ${wanted}`
    return sql`${sql.raw(`tier_${i + 1}`)} AS (
      SELECT ${sql.raw(String(i + 1))} AS tier, updated_at, object_id, hit FROM search_documents
      WHERE ${broad}${earlier} AND ${where} ORDER BY updated_at DESC, object_id LIMIT ${wanted})`
  })
  return sql`WITH candidates AS MATERIALIZED (
      SELECT ${tierOf} AS tier, updated_at, object_id, hit, entity_type_id, entity_type_name, owner_id, owner_name, advice_set_id, is_public, is_starter, tags
      FROM search_documents WHERE ${matches} LIMIT ${MAX_HITS_REACHABLE + 1}
    ),
    total AS (SELECT count(*)::int AS n FROM candidates),
    counted AS (SELECT * FROM candidates LIMIT ${MAX_HITS_REACHABLE}),
    ${sql.join(tierCtes, sql`, `)},
    ranked AS (
      SELECT tier, updated_at, object_id, hit FROM candidates WHERE (SELECT n FROM total) <= ${sql.raw(String(MAX_HITS_REACHABLE))}
      ${sql.join(tiers.map((_, i) => sql.raw(`UNION ALL SELECT * FROM tier_${i + 1}`)), sql` `)}
    )
    SELECT (SELECT n FROM total) AS n,
      (SELECT coalesce(json_agg(hit ORDER BY tier, updated_at DESC, object_id), '[]') FROM (
        SELECT * FROM ranked ORDER BY tier, updated_at DESC, object_id LIMIT ${size} OFFSET ${first}) page) AS hits
      ${sql.join(facets.map((field, i) => sql`, ${facetSql(field, i)}`), sql``)}`
}
