import { and, asc, eq, isNull } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { adviceSets, apiKeys, audiences, versionAssignments } from '../schema/index.ts'

export type AudienceRow = typeof audiences.$inferSelect

export async function listAudiences(db: Db, ownerId: string): Promise<AudienceRow[]> {
  return db.select().from(audiences).where(eq(audiences.ownerId, ownerId)).orderBy(asc(audiences.name), asc(audiences.id))
}

export async function findAudience(db: Db, id: number): Promise<AudienceRow | undefined> {
  const [row] = await db.select().from(audiences).where(eq(audiences.id, id)).limit(1)
  return row
}

export async function insertAudience(db: Db, p: Pick<AudienceRow, 'ownerId' | 'name' | 'description'>): Promise<AudienceRow> {
  const [row] = await db.insert(audiences).values(p).returning()
  return row!
}

export async function updateAudience(db: Db, id: number, p: Partial<Pick<AudienceRow, 'name' | 'description'>>): Promise<AudienceRow> {
  const [row] = await db.update(audiences).set(p).where(eq(audiences.id, id)).returning()
  return row!
}

export async function deleteAudience(db: Db, id: number): Promise<void> {
  await db.delete(audiences).where(eq(audiences.id, id))
}

/** Live API keys that belong to the audience. */
export async function keysInAudience(db: Db, audienceId: number): Promise<Array<{ id: number; name: string }>> {
  return db.select({ id: apiKeys.id, name: apiKeys.name }).from(apiKeys)
    .where(and(eq(apiKeys.audienceId, audienceId), isNull(apiKeys.deletedAt))).orderBy(asc(apiKeys.name))
}

/** Advice sets that give the audience a version of their own. */
export async function setsAssignedTo(db: Db, audienceId: number): Promise<Array<{ id: number; name: string }>> {
  return db.select({ id: adviceSets.id, name: adviceSets.name }).from(versionAssignments)
    .innerJoin(adviceSets, eq(adviceSets.id, versionAssignments.adviceSetId))
    .where(eq(versionAssignments.audienceId, audienceId)).orderBy(asc(adviceSets.name))
}
