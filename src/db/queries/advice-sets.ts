import { and, asc, desc, eq, ilike, inArray, isNotNull, isNull, notInArray, or, sql, type Column, type SQL } from 'drizzle-orm'
import type { Db } from '../client.ts'
import type { KeysetParams } from './keyset-page.ts'
import { adviceCategories, adviceScenarios, adviceSets, ownerSetCounts, owners, ruleNodes, rules, tagLinks, tags, tagUseCounts, versions } from '../schema/index.ts'

export type AdviceSetRow = typeof adviceSets.$inferSelect
export type CategoryRow = typeof adviceCategories.$inferSelect

/** Who may see what: null = everything (provider admins); otherwise own owner, the provider, public and starter sets. */
export interface SetVisibility { ownerId: string; providerOwnerId: string; all: boolean }

export interface ListAdviceSetsParams {
  visibility: SetVisibility
  categoryId?: number
  tagId?: number
  ownerId?: string
  onlyPublic?: boolean
  onlyStarter?: boolean
  /** Only sets that are public or starters (the explore page). */
  shared?: boolean
  text?: string
  sort: 'updated' | 'name' | 'created'
  offset: number
  limit: number
}

/** The advice sets a reader may see (DESIGN visibility), as a condition on `adviceSets`; undefined: all of them. */
export function visibleTo(v: SetVisibility): SQL | undefined {
  if (v.all) return undefined
  return or(eq(adviceSets.ownerId, v.ownerId), eq(adviceSets.ownerId, v.providerOwnerId), eq(adviceSets.isPublic, true), eq(adviceSets.isStarter, true))
}

const listColumns = {
  id: adviceSets.id, ownerId: adviceSets.ownerId, ownerName: owners.name, categoryId: adviceSets.categoryId,
  categoryName: adviceCategories.name, name: adviceSets.name, nameAlt: adviceSets.nameAlt,
  description: adviceSets.description, isPublic: adviceSets.isPublic, isStarter: adviceSets.isStarter,
  createdAt: adviceSets.createdAt, updatedAt: adviceSets.updatedAt,
}
export interface AdviceSetListRow {
  id: number; ownerId: string; ownerName: string; categoryId: number | null; categoryName: string | null
  name: string; nameAlt: string; description: string; isPublic: boolean; isStarter: boolean; createdAt: Date; updatedAt: Date
}

function listWhere(p: ListAdviceSetsParams): SQL | undefined {
  return and(listFilters(p), visibleTo(p.visibility))
}

/**
 * Public or a starter, written as advice_sets_shared_idx's predicate (no parameters), so the planner can prove that
 * index applies.
 */
const SHARED = sql`(${adviceSets.isPublic} or ${adviceSets.isStarter})`

/** The list's conditions besides visibility. */
function listFilters(p: ListAdviceSetsParams): SQL | undefined {
  return and(isNull(adviceSets.deletedAt), p.shared ? SHARED : undefined, ...narrowing(p))
}

/**
 * The filters a reader chose (category, tag, team, public or starter only, words): with none, the total is the kept
 * one (keptTotal), so a filter added here is one the kept total can never miss.
 */
function narrowing(p: ListAdviceSetsParams): SQL[] {
  return [
    p.categoryId !== undefined ? eq(adviceSets.categoryId, p.categoryId) : undefined,
    p.ownerId !== undefined ? eq(adviceSets.ownerId, p.ownerId) : undefined,
    p.onlyPublic ? eq(adviceSets.isPublic, true) : undefined,
    p.onlyStarter ? eq(adviceSets.isStarter, true) : undefined,
    p.text ? or(ilike(adviceSets.name, `%${escapeLike(p.text)}%`), ilike(adviceSets.nameAlt, `%${escapeLike(p.text)}%`)) : undefined,
    p.tagId !== undefined
      ? sql`exists (select 1 from ${tagLinks} where ${tagLinks.tagId} = ${p.tagId} and ${tagLinks.entityType} = 'adviceset' and ${tagLinks.entityId} = ${adviceSets.id})`
      : undefined,
  ].filter((condition) => condition !== undefined)
}

/**
 * A page of the sets, without their total: choices in a form. The page walks an index in its order (updated, name or
 * created) and stops, so a big tenant costs no more than a small one.
 */
