// Personal access tokens (issue 28): a person's own scoped credential for the command-line tool. Made on the profile
// page (the secret shown once, only its SHA-256 kept, as for API keys), listed without it, revoked. A request sending
// one as `Authorization: Bearer ast_…` to a route that declares the scope it needs acts as the token's user, exactly
// as that user's session would; every such use is in the activity log with the token's name and the request.
import { createHash, randomBytes } from 'node:crypto'
import {
  countLiveAccessTokens, findAccessTokenByHash, findAccessTokenOf, insertAccessToken, listAccessTokensOf, revokeAccessToken, touchAccessToken,
  type ListedAccessToken,
} from '../../db/queries/access-tokens.ts'
import { findUserById, type UserRow } from '../../db/queries/users.ts'
import { ACCESS_TOKEN_SCOPES, type AccessTokenScope } from '../../db/schema/index.ts'
import { audit } from '../audit/audit.ts'
import type { Actor, Deps } from '../context.ts'
import { ConflictError, ForbiddenError, isUniqueViolation, NotFoundError, UnauthorizedError, ValidationError } from '../errors.ts'
import { checkFields, requireText } from '../validate.ts'
import { actorForUser, canSignIn } from './users.ts'

export { ACCESS_TOKEN_SCOPES, type AccessTokenScope }

export const ENTITY_ACCESS_TOKEN = 'accesstoken'
/** Live tokens a person may hold at once: enough for every machine and tool, few enough to review. */
export const MAX_LIVE_TOKENS = 50
export const MAX_EXPIRY_DAYS = 3650
const NAME_MAX = 100
const DAY_MS = 24 * 60 * 60 * 1000

/** ast_1a2b3c4d_<32 chars of base64url = 192 random bits>; the random part may itself contain '_' or '-'. */
const SECRET_PATTERN = /^ast_[0-9a-f]{8}_[A-Za-z0-9_-]{32}$/
export const TOKEN_MARK = 'ast_'

export type AccessTokenStatus = 'active' | 'expired' | 'revoked'
export type AccessToken = ListedAccessToken & { status: AccessTokenStatus }

export function hashAccessTokenSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex')
}

function statusOf(token: ListedAccessToken, now: Date): AccessTokenStatus {
  if (token.revokedAt !== null) return 'revoked'
  if (token.expiresAt !== null && token.expiresAt <= now) return 'expired'
  return 'active'
}

function withStatus(token: ListedAccessToken, now = new Date()): AccessToken {
  return { ...token, status: statusOf(token, now) }
}

/** `export`, `import`, or both: from a JSON array or a form's checkboxes (one value or several). */
function requireScopes(raw: unknown): AccessTokenScope[] {
  const sent = raw === undefined || raw === null || raw === '' ? [] : Array.isArray(raw) ? raw : [raw]
  const unknown = sent.filter((s) => !(ACCESS_TOKEN_SCOPES as readonly unknown[]).includes(s))
  if (unknown.length > 0) throw new ValidationError('scopes', `Scopes must be among ${ACCESS_TOKEN_SCOPES.join(' and ')}; “${String(unknown[0]).slice(0, 40)}” is not one.`)
  const scopes = ACCESS_TOKEN_SCOPES.filter((s) => sent.includes(s))
  if (scopes.length === 0) throw new ValidationError('scopes', 'Choose at least one scope: export, import or both.')
  return scopes
}

/** Days until the token stops working (a whole number), or blank for a token that does not expire. */
function optionalExpiryDays(raw: unknown): number | null {
  if (raw === undefined || raw === null || raw === '') return null
  const days = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*\d{1,6}\s*$/.test(raw) ? Number(raw) : NaN
  if (!Number.isInteger(days) || days < 1 || days > MAX_EXPIRY_DAYS) {
    throw new ValidationError('expiresInDays', `Expires in must be a whole number of days from 1 to ${MAX_EXPIRY_DAYS}, or blank for a token that does not expire.`)
  }
  return days
}

/**
 * A new token of the actor's own. The secret is returned here and exists nowhere else afterwards. Not under
 * impersonation: a token would outlive the impersonation as a credential of the person impersonated.
 */
export async function createAccessToken(deps: Deps, actor: Actor, input: { name?: unknown; scopes?: unknown; expiresInDays?: unknown }): Promise<{ token: AccessToken; secret: string }> {
  if (actor.impersonatorId !== null) throw new ForbiddenError('Personal access tokens are made by their own person: stop impersonating to make one for yourself.')
  const { name, scopes, days } = await checkFields({
    name: () => requireText('name', input.name, 'Name', NAME_MAX),
    scopes: () => requireScopes(input.scopes),
    days: () => optionalExpiryDays(input.expiresInDays),
  })
  const now = new Date()
  if (await countLiveAccessTokens(deps.db, actor.userId, now) >= MAX_LIVE_TOKENS) {
    throw new ConflictError('name', `You have ${MAX_LIVE_TOKENS} tokens that still work, the most one person may hold: revoke one you no longer use first.`)
  }
  const expiresAt = days === null ? null : new Date(now.getTime() + days * DAY_MS)
  for (let attempt = 1; ; attempt++) {
    // The 32-bit prefix id can collide across many tokens; a collision just draws again (each try its own transaction).
    const prefix = `${TOKEN_MARK}${randomBytes(4).toString('hex')}`
    const secret = `${prefix}_${randomBytes(24).toString('base64url')}`
    try {
      const token = await deps.db.transaction(async (tx) => {
        const row = await insertAccessToken(tx, { userId: actor.userId, name, scopes, prefix, secretHash: hashAccessTokenSecret(secret), expiresAt })
        await audit(tx, actor, { ownerId: actor.ownerId, action: 'create', entityType: ENTITY_ACCESS_TOKEN, entityId: row.id, after: { name, prefix, scopes, expiresAt: expiresAt?.toISOString() ?? null } })
        return row
      })
      return { token: withStatus(token, now), secret }
    } catch (err) {
      if (attempt >= 3 || !isUniqueViolation(err)) throw err
    }
  }
}

