// The expected status of one matrix cell: who asks (principal) × whose object (own, other, public, none) × the
// route's access profile, from DESIGN "Owners, roles and visibility": another owner's object is a 404, a write the
// role may not make a 403, signed-out pages send to sign-in and signed-out /api answers 401, and a partner key is
// nobody on a session route.
import type { ObjectKind, Principal } from './authorization-world.ts'

/**
 * 'ok': let through: 2xx, a redirect that is not to sign-in, or a conflict with the object's state (409), never
 * 400 (every allowed cell's body is valid for who asks) nor 401/403/404 · 'signin': the signed-out answer (302 to /login, or 401 under /api).
 */
export type Expect = number | number[] | 'ok' | 'signin'

/**
 * public: visitor pages, for anyone · signedIn: anyone signed in, no object · read/write: the object's team reads
 * (and anyone reads what is public or the provider's), its authors and admins write · admin: the owner's admins (role
 * first: 403 to non-admins, then 404 for another owner's object) · adminRead: admins change, the team reads ·
 * provider: provider admins only · partner: an API key reading published advice (own, public, provider's) ·
 * copy: whoever reads the object and may create makes a copy of their own · keyOrUser: a key or anyone signed in ·
 * self: anyone signed in, about themselves.
 */
export type Access = 'public' | 'signedIn' | 'read' | 'write' | 'copy' | 'admin' | 'provider' | 'partner' | 'keyOrUser' | 'self'

const OWNER_OF: Record<Principal, 'A' | 'B' | 'TF' | null> = {
  anonymous: null, viewer: 'A', author: 'A', ownerAdmin: 'A', providerAdmin: 'TF', otherAdmin: 'B', ownerKey: 'A', otherKey: 'B',
}
const ROLE_OF: Record<Principal, 'viewer' | 'author' | 'admin' | null> = {
  anonymous: null, viewer: 'viewer', author: 'author', ownerAdmin: 'admin', providerAdmin: 'admin', otherAdmin: 'admin', ownerKey: null, otherKey: null,
}
export const isKey = (p: Principal) => p === 'ownerKey' || p === 'otherKey'

/** Whose the object of a kind is, and whether every team reads it (a public set; the provider's shared things). */
export interface ObjectFacts { owner: 'A' | 'B' | 'TF' | null; readableByAll: boolean }

export type PublicIs = 'publicSet' | 'teamOnly' | 'providerShared' | 'providerPrivate'

/** What the starter column's object is: content of B's starter set that every team reads, or B's own (collaboration data, B's library). */
export type StarterIs = 'content' | 'team'

/** publicSet: B's public set (or its child) that every team reads · teamOnly: a child of it that only B's team reads. */
export function factsOf(kind: ObjectKind, publicIs: PublicIs, starterIs: StarterIs): ObjectFacts {
  if (kind === 'own') return { owner: 'A', readableByAll: false }
  if (kind === 'other') return { owner: 'B', readableByAll: false }
  if (kind === 'starter') return { owner: 'B', readableByAll: starterIs === 'content' }
  if (kind === 'none') return { owner: null, readableByAll: false }
  if (publicIs === 'publicSet' || publicIs === 'teamOnly') return { owner: 'B', readableByAll: publicIs === 'publicSet' }
  return { owner: 'TF', readableByAll: publicIs === 'providerShared' }
}

export function expected(access: Access, who: Principal, obj: ObjectFacts, request: { method: string; api: boolean; tokenScope?: boolean }): Expect {
  const owner = OWNER_OF[who]
  const role = ROLE_OF[who]
  const write = request.method !== 'GET'
  if (access === 'partner') {
    if (!isKey(who)) return 401
    return obj.owner === null || obj.owner === owner || obj.owner === 'TF' || obj.readableByAll ? 'ok' : 404
  }
  if (access === 'keyOrUser') return who === 'anonymous' ? 401 : 'ok'
  // On a route taking a personal access token (config.tokenScope) the Authorization header is the token's alone: an API
  // key there is a 401 ("not a personal access token"), whatever the method.
  if (isKey(who) && request.tokenScope) return 401
  // A key is nobody on a session route, and carries no CSRF token: its writes stop at the CSRF check.
  if (isKey(who) && write) return 403
  if (access === 'public') return 'ok'
  // A signed-out form post answers 401 (there is no page to come back to); a signed-out page read goes to sign-in.
  if (role === null) return write && !request.api ? 401 : 'signin'
  if (access === 'signedIn' || access === 'self') return 'ok'
  const provider = owner === 'TF' && role === 'admin'
  const readable = obj.owner === null || provider || obj.owner === owner || obj.readableByAll
  // Refused for the role whatever the object; where the object is not theirs to see either, 404 reveals nothing more.
  if (access === 'provider') return provider ? 'ok' : readable ? 403 : [403, 404]
  if (access === 'admin' && role !== 'admin') return readable ? 403 : [403, 404]
  // A role that may never write is refused before the object is looked up: 403 then reveals nothing either.
  if (!readable) return role === 'viewer' && (access === 'write' || access === 'copy') ? [404, 403] : 404
  if (access === 'read') return 'ok'
  if (access === 'copy') return role === 'viewer' ? 403 : 'ok'
  if (provider) return 'ok'
  if (obj.owner !== null && obj.owner !== owner) return 403
  return role === 'viewer' ? 403 : 'ok'
}