export async function listAdviceSetRows(db: Db, p: ListAdviceSetsParams): Promise<AdviceSetListRow[]> {
  const order = p.sort === 'name' ? [asc(sql`lower(${adviceSets.name})`), asc(adviceSets.id)]
    : p.sort === 'created' ? [desc(adviceSets.createdAt), desc(adviceSets.id)]
    : [desc(adviceSets.updatedAt), desc(adviceSets.id)]
  return db.select(listColumns).from(adviceSets)
    .innerJoin(owners, eq(owners.id, adviceSets.ownerId))
    .leftJoin(adviceCategories, eq(adviceCategories.id, adviceSets.categoryId))
    .where(listWhere(p)).orderBy(...order).limit(p.limit).offset(p.offset)
}

/**
 * A page of the sets and their total, counted apart: a count over the page's own query (count(*) over ()) made it
 * join and sort every visible set of a big tenant (80 ms at 50,000, bench:scale).
 */
export async function listAdviceSets(db: Db, p: ListAdviceSetsParams): Promise<{ rows: AdviceSetListRow[]; total: number }> {
  const [rows, total] = await Promise.all([listAdviceSetRows(db, p), countVisibleAdviceSets(db, p)])
  return { rows, total }
}

/**
 * The list's total. Unfiltered, it is read from the kept counts. Filtered, for a reader who sees part of the library:
 * their own team's sets and the provider's (read from advice_sets_owner_idx), plus every other team's shared sets
 * (advice_sets_shared_idx), two parts that cannot overlap. One count of the whole condition read every set of a big
 * tenant: 6.5 ms at 50,000 sets against 2.7 ms (bench:scale).
 */
async function countVisibleAdviceSets(db: Db, p: ListAdviceSetsParams): Promise<number> {
  if (narrowing(p).length === 0) return keptTotal(db, p)
  if (p.visibility.all) return countAdviceSets(db, listFilters(p))
  const teams = [p.visibility.ownerId, p.visibility.providerOwnerId]
  const [own, shared] = await Promise.all([
    countAdviceSets(db, and(listFilters(p), inArray(adviceSets.ownerId, teams))),
    countAdviceSets(db, and(listFilters(p), notInArray(adviceSets.ownerId, teams), SHARED)),
  ])
  return own + shared
}

/**
 * The unfiltered total from the kept counts (migration 0037), one row per owner: every shared set for explore, every
 * live set for those who see all, else the reader's team's and the provider's live sets and the other teams' shared.
 */
async function keptTotal(db: Db, p: ListAdviceSetsParams): Promise<number> {
  const c = ownerSetCounts
  const total = p.shared ? sql`sum(${c.shared})` : visibleKeptSum(c, p.visibility)
  const [row] = await db.select({ n: sql<number>`coalesce(${total}, 0)`.mapWith(Number) }).from(c)
  return row?.n ?? 0
}

/**
 * The sum a reader sees of counts kept per owner, live and shared (owner_set_counts, owner_scenario_counts), as
 * visibleTo reads sets: everything live for a reader of every set, else the live ones of the reader's team and the
 * provider, and the shared ones of the other teams.
 */
export function visibleKeptSum(counts: { ownerId: Column; live: Column; shared: Column }, v: SetVisibility): SQL {
  return v.all ? sql`sum(${counts.live})`
    : sql`sum(case when ${counts.ownerId} in (${v.ownerId}, ${v.providerOwnerId}) then ${counts.live} else ${counts.shared} end)`
}

async function countAdviceSets(db: Db, where: SQL | undefined): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(adviceSets).where(where)
  return row?.n ?? 0
}

