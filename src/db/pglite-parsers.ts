// drizzle's PGlite driver sends the same result parsers with every query (dates, times, intervals and their arrays,
// and numeric[], kept as text for drizzle to map), and PGlite merges them into its ~380 type parsers on every query:
// measured 0.29 → 0.49 ms for a one-row select, work done on the thread that serves requests. drizzle's parsers are
// made the client's own once instead, and dropped from each query that sends exactly them. The client's other user
// that reads such values, pg-boss's adapter, is given PGlite's own parsers back with each of its queries: it reads
// dates as Date objects.
import { types, type PGlite, type QueryOptions, type Transaction } from '@electric-sql/pglite'

const SCALARS = [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE]
/** The types drizzle keeps as text: the scalars, and numeric[], timestamp[], timestamptz[], interval[], date[]. */
const DRIZZLE_TEXT_TYPES = [...SCALARS, 1231, 1115, 1185, 1187, 1182]

type Parser = NonNullable<QueryOptions['parsers']>[number]
const asText: Parser = (value) => value

/** True for options whose parsers are drizzle's: exactly its types (the functions are its own identities). */
function sendsDrizzleParsers(options: QueryOptions | undefined): boolean {
  const parsers = options?.parsers
  if (!parsers) return false
  const keys = Object.keys(parsers)
  return keys.length === DRIZZLE_TEXT_TYPES.length && DRIZZLE_TEXT_TYPES.every((oid) => oid in parsers)
}

function withoutDrizzleParsers(options: QueryOptions | undefined): QueryOptions | undefined {
  if (!sendsDrizzleParsers(options)) return options
  const { parsers: _dropped, ...rest } = options!
  return rest
}

type Query = PGlite['query']

function strippingQuery(query: Query): Query {
  return ((text: string, params?: unknown[], options?: QueryOptions) => query(text, params, withoutDrizzleParsers(options))) as Query
}

/**
 * Makes drizzle's parsers the client's own and drops them from each query (its transactions' too). Returns the
 * client as pg-boss's adapter uses it (query, exec, listen), with PGlite's own parsers of those types, taken before
 * they were replaced, sent back with each of its queries.
 */
export function adoptDrizzleParsers(client: PGlite) {
  const own = Object.fromEntries(SCALARS.map((oid) => [oid, client.parsers[oid]!]))
  for (const oid of DRIZZLE_TEXT_TYPES) client.parsers[oid] = asText
  client.query = strippingQuery(client.query.bind(client))
  const transaction = client.transaction.bind(client)
  client.transaction = ((callback: (tx: Transaction) => Promise<unknown>) => transaction((tx) => {
    // The transaction object has a `closed` getter, so it is changed in place rather than copied.
    tx.query = strippingQuery(tx.query)
    return callback(tx)
  })) as PGlite['transaction']
  return {
    query: <T>(text: string, params?: unknown[]) => client.query<T>(text, params, { parsers: own }),
    exec: (text: string) => client.exec(text, { parsers: own }),
    listen: client.listen.bind(client),
  }
}
