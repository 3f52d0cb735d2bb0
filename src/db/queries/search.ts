import { and, asc, eq, gt, inArray, isNull, lte, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { adviceSets, owners, rules, searchIndexTasks, tagLinks, tags } from '../schema/index.ts'

/** After commit, PostgreSQL tells every listening app instance that index work is waiting. */
export const INDEX_TASK_CHANNEL = 'search_index_tasks'

/**
 * Inside the transaction of a change: the outbox row, and a notification delivered only if the change commits. One
 * statement, so one round trip, and the notification is only ever sent with its row.
 */
export async function recordIndexTask(tx: Db, entityType: string, entityId: string): Promise<void> {
  await tx.execute(sql`WITH task AS (${indexTaskInsert(entityType, entityId)}) ${indexTaskNotify(sql`task`)}`)
}

/** recordIndexTask for many entities of one type (a rename's batch of nodes): one statement, one notification. */
export async function recordIndexTasks(tx: Db, entityType: string, entityIds: readonly string[]): Promise<void> {
  if (entityIds.length === 0) return
  await tx.execute(sql`WITH task AS (
      INSERT INTO ${searchIndexTasks} (entity_type, entity_id) SELECT ${entityType}, jsonb_array_elements_text(${JSON.stringify(entityIds)}::jsonb) RETURNING id
    ) ${indexTaskNotify(sql`(SELECT id FROM task LIMIT 1) AS first`)}`)
}

/** The task's insert, returning its id: a WITH clause of recordIndexTask, or of a change's one statement. */
export function indexTaskInsert(entityType: string, entityId: string): SQL {
  return sql`INSERT INTO ${searchIndexTasks} (entity_type, entity_id) VALUES (${entityType}, ${entityId}) RETURNING id`
}

/** The NOTIFY for the tasks a WITH clause named `tasks` inserted, sent only if the statement commits. */
export function indexTaskNotify(tasks: SQL): SQL {
  return sql`SELECT pg_notify(${INDEX_TASK_CHANNEL}, '') FROM ${tasks}`
}

export type IndexTaskRow = typeof searchIndexTasks.$inferSelect

/** Due tasks after id `afterId`, oldest first; `includePostponed` also takes those waiting out a retry delay. */
export async function dueIndexTasks(db: Db, limit: number, includePostponed: boolean, afterId: number): Promise<IndexTaskRow[]> {
  return db.select().from(searchIndexTasks)
    .where(and(gt(searchIndexTasks.id, afterId), includePostponed ? undefined : lte(searchIndexTasks.runAfter, sql`now()`)))
    .orderBy(asc(searchIndexTasks.id)).limit(limit)
}

/**
 * Serializes index work on entities across app instances, so an older state never overwrites a newer one. The locks
 * are taken in the order given (a select list is evaluated left to right): callers give one order everywhere.
 */
export async function lockIndexedEntities(tx: Db, entityType: string, entityIds: string[]): Promise<void> {
  if (entityIds.length === 0) return
  await tx.execute(sql`SELECT ${sql.join(entityIds.map((id) => sql`pg_advisory_xact_lock(hashtext(${`search:${entityType}:${id}`}))`), sql`, `)}`)
}

/** In slices: a statement takes at most 65,535 parameters. */
export async function deleteIndexTasks(db: Db, ids: number[]): Promise<void> {
  for (let i = 0; i < ids.length; i += 10_000) await db.delete(searchIndexTasks).where(inArray(searchIndexTasks.id, ids.slice(i, i + 10_000)))
}

/** Exponential backoff: 2, 4, 8 … seconds, at most ten minutes. */
export async function postponeIndexTasks(db: Db, ids: number[], error: string): Promise<void> {
  if (ids.length === 0) return
  await db.update(searchIndexTasks).set({
    attempts: sql`${searchIndexTasks.attempts} + 1`,
    runAfter: sql`now() + make_interval(secs => least(power(2, ${searchIndexTasks.attempts} + 1), 600))`,
    lastError: error.slice(0, 2000),
  }).where(inArray(searchIndexTasks.id, ids))
}

export async function nextIndexTaskDue(db: Db): Promise<Date | null> {
  const [row] = await db.select({ at: sql<string>`min(${searchIndexTasks.runAfter})` }).from(searchIndexTasks)
  return row?.at ? new Date(row.at) : null
}

export async function countIndexTasks(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(searchIndexTasks)
  return row?.n ?? 0
}

export async function indexTaskIds(db: Db): Promise<number[]> {
  return (await db.select({ id: searchIndexTasks.id }).from(searchIndexTasks)).map((r) => r.id)
}

// What advice-set documents are made of ------------------------------------------------------------------------------

export interface AdviceSetSource {
  id: number
  ownerId: string
  ownerName: string
  name: string
  nameAlt: string
  description: string
  isPublic: boolean
  isStarter: boolean
  updatedAt: Date
  tags: string[]
}

const sourceColumns = {
  id: adviceSets.id, ownerId: adviceSets.ownerId, ownerName: owners.name, name: adviceSets.name, nameAlt: adviceSets.nameAlt,
  description: adviceSets.description, isPublic: adviceSets.isPublic, isStarter: adviceSets.isStarter, updatedAt: adviceSets.updatedAt,
  tags: sql<string[]>`coalesce((select array_agg(${tags.label} order by ${tags.label}) from ${tagLinks} join ${tags} on ${tags.id} = ${tagLinks.tagId}
    where ${tagLinks.entityType} = 'adviceset' and ${tagLinks.entityId} = ${adviceSets.id} and ${tags.deletedAt} is null), '{}')`,
}

/** The live (not deleted) sets among `ids`. */
export async function adviceSetSources(db: Db, ids: number[]): Promise<AdviceSetSource[]> {
  if (ids.length === 0) return []
  return db.select(sourceColumns).from(adviceSets).innerJoin(owners, eq(owners.id, adviceSets.ownerId))
    .where(and(inArray(adviceSets.id, ids), isNull(adviceSets.deletedAt)))
}

/** The live sets whose ids `idsQuery` selects. */
export async function adviceSetSourcesIn(db: Db, idsQuery: SQL): Promise<AdviceSetSource[]> {
  return db.select(sourceColumns).from(adviceSets).innerJoin(owners, eq(owners.id, adviceSets.ownerId))
    .where(and(sql`${adviceSets.id} in (${idsQuery})`, isNull(adviceSets.deletedAt)))
}

/** Live sets in id order after `afterId`, for rebuilding the index. */
export async function adviceSetSourcesAfter(db: Db, afterId: number, limit: number): Promise<AdviceSetSource[]> {
  return db.select(sourceColumns).from(adviceSets).innerJoin(owners, eq(owners.id, adviceSets.ownerId))
    .where(and(gt(adviceSets.id, afterId), isNull(adviceSets.deletedAt))).orderBy(asc(adviceSets.id)).limit(limit)
}

export async function countLiveAdviceSets(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(adviceSets).where(isNull(adviceSets.deletedAt))
  return row?.n ?? 0
}

// What rule documents are made of ------------------------------------------------------------------------------------

export interface RuleSource {
  id: number
  name: string
  updatedAt: Date
  set: AdviceSetSource
}

const ruleColumns = { ruleId: rules.id, ruleName: rules.name, ruleUpdatedAt: rules.updatedAt, ...sourceColumns }

function toRuleSource(row: { ruleId: number; ruleName: string; ruleUpdatedAt: Date } & AdviceSetSource): RuleSource {
  const { ruleId, ruleName, ruleUpdatedAt, ...set } = row
  return { id: ruleId, name: ruleName, updatedAt: ruleUpdatedAt, set }
}

/** Live rules of live sets: by rule ids, or every rule of some sets. */
export async function ruleSources(db: Db, by: { ruleIds?: number[]; adviceSetIds?: number[] }): Promise<RuleSource[]> {
  const filter = by.ruleIds ? inArray(rules.id, by.ruleIds) : inArray(rules.adviceSetId, by.adviceSetIds ?? [])
  if ((by.ruleIds ?? by.adviceSetIds ?? []).length === 0) return []
  const found = await db.select(ruleColumns).from(rules).innerJoin(adviceSets, eq(adviceSets.id, rules.adviceSetId))
    .innerJoin(owners, eq(owners.id, adviceSets.ownerId))
    .where(and(filter, isNull(rules.deletedAt), isNull(adviceSets.deletedAt)))
  return found.map(toRuleSource)
}

/** Ids of every rule of a set, deleted or not (a deleted set takes all of them out of the index). */
export async function ruleIdsOfSet(db: Db, adviceSetId: number): Promise<number[]> {
  return (await db.select({ id: rules.id }).from(rules).where(eq(rules.adviceSetId, adviceSetId))).map((r) => r.id)
}

export async function ruleSourcesAfter(db: Db, afterId: number, limit: number): Promise<RuleSource[]> {
  const found = await db.select(ruleColumns).from(rules).innerJoin(adviceSets, eq(adviceSets.id, rules.adviceSetId))
    .innerJoin(owners, eq(owners.id, adviceSets.ownerId))
    .where(and(gt(rules.id, afterId), isNull(rules.deletedAt), isNull(adviceSets.deletedAt))).orderBy(asc(rules.id)).limit(limit)
  return found.map(toRuleSource)
}

export async function countLiveRules(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(rules).innerJoin(adviceSets, eq(adviceSets.id, rules.adviceSetId))
    .where(and(isNull(rules.deletedAt), isNull(adviceSets.deletedAt)))
  return row?.n ?? 0
}
