// The activity log: reading it (SPEC §9 timeframes, 15 items then "more"), what changed, and restoring.
import { findActivity, listActivity } from '../db/queries/activity.ts'
import { isProviderAdmin, type Actor, type Deps } from './context.ts'
import { NotFoundError, ValidationError } from './errors.ts'
import { ENTITY_ADVICE_SET, restoreAdviceSetSnapshot, type AdviceSetSnapshot } from './advice-sets.ts'
import { ENTITY_CATEGORY, restoreCategorySnapshot } from './categories.ts'
import type { AuditAction } from '../db/schema/index.ts'

export const ACTIVITY_TIMEFRAMES = [1, 5, 15, 30, 60, 90] as const
export const ACTIVITY_PAGE = 15
const DAY_MS = 24 * 60 * 60 * 1000

/** Entity types whose changes can be undone from the log, and how. */
const RESTORERS: Record<string, (deps: Deps, actor: Actor, id: number, before: unknown) => Promise<void>> = {
  [ENTITY_ADVICE_SET]: (deps, actor, id, before) => restoreAdviceSetSnapshot(deps, actor, id, before as AdviceSetSnapshot | null),
  [ENTITY_CATEGORY]: (deps, actor, id, before) => restoreCategorySnapshot(deps, actor, id, before as Parameters<typeof restoreCategorySnapshot>[3]),
}

/** Fields never shown as changes: ids and bookkeeping. */
const HIDDEN_FIELDS = new Set(['id', 'copiedFrom'])

export function timeframeOf(raw: unknown): number {
  const days = Number(raw)
  return (ACTIVITY_TIMEFRAMES as readonly number[]).includes(days) ? days : 1
}

export interface ActivityFilter {
  days: number
  limit: number
  entityType?: string
  entityId?: string
  action?: AuditAction
  /** Whose log to read: only provider admins may read another owner's; everyone else reads their own. */
  ownerId?: string
}

export async function recentActivity(deps: Deps, actor: Actor, opts: ActivityFilter) {
  const ownerId = opts.ownerId !== undefined && isProviderAdmin(actor) ? opts.ownerId : actor.ownerId
  const rows = await listActivity(deps.db, {
    ownerId, since: new Date(Date.now() - opts.days * DAY_MS), limit: opts.limit + 1,
    entityType: opts.entityType, entityId: opts.entityId, action: opts.action,
  })
  return {
    hasMore: rows.length > opts.limit,
    items: rows.slice(0, opts.limit).map((row) => ({
      ...row,
      label: labelOf(row.after) ?? labelOf(row.before) ?? `#${row.entityId}`,
      actorName: row.actorName ?? 'Advice Studio',
      changes: diff(row.before, row.after),
      canRestore: row.entityType in RESTORERS,
    })),
  }
}

function labelOf(snapshot: unknown): string | undefined {
  if (snapshot && typeof snapshot === 'object' && 'name' in snapshot && typeof snapshot.name === 'string') return snapshot.name
  return undefined
}

export interface FieldChange { field: string; before: unknown; after: unknown }

/** Field by field, what differs between two snapshots (a create lists every field it set). */
export function diff(before: unknown, after: unknown): FieldChange[] {
  const b = (before && typeof before === 'object' ? before : {}) as Record<string, unknown>
  const a = (after && typeof after === 'object' ? after : {}) as Record<string, unknown>
  const fields = [...new Set([...Object.keys(b), ...Object.keys(a)])].filter((f) => !HIDDEN_FIELDS.has(f))
  return fields
    .filter((f) => JSON.stringify(b[f]) !== JSON.stringify(a[f]))
    .map((f) => ({ field: f, before: b[f], after: a[f] }))
}

/** Puts the entity of one activity row back as it was before that change; itself recorded as a `restore`. */
export async function restoreFromActivity(deps: Deps, actor: Actor, activityId: number): Promise<{ entityType: string; entityId: string }> {
  const row = await findActivity(deps.db, activityId)
  if (!row || (row.ownerId !== actor.ownerId && !isProviderAdmin(actor))) throw new NotFoundError('No activity with this id')
  const restorer = RESTORERS[row.entityType]
  if (!restorer) throw new ValidationError('id', `Changes to ${row.entityType} cannot be restored from the activity log.`)
  await restorer(deps, actor, Number(row.entityId), row.action === 'create' ? null : row.before)
  return { entityType: row.entityType, entityId: row.entityId }
}

/**
 * Deleted entities under a node (SPEC §7 activity {nodeId}/deleted), from the last 90 days: delete rows whose
 * snapshot names the node as its `parentId` (a rule's advice set, a rule node's parent).
 */
export async function deletedUnder(deps: Deps, actor: Actor, parentId: number) {
  const rows = await listActivity(deps.db, { ownerId: actor.ownerId, since: new Date(Date.now() - 90 * DAY_MS), limit: 500, action: 'delete' })
  return rows
    .filter((r) => (r.before as { parentId?: unknown } | null)?.parentId === parentId)
    .map((r) => ({ activityId: r.id, entityType: r.entityType, entityId: r.entityId, name: labelOf(r.before) ?? `#${r.entityId}`, deletedAt: r.createdAt }))
}
