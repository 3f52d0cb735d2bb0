// Reading the audit log for dashboards (SPEC §9 timeframes and the 15-item page).
import { listActivity } from '../db/queries/activity.ts'
import type { Actor, Deps } from './context.ts'

export const ACTIVITY_TIMEFRAMES = [1, 5, 15, 30, 60, 90] as const
export const ACTIVITY_PAGE = 15
const DAY_MS = 24 * 60 * 60 * 1000

export function timeframeOf(raw: unknown): number {
  const days = Number(raw)
  return (ACTIVITY_TIMEFRAMES as readonly number[]).includes(days) ? days : 1
}

export async function recentActivity(deps: Deps, actor: Actor, opts: { days: number; limit: number }) {
  const rows = await listActivity(deps.db, { ownerId: actor.ownerId, since: new Date(Date.now() - opts.days * DAY_MS), limit: opts.limit + 1 })
  return {
    hasMore: rows.length > opts.limit,
    items: rows.slice(0, opts.limit).map((row) => ({
      ...row,
      label: labelOf(row.after) ?? labelOf(row.before) ?? `#${row.entityId}`,
      actorName: row.actorName ?? 'Advice Studio',
    })),
  }
}

function labelOf(snapshot: unknown): string | undefined {
  if (snapshot && typeof snapshot === 'object' && 'name' in snapshot && typeof snapshot.name === 'string') return snapshot.name
  return undefined
}
