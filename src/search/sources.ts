// What rule-node and dictionary documents are made of, read from the application's tables. A node is live when it,
// its rule and its set are; a dictionary entry when it is and its set (if it has one) is. Removals look at every
// row, deleted or not, since a delete only marks rows.
import { and, asc, eq, gt, inArray, isNull, notInArray, or, sql, type SQL } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { Db } from '../db/client.ts'
import { subtreeQuery } from '../db/queries/rule-nodes.ts'
import { adviceSetSources, adviceSetSourcesIn, type AdviceSetSource } from '../db/queries/search.ts'
import { adviceSets, entities, owners, ruleNodes, rules } from '../db/schema/index.ts'
import { UNNAMED_NODE_TYPES } from './document-builders.ts'

export interface NodeSource {
  id: number
  ruleId: number
  type: string
  expression: string | null
  variable: string | null
  headline: string | null
  text: string | null
  question: string | null
  apiId: string | null
  /** A rule call's target, by name. */
  calledRuleName: string | null
  updatedAt: Date
  set: AdviceSetSource
}

export interface DictionarySource {
  id: number
  entityTypeId: number
  ownerId: string
  ownerName: string
  reservedName: string
  expression: string | null
  description: string
  updatedAt: Date
  set: AdviceSetSource | null
}

/** Which nodes: some by id, the whole subtrees under some, every node of some rules or sets, or calls to some rules. */
export interface NodeSelection {
  nodeIds?: number[]
  /** Nodes and everything under them, deleted or not (liveness is checked after). */
  subtreesOf?: number[]
  ruleIds?: number[]
  adviceSetIds?: number[]
  calledRuleIds?: number[]
}

const calledRules = alias(rules, 'called_rules')

const nodeColumns = {
  id: ruleNodes.id, ruleId: ruleNodes.ruleId, type: ruleNodes.type, expression: ruleNodes.expression, variable: ruleNodes.variable,
  headline: ruleNodes.headline, text: ruleNodes.text, question: ruleNodes.question, apiId: ruleNodes.apiId,
  calledRuleName: calledRules.name, updatedAt: ruleNodes.updatedAt, adviceSetId: rules.adviceSetId,
}

function nodeSelection(by: NodeSelection): SQL | undefined {
  const parts = [
    by.nodeIds?.length ? inArray(ruleNodes.id, by.nodeIds) : undefined,
    // As an array, not `in (…)`: the planner guesses a recursive query's rows from the table's size (236,510 for 200
    // roots of the big tenant, which has 800) and hash-joins all rules and sets; an array it takes for a few rows.
    by.subtreesOf?.length ? sql`${ruleNodes.id} = any(array(${subtreeQuery(by.subtreesOf)}))` : undefined,
    by.ruleIds?.length ? inArray(ruleNodes.ruleId, by.ruleIds) : undefined,
    by.adviceSetIds?.length ? inArray(rules.adviceSetId, by.adviceSetIds) : undefined,
    by.calledRuleIds?.length ? inArray(ruleNodes.calledRuleId, by.calledRuleIds) : undefined,
  ].filter((p) => p !== undefined)
  return parts.length === 0 ? undefined : or(...parts)
}

const liveNode = and(isNull(ruleNodes.deletedAt), isNull(rules.deletedAt), isNull(adviceSets.deletedAt))

async function withSets<T extends { adviceSetId: number }>(db: Db, rows: T[]): Promise<Array<Omit<T, 'adviceSetId'> & { set: AdviceSetSource }>> {
  return joinSets(rows, await adviceSetSources(db, [...new Set(rows.map((r) => r.adviceSetId))]))
}

/** Each row with its live set; rows of sets not among `sources` are left out. */
function joinSets<T extends { adviceSetId: number }>(rows: T[], sources: AdviceSetSource[]): Array<Omit<T, 'adviceSetId'> & { set: AdviceSetSource }> {
  const sets = new Map(sources.map((s) => [s.id, s]))
  return rows.flatMap(({ adviceSetId, ...row }) => {
    const set = sets.get(adviceSetId)
    return set ? [{ ...row, set }] : []
  })
}

function nodesQuery(db: Db) {
  return db.select(nodeColumns).from(ruleNodes)
    .innerJoin(rules, eq(rules.id, ruleNodes.ruleId))
    .innerJoin(adviceSets, eq(adviceSets.id, rules.adviceSetId))
    .leftJoin(calledRules, eq(calledRules.id, ruleNodes.calledRuleId))
}

