import { and, asc, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { BY_WHOM, impersonators } from './activity.ts'
import { visibleTo, type SetVisibility } from './advice-sets.ts'
import { activity, adviceSets, audiences, users, versionAssignments, versions, type VersionState } from '../schema/index.ts'

export type VersionRow = typeof versions.$inferSelect
type VersionAssignmentRow = typeof versionAssignments.$inferSelect

/** After commit, PostgreSQL tells every listening app instance that what a set serves may have changed. */
export const VERSION_CHANGED_CHANNEL = 'version_changed'

/** Inside the transaction of a change; delivered only if it commits. The payload names the set and the sender. */
export async function notifyVersionChanged(tx: Db, payload: string): Promise<void> {
  await tx.execute(sql`SELECT pg_notify(${VERSION_CHANGED_CHANNEL}, ${payload})`)
}

/** Columns every list of versions shows (the snapshot stays behind: it can be large). */
const summaryColumns = {
  id: versions.id, adviceSetId: versions.adviceSetId, number: versions.number, state: versions.state, notes: versions.notes,
  contentHash: versions.contentHash, createdBy: versions.createdBy, submittedBy: versions.submittedBy, submittedAt: versions.submittedAt,
  approvedBy: versions.approvedBy, approvedAt: versions.approvedAt, selfApproval: versions.selfApproval, publishedBy: versions.publishedBy, publishedAt: versions.publishedAt,
  unpublishedAt: versions.unpublishedAt, createdAt: versions.createdAt, updatedAt: versions.updatedAt,
}
export type VersionSummaryRow = Omit<VersionRow, 'snapshot'>

export async function findVersion(db: Db, id: number): Promise<VersionRow | undefined> {
  const [row] = await db.select().from(versions).where(eq(versions.id, id)).limit(1)
  return row
}

/** Newest first. */
export async function listVersions(db: Db, adviceSetId: number): Promise<VersionSummaryRow[]> {
  return db.select(summaryColumns).from(versions).where(eq(versions.adviceSetId, adviceSetId)).orderBy(desc(versions.number))
}

export async function findVersionInState(db: Db, adviceSetId: number, state: VersionState): Promise<VersionRow | undefined> {
  const [row] = await db.select().from(versions).where(and(eq(versions.adviceSetId, adviceSetId), eq(versions.state, state))).limit(1)
  return row
}

export async function nextVersionNumber(tx: Db, adviceSetId: number): Promise<number> {
  const [row] = await tx.select({ n: sql<number>`coalesce(max(${versions.number}), 0) + 1`.mapWith(Number) }).from(versions)
    .where(eq(versions.adviceSetId, adviceSetId))
  return row!.n
}

type VersionInsert = Pick<VersionRow, 'adviceSetId' | 'number' | 'state' | 'notes' | 'snapshot' | 'contentHash' | 'createdBy'>
  & Partial<Pick<VersionRow, 'submittedBy' | 'submittedAt' | 'approvedBy' | 'approvedAt' | 'publishedBy' | 'publishedAt'>>

export async function insertVersion(db: Db, p: VersionInsert): Promise<VersionRow> {
  const [row] = await db.insert(versions).values(p).returning()
  return row!
}

/** Only the state and its bookkeeping ever change: the content of a version is immutable. */
export type VersionStateChange = { state: VersionState } & Partial<Pick<VersionRow,
  'submittedBy' | 'submittedAt' | 'approvedBy' | 'approvedAt' | 'selfApproval' | 'publishedBy' | 'publishedAt' | 'unpublishedAt'>>

export async function updateVersionState(db: Db, id: number, p: VersionStateChange): Promise<VersionRow> {
  const [row] = await db.update(versions).set({ ...p, updatedAt: new Date() }).where(eq(versions.id, id)).returning()
  return row!
}

interface ServedVersionRow {
  id: number
  number: number
  adviceSetId: number
  ownerId: string
  isPublic: boolean
  snapshot: unknown
}

/**
 * What one kind of key gets of a live set: the audience's assigned version (production), the preview version
 * (preview), or else the published one. One statement: the candidates are ranked and the best one is taken.
 */
export async function findServedVersion(db: Db, adviceSetId: number, who: { environment: 'production' | 'preview'; audienceId: number | null }): Promise<ServedVersionRow | undefined> {
  const assigned = who.environment === 'production' && who.audienceId !== null
    ? sql`${versions.id} in (select ${versionAssignments.versionId} from ${versionAssignments} where ${versionAssignments.adviceSetId} = ${adviceSetId} and ${versionAssignments.audienceId} = ${who.audienceId})`
    : sql`false`
  const preview = who.environment === 'preview' ? sql`${versions.state} = 'preview'` : sql`false`
  const [row] = await db.select({
    id: versions.id, number: versions.number, adviceSetId: versions.adviceSetId, ownerId: adviceSets.ownerId,
    isPublic: adviceSets.isPublic, snapshot: versions.snapshot,
  }).from(versions)
    .innerJoin(adviceSets, eq(adviceSets.id, versions.adviceSetId))
    .where(and(eq(versions.adviceSetId, adviceSetId), isNull(adviceSets.deletedAt), or(eq(versions.state, 'published'), preview, assigned)))
    .orderBy(sql`case when ${assigned} or ${preview} then 0 else 1 end`)
    .limit(1)
  return row
}

interface ServedListRow { adviceSetId: number; name: string; versionId: number | null; versionNumber: number | null; state: VersionState | null; assigned: boolean }

/**
 * A page of one key's live sets, by name, each with the version that key gets (ranked as in findServedVersion; null
 * when none): the owner's sets, or `allowedIds` when the key is limited to some. The page starts after set
 * `afterId` in that order and reads `limit` sets (plus one, to tell whether more follow), not every set of the owner.
 */
export async function listServedVersions(db: Db, key: { ownerId: string; allowedIds: number[] }, who: { environment: 'production' | 'preview'; audienceId: number | null }, page: { afterId?: number; limit: number }): Promise<ServedListRow[]> {
  const sets = await db.select({ id: adviceSets.id, name: adviceSets.name }).from(adviceSets)
    .where(and(
      // A limited key may list the provider's and public sets too; a key of every set is served its team's.
      key.allowedIds.length > 0 ? inArray(adviceSets.id, key.allowedIds) : eq(adviceSets.ownerId, key.ownerId),
      isNull(adviceSets.deletedAt),
      page.afterId === undefined ? undefined : sql`(lower(${adviceSets.name}), ${adviceSets.id}) > (select lower(s.name), s.id from ${adviceSets} s where s.id = ${page.afterId})`,
    ))
    .orderBy(asc(sql`lower(${adviceSets.name})`), asc(adviceSets.id)).limit(page.limit)
  if (sets.length === 0) return []
  const assigned = who.environment === 'production' && who.audienceId !== null
    ? sql`exists (select 1 from ${versionAssignments} where ${versionAssignments.adviceSetId} = ${versions.adviceSetId} and ${versionAssignments.audienceId} = ${who.audienceId} and ${versionAssignments.versionId} = ${versions.id})`
    : sql`false`
  const preview = who.environment === 'preview' ? sql`${versions.state} = 'preview'` : sql`false`
  const served = await db.selectDistinctOn([versions.adviceSetId], {
    adviceSetId: versions.adviceSetId, versionId: versions.id, versionNumber: versions.number, state: versions.state,
    assigned: sql<boolean>`${assigned}`,
  }).from(versions)
    .where(and(inArray(versions.adviceSetId, sets.map((set) => set.id)), or(eq(versions.state, 'published'), preview, assigned)))
    .orderBy(versions.adviceSetId, sql`case when ${assigned} or ${preview} then 0 else 1 end`)
  const bySet = new Map(served.map((r) => [r.adviceSetId, r]))
  return sets.map((set) => {
    const v = bySet.get(set.id)
    return { adviceSetId: set.id, name: set.name, versionId: v?.versionId ?? null, versionNumber: v?.versionNumber ?? null, state: v?.state ?? null, assigned: v?.assigned ?? false }
  })
}

/** Users' names by id, for who did what on the version pages. */
export async function userNames(db: Db, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map()
  const rows = await db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, ids))
  return new Map(rows.map((r) => [r.id, r.name]))
}

