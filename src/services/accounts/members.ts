// Managing a team's members (issue 25): change a member's role, deactivate and reactivate a member. An owner's admins
// manage their own team, provider admins every team; to anyone else another owner's member does not exist (404).
// The last active admin of an owner can never be demoted or deactivated. Deactivating ends the member's sessions at
// once (and any impersonation they run) and revokes their mailed links and personal access tokens; their content stays. Every action is in the
// activity log on the member (entity `user`), with their name.
import type { Db } from '../../db/client.ts'
import { revokeAccessTokensOfUser } from '../../db/queries/access-tokens.ts'
import { deleteSessionsImpersonatedBy, deleteUserSessions } from '../../db/queries/sessions.ts'
import { findOwner, findPublicUser, findUserById, lockActiveAdmins, lockUser, revokePasswordTokens, updateUser, type PublicUser, type UserRow } from '../../db/queries/users.ts'
import type { UserStatus } from '../../db/schema/index.ts'
import { audit } from '../audit/audit.ts'
import type { Actor, Deps } from '../context.ts'
import { ConflictError, ForbiddenError, NotFoundError } from '../errors.ts'
import { requireOneOf } from '../validate.ts'
import { canAdministerOwned } from './visibility.ts'
import { rolePhrase, ROLES } from './users.ts'

export const ENTITY_USER = 'user'

/** A member the actor may manage: admins only (403), and only of a team they administer (404 otherwise). */
export async function manageableMember(db: Db, actor: Actor, userId: number): Promise<UserRow> {
  if (actor.role !== 'admin') throw new ForbiddenError('Only an admin of the team manages its members: ask one of your team’s admins.')
  const user = await findUserById(db, userId)
  if (!user || !canAdministerOwned(actor, user.ownerId)) throw new NotFoundError('User not found')
  return user
}

/**
 * Runs `change` on the member's locked row in one transaction, with the owner's active admins locked too, and audits
 * `before` → `after` (both carry the member's name, so the log names them).
 */
async function changeMember(deps: Deps, actor: Actor, userId: number,
  change: (tx: Db, user: UserRow, otherActiveAdmins: number) => Promise<{ before: Record<string, unknown>; after: Record<string, unknown> } | null>): Promise<PublicUser> {
  const known = await manageableMember(deps.db, actor, userId)
  await deps.db.transaction(async (tx) => {
    const admins = await lockActiveAdmins(tx, known.ownerId)
    const user = (await lockUser(tx, userId))!
    const logged = await change(tx, user, admins.filter((id) => id !== user.id).length)
    if (!logged) return
    await audit(tx, actor, { ownerId: user.ownerId, action: 'update', entityType: ENTITY_USER, entityId: user.id,
      before: { name: user.name, ...logged.before }, after: { name: user.name, ...logged.after } })
  })
  return (await findPublicUser(deps.db, userId))!
}

/** `tx` is the change's transaction: on a single connection (PGlite) a query beside it would wait for it forever. */
async function refuseLastAdmin(tx: Db, user: UserRow, otherActiveAdmins: number, what: string): Promise<void> {
  if (user.role !== 'admin' || user.status !== 'active' || otherActiveAdmins > 0) return
  const team = (await findOwner(tx, user.ownerId))?.name ?? user.ownerId
  throw new ConflictError('role', `${user.name} is the last admin of ${team}, so they cannot be ${what}. Make another member an admin first.`)
}

function refuseCancelled(user: UserRow): void {
  if (user.status === 'cancelled') throw new ConflictError('id', `The invitation to ${user.name} was cancelled. Invite them again to add them to the team.`)
}

export async function changeMemberRole(deps: Deps, actor: Actor, userId: number, rawRole: unknown): Promise<PublicUser> {
  const role = requireOneOf('role', rawRole, ROLES, 'Role')
  return changeMember(deps, actor, userId, async (tx, user, otherAdmins) => {
    refuseCancelled(user)
    if (user.role === role) return null
    if (role !== 'admin') await refuseLastAdmin(tx, user, otherAdmins, `made ${rolePhrase(role)}`)
    await updateUser(tx, user.id, { role })
    return { before: { role: user.role }, after: { role } }
  })
}

export async function deactivateMember(deps: Deps, actor: Actor, userId: number): Promise<PublicUser> {
  return changeMember(deps, actor, userId, async (tx, user, otherAdmins) => {
    refuseCancelled(user)
    if (user.status === 'invited') throw new ConflictError('id', `${user.name} has not accepted the invitation yet: cancel the invitation instead.`)
    if (user.status === 'deactivated') return null
    if (user.id === actor.userId) throw new ConflictError('id', 'You cannot deactivate yourself: ask another admin of your team.')
    await refuseLastAdmin(tx, user, otherAdmins, 'deactivated')
    await updateUser(tx, user.id, { status: 'deactivated' })
    await deleteUserSessions(tx, user.id)
    await deleteSessionsImpersonatedBy(tx, user.id)
    await revokePasswordTokens(tx, { userId: user.id, now: new Date() })
    // Their personal access tokens end for good: reactivation lets the person in again, not the tools they had.
    await revokeAccessTokensOfUser(tx, user.id, new Date())
    return statusChange(user.status, 'deactivated')
  })
}

export async function reactivateMember(deps: Deps, actor: Actor, userId: number): Promise<PublicUser> {
  return changeMember(deps, actor, userId, async (tx, user) => {
    refuseCancelled(user)
    if (user.status !== 'deactivated') return null
    await updateUser(tx, user.id, { status: 'active' })
    return statusChange(user.status, 'active')
  })
}

export function statusChange(from: UserStatus, to: UserStatus) {
  return { before: { status: from }, after: { status: to } }
}