/** Live nodes selected by `by` (nothing when it selects nothing). */
export async function nodeSources(db: Db, by: NodeSelection): Promise<NodeSource[]> {
  const selection = nodeSelection(by)
  if (!selection) return []
  // The sets are read beside the nodes, chosen by the same selection, rather than after them by the ids they hold:
  // one round trip, within the search index's transaction.
  const [rows, sets] = await Promise.all([
    nodesQuery(db).where(and(selection, liveNode)),
    adviceSetSourcesIn(db, sql`select ${rules.adviceSetId} from ${ruleNodes} join ${rules} on ${rules.id} = ${ruleNodes.ruleId} where ${selection}`),
  ])
  return joinSets(rows, sets)
}

export async function nodeSourcesAfter(db: Db, afterId: number, limit: number): Promise<NodeSource[]> {
  return withSets(db, await nodesQuery(db).where(and(gt(ruleNodes.id, afterId), liveNode)).orderBy(asc(ruleNodes.id)).limit(limit))
}

/** Live nodes of the types that are indexed. */
export async function countLiveNodes(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(ruleNodes)
    .innerJoin(rules, eq(rules.id, ruleNodes.ruleId)).innerJoin(adviceSets, eq(adviceSets.id, rules.adviceSetId))
    .where(and(liveNode, notInArray(ruleNodes.type, [...UNNAMED_NODE_TYPES])))
  return row?.n ?? 0
}

/** Every node id, deleted or not, of some rules or sets. */
export async function nodeIdsOf(db: Db, by: { ruleIds?: number[]; adviceSetIds?: number[] }): Promise<number[]> {
  const selection = nodeSelection(by)
  if (!selection) return []
  const found = await db.select({ id: ruleNodes.id }).from(ruleNodes).innerJoin(rules, eq(rules.id, ruleNodes.ruleId)).where(selection)
  return found.map((r) => r.id)
}

const dictionaryColumns = {
  id: entities.id, entityTypeId: entities.entityTypeId, ownerId: entities.ownerId, ownerName: owners.name, reservedName: entities.reservedName,
  expression: entities.expression, description: entities.description, updatedAt: entities.updatedAt, adviceSetId: entities.adviceSetId,
}

const liveEntry = and(isNull(entities.deletedAt), isNull(adviceSets.deletedAt))

function entriesQuery(db: Db) {
  return db.select(dictionaryColumns).from(entities)
    .innerJoin(owners, eq(owners.id, entities.ownerId))
    .leftJoin(adviceSets, eq(adviceSets.id, entities.adviceSetId))
}

async function withOptionalSets(db: Db, rows: Array<Omit<DictionarySource, 'set'> & { adviceSetId: number | null }>): Promise<DictionarySource[]> {
  const ids = [...new Set(rows.map((r) => r.adviceSetId).filter((id) => id !== null))]
  const sets = new Map((await adviceSetSources(db, ids)).map((s) => [s.id, s]))
  return rows.map(({ adviceSetId, ...row }) => ({ ...row, set: adviceSetId === null ? null : sets.get(adviceSetId) ?? null }))
}

/** Live dictionary entries: by id, or those of some sets. */
export async function dictionarySources(db: Db, by: { ids?: number[]; adviceSetIds?: number[] }): Promise<DictionarySource[]> {
  const selection = by.ids?.length ? inArray(entities.id, by.ids) : by.adviceSetIds?.length ? inArray(entities.adviceSetId, by.adviceSetIds) : undefined
  if (!selection) return []
  return withOptionalSets(db, await entriesQuery(db).where(and(selection, liveEntry)))
}

export async function dictionarySourcesAfter(db: Db, afterId: number, limit: number): Promise<DictionarySource[]> {
  return withOptionalSets(db, await entriesQuery(db).where(and(gt(entities.id, afterId), liveEntry)).orderBy(asc(entities.id)).limit(limit))
}

export async function countLiveDictionaryEntries(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(entities)
    .leftJoin(adviceSets, eq(adviceSets.id, entities.adviceSetId)).where(liveEntry)
  return row?.n ?? 0
}

/** Every dictionary entry id, deleted or not, of a set. */
export async function dictionaryIdsOfSet(db: Db, adviceSetId: number): Promise<number[]> {
  return (await db.select({ id: entities.id }).from(entities).where(eq(entities.adviceSetId, adviceSetId))).map((r) => r.id)
}
