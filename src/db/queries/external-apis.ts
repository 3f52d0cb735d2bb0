import { and, asc, eq, inArray, isNull } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { adviceSets, externalApis, ruleNodes, rules, type ResponseMappingEntry, type StoredHeader } from '../schema/index.ts'

export type ExternalApiRow = typeof externalApis.$inferSelect

export interface ExternalApiSettings {
  name: string
  method: string
  urlTemplate: string
  headers: StoredHeader[]
  bodyTemplate: string
  timeoutMs: number
  responseMapping: ResponseMappingEntry[]
  cacheTtlSeconds: number
  sampleResponse: string
}

export async function insertExternalApi(db: Db, p: ExternalApiSettings & { ownerId: string; createdBy: number | null }): Promise<ExternalApiRow> {
  const [row] = await db.insert(externalApis).values({ ...p, updatedBy: p.createdBy }).returning()
  return row!
}

export async function findExternalApi(db: Db, id: number, opts: { includeDeleted?: boolean } = {}): Promise<ExternalApiRow | undefined> {
  const [row] = await db.select().from(externalApis)
    .where(and(eq(externalApis.id, id), opts.includeDeleted ? undefined : isNull(externalApis.deletedAt))).limit(1)
  return row
}

/** Live definitions by name; `ownerId` undefined lists every owner's (provider admins). */
export async function listExternalApis(db: Db, ownerId: string | undefined): Promise<ExternalApiRow[]> {
  const live = isNull(externalApis.deletedAt)
  return db.select().from(externalApis)
    .where(ownerId === undefined ? live : and(live, eq(externalApis.ownerId, ownerId)))
    .orderBy(asc(externalApis.name), asc(externalApis.id))
}

/** Live definitions of one owner among `ids` (what an advice set's API Call nodes may use). */
export async function findOwnerExternalApis(db: Db, ownerId: string, ids: number[]): Promise<ExternalApiRow[]> {
  if (ids.length === 0) return []
  return db.select().from(externalApis)
    .where(and(inArray(externalApis.id, ids), eq(externalApis.ownerId, ownerId), isNull(externalApis.deletedAt)))
}

export async function updateExternalApi(db: Db, id: number, p: Partial<ExternalApiSettings> & { updatedBy: number | null; deletedAt?: Date | null }): Promise<ExternalApiRow> {
  const [row] = await db.update(externalApis).set({ ...p, updatedAt: new Date() }).where(eq(externalApis.id, id)).returning()
  return row!
}

export interface ApiCallUse {
  nodeId: number
  ruleId: number
  ruleName: string
  adviceSetId: number
  adviceSetName: string
  variable: string | null
}

/** Live API Call nodes (in live rules of the owner's live sets) naming the definition. */
export async function listApiCallUses(db: Db, p: { apiId: number; ownerId: string }): Promise<ApiCallUse[]> {
  return db.select({
    nodeId: ruleNodes.id, ruleId: rules.id, ruleName: rules.name, adviceSetId: adviceSets.id, adviceSetName: adviceSets.name, variable: ruleNodes.variable,
  }).from(ruleNodes)
    .innerJoin(rules, eq(rules.id, ruleNodes.ruleId))
    .innerJoin(adviceSets, eq(adviceSets.id, rules.adviceSetId))
    .where(and(
      eq(ruleNodes.type, 'apiCall'), eq(ruleNodes.apiId, String(p.apiId)), eq(adviceSets.ownerId, p.ownerId),
      isNull(ruleNodes.deletedAt), isNull(rules.deletedAt), isNull(adviceSets.deletedAt),
    ))
    .orderBy(asc(adviceSets.name), asc(rules.name), asc(ruleNodes.id))
}
