import { and, desc, eq, isNull, sql } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { apiKeys, type ApiKeyEnvironment } from '../schema/index.ts'

export type ApiKeyRow = typeof apiKeys.$inferSelect

/** Every column but the hash: what pages and API answers may see of a key. */
const listedColumns = {
  id: apiKeys.id, ownerId: apiKeys.ownerId, name: apiKeys.name, prefix: apiKeys.prefix,
  environment: apiKeys.environment, audienceId: apiKeys.audienceId, allowedAdviceSetIds: apiKeys.allowedAdviceSetIds,
  allowedOrigins: apiKeys.allowedOrigins, rateLimit: apiKeys.rateLimit, createdBy: apiKeys.createdBy,
  createdAt: apiKeys.createdAt, updatedAt: apiKeys.updatedAt, lastUsedAt: apiKeys.lastUsedAt,
}
export type ListedApiKey = Omit<ApiKeyRow, 'secretHash' | 'deletedAt'>

export interface ApiKeySettings {
  name: string
  environment: ApiKeyEnvironment
  audienceId: number | null
  allowedAdviceSetIds: number[]
  allowedOrigins: string[]
  rateLimit: number
}

export interface InsertApiKeyParams extends ApiKeySettings {
  ownerId: string
  prefix: string
  secretHash: string
  createdBy: number | null
}

export async function insertApiKey(db: Db, p: InsertApiKeyParams): Promise<ListedApiKey> {
  const [row] = await db.insert(apiKeys).values(p).returning(listedColumns)
  return row!
}

/** A live (not deleted) key by the hash of its secret. */
export async function findLiveApiKeyByHash(db: Db, secretHash: string): Promise<ApiKeyRow | undefined> {
  const [row] = await db.select().from(apiKeys)
    .where(and(eq(apiKeys.secretHash, secretHash), isNull(apiKeys.deletedAt))).limit(1)
  return row
}

export async function findLiveApiKey(db: Db, id: number): Promise<ListedApiKey | undefined> {
  const [row] = await db.select(listedColumns).from(apiKeys)
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.deletedAt))).limit(1)
  return row
}

/** Live keys, newest first; `ownerId` undefined lists every owner's (provider admins). */
export async function listLiveApiKeys(db: Db, ownerId: string | undefined): Promise<ListedApiKey[]> {
  const live = isNull(apiKeys.deletedAt)
  return db.select(listedColumns).from(apiKeys)
    .where(ownerId === undefined ? live : and(live, eq(apiKeys.ownerId, ownerId)))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
}

export async function updateApiKey(db: Db, id: number, p: ApiKeySettings): Promise<ListedApiKey | undefined> {
  const [row] = await db.update(apiKeys).set({ ...p, updatedAt: new Date() })
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.deletedAt))).returning(listedColumns)
  return row
}

/** Soft delete: the row stays for its usage history; the hash lookup skips it from now on. */
export async function softDeleteApiKey(db: Db, id: number): Promise<{ secretHash: string } | undefined> {
  const [row] = await db.update(apiKeys).set({ deletedAt: sql`now()`, updatedAt: new Date() })
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.deletedAt))).returning({ secretHash: apiKeys.secretHash })
  return row
}
