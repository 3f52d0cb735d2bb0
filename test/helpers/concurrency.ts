// For tests that run writers side by side on several connections (PostgreSQL deadlock tests).
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
