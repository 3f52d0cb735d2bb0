// postgres.js asks for every statement drizzle sends to be unprepared. Unprepared, a statement with parameters takes two
// round trips (one to describe it, as postgres.js needs its parameter types, and one to run it) and is planned anew
// every time. Prepared (postgres.js's own default), a statement is described once per connection, then runs in one
// round trip, and PostgreSQL keeps its plan once a generic one does as well as the planned ones.
// - On the embedded database on its worker thread, every round trip waits for a turn of the serving thread's event
//   loop, and an author's save holds the one connection for all of them. The bridge drops a connection's statements
//   when it closes.
// - On a PostgreSQL server, an author's edit cost its backends 2.2–2.5 ms of CPU unprepared, a third of it planning,
//   and 1.4–1.7 ms prepared; the app's share fell by about 0.7 ms (the socket writes of the second round trips). In
//   bench:soak with the writers paced to 165 writes a second, the Advice API kept 0.60 of its rate instead of 0.30.
//   postgres.js ends each connection after 30 to 60 minutes, and its statements with it, so they do not pile up.
import type { Sql, TransactionSql } from 'postgres'

type Unsafe = Sql['unsafe']

/**
 * Statements with more parameters than this are sent unprepared. Their text grows with a batch (a VALUES list, an IN
 * list, an array of names), so each batch size is a statement of its own, and postgres.js keeps every statement it has
 * prepared for the connection's lifetime (30 to 60 minutes): in bench:soak on PostgreSQL the heap grew 80 MB in
 * 150 s, nearly all of it the texts of such statements. A statement of a page or an edit has far fewer.
 */
const MAX_PREPARED_PARAMETERS = 64

/** Transactions under way on the connection, which holds it for all their round trips. */
interface Counter { open: number }

function preparing<T extends Sql | TransactionSql>(sql: T, transactions: Counter): T {
  return new Proxy(sql, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver)
      if (property === 'unsafe') {
        const unsafe = value as Unsafe
        return (query: string, parameters?: Parameters<Unsafe>[1], options?: Parameters<Unsafe>[2]) =>
          unsafe.call(target, query, parameters, { ...options, prepare: (parameters?.length ?? 0) <= MAX_PREPARED_PARAMETERS })
      }
      // A transaction's (and a savepoint's) own client prepares too.
      if ((property === 'begin' || property === 'savepoint') && typeof value === 'function') {
        return async (...args: unknown[]) => {
          const last = args.length - 1
          const body = args[last] as (tx: TransactionSql) => unknown
          transactions.open++
          try {
            return await (value as (...a: unknown[]) => Promise<unknown>).apply(target, [...args.slice(0, last), (tx: TransactionSql) => body(preparing(tx, transactions))])
          } finally {
            transactions.open--
          }
        }
      }
      return value
    },
  })
}

/** The client drizzle should use (every statement prepared, in transactions too), and how many transactions are open. */
export function preparedByDefault(sql: Sql): { client: Sql; transactionsOpen: () => number } {
  const transactions: Counter = { open: 0 }
  return { client: preparing(sql, transactions), transactionsOpen: () => transactions.open }
}
