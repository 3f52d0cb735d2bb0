import { and, asc, eq, ilike, inArray, isNull, ne, or, sql } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { adviceSets, ruleNodes, rules } from '../schema/index.ts'
import { visibleTo, type SetVisibility } from './advice-sets.ts'

export type RuleRow = typeof rules.$inferSelect

/** A rule with what rights and links need of its advice set. */
export interface RuleWithSet extends RuleRow {
  set: { id: number; ownerId: string; name: string; isPublic: boolean; isStarter: boolean; deleted: boolean }
}

const setColumns = {
  id: adviceSets.id, ownerId: adviceSets.ownerId, name: adviceSets.name, isPublic: adviceSets.isPublic,
  isStarter: adviceSets.isStarter, deletedAt: adviceSets.deletedAt,
}

export async function findRule(db: Db, id: number, opts: { includeDeleted?: boolean } = {}): Promise<RuleWithSet | undefined> {
  const [row] = await db.select({ rule: rules, set: setColumns }).from(rules)
    .innerJoin(adviceSets, eq(adviceSets.id, rules.adviceSetId))
    .where(and(eq(rules.id, id), opts.includeDeleted ? undefined : isNull(rules.deletedAt))).limit(1)
  if (!row) return undefined
  const { deletedAt, ...set } = row.set
  return { ...row.rule, set: { ...set, deleted: deletedAt !== null } }
}

/** Live rules of a set in run order. */
export async function listRules(db: Db, adviceSetId: number): Promise<RuleRow[]> {
  return db.select().from(rules).where(and(eq(rules.adviceSetId, adviceSetId), isNull(rules.deletedAt))).orderBy(asc(rules.position))
}

/** Every rule a set has had, deleted ones too: what a version's or a file's rules are paired with by key. */
export async function listSetRulesEver(db: Db, adviceSetId: number): Promise<RuleRow[]> {
  return db.select().from(rules).where(eq(rules.adviceSetId, adviceSetId)).orderBy(asc(rules.id))
}

export async function findRulesByIds(db: Db, ids: number[]): Promise<RuleRow[]> {
  if (ids.length === 0) return []
  return db.select().from(rules).where(and(inArray(rules.id, ids), isNull(rules.deletedAt)))
}

/** Serialises every reorder of a set's rules: the caller holds the set row until its transaction ends. */
export async function lockAdviceSetRow(tx: Db, adviceSetId: number): Promise<void> {
  await tx.select({ id: adviceSets.id }).from(adviceSets).where(eq(adviceSets.id, adviceSetId)).for('update')
}

export type RuleInsert = Pick<RuleRow, 'adviceSetId' | 'name' | 'position'> & Partial<Pick<RuleRow, 'onlyWhenCalled' | 'key'>> & { createdBy: number | null }

export async function insertRule(db: Db, p: RuleInsert): Promise<RuleRow> {
  const [row] = await db.insert(rules).values({ ...p, updatedBy: p.createdBy }).returning()
  return row!
}

export async function updateRule(db: Db, id: number, p: Partial<Pick<RuleRow, 'name' | 'adviceSetId' | 'position' | 'onlyWhenCalled' | 'deletedAt'>> & { updatedBy: number | null }): Promise<RuleRow> {
  const [row] = await db.update(rules).set({ ...p, updatedAt: new Date() }).where(eq(rules.id, id)).returning()
  return row!
}

/**
 * Gives the listed live rules positions 0..n-1 in list order. Two steps (negative, then final) because a unique
 * index is checked row by row: shifting in place would collide with a neighbour's old position.
 */
export async function renumberRules(tx: Db, orderedIds: number[]): Promise<void> {
  if (orderedIds.length === 0) return
  const values = sql.join(orderedIds.map((id, i) => sql`(${id}::int, ${i}::int)`), sql`, `)
  await tx.execute(sql`update rules set position = -1 - v.pos from (values ${values}) as v(id, pos) where rules.id = v.id`)
  await tx.execute(sql`update rules set position = -1 - position where id in (${sql.join(orderedIds.map((id) => sql`${id}`), sql`, `)})`)
}

export interface CallingRule { ruleId: number; ruleName: string; adviceSetId: number; adviceSetName: string; ownerId: string; nodeId: number }

const callingColumns = {
  ruleId: rules.id, ruleName: rules.name, adviceSetId: adviceSets.id, adviceSetName: adviceSets.name, ownerId: adviceSets.ownerId, nodeId: ruleNodes.id,
}

/** Live Rule Call nodes (in live rules of live sets) that call one of the given rules. */
export async function callsTo(db: Db, calledRuleIds: number[], opts: { outsideSet?: number } = {}): Promise<Array<CallingRule & { calledRuleId: number }>> {
  if (calledRuleIds.length === 0) return []
  return db.select({ ...callingColumns, calledRuleId: sql<number>`${ruleNodes.calledRuleId}`.mapWith(Number) }).from(ruleNodes)
    .innerJoin(rules, eq(rules.id, ruleNodes.ruleId))
    .innerJoin(adviceSets, eq(adviceSets.id, rules.adviceSetId))
    .where(and(
      inArray(ruleNodes.calledRuleId, calledRuleIds), isNull(ruleNodes.deletedAt), isNull(rules.deletedAt), isNull(adviceSets.deletedAt),
      opts.outsideSet !== undefined ? ne(rules.adviceSetId, opts.outsideSet) : undefined,
    ))
    .orderBy(asc(adviceSets.name), asc(rules.position))
}

/** The rules the live Rule Call nodes of one rule call, with their sets. */
export async function callsFrom(db: Db, ruleId: number): Promise<CallingRule[]> {
  const called = db.$with('called').as(db.select({ calledRuleId: ruleNodes.calledRuleId, nodeId: ruleNodes.id }).from(ruleNodes)
    .where(and(eq(ruleNodes.ruleId, ruleId), isNull(ruleNodes.deletedAt), eq(ruleNodes.type, 'ruleCall'))))
  const rows = await db.with(called).select({
    ruleId: rules.id, ruleName: rules.name, adviceSetId: adviceSets.id, adviceSetName: adviceSets.name, ownerId: adviceSets.ownerId, nodeId: called.nodeId,
  }).from(called).innerJoin(rules, eq(rules.id, called.calledRuleId)).innerJoin(adviceSets, eq(adviceSets.id, rules.adviceSetId))
    .where(isNull(rules.deletedAt))
  return rows
}

export interface RuleInSet { id: number; name: string; adviceSetId: number; adviceSetName: string }

/**
 * Live rules of the live sets a reader may see, other than `exceptSetId`, by set name then run order; optionally
 * only those whose rule or set name contains `text`.
 */
export async function listVisibleRules(db: Db, p: { visibility: SetVisibility; exceptSetId: number; text?: string; limit: number }): Promise<RuleInSet[]> {
  const pattern = p.text ? `%${p.text.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined
  return db.select({ id: rules.id, name: rules.name, adviceSetId: adviceSets.id, adviceSetName: adviceSets.name })
    .from(rules).innerJoin(adviceSets, eq(adviceSets.id, rules.adviceSetId))
    .where(and(
      isNull(rules.deletedAt), isNull(adviceSets.deletedAt), ne(adviceSets.id, p.exceptSetId), visibleTo(p.visibility),
      pattern ? or(ilike(rules.name, pattern), ilike(adviceSets.name, pattern)) : undefined,
    ))
    .orderBy(asc(sql`lower(${adviceSets.name})`), asc(adviceSets.id), asc(rules.position))
    .limit(p.limit)
}
