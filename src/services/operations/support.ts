// Support (SPEC §2 /admin/support, §6; provider admins only): find any user or advice set, and impersonate a user
// to see what they see. Impersonation is logged when it starts and stops, in both teams' logs; while it lasts every
// write records both people (the Actor carries impersonatorId, audit.ts writes it). Provider admins cannot be impersonated.
import { findAdviceSetsForSupport, findUsersForSupport } from '../../db/queries/support.ts'
import { findUserById } from '../../db/queries/users.ts'
import type { Db } from '../../db/client.ts'
import { audit } from '../audit/audit.ts'
import { ENTITY_IMPERSONATION } from '../audit/byline.ts'
import { actorForUser } from '../accounts/users.ts'
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

/**
 * An impersonation's start (create) or end (delete), logged by the admin themselves (not "as" anyone) in the
 * provider's log and in the impersonated person's team's log, so that both teams' admins see it. The snapshot names
 * the person impersonated (services/audit/activity-sentences.ts makes the sentence).
 */
async function logImpersonation(tx: Db, admin: Actor, target: { id: number; name: string; ownerId: string }, action: 'create' | 'delete'): Promise<void> {
  const snapshot = { name: target.name, userId: target.id, ownerId: target.ownerId }
  for (const ownerId of new Set([admin.ownerId, target.ownerId])) {
    await audit(tx, admin, { ownerId, action, entityType: ENTITY_IMPERSONATION, entityId: target.id,
      ...(action === 'create' ? { after: snapshot } : { before: snapshot }) })
  }
}

/** Starts impersonating `userId`: logged (logImpersonation); the caller puts both ids in the session. */
export async function startImpersonation(deps: Deps, actor: Actor, userId: number) {
  const user = await impersonationTarget(deps, actor, userId)
  await deps.db.transaction((tx) => logImpersonation(tx, actor, user, 'create'))
  return user
}

/** Ends an impersonation: logged (logImpersonation) by the admin; returns the admin's id, whom the session goes back to. */
export async function stopImpersonation(deps: Deps, actor: Actor): Promise<number> {
  if (actor.impersonatorId === null) throw new ValidationError('impersonation', 'You are not impersonating anyone.')
  const [admin, target] = [await findUserById(deps.db, actor.impersonatorId), await findUserById(deps.db, actor.userId)]
  if (admin && target) {
    await deps.db.transaction((tx) => logImpersonation(tx, actorForUser(admin), target, 'delete'))
  }
  return actor.impersonatorId
}
