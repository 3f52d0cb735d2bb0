import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { adviceRequests, rules, users, type AdviceRequestStatus } from '../schema/index.ts'

export type AdviceRequestRow = typeof adviceRequests.$inferSelect

export async function insertAdviceRequest(db: Db, p: { adviceSetId: number; text: string; source: 'embed' | 'author'; apiKeyId: number | null; createdBy: number | null }): Promise<AdviceRequestRow> {
  const [row] = await db.insert(adviceRequests).values(p).returning()
  return row!
}

export async function findAdviceRequest(db: Db, id: number, opts: { includeDeleted?: boolean } = {}): Promise<AdviceRequestRow | undefined> {
  const [row] = await db.select().from(adviceRequests).where(and(eq(adviceRequests.id, id), opts.includeDeleted ? undefined : isNull(adviceRequests.deletedAt))).limit(1)
  return row
}

export async function listAdviceRequests(db: Db, adviceSetId: number, status?: AdviceRequestStatus) {
  return db.select({ request: adviceRequests, ruleName: rules.name, createdByName: users.name }).from(adviceRequests)
    .leftJoin(rules, eq(rules.id, adviceRequests.answeredByRuleId)).leftJoin(users, eq(users.id, adviceRequests.createdBy))
    .where(and(eq(adviceRequests.adviceSetId, adviceSetId), isNull(adviceRequests.deletedAt), status ? eq(adviceRequests.status, status) : undefined))
    .orderBy(desc(adviceRequests.createdAt), desc(adviceRequests.id)).limit(500)
}

export async function updateAdviceRequest(db: Db, id: number, p: { status?: AdviceRequestStatus; answeredByRuleId?: number | null; text?: string; deletedAt?: Date | null }): Promise<AdviceRequestRow> {
  const [row] = await db.update(adviceRequests).set({ ...p, updatedAt: new Date() }).where(eq(adviceRequests.id, id)).returning()
  return row!
}

/** Open requests per advice set (sets without any are absent), for the library. */
export async function countOpenAdviceRequests(db: Db, adviceSetIds: number[]): Promise<Map<number, number>> {
  if (adviceSetIds.length === 0) return new Map()
  const rows = await db.select({ adviceSetId: adviceRequests.adviceSetId, n: sql<number>`count(*)`.mapWith(Number) }).from(adviceRequests)
    .where(and(inArray(adviceRequests.adviceSetId, adviceSetIds), eq(adviceRequests.status, 'open'), isNull(adviceRequests.deletedAt)))
    .groupBy(adviceRequests.adviceSetId)
  return new Map(rows.map((r) => [r.adviceSetId, r.n]))
}