// Audience assignments ------------------------------------------------------------------------------------------------

interface AssignmentListRow { audienceId: number; audienceName: string; versionId: number; versionNumber: number; versionState: VersionState }

export async function listAssignments(db: Db, adviceSetId: number): Promise<AssignmentListRow[]> {
  return db.select({
    audienceId: versionAssignments.audienceId, audienceName: audiences.name, versionId: versionAssignments.versionId,
    versionNumber: versions.number, versionState: versions.state,
  }).from(versionAssignments)
    .innerJoin(audiences, eq(audiences.id, versionAssignments.audienceId))
    .innerJoin(versions, eq(versions.id, versionAssignments.versionId))
    .where(eq(versionAssignments.adviceSetId, adviceSetId))
    .orderBy(asc(audiences.name), asc(audiences.id))
}

export async function upsertAssignment(db: Db, p: { adviceSetId: number; audienceId: number; versionId: number; assignedBy: number | null }): Promise<void> {
  await db.insert(versionAssignments).values(p).onConflictDoUpdate({
    target: [versionAssignments.adviceSetId, versionAssignments.audienceId],
    set: { versionId: p.versionId, assignedBy: p.assignedBy, createdAt: new Date() },
  })
}

export async function deleteAssignment(db: Db, adviceSetId: number, audienceId: number): Promise<VersionAssignmentRow | undefined> {
  const [row] = await db.delete(versionAssignments)
    .where(and(eq(versionAssignments.adviceSetId, adviceSetId), eq(versionAssignments.audienceId, audienceId))).returning()
  return row
}

