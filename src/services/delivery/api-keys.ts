// Partner API keys: issuing (secret shown once, only its SHA-256 kept) and authenticating Bearer requests.
import { createHash, randomBytes } from 'node:crypto'
import type { Db } from '../../db/client.ts'
import type { ApiKeyEnvironment } from '../../db/schema/index.ts'
import { findKeyRotatedAwayFrom, findLiveApiKey, findLiveApiKeyByHash, insertApiKey, type ApiKeySettings, type ListedApiKey } from '../../db/queries/api-keys.ts'
import { isUniqueViolation, UnauthorizedError } from '../errors.ts'

export interface AuthenticatedKey {
  id: number
  ownerId: string
  prefix: string
  environment: ApiKeyEnvironment
  audienceId: number | null
  allowedAdviceSetIds: number[]
  allowedOrigins: string[]
  rateLimit: number
  /** The embed offers the requests-for-advice box. */
  adviceRequests: boolean
  /** Requests may ask for explanations (explain=true). */
  explain: boolean
}

const ENVIRONMENT_TAGS: Record<ApiKeyEnvironment, string> = { production: 'live', preview: 'prev' }
/** as_live_1a2b3c4d_<32 chars of base64url = 192 random bits>; the random part may itself contain '_' or '-'. */
const SECRET_PATTERN = /^as_(?:live|prev)_[0-9a-f]{8}_[A-Za-z0-9_-]{32}$/

export function hashApiKeySecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex')
}

/** A fresh secret under a key's prefix: a rotated key keeps its prefix, so people still recognise it. */
export function secretUnder(prefix: string): string {
  return `${prefix}_${randomBytes(24).toString('base64url')}`
}

function newSecret(environment: ApiKeyEnvironment): { prefix: string; secret: string } {
  const prefix = `as_${ENVIRONMENT_TAGS[environment]}_${randomBytes(4).toString('hex')}`
  return { prefix, secret: secretUnder(prefix) }
}

/**
 * Stores a new key for settings already validated and returns its secret, which exists nowhere else afterwards.
 * The 32-bit prefix id can collide across many keys; a collision just draws again (each try in its own savepoint,
 * so a caller's transaction survives it).
 */
export async function issueApiKey(db: Db, p: ApiKeySettings & { ownerId: string; createdBy: number | null }): Promise<{ key: ListedApiKey; secret: string }> {
  for (let attempt = 1; ; attempt++) {
    const { prefix, secret } = newSecret(p.environment)
    try {
      const id = await db.transaction((tx) => insertApiKey(tx, { ...p, prefix, secretHash: hashApiKeySecret(secret) }))
      return { key: (await findLiveApiKey(db, id))!, secret }
    } catch (err) {
      if (attempt >= 3 || !isUniqueViolation(err)) throw err
    }
  }
}

// Recently authenticated keys by the Authorization header that carried them, per database, so a partner's next
// requests skip parsing and hashing the secret (a tenth of a small request's CPU). A few seconds stale at most on
// other instances; this instance forgets a key the moment it is changed or deleted.
const CACHE_MS = 5_000
const CACHE_SWEEP_SIZE = 10_000
const caches = new WeakMap<Db, Map<string, { key: AuthenticatedKey; until: number }>>()

function cacheOf(db: Db): Map<string, { key: AuthenticatedKey; until: number }> {
  let cache = caches.get(db)
  if (!cache) caches.set(db, cache = new Map())
  return cache
}

export function forgetApiKey(db: Db, keyId: number): void {
  const cache = cacheOf(db)
  for (const [authorization, entry] of cache) if (entry.key.id === keyId) cache.delete(authorization)
}

/** The key behind a header this instance authenticated in the last few seconds, spelled canonically; else undefined. */
export function cachedApiKey(db: Db, authorization: string | undefined): AuthenticatedKey | undefined {
  const cached = authorization === undefined ? undefined : cacheOf(db).get(authorization)
  return cached !== undefined && cached.until > Date.now() ? cached.key : undefined
}

/** The key behind an `Authorization: Bearer <secret>` header; 401 naming what is wrong otherwise. */
export async function authenticateApiKey(db: Db, authorization: string | undefined): Promise<AuthenticatedKey> {
  const cached = cachedApiKey(db, authorization)
  if (cached !== undefined) return cached
  const cache = cacheOf(db)
  const now = Date.now()
  if (!authorization?.trim()) throw new UnauthorizedError('An API key is required: send it as "Authorization: Bearer <key>".')
  const [scheme, secret, ...rest] = authorization.trim().split(/\s+/)
  if (scheme!.toLowerCase() !== 'bearer') throw new UnauthorizedError('The Authorization header must use the Bearer scheme: "Authorization: Bearer <key>".')
  if (!secret || rest.length > 0 || !SECRET_PATTERN.test(secret)) throw new UnauthorizedError('The API key is malformed.')
  const hash = hashApiKeySecret(secret)
  const row = await findLiveApiKeyByHash(db, hash, new Date(now))
  if (!row) {
    cache.delete(`Bearer ${secret}`)
    if (await findKeyRotatedAwayFrom(db, hash)) throw new UnauthorizedError('This secret was replaced when the API key was rotated, and its grace period has ended: use the new secret.')
    throw new UnauthorizedError('The API key is unknown or has been deleted.')
  }
  const key: AuthenticatedKey = {
    id: row.id, ownerId: row.ownerId, prefix: row.prefix, environment: row.environment, audienceId: row.audienceId,
    allowedAdviceSetIds: row.allowedAdviceSetIds, allowedOrigins: row.allowedOrigins, rateLimit: row.rateLimit, adviceRequests: row.adviceRequests, explain: row.explain,
  }
  // Only the canonical spelling is kept, so one key has one entry however its header is spaced or cased.
  const canonical = `Bearer ${secret}`
  if (cache.size >= CACHE_SWEEP_SIZE) for (const [header, entry] of cache) if (entry.until <= now) cache.delete(header)
  // A replaced secret is remembered no longer than its grace lasts.
  const graceEnds = row.secretHash === hash ? Infinity : row.previousSecretUntil?.getTime() ?? now
  cache.set(canonical, { key, until: Math.min(now + CACHE_MS, graceEnds) })
  return key
}
