import { and, count, desc, eq, gt, isNull, or } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { personalAccessTokens, type AccessTokenScope } from '../schema/index.ts'

export type AccessTokenRow = typeof personalAccessTokens.$inferSelect

/** Every column but the hash: what pages and API answers may see of a token. */
const listedColumns = {
  id: personalAccessTokens.id, userId: personalAccessTokens.userId, name: personalAccessTokens.name, scopes: personalAccessTokens.scopes,
  prefix: personalAccessTokens.prefix, createdAt: personalAccessTokens.createdAt, lastUsedAt: personalAccessTokens.lastUsedAt,
  expiresAt: personalAccessTokens.expiresAt, revokedAt: personalAccessTokens.revokedAt,
}
export type ListedAccessToken = Omit<AccessTokenRow, 'secretHash'>

export interface InsertAccessTokenParams {
  userId: number
  name: string
  scopes: AccessTokenScope[]
  prefix: string
  secretHash: string
  expiresAt: Date | null
}

export async function insertAccessToken(db: Db, p: InsertAccessTokenParams): Promise<ListedAccessToken> {
  const [row] = await db.insert(personalAccessTokens).values(p).returning(listedColumns)
  return row!
}

/** A user's tokens, newest first: live, expired and revoked (the list says which). */
export async function listAccessTokensOf(db: Db, userId: number): Promise<ListedAccessToken[]> {
  return db.select(listedColumns).from(personalAccessTokens).where(eq(personalAccessTokens.userId, userId))
    .orderBy(desc(personalAccessTokens.createdAt), desc(personalAccessTokens.id))
}

/** How many of a user's tokens still work (not revoked, not expired). */
export async function countLiveAccessTokens(db: Db, userId: number, now: Date): Promise<number> {
  const [row] = await db.select({ n: count() }).from(personalAccessTokens).where(and(
    eq(personalAccessTokens.userId, userId), isNull(personalAccessTokens.revokedAt),
    or(isNull(personalAccessTokens.expiresAt), gt(personalAccessTokens.expiresAt, now)),
  ))
  return row?.n ?? 0
}

export async function findAccessTokenOf(db: Db, userId: number, id: number): Promise<ListedAccessToken | undefined> {
  const [row] = await db.select(listedColumns).from(personalAccessTokens)
    .where(and(eq(personalAccessTokens.id, id), eq(personalAccessTokens.userId, userId))).limit(1)
  return row
}

/** A token by the hash of its secret, whatever its state (the caller tells revoked and expired apart). */
export async function findAccessTokenByHash(db: Db, secretHash: string): Promise<ListedAccessToken | undefined> {
  const [row] = await db.select(listedColumns).from(personalAccessTokens).where(eq(personalAccessTokens.secretHash, secretHash)).limit(1)
  return row
}

/** Revokes a live token; undefined when it was revoked already. */
export async function revokeAccessToken(db: Db, id: number, at: Date): Promise<ListedAccessToken | undefined> {
  const [row] = await db.update(personalAccessTokens).set({ revokedAt: at })
    .where(and(eq(personalAccessTokens.id, id), isNull(personalAccessTokens.revokedAt))).returning(listedColumns)
  return row
}

/** Revokes every live token of a user (deactivation); the ids revoked. */
export async function revokeAccessTokensOfUser(db: Db, userId: number, at: Date): Promise<ListedAccessToken[]> {
  return db.update(personalAccessTokens).set({ revokedAt: at })
    .where(and(eq(personalAccessTokens.userId, userId), isNull(personalAccessTokens.revokedAt))).returning(listedColumns)
}

export async function touchAccessToken(db: Db, id: number, at: Date): Promise<void> {
  await db.update(personalAccessTokens).set({ lastUsedAt: at }).where(eq(personalAccessTokens.id, id))
}
