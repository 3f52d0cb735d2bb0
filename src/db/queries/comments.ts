import { and, asc, eq, isNull, sql } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { comments, ruleNodes, users } from '../schema/index.ts'

export type CommentRow = typeof comments.$inferSelect

export async function listComments(db: Db, ruleNodeId: number) {
  return db.select({ comment: comments, authorName: users.name }).from(comments).leftJoin(users, eq(users.id, comments.userId))
    .where(and(eq(comments.ruleNodeId, ruleNodeId), isNull(comments.deletedAt))).orderBy(asc(comments.createdAt), asc(comments.id))
}

export async function countComments(db: Db, ruleNodeId: number): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(comments)
    .where(and(eq(comments.ruleNodeId, ruleNodeId), isNull(comments.deletedAt)))
  return row?.n ?? 0
}

export async function findComment(db: Db, id: number, opts: { includeDeleted?: boolean } = {}): Promise<CommentRow | undefined> {
  const [row] = await db.select().from(comments)
    .where(and(eq(comments.id, id), opts.includeDeleted ? undefined : isNull(comments.deletedAt))).limit(1)
  return row
}

export async function insertComment(db: Db, p: { ruleNodeId: number; userId: number | null; body: string }): Promise<CommentRow> {
  const [row] = await db.insert(comments).values(p).returning()
  return row!
}

export async function updateComment(db: Db, id: number, p: { body?: string; deletedAt?: Date | null }): Promise<CommentRow> {
  const [row] = await db.update(comments).set({ ...p, updatedAt: new Date() }).where(eq(comments.id, id)).returning()
  return row!
}

/** Live comment counts of a rule's live nodes, by node id (nodes without comments are left out). */
export async function countCommentsByRule(db: Db, ruleId: number): Promise<Record<number, number>> {
  const rows = await db.select({ nodeId: comments.ruleNodeId, n: sql<number>`count(*)`.mapWith(Number) }).from(comments)
    .innerJoin(ruleNodes, eq(ruleNodes.id, comments.ruleNodeId))
    .where(and(eq(ruleNodes.ruleId, ruleId), isNull(ruleNodes.deletedAt), isNull(comments.deletedAt)))
    .groupBy(comments.ruleNodeId)
  return Object.fromEntries(rows.map((r) => [r.nodeId, r.n]))
}
