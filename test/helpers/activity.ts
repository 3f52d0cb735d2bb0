// The audit rows one entity has, oldest first: what write tests count and compare.
import { and, eq } from 'drizzle-orm'
import type { Db } from '../../src/db/client.ts'
import { activity } from '../../src/db/schema/index.ts'

export async function activityRows(db: Db, entityType: string, id: number | string) {
  return db.select().from(activity).where(and(eq(activity.entityType, entityType), eq(activity.entityId, String(id)))).orderBy(activity.id)
}
