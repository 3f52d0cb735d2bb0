// DESIGN "Owners, roles and visibility" for advice sets: read own, provider, public and starter sets;
// write only the own owner's (provider admins: any); viewers never write. Reading a set of another team gives its
// content (rules, nodes, dictionary entries, scenarios, the supplements linked to its nodes) to read and copy; its
// collaboration data (comments, activity, recent items, requests for advice, versions in the making, analytics, the
// supplements linked to the set itself) stays with the set's own team and provider admins: canCollaborateOnSet.
import type { SetVisibility } from '../../db/queries/advice-sets.ts'
import { PROVIDER_OWNER_ID, isProviderAdmin, type Actor } from '../context.ts'
import { ForbiddenError, NotFoundError } from '../errors.ts'

interface OwnedShared { ownerId: string; isPublic: boolean; isStarter: boolean }

export function setVisibility(actor: Actor): SetVisibility {
  return { ownerId: actor.ownerId, providerOwnerId: PROVIDER_OWNER_ID, all: isProviderAdmin(actor) }
}

export function canReadSet(actor: Actor, set: OwnedShared): boolean {
  return isProviderAdmin(actor) || set.ownerId === actor.ownerId || set.ownerId === PROVIDER_OWNER_ID || set.isPublic || set.isStarter
}

/** The set's own team (its owner's users) and provider admins: who sees and adds the set's collaboration data. */
export function canCollaborateOnSet(actor: Actor, set: { ownerId: string }): boolean {
  return isProviderAdmin(actor) || set.ownerId === actor.ownerId
}

/** Things an owner keeps for itself (dictionary entries, supplements): its own team's, the provider's, and everything for provider admins. */
export function canReadOwned(actor: Actor, ownerId: string): boolean {
  return isProviderAdmin(actor) || ownerId === actor.ownerId || ownerId === PROVIDER_OWNER_ID
}

export function canWriteOwned(actor: Actor, ownerId: string): boolean {
  if (isProviderAdmin(actor)) return true
  return ownerId === actor.ownerId && (actor.role === 'admin' || actor.role === 'author')
}

/** Admin work on an owner's things (versions' workflow, audiences): its admins, and provider admins. */
export function canAdministerOwned(actor: Actor, ownerId: string): boolean {
  return isProviderAdmin(actor) || (actor.ownerId === ownerId && actor.role === 'admin')
}

export function canCreate(actor: Actor): boolean {
  return actor.role === 'admin' || actor.role === 'author'
}

/** Not visible → 404 (its existence is not revealed); visible but not writable → 403. */
export function assertWritable(actor: Actor, set: OwnedShared, what = 'advice set'): void {
  if (!canReadSet(actor, set)) throw new NotFoundError(`No ${what} with this id`)
  assertCanChange(actor, set.ownerId, what)
}

/**
 * Why the actor may not change a thing of `ownerId`, and what to do about it: one voice for every such refusal. In
 * the actor's own team only viewers are refused; elsewhere, only that team's authors change its things.
 */
export function changeRefusal(actor: Actor, ownerId: string, what: string): string {
  if (ownerId === actor.ownerId) return `Viewers cannot change this ${what}: ask an admin of your team to make you an author.`
  return `This ${what} belongs to another team, so only its authors can change it.`
}

export function assertCanChange(actor: Actor, ownerId: string, what: string): void {
  if (!canWriteOwned(actor, ownerId)) throw new ForbiddenError(changeRefusal(actor, ownerId, what))
}
