import { and, asc, desc, eq, gt, gte, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm'
import type { Db } from '../client.ts'
import type { KeysetParams } from './keyset-page.ts'
import { adviceSets, apiKeys, apiKeyUsage, audiences, owners, type ApiKeyEnvironment } from '../schema/index.ts'

export type ApiKeyRow = typeof apiKeys.$inferSelect

/** Every column but the hash: what pages and API answers may see of a key. */
const listedColumns = {
  id: apiKeys.id, ownerId: apiKeys.ownerId, name: apiKeys.name, prefix: apiKeys.prefix,
  environment: apiKeys.environment, audienceId: apiKeys.audienceId, allowedAdviceSetIds: apiKeys.allowedAdviceSetIds,
  allowedOrigins: apiKeys.allowedOrigins, rateLimit: apiKeys.rateLimit, adviceRequests: apiKeys.adviceRequests, explain: apiKeys.explain, createdBy: apiKeys.createdBy,
  createdAt: apiKeys.createdAt, updatedAt: apiKeys.updatedAt, lastUsedAt: apiKeys.lastUsedAt,
  previousSecretUntil: apiKeys.previousSecretUntil,
  ownerName: owners.name,
}
export type ListedApiKey = Omit<ApiKeyRow, 'secretHash' | 'previousSecretHash' | 'deletedAt'> & { ownerName: string }

export interface ApiKeySettings {
  name: string
  environment: ApiKeyEnvironment
  audienceId: number | null
  allowedAdviceSetIds: number[]
  allowedOrigins: string[]
  rateLimit: number
  adviceRequests: boolean
  explain: boolean
}

export interface InsertApiKeyParams extends ApiKeySettings {
  ownerId: string
  prefix: string
  secretHash: string
  createdBy: number | null
}

export async function insertApiKey(db: Db, p: InsertApiKeyParams): Promise<number> {
  const [row] = await db.insert(apiKeys).values(p).returning({ id: apiKeys.id })
  return row!.id
}

/** A live (not deleted) key by the hash of its secret, or of the secret a rotation replaced while its grace lasts. */
export async function findLiveApiKeyByHash(db: Db, secretHash: string, now: Date): Promise<ApiKeyRow | undefined> {
  const [row] = await db.select().from(apiKeys)
    .where(and(
      or(eq(apiKeys.secretHash, secretHash), and(eq(apiKeys.previousSecretHash, secretHash), gt(apiKeys.previousSecretUntil, now))),
      isNull(apiKeys.deletedAt),
    )).limit(1)
  return row
}

/** A live key whose previous secret (replaced by a rotation, its grace over) has this hash. */
export async function findKeyRotatedAwayFrom(db: Db, secretHash: string): Promise<{ id: number } | undefined> {
  const [row] = await db.select({ id: apiKeys.id }).from(apiKeys)
    .where(and(eq(apiKeys.previousSecretHash, secretHash), isNull(apiKeys.deletedAt))).limit(1)
  return row
}

/**
 * A new secret for a key; the one it replaces is kept (as its hash) until `previousUntil`, or forgotten at once (null).
 * The UPDATE's right-hand side reads the row as it was, so the old hash moves over as the new one comes in.
 */
export async function replaceApiKeySecret(db: Db, id: number, secretHash: string, previousUntil: Date | null): Promise<void> {
  await db.update(apiKeys).set({
    secretHash,
    previousSecretHash: previousUntil === null ? null : sql`${apiKeys.secretHash}`,
    previousSecretUntil: previousUntil,
    updatedAt: new Date(),
  }).where(and(eq(apiKeys.id, id), isNull(apiKeys.deletedAt)))
}

export async function findLiveApiKey(db: Db, id: number): Promise<ListedApiKey | undefined> {
  const [row] = await db.select(listedColumns).from(apiKeys).innerJoin(owners, eq(owners.id, apiKeys.ownerId))
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.deletedAt))).limit(1)
  return row
}

/** A key whose usage history can be read: live or deleted (the row stays for it). */
export type KeyWithHistory = ListedApiKey & { deletedAt: Date | null }

