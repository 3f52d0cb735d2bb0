// For tests that run writers side by side on several connections (PostgreSQL deadlock tests).
import postgres from 'postgres'
import { testDriver } from './database.ts'

/** Such a test's options: it runs on PostgreSQL only, as the embedded database has one connection. */
export const ON_POSTGRES_ONLY = { skip: testDriver() === 'postgres' ? false : 'the embedded database has one connection, and runs one statement at a time' }

/** The items in a random order: each writer takes its rows in an order of its own, as instances and people do. */
export function shuffled<T>(items: readonly T[]): T[] {
  return items.map((item) => [Math.random(), item] as const).sort((a, b) => a[0] - b[0]).map(([, item]) => item)
}

/** What the database said: drizzle wraps the driver's error ("deadlock detected") as the cause of its own. */
export function databaseMessage(err: unknown): string {
  const error = err as Error
  return String((error.cause as Error | undefined)?.message ?? error.message)
}

/**
 * Another connection's transaction holding a lock (`take`) until `release()`: resolved once it holds it. Its pool has a
 * second connection, `other`, for the test's own statements beside the holder; both close with the test.
 */
export async function lockHeldElsewhere(t: { teardown(fn: () => unknown): void }, url: string, take: (tx: postgres.TransactionSql) => Promise<unknown>) {
  const other = postgres(url, { max: 2, onnotice: () => {} })
  t.teardown(() => other.end())
  let release!: () => void
  const released = new Promise<void>((resolve) => { release = resolve })
  let holding!: () => void
  const holds = new Promise<void>((resolve) => { holding = resolve })
  const holder = other.begin(async (tx) => {
    await take(tx)
    holding()
    await released
  })
  await holds
  return { other, release: async () => { release(); await holder } }
}

/** Whether a backend of the current database is waiting for a lock. */
export async function someoneWaitsForALock(sql: postgres.Sql): Promise<boolean> {
  return (await sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`)[0]!.n > 0
}