/** The actor's own tokens, newest first, never with their secret. */
export async function listAccessTokens(deps: Deps, actor: Actor): Promise<AccessToken[]> {
  const now = new Date()
  return (await listAccessTokensOf(deps.db, actor.userId)).map((t) => withStatus(t, now))
}

/** Revokes one of the actor's own tokens (another person's token does not exist to them: 404). Revoking twice changes nothing. */
export async function revokeAccessTokenOf(deps: Deps, actor: Actor, id: number): Promise<AccessToken> {
  const token = await findAccessTokenOf(deps.db, actor.userId, id)
  if (!token) throw new NotFoundError('No personal access token of yours has this id.')
  if (token.revokedAt !== null) return withStatus(token)
  const revoked = await deps.db.transaction(async (tx) => {
    const row = await revokeAccessToken(tx, id, new Date())
    if (row) await audit(tx, actor, { ownerId: actor.ownerId, action: 'delete', entityType: ENTITY_ACCESS_TOKEN, entityId: id, before: { name: token.name, prefix: token.prefix, scopes: token.scopes } })
    return row
  })
  return withStatus(revoked ?? (await findAccessTokenOf(deps.db, actor.userId, id))!)
}

/** Whether an Authorization header carries a personal access token (rather than, say, an API key). */
export function carriesAccessToken(authorization: string | undefined): boolean {
  return authorization !== undefined && /^\s*bearer\s+ast_/i.test(authorization)
}

/** What the activity log says about one use: the request, as method and path (the query is left out). */
export interface TokenUse { method: string; path: string }

const PATH_MAX = 200

/**
 * The user behind `Authorization: Bearer <token>` on a route needing `scope`: 401 naming what is wrong with the token,
 * 403 naming the scope it lacks. A use that gets through is logged (the token's name, the request) and stamps the
 * token's last use, in one transaction, before the route runs.
 */
export async function authenticateAccessToken(deps: Deps, authorization: string | undefined, scope: AccessTokenScope, use: TokenUse): Promise<{ user: UserRow; token: AccessToken }> {
  if (!authorization?.trim()) throw new UnauthorizedError('A personal access token is required: send it as "Authorization: Bearer <token>".')
  const [scheme, secret, ...rest] = authorization.trim().split(/\s+/)
  if (scheme!.toLowerCase() !== 'bearer') throw new UnauthorizedError('The Authorization header must use the Bearer scheme: "Authorization: Bearer <token>".')
  if (!secret || rest.length > 0 || !SECRET_PATTERN.test(secret)) {
    throw new UnauthorizedError('This is not a personal access token (they start with "ast_"). Make one on your profile page, under Personal access tokens.')
  }
  const now = new Date()
  const found = await findAccessTokenByHash(deps.db, hashAccessTokenSecret(secret))
  if (!found) throw new UnauthorizedError('The personal access token is unknown: check that it was copied whole, or make a new one on your profile page.')
  const token = withStatus(found, now)
  if (token.status === 'revoked') throw new UnauthorizedError(`The personal access token “${token.name}” (${token.prefix}) was revoked: make a new one on your profile page.`)
  if (token.status === 'expired') throw new UnauthorizedError(`The personal access token “${token.name}” (${token.prefix}) expired on ${token.expiresAt!.toISOString().slice(0, 10)}: make a new one on your profile page.`)
  const user = await findUserById(deps.db, token.userId)
  if (!user || !canSignIn(user)) throw new UnauthorizedError(`The personal access token “${token.name}” (${token.prefix}) belongs to an account that is no longer active.`)
  if (!token.scopes.includes(scope)) {
    throw new ForbiddenError(`The personal access token “${token.name}” lacks the scope “${scope}” this request needs (it has: ${token.scopes.join(', ')}). Make a token with the “${scope}” scope on your profile page.`)
  }
  const request = `${use.method} ${use.path.split('?')[0]!.slice(0, PATH_MAX)}`
  await deps.db.transaction(async (tx) => {
    await touchAccessToken(tx, token.id, now)
    await audit(tx, actorForUser(user), {
      ownerId: user.ownerId, action: 'update', entityType: ENTITY_ACCESS_TOKEN, entityId: token.id,
      before: { name: token.name, prefix: token.prefix }, after: { name: token.name, prefix: token.prefix, used: request, scope },
    })
  })
  return { user, token: { ...token, lastUsedAt: now } }
}