export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`)
}

export async function findAdviceSet(db: Db, id: number, opts: { includeDeleted?: boolean } = {}): Promise<AdviceSetRow | undefined> {
  const [row] = await db.select().from(adviceSets)
    .where(and(eq(adviceSets.id, id), opts.includeDeleted ? undefined : isNull(adviceSets.deletedAt))).limit(1)
  return row
}

export async function findAdviceSetsByIds(db: Db, ids: number[], visibility: SetVisibility): Promise<AdviceSetListRow[]> {
  if (ids.length === 0) return []
  const rows = await db.select(listColumns).from(adviceSets)
    .innerJoin(owners, eq(owners.id, adviceSets.ownerId))
    .leftJoin(adviceCategories, eq(adviceCategories.id, adviceSets.categoryId))
    .where(and(inArray(adviceSets.id, ids), isNull(adviceSets.deletedAt), visibleTo(visibility)))
  return rows
}

/** One live set as its page shows it, with who made and last changed it; undefined when it is missing or not visible. */
export async function findAdviceSetEntry(db: Db, id: number, visibility: SetVisibility): Promise<(AdviceSetListRow & Pick<AdviceSetRow, 'createdBy' | 'updatedBy'>) | undefined> {
  const [row] = await db.select({ ...listColumns, createdBy: adviceSets.createdBy, updatedBy: adviceSets.updatedBy }).from(adviceSets)
    .innerJoin(owners, eq(owners.id, adviceSets.ownerId))
    .leftJoin(adviceCategories, eq(adviceCategories.id, adviceSets.categoryId))
    .where(and(eq(adviceSets.id, id), isNull(adviceSets.deletedAt), visibleTo(visibility))).limit(1)
  return row
}

export async function listDeletedAdviceSets(db: Db, ownerId: string): Promise<AdviceSetRow[]> {
  return db.select().from(adviceSets).where(and(eq(adviceSets.ownerId, ownerId), isNotNull(adviceSets.deletedAt)))
    .orderBy(desc(adviceSets.deletedAt))
}

export type AdviceSetFields = Pick<AdviceSetRow, 'ownerId' | 'categoryId' | 'name' | 'nameAlt' | 'description' | 'isPublic' | 'isStarter'>

export async function insertAdviceSet(db: Db, p: AdviceSetFields & { createdBy: number | null; id?: number }): Promise<AdviceSetRow> {
  const [row] = await db.insert(adviceSets).values({ ...p, updatedBy: p.createdBy }).returning()
  return row!
}

export async function updateAdviceSet(db: Db, id: number, p: Partial<AdviceSetFields> & { updatedBy: number | null; deletedAt?: Date | null }): Promise<AdviceSetRow> {
  const [row] = await db.update(adviceSets).set({ ...p, updatedAt: new Date() }).where(eq(adviceSets.id, id)).returning()
  return row!
}

/** The content of an advice set a change touched: the set named by id, or one of its rules, rule nodes, scenarios or versions. */
export type SetContent = { adviceSetId: number } | { adviceSetIds: readonly number[] } | { ruleId: number } | { nodeId: number } | { scenarioId: number } | { versionId: number }

function setIdsOf(db: Db, of: SetContent) {
  if ('ruleId' in of) return db.select({ id: rules.adviceSetId }).from(rules).where(eq(rules.id, of.ruleId))
  if ('nodeId' in of) return db.select({ id: rules.adviceSetId }).from(ruleNodes).innerJoin(rules, eq(rules.id, ruleNodes.ruleId)).where(eq(ruleNodes.id, of.nodeId))
  if ('scenarioId' in of) return db.select({ id: adviceScenarios.adviceSetId }).from(adviceScenarios).where(eq(adviceScenarios.id, of.scenarioId))
  if ('versionId' in of) return db.select({ id: versions.adviceSetId }).from(versions).where(eq(versions.id, of.versionId))
  if ('adviceSetIds' in of) return db.select({ id: adviceSets.id }).from(adviceSets).where(inArray(adviceSets.id, [...of.adviceSetIds]))
  return db.select({ id: adviceSets.id }).from(adviceSets).where(eq(adviceSets.id, of.adviceSetId))
}

/**
 * Marks the advice set whose content changed as updated at `at` by `by` (kept when null), inside the change's
 * transaction. A set row another transaction holds (a publish, another edit of the same set) is skipped rather than
 * waited for: that transaction marks the set itself, so "Updated" is at most its length early, and a lock taken at the
 * end of a transaction never waits on, nor deadlocks with, one that took the set first.
 */
export async function markAdviceSetUpdated(db: Db, p: SetUpdatedMark): Promise<void> {
  await adviceSetUpdatedMark(db, p)
}

export interface SetUpdatedMark { of: SetContent; by: number | null; at: Date }

/** markAdviceSetUpdated's statement, not yet sent: a part of a change's one statement (audited-change.ts). */
export function adviceSetUpdatedMark(db: Db, p: SetUpdatedMark) {
  const free = db.select({ id: adviceSets.id }).from(adviceSets).where(inArray(adviceSets.id, setIdsOf(db, p.of))).for('update', { skipLocked: true })
  return db.update(adviceSets).set({ updatedAt: p.at, ...(p.by !== null ? { updatedBy: p.by } : {}) }).where(inArray(adviceSets.id, free))
}

export async function countAdviceSetsInCategory(db: Db, categoryId: number) {
  return db.select({ id: adviceSets.id, name: adviceSets.name }).from(adviceSets)
    .where(and(eq(adviceSets.categoryId, categoryId), isNull(adviceSets.deletedAt))).orderBy(asc(adviceSets.name))
}

/** Statistics for one owner's library (SPEC §7 adviceset stats). */
export async function adviceSetStats(db: Db, visibility: SetVisibility) {
  const [row] = await db.select({
    total: sql<number>`count(*)`.mapWith(Number),
    own: sql<number>`count(*) filter (where ${adviceSets.ownerId} = ${visibility.ownerId})`.mapWith(Number),
    public: sql<number>`count(*) filter (where ${adviceSets.isPublic})`.mapWith(Number),
    starter: sql<number>`count(*) filter (where ${adviceSets.isStarter})`.mapWith(Number),
  }).from(adviceSets).where(and(isNull(adviceSets.deletedAt), visibleTo(visibility)))
  return row!
}

// Categories ------------------------------------------------------------------------------------------------------

export async function listCategories(db: Db, ownerIds: string[]): Promise<CategoryRow[]> {
  return db.select().from(adviceCategories)
    .where(and(inArray(adviceCategories.ownerId, ownerIds), isNull(adviceCategories.deletedAt)))
    .orderBy(asc(sql`lower(${adviceCategories.name})`))
}

export async function findCategory(db: Db, id: number, opts: { includeDeleted?: boolean } = {}): Promise<CategoryRow | undefined> {
  const [row] = await db.select().from(adviceCategories)
    .where(and(eq(adviceCategories.id, id), opts.includeDeleted ? undefined : isNull(adviceCategories.deletedAt))).limit(1)
  return row
}

export async function insertCategory(db: Db, p: { ownerId: string; name: string; description: string }): Promise<CategoryRow> {
  const [row] = await db.insert(adviceCategories).values(p).returning()
  return row!
}

export async function updateCategory(db: Db, id: number, p: { name?: string; description?: string; deletedAt?: Date | null }): Promise<CategoryRow> {
  const [row] = await db.update(adviceCategories).set({ ...p, updatedAt: new Date() }).where(eq(adviceCategories.id, id)).returning()
  return row!
}

// Tags ------------------------------------------------------------------------------------------------------------

export type TagRow = typeof tags.$inferSelect

/** These owners' live tags by label (then id). */
export async function listTags(db: Db, ownerIds: string[], page: KeysetParams = {}): Promise<TagRow[]> {
  const query = db.select().from(tags).where(and(
    inArray(tags.ownerId, ownerIds), isNull(tags.deletedAt),
    page.afterId === undefined ? undefined : sql`(lower(${tags.label}), ${tags.id}) > (select lower(t.label), t.id from ${tags} t where t.id = ${page.afterId})`,
  )).orderBy(asc(sql`lower(${tags.label})`), asc(tags.id))
  return page.limit === undefined ? query : query.limit(page.limit)
}

/**
 * Live tags of these owners whose label contains `text` (case-insensitive), by label, at most `limit`: the tag pickers'
 * suggestions, which an owner with hundreds of tags cannot be sent whole.
 */
export async function searchTags(db: Db, ownerIds: string[], text: string, limit: number): Promise<TagRow[]> {
  return db.select().from(tags)
    .where(and(inArray(tags.ownerId, ownerIds), isNull(tags.deletedAt), text ? ilike(tags.label, `%${escapeLike(text)}%`) : undefined))
    .orderBy(asc(sql`lower(${tags.label})`), asc(tags.id)).limit(limit)
}

/** The live tag with this slug among these owners' (a slug is unique per owner), the first owner's before the next's. */
export async function findLiveTagBySlug(db: Db, ownerIds: string[], slug: string): Promise<TagRow | undefined> {
  const rows = await db.select().from(tags).where(and(inArray(tags.ownerId, ownerIds), eq(tags.slug, slug), isNull(tags.deletedAt)))
  return ownerIds.map((ownerId) => rows.find((row) => row.ownerId === ownerId)).find((row) => row !== undefined)
}

export async function findTag(db: Db, id: number): Promise<TagRow | undefined> {
  const [row] = await db.select().from(tags).where(and(eq(tags.id, id), isNull(tags.deletedAt))).limit(1)
  return row
}

export async function findTagsByIds(db: Db, ids: number[]): Promise<TagRow[]> {
  return db.select().from(tags).where(inArray(tags.id, ids))
}

export async function findTagBySlug(db: Db, ownerId: string, slug: string): Promise<TagRow | undefined> {
  const [row] = await db.select().from(tags).where(and(eq(tags.ownerId, ownerId), eq(tags.slug, slug))).limit(1)
  return row
}

export async function insertTag(db: Db, p: { ownerId: string; slug: string; label: string; type: TagRow['type'] }): Promise<TagRow> {
  const [row] = await db.insert(tags).values(p).returning()
  return row!
}

/** Tag ids on each of the given entities. */
export async function tagIdsFor(db: Db, entityType: string, entityIds: number[]): Promise<Map<number, number[]>> {
  const result = new Map<number, number[]>()
  if (entityIds.length === 0) return result
  const rows = await db.select({ entityId: tagLinks.entityId, tagId: tagLinks.tagId }).from(tagLinks)
    .where(and(eq(tagLinks.entityType, entityType), inArray(tagLinks.entityId, entityIds)))
    .orderBy(asc(tagLinks.tagId))
  for (const r of rows) result.set(r.entityId, [...(result.get(r.entityId) ?? []), r.tagId])
  return result
}

/**
 * Makes the entity's tags exactly `tagIds`. For a set, first its row is locked, as an edit of it does (a save of the
 * same set waits, and reads the links this one leaves), then the count row (tag_use_counts) of every tag it had or
 * gets, in one pass in tag order, made when missing. The removal's and the addition's triggers each take their rows
 * in order (migration 0039), but one after the other, and two saves at once could each hold a row the other's second
 * step wanted: 148 of 360 saves of twelve tags on six connections deadlocked.
 */
export async function setTagLinks(db: Db, entityType: string, entityId: number, tagIds: number[]): Promise<void> {
  if (entityType === 'adviceset') {
    await db.execute(sql`select 1 from ${adviceSets} where ${adviceSets.id} = ${entityId} for no key update`)
    await db.execute(sql`insert into ${tagUseCounts} (tag_id, advice_sets)
      select tag_id, 0 from (
        select ${tagLinks.tagId} as tag_id from ${tagLinks} where ${tagLinks.entityType} = ${entityType} and ${tagLinks.entityId} = ${entityId}
        union select unnest(${`{${tagIds.join(',')}}`}::int[])) touched
      order by tag_id
      on conflict (tag_id) do update set advice_sets = ${tagUseCounts}.advice_sets`)
  }
  await db.delete(tagLinks).where(and(eq(tagLinks.entityType, entityType), eq(tagLinks.entityId, entityId)))
  if (tagIds.length > 0) await db.insert(tagLinks).values(tagIds.map((tagId) => ({ tagId, entityType, entityId })))
}

// Tags admin ------------------------------------------------------------------------------------------------------

export async function updateTag(db: Db, id: number, p: { label?: string; slug?: string; type?: TagRow['type']; description?: string; deletedAt?: Date | null }): Promise<TagRow> {
  const [row] = await db.update(tags).set(p).where(eq(tags.id, id)).returning()
  return row!
}

/** Live advice sets carrying the tag (where it is used), by name. */
export async function setsWithTag(db: Db, tagId: number) {
  return db.select({ id: adviceSets.id, name: adviceSets.name, ownerId: adviceSets.ownerId }).from(tagLinks)
    .innerJoin(adviceSets, and(eq(tagLinks.entityType, 'adviceset'), eq(adviceSets.id, tagLinks.entityId)))
    .where(and(eq(tagLinks.tagId, tagId), isNull(adviceSets.deletedAt))).orderBy(asc(adviceSets.name))
}

/** Live advice sets per tag, as the tag_use_counts triggers keep them (migration 0035): a row per tag, not a count of links. */
export async function countTagUses(db: Db, tagIds: number[]): Promise<Map<number, number>> {
  if (tagIds.length === 0) return new Map()
  const rows = await db.select({ tagId: tagUseCounts.tagId, n: tagUseCounts.adviceSets }).from(tagUseCounts).where(inArray(tagUseCounts.tagId, tagIds))
  return new Map(rows.map((r) => [r.tagId, r.n]))
}

/** Moves every link of tag `from` to tag `into` (links `into` already has are kept once). */
export async function moveTagLinks(db: Db, from: number, into: number): Promise<void> {
  await db.execute(sql`insert into ${tagLinks} (tag_id, entity_type, entity_id)
    select ${into}, entity_type, entity_id from ${tagLinks} where tag_id = ${from} on conflict do nothing`)
  await db.delete(tagLinks).where(eq(tagLinks.tagId, from))
}

export async function deleteTagLinks(db: Db, tagId: number): Promise<void> {
  await db.delete(tagLinks).where(eq(tagLinks.tagId, tagId))
}

/** Every team's live tags (provider admins' tags admin), by team, then label (then id). */
export async function listAllTags(db: Db, page: KeysetParams = {}): Promise<TagRow[]> {
  const query = db.select().from(tags).where(and(
    isNull(tags.deletedAt),
    page.afterId === undefined ? undefined : sql`(${tags.ownerId}, lower(${tags.label}), ${tags.id}) > (select t.owner_id, lower(t.label), t.id from ${tags} t where t.id = ${page.afterId})`,
  )).orderBy(asc(tags.ownerId), asc(sql`lower(${tags.label})`), asc(tags.id))
  return page.limit === undefined ? query : query.limit(page.limit)
}
