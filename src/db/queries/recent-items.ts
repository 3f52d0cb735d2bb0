import { and, desc, eq } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { recentItems } from '../schema/index.ts'

export async function upsertRecentItem(db: Db, p: { userId: number; entityType: string; entityId: number }): Promise<void> {
  await db.insert(recentItems).values(p).onConflictDoUpdate({
    target: [recentItems.userId, recentItems.entityType, recentItems.entityId],
    set: { viewedAt: new Date() },
  })
}

export async function listRecentItems(db: Db, userId: number, limit: number) {
  return db.select().from(recentItems).where(eq(recentItems.userId, userId)).orderBy(desc(recentItems.viewedAt), desc(recentItems.id)).limit(limit)
}

export async function deleteRecentItem(db: Db, userId: number, id: number): Promise<boolean> {
  const rows = await db.delete(recentItems).where(and(eq(recentItems.id, id), eq(recentItems.userId, userId))).returning({ id: recentItems.id })
  return rows.length > 0
}
