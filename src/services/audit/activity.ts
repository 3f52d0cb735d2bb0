// The activity log: reading it (SPEC §9 timeframes, 15 items then "more"), what changed, and restoring.
import { activityPage, findActivity, listActivity } from '../../db/queries/activity.ts'
import { listDeletedIn, listSetActivity, placesOf, type DeletedScope } from '../../db/queries/activity-scope.ts'
import { isProviderAdmin, type Actor, type Deps } from '../context.ts'
import { bylineOf, impersonatorOf } from './byline.ts'
import { NotFoundError, ValidationError } from '../errors.ts'
import { ENTITY_ADVICE_SET, restoreAdviceSetSnapshot, type AdviceSetSnapshot } from '../library/advice-sets.ts'
import { ENTITY_CATEGORY, restoreCategorySnapshot } from '../library/categories.ts'
import { ENTITY_COMMENT, restoreCommentSnapshot, type CommentSnapshot } from '../authoring/comments.ts'
import { ENTITY_DICTIONARY, restoreEntitySnapshot, type EntitySnapshot } from '../authoring/entities.ts'
import { restoreNodeSnapshot, type NodeSnapshot } from '../authoring/rule-nodes.ts'
import { ENTITY_RULE, ENTITY_RULE_NODE, restoreRuleSnapshot, type RuleSnapshot } from '../authoring/rules.ts'
import { ENTITY_SCENARIO, type ScenarioSnapshot } from '../scenarios/access.ts'
import { restoreScenarioSnapshot } from '../scenarios/scenarios.ts'
import { ENTITY_KEYWORD_MAP, restoreKeywordMapSnapshot, type KeywordMapSnapshot } from '../library/keyword-maps.ts'
import { canAdministerOwned, canCollaborateOnSet, canCreate } from '../accounts/visibility.ts'
import { findAdviceSet } from '../../db/queries/advice-sets.ts'
import { findNode } from '../../db/queries/rule-nodes.ts'
import { findRule } from '../../db/queries/rules.ts'
import type { Db } from '../../db/client.ts'
import { ENTITY_EXTERNAL_API, restoreExternalApiSnapshot, type ExternalApiSnapshot } from '../integrations/external-apis.ts'
import { ENTITY_SUPPLEMENT, restoreSupplementSnapshot, type SupplementSnapshot } from '../files/supplements.ts'
import { ENTITY_SET_IMPORT, restoreSetImport, type SetImportSnapshot } from '../library/portable-import.ts'
import type { AuditAction } from '../../db/schema/index.ts'
import { activityBook, type ActivityBook } from './activity-book.ts'
import { activitySentence, sentenceText } from './activity-sentences.ts'
import { diff, readableChanges } from './activity-values.ts'

export const ACTIVITY_TIMEFRAMES = [1, 5, 15, 30, 60, 90] as const
export const ACTIVITY_PAGE = 15
const DAY_MS = 24 * 60 * 60 * 1000

/** Entity types whose changes can be undone from the log, and how: `before` is the state to go back to (null: undo a create). */
const RESTORERS: Record<string, (deps: Deps, actor: Actor, id: number, before: unknown, after: unknown) => Promise<void>> = {
  [ENTITY_ADVICE_SET]: (deps, actor, id, before) => restoreAdviceSetSnapshot(deps, actor, id, before as AdviceSetSnapshot | null),
  [ENTITY_CATEGORY]: (deps, actor, id, before) => restoreCategorySnapshot(deps, actor, id, before as Parameters<typeof restoreCategorySnapshot>[3]),
  [ENTITY_RULE]: async (deps, actor, id, before) => { await restoreRuleSnapshot(deps, actor, id, before as RuleSnapshot | null) },
  [ENTITY_RULE_NODE]: async (deps, actor, id, before, after) => {
    // Putting back the old name here would leave the node naming an entry that no longer has it.
    if ((after as { renamed?: unknown } | null)?.renamed) throw new ValidationError('id', 'This change came from renaming a dictionary entry: restore that entry’s change instead.')
    await restoreNodeSnapshot(deps, actor, id, before as NodeSnapshot | null)
  },
  [ENTITY_DICTIONARY]: async (deps, actor, id, before) => { await restoreEntitySnapshot(deps, actor, id, before as EntitySnapshot | null) },
  [ENTITY_COMMENT]: async (deps, actor, id, before) => { await restoreCommentSnapshot(deps, actor, id, before as CommentSnapshot | null) },
  [ENTITY_EXTERNAL_API]: (deps, actor, id, before) => restoreExternalApiSnapshot(deps, actor, id, before as ExternalApiSnapshot | null),
  [ENTITY_SCENARIO]: async (deps, actor, id, before) => { await restoreScenarioSnapshot(deps, actor, id, before as ScenarioSnapshot | null) },
  [ENTITY_KEYWORD_MAP]: (deps, actor, id, before) => restoreKeywordMapSnapshot(deps, actor, id, before as KeywordMapSnapshot | null),
  [ENTITY_SUPPLEMENT]: async (deps, actor, id, before) => { await restoreSupplementSnapshot(deps, actor, id, before as SupplementSnapshot | null) },
  [ENTITY_SET_IMPORT]: (deps, actor, id, before) => restoreSetImport(deps, actor, id, before as SetImportSnapshot | null),
}

