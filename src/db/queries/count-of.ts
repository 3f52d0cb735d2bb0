import { sql, type Subquery } from 'drizzle-orm'
import type { Db } from '../client.ts'

/** The rows of a query, counted; with a limit on the query, counting stops there. */
export async function countOf(db: Db, rows: { as(alias: 'counted'): Subquery }): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(rows.as('counted'))
  return row?.n ?? 0
}
