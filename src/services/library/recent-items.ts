// What a user opened lately (SPEC §7 recentitem): advice sets for now; rules join when they exist. Recent items are
// collaboration data (DESIGN "Owners, roles and visibility"): only sets of the user's own team (all sets for provider
// admins) are kept and listed; opening another team's public or starter set to read or copy it leaves no trace.
import { findAdviceSet } from '../../db/queries/advice-sets.ts'
import { deleteRecentItem, listRecentItems, upsertRecentItem } from '../../db/queries/recent-items.ts'
import { canCollaborateOnSet } from '../accounts/visibility.ts'
import type { Actor, Deps } from '../context.ts'
import { NotFoundError } from '../errors.ts'
import { ENTITY_ADVICE_SET, getAdviceSetsByIds } from './advice-sets.ts'

export const RECENT_LIMIT = 10

/** POST /api/recentitem: a set the actor collaborates on; any other is a 404, as a set it cannot read. */
export async function recordRecentSet(deps: Deps, actor: Actor, setId: number): Promise<void> {
  const set = await findAdviceSet(deps.db, setId)
  if (!set || !canCollaborateOnSet(actor, set)) throw new NotFoundError('No advice set with this id')
  await upsertRecentItem(deps.db, { userId: actor.userId, entityType: ENTITY_ADVICE_SET, entityId: set.id })
}

/** The set's page was opened: remembered for the set's own team only. */
export async function noteSetOpened(deps: Deps, actor: Actor, set: { id: number; ownerId: string }): Promise<void> {
  if (canCollaborateOnSet(actor, set)) await upsertRecentItem(deps.db, { userId: actor.userId, entityType: ENTITY_ADVICE_SET, entityId: set.id })
}

/** Recent items that still exist and are still the actor's team's, newest first. */
export async function listRecent(deps: Deps, actor: Actor) {
  const items = await listRecentItems(deps.db, actor.userId, RECENT_LIMIT * 2)
  const sets = await getAdviceSetsByIds(deps, actor, items.filter((i) => i.entityType === ENTITY_ADVICE_SET).map((i) => i.entityId))
  const team = new Map(sets.filter((s) => canCollaborateOnSet(actor, s)).map((s) => [s.id, s]))
  return items
    .map((i) => ({ item: i, set: team.get(i.entityId) }))
    .filter((x) => x.item.entityType === ENTITY_ADVICE_SET && x.set)
    .slice(0, RECENT_LIMIT)
    .map(({ item, set }) => ({ id: item.id, entityType: item.entityType, entityId: item.entityId, viewedAt: item.viewedAt, name: set!.name, uri: `/adviceset/${set!.id}/show` }))
}

export async function forgetRecent(deps: Deps, actor: Actor, id: number): Promise<void> {
  if (!(await deleteRecentItem(deps.db, actor.userId, id))) throw new NotFoundError('No recent item with this id')
}
