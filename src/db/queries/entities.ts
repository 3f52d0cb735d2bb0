import { and, asc, eq, ilike, inArray, isNull, ne, or, sql } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { entities } from '../schema/index.ts'

export type EntityRow = typeof entities.$inferSelect
export type EntityFields = Pick<EntityRow, 'ownerId' | 'adviceSetId' | 'entityTypeId' | 'reservedName' | 'dataType' | 'validOptions' |
  'isClosedSet' | 'displayFormat' | 'defaultValue' | 'expression' | 'isConstant' | 'personal' | 'description'>

export async function findEntity(db: Db, id: number, opts: { includeDeleted?: boolean } = {}): Promise<EntityRow | undefined> {
  const [row] = await db.select().from(entities)
    .where(and(eq(entities.id, id), opts.includeDeleted ? undefined : isNull(entities.deletedAt))).limit(1)
  return row
}

/** A live entity of the owner with this name, owner-wide or of any of its sets, compared without case (as the unique indexes do). */
export async function findEntityByName(db: Db, ownerId: string, name: string, exceptId?: number): Promise<EntityRow | undefined> {
  const [row] = await db.select().from(entities)
    .where(and(
      eq(entities.ownerId, ownerId), sql`lower(${entities.reservedName}) = lower(${name})`, isNull(entities.deletedAt),
      exceptId !== undefined ? ne(entities.id, exceptId) : undefined,
    )).limit(1)
  return row
}

/**
 * A live entity of the owner with this name (without case) that advice set `adviceSetId` sees: an owner-wide one, or
 * one of that set. `adviceSetId` null: owner-wide entities only.
 */
export async function findEntitySeenBy(db: Db, ownerId: string, name: string, adviceSetId: number | null, exceptId?: number): Promise<EntityRow | undefined> {
  const [row] = await db.select().from(entities)
    .where(and(
      eq(entities.ownerId, ownerId), sql`lower(${entities.reservedName}) = lower(${name})`, isNull(entities.deletedAt),
      adviceSetId === null ? isNull(entities.adviceSetId) : or(isNull(entities.adviceSetId), eq(entities.adviceSetId, adviceSetId)),
      exceptId !== undefined ? ne(entities.id, exceptId) : undefined,
    ))
    .orderBy(asc(entities.id)).limit(1)
  return row
}

/** Live entities limited to one advice set. */
export async function listSetEntities(db: Db, adviceSetId: number): Promise<EntityRow[]> {
  return db.select().from(entities).where(and(eq(entities.adviceSetId, adviceSetId), isNull(entities.deletedAt))).orderBy(asc(entities.id))
}

/** Live entities of these owners (all owners when not given), visible to a set (no set, or this set), optionally filtered by text and type. */
export async function listEntities(db: Db, p: { ownerIds?: string[]; adviceSetId?: number; entityTypeIds?: number[]; text?: string; prefix?: string; limit?: number }): Promise<EntityRow[]> {
  const like = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`)
  const query = db.select().from(entities).where(and(
    p.ownerIds ? inArray(entities.ownerId, p.ownerIds) : undefined, isNull(entities.deletedAt),
    p.adviceSetId !== undefined ? or(isNull(entities.adviceSetId), eq(entities.adviceSetId, p.adviceSetId)) : undefined,
    p.entityTypeIds ? inArray(entities.entityTypeId, p.entityTypeIds) : undefined,
    p.text ? or(ilike(entities.reservedName, `%${like(p.text)}%`), ilike(entities.description, `%${like(p.text)}%`)) : undefined,
    p.prefix ? ilike(entities.reservedName, `${like(p.prefix)}%`) : undefined,
  )).orderBy(asc(sql`lower(${entities.reservedName})`), asc(entities.id))
  return p.limit ? query.limit(p.limit) : query
}

/** `personal` defaults to false: only the dictionary's own forms set it (copies carry it over). */
export async function insertEntity(db: Db, p: Omit<EntityFields, 'personal'> & { personal?: boolean; createdBy: number | null }): Promise<EntityRow> {
  const [row] = await db.insert(entities).values({ ...p, updatedBy: p.createdBy }).returning()
  return row!
}

export async function updateEntity(db: Db, id: number, p: Partial<EntityFields & Pick<EntityRow, 'deletedAt'>> & { updatedBy: number | null }): Promise<EntityRow> {
  const [row] = await db.update(entities).set({ ...p, updatedAt: new Date() }).where(eq(entities.id, id)).returning()
  return row!
}

/** Owners with a live entry of this name (any case). */
export async function ownersWithName(db: Db, name: string): Promise<string[]> {
  const rows = await db.selectDistinct({ ownerId: entities.ownerId }).from(entities)
    .where(and(sql`lower(${entities.reservedName}) = lower(${name})`, isNull(entities.deletedAt)))
  return rows.map((r) => r.ownerId)
}