export async function findApiKeyWithHistory(db: Db, id: number): Promise<KeyWithHistory | undefined> {
  const [row] = await db.select({ ...listedColumns, deletedAt: apiKeys.deletedAt }).from(apiKeys).innerJoin(owners, eq(owners.id, apiKeys.ownerId))
    .where(eq(apiKeys.id, id)).limit(1)
  return row
}

/** A key as records name it: deleted keys too, since their records stay. */
export interface ApiKeyName { id: number; name: string; deleted: boolean }

const nameColumns = { id: apiKeys.id, name: apiKeys.name, deleted: sql<boolean>`${apiKeys.deletedAt} is not null` }

/** The names of an owner's keys among `ids`; another owner's key is not named. */
export async function apiKeyNamesByIds(db: Db, ownerId: string, ids: readonly number[]): Promise<ApiKeyName[]> {
  if (ids.length === 0) return []
  return db.select(nameColumns).from(apiKeys).where(and(eq(apiKeys.ownerId, ownerId), inArray(apiKeys.id, [...ids])))
}

/** An owner's keys to choose from, at most `limit`: live ones first, those used most recently first, then deleted ones. */
export async function apiKeyChoices(db: Db, ownerId: string, limit: number): Promise<ApiKeyName[]> {
  return db.select(nameColumns).from(apiKeys).where(eq(apiKeys.ownerId, ownerId))
    .orderBy(sql`${apiKeys.deletedAt} is not null`, sql`${apiKeys.lastUsedAt} desc nulls last`, desc(apiKeys.id)).limit(limit)
}

/** A page of deleted keys, most recently deleted first; `ownerId` undefined lists every owner's (provider admins). */
export async function listDeletedApiKeys(db: Db, ownerId: string | undefined, page: KeysetParams & { limit: number }): Promise<KeyWithHistory[]> {
  return db.select({ ...listedColumns, deletedAt: apiKeys.deletedAt }).from(apiKeys).innerJoin(owners, eq(owners.id, apiKeys.ownerId))
    .where(and(
      isNotNull(apiKeys.deletedAt), ownerId === undefined ? undefined : eq(apiKeys.ownerId, ownerId),
      page.afterId === undefined ? undefined : sql`(${apiKeys.deletedAt}, ${apiKeys.id}) < (select k.deleted_at, k.id from ${apiKeys} k where k.id = ${page.afterId})`,
    ))
    .orderBy(desc(apiKeys.deletedAt), desc(apiKeys.id)).limit(page.limit)
}

/** A page of live keys, newest first; `ownerId` undefined lists every owner's (provider admins). */
export async function listLiveApiKeys(db: Db, ownerId: string | undefined, page: KeysetParams & { limit: number }): Promise<ListedApiKey[]> {
  return db.select(listedColumns).from(apiKeys).innerJoin(owners, eq(owners.id, apiKeys.ownerId))
    .where(and(
      isNull(apiKeys.deletedAt), ownerId === undefined ? undefined : eq(apiKeys.ownerId, ownerId),
      page.afterId === undefined ? undefined : sql`(${apiKeys.createdAt}, ${apiKeys.id}) < (select k.created_at, k.id from ${apiKeys} k where k.id = ${page.afterId})`,
    ))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id)).limit(page.limit)
}

export async function updateApiKey(db: Db, id: number, p: Omit<ApiKeySettings, 'environment'>): Promise<void> {
  await db.update(apiKeys).set({ ...p, updatedAt: new Date() }).where(and(eq(apiKeys.id, id), isNull(apiKeys.deletedAt)))
}

/** Soft delete: the row stays for its usage history; the hash lookup skips it from now on. */
export async function softDeleteApiKey(db: Db, id: number): Promise<void> {
  await db.update(apiKeys).set({ deletedAt: sql`now()`, updatedAt: new Date() }).where(and(eq(apiKeys.id, id), isNull(apiKeys.deletedAt)))
}

/** Audiences a key may be tied to; `ownerId` undefined: every owner's (provider admins). */
export async function listAudiencesForKeys(db: Db, ownerId: string | undefined): Promise<Array<{ id: number; ownerId: string; name: string }>> {
  return db.select({ id: audiences.id, ownerId: audiences.ownerId, name: audiences.name }).from(audiences)
    .where(ownerId === undefined ? undefined : eq(audiences.ownerId, ownerId)).orderBy(asc(audiences.name), asc(audiences.id))
}

