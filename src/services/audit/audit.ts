// The one audit mechanism: every change writes one activity row inside the transaction of the change (or, for a change
// of one statement, as part of that statement: auditedChange). Changes to searchable entities also leave a search
// index task with it, applied after commit (src/search/sync.ts).
// Changes to an advice set's content (its rules, their nodes, its scenarios, versions and supplement links) also mark
// the set updated, so its "Updated" and the library's sort by it follow them.
import type { SQLWrapper } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { changeWithAudit, type AuditRows } from '../../db/queries/audited-change.ts'
import { insertActivities, insertActivity } from '../../db/queries/activity.ts'
import { markAdviceSetUpdated, type SetContent } from '../../db/queries/advice-sets.ts'
import { recordIndexTask, recordIndexTasks } from '../../db/queries/search.ts'
import { isSearchable } from '../../search/documents.ts'
import type { AuditAction } from '../../db/schema/index.ts'
import type { Actor } from '../context.ts'

export interface AuditEntry {
  ownerId: string
  action: AuditAction
  entityType: string
  entityId: string | number
  before?: unknown
  after?: unknown
  /** The advice set whose content this change is, when the entity type does not lead to it (a supplement's link). */
  adviceSetId?: number
}

/**
 * The set content each entity type of the log is (services' ENTITY_* keys, spelled here as in
 * db/queries/activity-scope.ts: the services that define them import this module).
 */
const SET_CONTENT: Readonly<Record<string, (id: number) => SetContent>> = {
  rule: (ruleId) => ({ ruleId }),
  rulenode: (nodeId) => ({ nodeId }),
  advicescenario: (scenarioId) => ({ scenarioId }),
  version: (versionId) => ({ versionId }),
}

function setContentOf(entry: AuditEntry): SetContent | null {
  if (entry.adviceSetId !== undefined) return { adviceSetId: entry.adviceSetId }
  const content = SET_CONTENT[entry.entityType]
  return content ? content(Number(entry.entityId)) : null
}

/** `actor` null means the server acted on its own (seeding, expiry jobs). */
export async function audit(tx: Db, actor: Actor | null, entry: AuditEntry): Promise<void> {
  const rows = auditRowsOf(actor, entry)
  // Sent together, not one after another: each is independent of the others, and a transaction's round trips are
  // what other writers wait for on the embedded database, which runs one transaction at a time (bench:soak).
  await Promise.all([
    insertActivity(tx, rows.activity),
    rows.indexTask ? recordIndexTask(tx, rows.indexTask.entityType, rows.indexTask.entityId) : undefined,
    rows.setUpdated ? markAdviceSetUpdated(tx, rows.setUpdated) : undefined,
  ])
}

/**
 * The audits of many changes of one entity type, each to the content of a known advice set (a rename's batch of nodes):
 * their activity rows and search tasks, a statement each instead of two per change. The sets are not marked here: a
 * change made in batches marks them all at its end (markSetsUpdated), where its lock on their rows is held only briefly.
 */
export async function auditMany(tx: Db, actor: Actor | null, entityType: string, entries: readonly Omit<AuditEntry, 'entityType'>[]): Promise<void> {
  if (entries.length === 0) return
  const rows = entries.map((entry) => auditRowsOf(actor, { ...entry, entityType }))
  await Promise.all([
    insertActivities(tx, rows.map((row) => row.activity)),
    isSearchable(entityType) ? recordIndexTasks(tx, entityType, entries.map((entry) => String(entry.entityId))) : undefined,
  ])
}

/** How many sets one statement marks: a rename at full size touches 50,000, near a statement's 65,535 parameters. */
const SET_MARK_BATCH = 10_000

/**
 * Marks the advice sets whose content a change made in batches changed (auditMany), once, at the change's end. A rename
 * of a name every set uses marked each batch's sets as it went: their rows stayed locked for the rest of its
 * transaction (over a minute at full size), and an edit of any of those sets waited that long.
 */
export async function markSetsUpdated(tx: Db, actor: Actor | null, adviceSetIds: Iterable<number>): Promise<void> {
  const ids = [...new Set(adviceSetIds)].sort((a, b) => a - b)
  for (let i = 0; i < ids.length; i += SET_MARK_BATCH) {
    await markAdviceSetUpdated(tx, { of: { adviceSetIds: ids.slice(i, i + SET_MARK_BATCH) }, by: actor?.userId ?? null, at: new Date() })
  }
}

/**
 * A change of one statement (an UPDATE whose after-state is known before it is sent) made with its audit, as one
 * statement and without a transaction (db/queries/audited-change.ts). Returns how many rows the change changed.
 */
export async function auditedChange(db: Db, actor: Actor | null, entry: AuditEntry, change: SQLWrapper): Promise<number> {
  return changeWithAudit(db, change, auditRowsOf(actor, entry))
}

function auditRowsOf(actor: Actor | null, entry: AuditEntry): AuditRows {
  const content = setContentOf(entry)
  return {
    activity: {
      ownerId: entry.ownerId,
      actorId: actor?.userId ?? null,
      impersonatorId: actor?.impersonatorId ?? null,
      source: actor ? 'users' : 'server',
      action: entry.action,
      entityType: entry.entityType,
      entityId: String(entry.entityId),
      before: entry.before ?? null,
      after: entry.after ?? null,
    },
    indexTask: isSearchable(entry.entityType) ? { entityType: entry.entityType, entityId: String(entry.entityId) } : null,
    setUpdated: content ? { of: content, by: actor?.userId ?? null, at: new Date() } : null,
  }
}