/**
 * Who may undo an entry beyond the set's authors: keyword maps are the owner's admins' (as on their own pages). The
 * log offers Restore only to whoever the restore would not refuse.
 */
const RESTORE_ALLOWED: Partial<Record<string, (actor: Actor, ownerId: string) => boolean>> = {
  [ENTITY_KEYWORD_MAP]: canAdministerOwned,
}

function canRestoreRow(actor: Actor, row: { entityType: string; ownerId: string }): boolean {
  return row.entityType in RESTORERS && canCreate(actor) && (RESTORE_ALLOWED[row.entityType]?.(actor, row.ownerId) ?? true)
}

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
  /**
   * Only what concerns this advice set: the set, its rules and their nodes, comments on them, its dictionary entries.
   * The set's log is its team's (404 for a reader of another team's public or starter set), kept under its owner.
   */
  adviceSetId?: number
}

/** The owner of a set whose collaboration data the actor may see; 404 for anyone else, as for a missing set. */
async function collaborationOwner(db: Db, actor: Actor, set: { ownerId: string } | undefined): Promise<string> {
  if (!set || !canCollaborateOnSet(actor, set)) throw new NotFoundError('No advice set with this id')
  return set.ownerId
}

export async function recentActivity(deps: Deps, actor: Actor, opts: ActivityFilter) {
  const since = new Date(Date.now() - opts.days * DAY_MS)
  const rows = opts.adviceSetId !== undefined
    ? await listSetActivity(deps.db, { ownerId: await collaborationOwner(deps.db, actor, await findAdviceSet(deps.db, opts.adviceSetId)), adviceSetId: opts.adviceSetId, since, limit: opts.limit + 1 })
    : await listActivity(deps.db, {
      ownerId: opts.ownerId !== undefined && isProviderAdmin(actor) ? opts.ownerId : actor.ownerId,
      since, limit: opts.limit + 1, entityType: opts.entityType, entityId: opts.entityId, action: opts.action,
    })
  const shown = rows.slice(0, opts.limit)
  const book = await activityBook(deps, actor, shown)
  return { hasMore: rows.length > opts.limit, items: shown.map((row) => describeRow(actor, row, book)) }
}

type LoggedRow = Awaited<ReturnType<typeof listActivity>>[number]

function describeRow(actor: Actor, row: LoggedRow, book: ActivityBook) {
  const sentence = activitySentence(row, book).map((part) => (part.kind === 'actor' && impersonatorOf(row) ? { ...part, text: bylineOf(row) } : part))
  const changes = diff(row.before, row.after)
  return {
    ...row,
    label: labelOf(row.after) ?? labelOf(row.before) ?? `#${row.entityId}`,
    actorName: row.actorName ?? 'Advice Studio',
    /** The provider admin behind a change made under impersonation ({ id, name }), or null. */
    impersonator: impersonatorOf(row),
    /** Who acted, as every page says it: "Ada Admin as Aaron A. Author" under impersonation. */
    byline: bylineOf(row),
    /** The entry as a sentence with names ("Ada Author deleted the Rule “Tax check” of “Drawdown”."). */
    summary: sentenceText(sentence),
    sentence,
    changes,
    /** `changes` as people read them: labels, names instead of ids. */
    details: readableChanges(row.entityType, row.action, changes, book),
    canRestore: canRestoreRow(actor, row),
  }
}