/** Requests per key on one UTC day (`YYYY-MM-DD`); keys without any are absent. */
export async function requestsOnDay(db: Db, keyIds: number[], day: string): Promise<Map<number, number>> {
  if (keyIds.length === 0) return new Map()
  const rows = await db.select({ keyId: apiKeyUsage.keyId, requests: sql<number>`sum(${apiKeyUsage.requests})`.mapWith(Number) })
    .from(apiKeyUsage).where(and(inArray(apiKeyUsage.keyId, keyIds), eq(apiKeyUsage.day, day))).groupBy(apiKeyUsage.keyId)
  return new Map(rows.map((r) => [r.keyId, r.requests]))
}

export interface UsageRow { day: string; adviceSetId: number; adviceSetName: string | null; adviceSetOwnerId: string | null; requests: number; errors: number; latencyBuckets: number[] }

/** A key's usage rows from `sinceDay` on, with the names of their advice sets. */
export async function usageRowsSince(db: Db, keyId: number, sinceDay: string): Promise<UsageRow[]> {
  return db.select({
    day: apiKeyUsage.day, adviceSetId: apiKeyUsage.adviceSetId, adviceSetName: adviceSets.name, adviceSetOwnerId: adviceSets.ownerId,
    requests: apiKeyUsage.requests, errors: apiKeyUsage.errors, latencyBuckets: apiKeyUsage.latencyBuckets,
  }).from(apiKeyUsage).leftJoin(adviceSets, eq(adviceSets.id, apiKeyUsage.adviceSetId))
    .where(and(eq(apiKeyUsage.keyId, keyId), gte(apiKeyUsage.day, sinceDay)))
    .orderBy(asc(apiKeyUsage.day), asc(apiKeyUsage.adviceSetId))
}

/** What a key's requests for one set on one UTC day added up to, since the last write. */
export interface UsageCounts {
  keyId: number
  day: string
  adviceSetId: number
  requests: number
  errors: number
  latencyBuckets: number[]
  lastUsedAt: string
}

/**
 * One statement for the whole batch: the rows travel as one JSON parameter (no parameter-count limit), counts and
 * latency buckets are added element-wise to the day's row, and each key's last use moves forward. Rows of keys
 * that no longer exist are skipped rather than failing the batch.
 *
 * Several instances on one PostgreSQL flush at once, each with its own order of keys, and the statement locks the
 * keys' rows in whatever order its join takes them: two flushes deadlocked (70 of 800 on four connections), and the
 * failed one's counts were lost. So a flush first takes a lock that every flush of usage takes, and they run in turn.
 */
export async function addUsage(db: Db, batch: UsageCounts[]): Promise<void> {
  const rows = batch.map((c) => ({
    key_id: c.keyId, day: c.day, advice_set_id: c.adviceSetId, requests: c.requests, errors: c.errors,
    latency_buckets: c.latencyBuckets, last_used_at: c.lastUsedAt,
  }))
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('api_key_usage'))`)
    await tx.execute(sql`
      with batch as (
        select v.* from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
          as v(key_id int, day date, advice_set_id int, requests bigint, errors bigint, latency_buckets int[], last_used_at timestamptz)
        join api_keys k on k.id = v.key_id
      ), counted as (
        insert into api_key_usage (key_id, day, advice_set_id, requests, errors, latency_buckets)
        select key_id, day, advice_set_id, requests, errors, latency_buckets from batch
        on conflict (key_id, day, advice_set_id) do update set
          requests = api_key_usage.requests + excluded.requests,
          errors = api_key_usage.errors + excluded.errors,
          latency_buckets = array(
            select coalesce(a, 0) + coalesce(b, 0)
            from unnest(api_key_usage.latency_buckets, excluded.latency_buckets) with ordinality as u(a, b, i)
            order by i)
        returning 1
      )
      update api_keys k set last_used_at = greatest(k.last_used_at, used.at)
      from (select key_id, max(last_used_at) as at from batch group by key_id) used
      where k.id = used.key_id`)
  })
}
