// What the export reads (SPEC §7 export): questions (input request nodes) and requests for advice of an owner's
// live sets, in pages by id so a large export is streamed rather than held in memory.
import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { countOf } from './count-of.ts'
import { adviceRequests, adviceSets, entities, ruleNodes, rules } from '../schema/index.ts'

const liveQuestion = (ownerId: string) => and(
  eq(adviceSets.ownerId, ownerId), isNull(adviceSets.deletedAt), isNull(rules.deletedAt), isNull(ruleNodes.deletedAt),
  eq(ruleNodes.type, 'inputRequest'),
)

/** `upTo` stops counting there: a page that only needs to know whether an export is large reads no more rows. */
export async function countQuestions(db: Db, ownerId: string, upTo?: number): Promise<number> {
  const rows = db.select({ one: sql`1` }).from(ruleNodes)
    .innerJoin(rules, eq(rules.id, ruleNodes.ruleId)).innerJoin(adviceSets, eq(adviceSets.id, rules.adviceSetId))
    .where(liveQuestion(ownerId))
  return countOf(db, upTo === undefined ? rows : rows.limit(upTo))
}

/** Questions after node `afterId`, by node id, each with its variable's dictionary entry (owner-wide, any case). */
export async function questionPage(db: Db, ownerId: string, afterId: number, limit: number) {
  return db.select({
    nodeId: ruleNodes.id, question: ruleNodes.question, variable: ruleNodes.variable,
    ruleId: rules.id, ruleName: rules.name, adviceSetId: adviceSets.id, adviceSetName: adviceSets.name,
    dataType: entities.dataType, options: entities.validOptions, closedSet: entities.isClosedSet, description: entities.description,
  }).from(ruleNodes)
    .innerJoin(rules, eq(rules.id, ruleNodes.ruleId)).innerJoin(adviceSets, eq(adviceSets.id, rules.adviceSetId))
    .leftJoin(entities, and(eq(entities.ownerId, ownerId), isNull(entities.deletedAt), sql`lower(${entities.reservedName}) = lower(${ruleNodes.variable})`))
    .where(and(liveQuestion(ownerId), gt(ruleNodes.id, afterId)))
    .orderBy(asc(ruleNodes.id)).limit(limit)
}

export async function countAdviceRequests(db: Db, ownerId: string, upTo?: number): Promise<number> {
  const rows = db.select({ one: sql`1` }).from(adviceRequests)
    .innerJoin(adviceSets, eq(adviceSets.id, adviceRequests.adviceSetId))
    .where(and(eq(adviceSets.ownerId, ownerId), isNull(adviceSets.deletedAt), isNull(adviceRequests.deletedAt)))
  return countOf(db, upTo === undefined ? rows : rows.limit(upTo))
}

export async function adviceRequestPage(db: Db, ownerId: string, afterId: number, limit: number) {
  return db.select({
    id: adviceRequests.id, text: adviceRequests.text, status: adviceRequests.status, source: adviceRequests.source,
    answeredByRuleId: adviceRequests.answeredByRuleId, ruleName: rules.name, createdAt: adviceRequests.createdAt,
    adviceSetId: adviceSets.id, adviceSetName: adviceSets.name,
  }).from(adviceRequests)
    .innerJoin(adviceSets, eq(adviceSets.id, adviceRequests.adviceSetId))
    .leftJoin(rules, eq(rules.id, adviceRequests.answeredByRuleId))
    .where(and(eq(adviceSets.ownerId, ownerId), isNull(adviceSets.deletedAt), isNull(adviceRequests.deletedAt), gt(adviceRequests.id, afterId)))
    .orderBy(asc(adviceRequests.id)).limit(limit)
}