/**
 * One page of the owner's whole log as the export writes it, oldest first: each entry's sentence and who acted, named
 * as the pages name them ("Ada Admin as Aaron A. Author" under impersonation).
 */
export async function activityExportPage(deps: Deps, actor: Actor, ownerId: string, afterId: number, limit: number) {
  const rows = await activityPage(deps.db, ownerId, afterId, limit)
  const book = await activityBook(deps, actor, rows)
  return rows.map((row) => {
    const { id, createdAt, action, entityType, entityId, source, byline, impersonator, summary } = describeRow(actor, row, book)
    return { id, createdAt, action, entityType, entityId, source, byline, impersonator, summary }
  })
}

/**
 * What restoring one entry would do, before doing it. Restoring a create takes the thing away again, so that asks
 * first: `removes` names what goes ("the Rule “Tax check” of “Drawdown”"); other restores put a state back and need no question.
 */
export async function restorePreview(deps: Deps, actor: Actor, activityId: number) {
  const row = await findLoggedRow(deps, actor, activityId)
  const book = await activityBook(deps, actor, [row])
  const entry = describeRow(actor, row, book)
  if (row.action !== 'create') return { entry, removes: null }
  const undone = activitySentence({ ...row, action: 'delete', before: row.after, after: null }, book).slice(1)
  return { entry, removes: sentenceText(undone).replace(/^ deleted /, '').replace(/\.$/, '') }
}

async function findLoggedRow(deps: Deps, actor: Actor, activityId: number): Promise<LoggedRow> {
  const row = await findActivity(deps.db, activityId)
  if (!row || (row.ownerId !== actor.ownerId && !isProviderAdmin(actor))) throw new NotFoundError('No activity with this id')
  return row
}

function labelOf(snapshot: unknown): string | undefined {
  if (snapshot && typeof snapshot === 'object' && 'name' in snapshot && typeof snapshot.name === 'string') return snapshot.name
  return undefined
}


/** Puts the entity of one activity row back as it was before that change; itself recorded as a `restore`. */
export async function restoreFromActivity(deps: Deps, actor: Actor, activityId: number): Promise<{ entityType: string; entityId: string }> {
  const row = await findLoggedRow(deps, actor, activityId)
  const restorer = RESTORERS[row.entityType]
  if (!restorer) throw new ValidationError('id', `Changes to ${row.entityType} cannot be restored from the activity log.`)
  await restorer(deps, actor, Number(row.entityId), row.action === 'create' ? null : row.before, row.after)
  return { entityType: row.entityType, entityId: row.entityId }
}

/**
 * SPEC §7 activity {nodeId}/deleted: what was deleted in the last 90 days from one place and is still deleted, newest
 * first, each with the activity row whose restore brings it back. A rule node's place holds its child nodes and its
 * comments; a rule's top level and an advice set's rule list have no node id, so they are scopes of their own.
 */
export async function deletedUnder(deps: Deps, actor: Actor, scope: DeletedScope) {
  const ownerId = await collaborationOwner(deps.db, actor, await setOfPlace(deps.db, scope))
  const rows = await listDeletedIn(deps.db, { ownerId, since: new Date(Date.now() - 90 * DAY_MS), scope, limit: 500 })
  return rows.map((r) => ({
    activityId: r.id, entityType: r.entityType, entityId: r.entityId, name: labelOf(r.before) ?? `#${r.entityId}`,
    deletedAt: r.createdAt, deletedBy: bylineOf(r), impersonator: impersonatorOf(r), canRestore: canCreate(actor),
  }))
}

/** The advice set a place of the deleted lists belongs to (its node or rule may be deleted itself). */
async function setOfPlace(db: Db, scope: DeletedScope): Promise<{ ownerId: string } | undefined> {
  if ('adviceSetId' in scope) return findAdviceSet(db, scope.adviceSetId)
  const ruleId = 'ruleId' in scope ? scope.ruleId : (await findNode(db, scope.nodeId, { includeDeleted: true }))?.ruleId
  return ruleId === undefined ? undefined : (await findRule(db, ruleId, { includeDeleted: true }))?.set
}
