import { and, asc, desc, eq, gt, gte, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { Db } from '../client.ts'
import { countOf } from './count-of.ts'
import { activity, users, type AuditAction, type AuditSource } from '../schema/index.ts'

/** The provider admin behind a change made under impersonation: the users table a second time. */
export const impersonators = alias(users, 'impersonators')

/** Who made a logged change: the acting user's name (null for the server) and, under impersonation, the admin behind them. */
export const BY_WHOM = { actorId: activity.actorId, actorName: users.name, impersonatorId: activity.impersonatorId, impersonatorName: impersonators.name }

export interface InsertActivityParams {
  ownerId: string
  actorId: number | null
  impersonatorId: number | null
  source: AuditSource
  action: AuditAction
  entityType: string
  entityId: string
  before: unknown
  after: unknown
}

export async function insertActivity(db: Db, p: InsertActivityParams): Promise<void> {
  await activityInsert(db, p)
}

/** Many activity rows in one statement (a rename's batch of nodes). */
export async function insertActivities(db: Db, rows: readonly InsertActivityParams[]): Promise<void> {
  if (rows.length === 0) return
  await db.insert(activity).values(rows.map(activityRow))
}

/** insertActivity's statement, not yet sent: a part of a change's one statement (audited-change.ts). */
export function activityInsert(db: Db, p: InsertActivityParams) {
  return db.insert(activity).values(activityRow(p))
}

function activityRow(p: InsertActivityParams) {
  return { ...p, before: p.before ?? null, after: p.after ?? null }
}

export interface ListActivityParams {
  ownerId: string
  since: Date
  limit: number
  entityType?: string
  entityId?: string
  action?: AuditAction
}

/** Newest first, with who acted (BY_WHOM). */
export async function listActivity(db: Db, p: ListActivityParams) {
  return db.select({
    id: activity.id, ownerId: activity.ownerId, action: activity.action, entityType: activity.entityType, entityId: activity.entityId,
    before: activity.before, after: activity.after, createdAt: activity.createdAt, source: activity.source, ...BY_WHOM,
  }).from(activity)
    .leftJoin(users, eq(users.id, activity.actorId)).leftJoin(impersonators, eq(impersonators.id, activity.impersonatorId))
    .where(and(eq(activity.ownerId, p.ownerId), gte(activity.createdAt, p.since),
      p.entityType ? eq(activity.entityType, p.entityType) : undefined,
      p.entityId ? eq(activity.entityId, p.entityId) : undefined,
      p.action ? eq(activity.action, p.action) : undefined))
    .orderBy(desc(activity.createdAt), desc(activity.id))
    .limit(p.limit)
}

/** One row with the acting user's name, as listActivity gives it, and whose log it is in. */
export async function findActivity(db: Db, id: number) {
  const [row] = await db.select({
    id: activity.id, ownerId: activity.ownerId, action: activity.action, entityType: activity.entityType, entityId: activity.entityId,
    before: activity.before, after: activity.after, createdAt: activity.createdAt, source: activity.source, ...BY_WHOM,
  }).from(activity)
    .leftJoin(users, eq(users.id, activity.actorId)).leftJoin(impersonators, eq(impersonators.id, activity.impersonatorId))
    .where(eq(activity.id, id)).limit(1)
  return row
}

/** One page of an owner's whole log, oldest first after `afterId` (the activity export reads it this way). */
export async function activityPage(db: Db, ownerId: string, afterId: number, limit: number) {
  return db.select({
    id: activity.id, ownerId: activity.ownerId, action: activity.action, entityType: activity.entityType, entityId: activity.entityId,
    before: activity.before, after: activity.after, createdAt: activity.createdAt, source: activity.source, ...BY_WHOM,
  }).from(activity)
    .leftJoin(users, eq(users.id, activity.actorId)).leftJoin(impersonators, eq(impersonators.id, activity.impersonatorId))
    .where(and(eq(activity.ownerId, ownerId), gt(activity.id, afterId)))
    .orderBy(asc(activity.id))
    .limit(limit)
}

/** `upTo` stops counting there (see countQuestions). */
export async function countActivity(db: Db, ownerId: string, upTo?: number): Promise<number> {
  const rows = db.select({ one: sql`1` }).from(activity).where(eq(activity.ownerId, ownerId))
  return countOf(db, upTo === undefined ? rows : rows.limit(upTo))
}
