// Support (SPEC §2 /admin/support, §6; provider admins only): find any user or advice set, and impersonate a user
// to see what they see. Impersonation is audited when it starts and stops; while it lasts every write records both
// people (the Actor carries impersonatorId, audit.ts writes it). Provider admins cannot be impersonated.
import { findAdviceSetsForSupport, findUsersForSupport } from '../../db/queries/support.ts'
import { findUserById } from '../../db/queries/users.ts'
import { audit } from '../audit/audit.ts'
import { isProviderAdmin, PROVIDER_OWNER_ID, type Actor, type Deps } from '../context.ts'
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../errors.ts'

export const SUPPORT_RESULT_LIMIT = 25

function assertSupport(actor: Actor): void {
  if (actor.impersonatorId !== null) throw new ForbiddenError('You are impersonating someone. Stop impersonating to open support.')
  if (!isProviderAdmin(actor)) throw new ForbiddenError('Support is for the admins of Advice Studio’s provider team only.')
}

export interface SupportFinding {
  users: Array<{ id: number; name: string; email: string; role: string; ownerId: string; ownerName: string; canImpersonate: boolean }>
  adviceSets: Array<{ id: number; name: string; ownerId: string; ownerName: string; deleted: boolean }>
}

/** Users (name, e-mail, team or id) and advice sets (name or id, deleted ones too) of every owner. */
export async function findForSupport(deps: Deps, actor: Actor, rawQuery: string): Promise<SupportFinding> {
  assertSupport(actor)
  const text = rawQuery.trim()
  if (text.length > 200) throw new ValidationError('q', 'Search text must be at most 200 characters.')
  if (!text) return { users: [], adviceSets: [] }
  const [users, adviceSets] = await Promise.all([
    findUsersForSupport(deps.db, text, SUPPORT_RESULT_LIMIT),
    findAdviceSetsForSupport(deps.db, text, SUPPORT_RESULT_LIMIT),
  ])
  return {
    users: users.map((u) => ({ ...u, canImpersonate: u.id !== actor.userId && !isProviderAdminUser(u) })),
    adviceSets,
  }
}

function isProviderAdminUser(user: { ownerId: string; role: string }): boolean {
  return user.ownerId === PROVIDER_OWNER_ID && user.role === 'admin'
}

/** Whom an impersonation would show, for the confirmation page; refuses the same cases as startImpersonation. */
export async function impersonationTarget(deps: Deps, actor: Actor, userId: number) {
  assertSupport(actor)
  const user = await findUserById(deps.db, userId)
  if (!user) throw new NotFoundError('No user with this id')
  if (user.id === actor.userId) throw new ValidationError('userId', 'You cannot impersonate yourself.')
  if (isProviderAdminUser(user)) throw new ForbiddenError('Provider admins cannot be impersonated.')
  if (user.status !== 'active') {
    throw new ConflictError('userId', user.status === 'deactivated'
      ? `${user.name} is deactivated and cannot sign in: reactivate them on their team page first to see what they see.`
      : `${user.name} has not joined yet (the invitation is ${user.status === 'invited' ? 'pending' : 'cancelled'}): there is nothing to see as them.`)
  }
  const { passwordHash: _hash, ...shown } = user
  return shown
}

/** Starts impersonating `userId`: audited under the admin; the caller puts both ids in the session. */
export async function startImpersonation(deps: Deps, actor: Actor, userId: number) {
  const user = await impersonationTarget(deps, actor, userId)
  await deps.db.transaction(async (tx) => {
    await audit(tx, actor, { ownerId: user.ownerId, action: 'create', entityType: 'impersonation', entityId: user.id, after: { userId: user.id, email: user.email, by: actor.userId } })
  })
  return user
}

/** Ends an impersonation: audited with both people; returns the admin's id, whom the session goes back to. */
export async function stopImpersonation(deps: Deps, actor: Actor): Promise<number> {
  if (actor.impersonatorId === null) throw new ValidationError('impersonation', 'You are not impersonating anyone.')
  await deps.db.transaction(async (tx) => {
    await audit(tx, actor, { ownerId: actor.ownerId, action: 'delete', entityType: 'impersonation', entityId: actor.userId, before: { userId: actor.userId, by: actor.impersonatorId } })
  })
  return actor.impersonatorId
}
