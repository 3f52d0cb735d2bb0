// Support's look-ups across every owner (provider admins only; the service checks).
import { and, asc, eq, ilike, or, sql } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { adviceSets, owners, users } from '../schema/index.ts'

/** `%text%` for ILIKE with the pattern characters of the text taken literally. */
function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

export async function findUsersForSupport(db: Db, text: string, limit: number) {
  const id = /^\d+$/.test(text) ? Number(text) : null
  return db.select({ id: users.id, name: users.name, email: users.email, role: users.role, ownerId: users.ownerId, ownerName: owners.name })
    .from(users).innerJoin(owners, eq(owners.id, users.ownerId))
    .where(or(ilike(users.name, containing(text)), ilike(users.email, containing(text)), ilike(owners.name, containing(text)), id !== null && id <= 2147483647 ? eq(users.id, id) : undefined))
    .orderBy(asc(users.name), asc(users.id)).limit(limit)
}

export async function findAdviceSetsForSupport(db: Db, text: string, limit: number) {
  const id = /^\d+$/.test(text) ? Number(text) : null
  return db.select({
    id: adviceSets.id, name: adviceSets.name, ownerId: adviceSets.ownerId, ownerName: owners.name,
    deleted: sql<boolean>`${adviceSets.deletedAt} is not null`, updatedAt: adviceSets.updatedAt,
  }).from(adviceSets).innerJoin(owners, eq(owners.id, adviceSets.ownerId))
    .where(and(or(ilike(adviceSets.name, containing(text)), ilike(adviceSets.nameAlt, containing(text)), id !== null && id <= 2147483647 ? eq(adviceSets.id, id) : undefined)))
    .orderBy(asc(adviceSets.name), asc(adviceSets.id)).limit(limit)
}
