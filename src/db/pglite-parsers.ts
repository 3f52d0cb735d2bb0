// drizzle's PGlite driver sends the same result parsers with every query (dates, times, intervals and their arrays,
// and numeric[], kept as text for drizzle to map), and PGlite merges them into its ~380 type parsers on every query:
// measured 0.29 → 0.49 ms for a one-row select, work done on the thread that serves requests. drizzle's parsers are
// made the client's own once instead, and dropped from each query that sends exactly them. The client's other user
// that reads such values, pg-boss's adapter, is given PGlite's own parsers back with each of its queries
// (`withPgliteParsers`): it reads dates as Date objects.
import { types, type PGlite, type QueryOptions, type Transaction } from '@electric-sql/pglite'

/** The types drizzle keeps as text: the scalars, and numeric[], timestamp[], timestamptz[], interval[], date[]. */
const DRIZZLE_TEXT_TYPES = [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182]
const SCALARS = [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE]

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

/** PGlite's own parsers of the scalar types drizzle keeps as text, taken before they are replaced. */
export interface PgliteParsers { parsers: Record<number, Parser> }

/** Makes drizzle's parsers the client's own and drops them from each query (its transactions' too). */
export function adoptDrizzleParsers(client: PGlite): PgliteParsers {
  const own = Object.fromEntries(SCALARS.map((oid) => [oid, client.parsers[oid]!]))
  for (const oid of DRIZZLE_TEXT_TYPES) client.parsers[oid] = asText
  client.query = strippingQuery(client.query.bind(client))
  const transaction = client.transaction.bind(client)
  client.transaction = ((callback: (tx: Transaction) => Promise<unknown>) => transaction((tx) => {
    // The transaction object has a `closed` getter, so it is changed in place rather than copied.
    tx.query = strippingQuery(tx.query)
    return callback(tx)
  })) as PGlite['transaction']
  return { parsers: own }
}

/** The client as pg-boss's adapter uses it (query, exec, listen), reading dates as PGlite does by default. */
export function withPgliteParsers(client: PGlite, own: PgliteParsers) {
  return {
    query: <T>(text: string, params?: unknown[]) => client.query<T>(text, params, { parsers: own.parsers }),
    exec: (text: string) => client.exec(text, { parsers: own.parsers }),
    listen: client.listen.bind(client),
  }
}