// Catalog -------------------------------------------------------------------------------------------------------------

interface PublishedSetRow {
  adviceSetId: number
  ownerId: string
  name: string
  nameAlt: string
  description: string
  isPublic: boolean
  versionId: number
  versionNumber: number
  publishedAt: Date | null
}

/** Live sets with a published version that the reader may see (DESIGN visibility); by name. */
export async function listPublishedSets(db: Db, p: { visibility: SetVisibility; adviceSetId?: number }): Promise<PublishedSetRow[]> {
  return db.select({
    adviceSetId: adviceSets.id, ownerId: adviceSets.ownerId, name: adviceSets.name, nameAlt: adviceSets.nameAlt,
    description: adviceSets.description, isPublic: adviceSets.isPublic, versionId: versions.id, versionNumber: versions.number,
    publishedAt: versions.publishedAt,
  }).from(versions)
    .innerJoin(adviceSets, eq(adviceSets.id, versions.adviceSetId))
    .where(and(eq(versions.state, 'published'), isNull(adviceSets.deletedAt), visibleTo(p.visibility),
      p.adviceSetId !== undefined ? eq(adviceSets.id, p.adviceSetId) : undefined))
    .orderBy(asc(sql`lower(${adviceSets.name})`), asc(adviceSets.id))
}

/** The version's audit rows, oldest first, with who acted (BY_WHOM): its state history. */
export async function versionHistory(db: Db, versionId: number) {
  return db.select({ id: activity.id, action: activity.action, before: activity.before, after: activity.after, createdAt: activity.createdAt, ...BY_WHOM })
    .from(activity).leftJoin(users, eq(users.id, activity.actorId)).leftJoin(impersonators, eq(impersonators.id, activity.impersonatorId))
    .where(and(eq(activity.entityType, 'version'), eq(activity.entityId, String(versionId))))
    .orderBy(asc(activity.id))
}
