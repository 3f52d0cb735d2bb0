// What the file form of an advice set (services/library/portable-*.ts) reads besides the model: rows by id, so that
// database ids in a set or a version can be turned into keys and names.
import { and, eq, inArray, isNull } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { adviceCategories, adviceSets, entities, ruleNodes, rules, supplements } from '../schema/index.ts'
import type { EntityRow } from './entities.ts'
import type { SupplementRow } from './supplements.ts'

export async function entityRowsByIds(db: Db, ids: number[]): Promise<EntityRow[]> {
  if (ids.length === 0) return []
  return db.select().from(entities).where(inArray(entities.id, ids))
}

/** Supplements by id, live or not: a version keeps links to supplements deleted since. */
export async function supplementRowsByIds(db: Db, ids: number[]): Promise<SupplementRow[]> {
  if (ids.length === 0) return []
  return db.select().from(supplements).where(inArray(supplements.id, ids))
}

/** Each rule's key and its set's name: how a Rule Call names a rule of another set. */
export async function ruleKeysByIds(db: Db, ids: number[]): Promise<Array<{ id: number; key: string; name: string; adviceSetId: number; adviceSetName: string }>> {
  if (ids.length === 0) return []
  return db.select({ id: rules.id, key: rules.key, name: rules.name, adviceSetId: rules.adviceSetId, adviceSetName: adviceSets.name })
    .from(rules).innerJoin(adviceSets, eq(adviceSets.id, rules.adviceSetId)).where(inArray(rules.id, ids))
}

/** Nodes' keys by id, in any set: a scenario's expected advice may name a node of a rule it calls in another set. */
export async function nodeKeysByIds(db: Db, ids: number[]): Promise<Array<{ id: number; key: string }>> {
  if (ids.length === 0) return []
  return db.select({ id: ruleNodes.id, key: ruleNodes.key }).from(ruleNodes).where(inArray(ruleNodes.id, ids))
}

/** The live nodes holding these keys in the live rules of an owner's live sets named `adviceSetNames`. */
export async function findNodesByKeys(db: Db, p: { ownerId: string; adviceSetNames: string[]; keys: string[] }): Promise<Array<{ id: number; key: string; type: string }>> {
  if (p.adviceSetNames.length === 0 || p.keys.length === 0) return []
  return db.select({ id: ruleNodes.id, key: ruleNodes.key, type: ruleNodes.type }).from(ruleNodes)
    .innerJoin(rules, eq(rules.id, ruleNodes.ruleId)).innerJoin(adviceSets, eq(adviceSets.id, rules.adviceSetId))
    .where(and(eq(adviceSets.ownerId, p.ownerId), inArray(adviceSets.name, p.adviceSetNames), isNull(adviceSets.deletedAt), isNull(rules.deletedAt), isNull(ruleNodes.deletedAt), inArray(ruleNodes.key, p.keys)))
    .orderBy(ruleNodes.id)
}

/** A live rule of one of an owner's live sets, by the set's name and the rule's key. */
export async function findRuleByKey(db: Db, p: { ownerId: string; adviceSetName: string; key: string }): Promise<{ id: number; adviceSetId: number } | undefined> {
  const [row] = await db.select({ id: rules.id, adviceSetId: rules.adviceSetId }).from(rules)
    .innerJoin(adviceSets, eq(adviceSets.id, rules.adviceSetId))
    .where(and(eq(adviceSets.ownerId, p.ownerId), eq(adviceSets.name, p.adviceSetName), isNull(adviceSets.deletedAt), eq(rules.key, p.key), isNull(rules.deletedAt)))
    .limit(1)
  return row
}

export async function categoryName(db: Db, id: number | null): Promise<string | null> {
  if (id === null) return null
  const [row] = await db.select({ name: adviceCategories.name }).from(adviceCategories).where(eq(adviceCategories.id, id)).limit(1)
  return row?.name ?? null
}

/** The owner's live supplements that look like one described in a file: same name, format, type and size (links: same address). */
export async function matchingSupplements(db: Db, p: { ownerId: string; name: string; format: string; contentType: string; size: number; url: string | null }): Promise<SupplementRow[]> {
  return db.select().from(supplements).where(and(
    eq(supplements.ownerId, p.ownerId), isNull(supplements.deletedAt), eq(supplements.name, p.name), eq(supplements.format, p.format as SupplementRow['format']),
    eq(supplements.contentType, p.contentType), p.format === 'link' ? eq(supplements.url, p.url ?? '') : eq(supplements.size, p.size),
  )).orderBy(supplements.id).limit(1)
}
