// Keyword maps with what they point at: the advice set (its names, owner, visibility flags, whether it is deleted) and
// the optional scenario (its name, whether it is deleted), read in one join for lists, pages and search.
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { Db } from '../client.ts'
import { adviceScenarios, adviceSets, keywordMaps, owners } from '../schema/index.ts'

export type KeywordMapRow = typeof keywordMaps.$inferSelect
export type KeywordMapFields = Pick<KeywordMapRow, 'name' | 'phrases' | 'adviceSetId' | 'scenarioId'>

export async function insertKeywordMap(db: Db, p: KeywordMapFields & { ownerId: string; createdBy: number | null }): Promise<KeywordMapRow> {
  const [row] = await db.insert(keywordMaps).values({ ...p, updatedBy: p.createdBy }).returning()
  return row!
}

export async function findKeywordMap(db: Db, id: number, opts: { includeDeleted?: boolean } = {}): Promise<KeywordMapRow | undefined> {
  const [row] = await db.select().from(keywordMaps)
    .where(and(eq(keywordMaps.id, id), opts.includeDeleted ? undefined : isNull(keywordMaps.deletedAt))).limit(1)
  return row
}

export async function updateKeywordMap(db: Db, id: number, p: Partial<KeywordMapFields> & { updatedBy: number | null; deletedAt?: Date | null }): Promise<KeywordMapRow> {
  const [row] = await db.update(keywordMaps).set({ ...p, updatedAt: new Date() }).where(eq(keywordMaps.id, id)).returning()
  return row!
}

/** A map with its owner's name and its target, as lists and search show it. */
export interface KeywordMapListRow {
  map: KeywordMapRow
  ownerName: string
  set: { id: number; name: string; nameAlt: string; ownerId: string; ownerName: string; isPublic: boolean; isStarter: boolean; deleted: boolean }
  scenario: { id: number; name: string; deleted: boolean } | null
}

const mapOwners = alias(owners, 'map_owners')

function listQuery(db: Db) {
  return db.select({
    map: keywordMaps, ownerName: mapOwners.name,
    setId: adviceSets.id, setName: adviceSets.name, setNameAlt: adviceSets.nameAlt, setOwnerId: adviceSets.ownerId, setOwnerName: owners.name,
    setPublic: adviceSets.isPublic, setStarter: adviceSets.isStarter, setDeletedAt: adviceSets.deletedAt,
    scenarioId: adviceScenarios.id, scenarioName: adviceScenarios.name, scenarioDeletedAt: adviceScenarios.deletedAt,
  }).from(keywordMaps)
    .innerJoin(mapOwners, eq(mapOwners.id, keywordMaps.ownerId))
    .innerJoin(adviceSets, eq(adviceSets.id, keywordMaps.adviceSetId))
    .innerJoin(owners, eq(owners.id, adviceSets.ownerId))
    .leftJoin(adviceScenarios, eq(adviceScenarios.id, keywordMaps.scenarioId))
}

type ListRecord = Awaited<ReturnType<ReturnType<typeof listQuery>['where']>>[number]

function listRow(r: ListRecord): KeywordMapListRow {
  return {
    map: r.map, ownerName: r.ownerName,
    set: {
      id: r.setId, name: r.setName, nameAlt: r.setNameAlt, ownerId: r.setOwnerId, ownerName: r.setOwnerName, isPublic: r.setPublic,
      isStarter: r.setStarter, deleted: r.setDeletedAt !== null,
    },
    scenario: r.scenarioId === null ? null : { id: r.scenarioId, name: r.scenarioName ?? '', deleted: r.scenarioDeletedAt !== null },
  }
}

export interface ListKeywordMapsParams {
  /** Maps of these owners; undefined: every owner's (provider admins). */
  ownerIds?: string[]
  adviceSetId?: number
  scenarioId?: number
  ids?: number[]
  includeDeleted?: boolean
  /** Only maps whose set and scenario (if any) are live: what search may lead to. */
  liveTargets?: boolean
  /** A part of the name or of a phrase, any case. */
  text?: string
  /** Keyset: the maps after this one, by name. */
  afterId?: number
  limit: number
}

/** Maps by name (then id). */
export async function listKeywordMaps(db: Db, p: ListKeywordMapsParams): Promise<KeywordMapListRow[]> {
  const pattern = p.text ? `%${p.text.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined
  const rows = await listQuery(db).where(and(
    p.ownerIds ? inArray(keywordMaps.ownerId, p.ownerIds) : undefined,
    p.adviceSetId !== undefined ? eq(keywordMaps.adviceSetId, p.adviceSetId) : undefined,
    p.scenarioId !== undefined ? eq(keywordMaps.scenarioId, p.scenarioId) : undefined,
    p.ids ? inArray(keywordMaps.id, p.ids) : undefined,
    p.includeDeleted ? undefined : isNull(keywordMaps.deletedAt),
    p.liveTargets ? and(isNull(adviceSets.deletedAt), isNull(adviceScenarios.deletedAt)) : undefined,
    pattern ? sql`(${keywordMaps.name} ilike ${pattern} or exists (select 1 from unnest(${keywordMaps.phrases}) as phrase where phrase ilike ${pattern}))` : undefined,
    p.afterId !== undefined ? sql`(${keywordMaps.name}, ${keywordMaps.id}) > (select k.name, k.id from ${keywordMaps} k where k.id = ${p.afterId})` : undefined,
  )).orderBy(asc(keywordMaps.name), asc(keywordMaps.id)).limit(p.limit)
  return rows.map(listRow)
}

/**
 * What changes whenever any of these owners' maps does: a map added (count and highest id), edited, deleted or
 * restored (latest update; deleting is an update). Search compares it on every keystroke before using the phrases it
 * holds, so it reads the owners' index entries instead of every map with its target.
 */
export async function keywordMapsStamp(db: Db, ownerIds: string[]): Promise<string> {
  const [row] = await db.select({ count: sql<number>`count(*)::int`, lastId: sql<number | null>`max(${keywordMaps.id})`, lastUpdate: sql<string | null>`max(${keywordMaps.updatedAt})::text` })
    .from(keywordMaps).where(inArray(keywordMaps.ownerId, ownerIds))
  return `${row!.count}|${row!.lastId ?? 0}|${row!.lastUpdate ?? ''}`
}

/** The live maps' phrases of these owners, without their targets: what search matches its text against. */
export async function keywordMapPhrases(db: Db, ownerIds: string[]): Promise<Array<{ id: number; ownerId: string; phrases: string[] }>> {
  return db.select({ id: keywordMaps.id, ownerId: keywordMaps.ownerId, phrases: keywordMaps.phrases })
    .from(keywordMaps).where(and(inArray(keywordMaps.ownerId, ownerIds), isNull(keywordMaps.deletedAt)))
}
