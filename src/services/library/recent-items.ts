// What a user opened lately (SPEC §7 recentitem): advice sets for now; rules join when they exist.
import { deleteRecentItem, listRecentItems, upsertRecentItem } from '../../db/queries/recent-items.ts'
import type { Actor, Deps } from '../context.ts'
import { NotFoundError } from '../errors.ts'
import { ENTITY_ADVICE_SET, getAdviceSetsByIds } from './advice-sets.ts'

export const RECENT_LIMIT = 10

export async function recordRecentItem(deps: Deps, actor: Actor, entityType: string, entityId: number): Promise<void> {
  await upsertRecentItem(deps.db, { userId: actor.userId, entityType, entityId })
}

/** Recent items that still exist and are still visible, newest first. */
export async function listRecent(deps: Deps, actor: Actor) {
  const items = await listRecentItems(deps.db, actor.userId, RECENT_LIMIT * 2)
  const sets = new Map((await getAdviceSetsByIds(deps, actor, items.filter((i) => i.entityType === ENTITY_ADVICE_SET).map((i) => i.entityId))).map((s) => [s.id, s]))
  return items
    .map((i) => ({ item: i, set: sets.get(i.entityId) }))
    .filter((x) => x.item.entityType === ENTITY_ADVICE_SET && x.set)
    .slice(0, RECENT_LIMIT)
    .map(({ item, set }) => ({ id: item.id, entityType: item.entityType, entityId: item.entityId, viewedAt: item.viewedAt, name: set!.name, uri: `/adviceset/${set!.id}/show` }))
}

export async function forgetRecent(deps: Deps, actor: Actor, id: number): Promise<void> {
  if (!(await deleteRecentItem(deps.db, actor.userId, id))) throw new NotFoundError('No recent item with this id')
}
