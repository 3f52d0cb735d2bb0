// Versions of an advice set (DESIGN "Publishing"): immutable snapshots, numbered per set, and what each kind of
// partner key is served. The workflow between states lives in workflow.ts.
import type { Db } from '../../db/client.ts'
import { findAdviceSet, type AdviceSetRow } from '../../db/queries/advice-sets.ts'
import { lockAdviceSetRow } from '../../db/queries/rules.ts'
import { findServedVersion, insertVersion, listVersions, nextVersionNumber, type VersionRow, type VersionSummaryRow } from '../../db/queries/versions.ts'
import { ENTITY_ADVICE_SET } from '../library/advice-sets.ts'
import { audit } from '../audit/audit.ts'
import { registerDependentCheck } from '../authoring/dependents.ts'
import type { Actor, Deps } from '../context.ts'
import { NotFoundError } from '../errors.ts'
import { optionalText } from '../validate.ts'
import { announceVersionChange, versionChanged } from './events.ts'
import { contentHashOf, snapshotAdviceSet, type VersionSnapshot } from './snapshot.ts'
import { assertWritable, canCollaborateOnSet } from '../accounts/visibility.ts'

export { onServedVersionChange } from './events.ts'
export type { VersionSnapshot } from './snapshot.ts'

export const ENTITY_VERSION = 'version'

// Partners are served a set's published and preview versions: the set cannot be deleted under them (unpublish first).
registerDependentCheck(ENTITY_ADVICE_SET, async (db, id) => (await listVersions(db, id))
  .filter((version) => version.state === 'published' || version.state === 'preview')
  .map((version) => ({ type: ENTITY_VERSION, id: version.id, name: `Version ${version.number} (${version.state})`, uri: `/adviceset/${id}/publish/versions/${version.id}` })))

export interface ServedVersion {
  id: number
  number: number
  adviceSetId: number
  ownerId: string
  isPublic: boolean
  snapshot: VersionSnapshot
}

export type KeyAudience = { environment: 'production' | 'preview'; audienceId: number | null }

/**
 * The version a key gets: production → the audience's assigned version if any, else the published one; preview → the
 * preview version, else the published one. A deleted set, or one with nothing to serve, gives undefined.
 */
export async function servedVersion(db: Db, adviceSetId: number, who: KeyAudience): Promise<ServedVersion | undefined> {
  const row = await findServedVersion(db, adviceSetId, who)
  return row ? { ...row, snapshot: row.snapshot as VersionSnapshot } : undefined
}

/**
 * A set whose versions the actor may see in full (drafts, reviews, who did what): its own owner's team and provider
 * admins. Other readers of a public set see only what was published, through the catalog; here it does not exist.
 */
export async function teamSet(db: Db, actor: Actor, adviceSetId: number): Promise<AdviceSetRow> {
  const set = await findAdviceSet(db, adviceSetId)
  if (!set || !canCollaborateOnSet(actor, set)) throw new NotFoundError('No advice set with this id')
  return set
}

/** What the audit log keeps of a version: everything but the (large, immutable) snapshot. */
export function versionAuditView(v: VersionSummaryRow | VersionRow) {
  return {
    id: v.id, name: `Version ${v.number}`, adviceSetId: v.adviceSetId, number: v.number, state: v.state, notes: v.notes, contentHash: v.contentHash,
    submittedBy: v.submittedBy, approvedBy: v.approvedBy, publishedBy: v.publishedBy,
  }
}

export function summaryOf(v: VersionRow): VersionSummaryRow {
  const { snapshot: _snapshot, ...summary } = v
  return summary
}

/**
 * Runs a change of what a set serves: in one transaction that holds the set row (so two changes to the same set
 * never interleave), announcing it to other instances on commit and to this process's listeners after.
 */
export async function changeVersions<T>(db: Db, adviceSetId: number, change: (tx: Db) => Promise<T>): Promise<T> {
  const result = await db.transaction(async (tx) => {
    await lockAdviceSetRow(tx, adviceSetId)
    const value = await change(tx)
    await announceVersionChange(tx, adviceSetId)
    return value
  })
  versionChanged(adviceSetId)
  return result
}

/** A new draft version: the set as stored right now, with the author's notes. Authors and admins of the set's owner. */
export async function createVersion(deps: Deps, actor: Actor, input: { adviceSetId: number; notes?: unknown }): Promise<VersionSummaryRow> {
  const set = await findAdviceSet(deps.db, input.adviceSetId)
  if (!set) throw new NotFoundError('No advice set with this id')
  assertWritable(actor, set)
  const notes = optionalText('notes', input.notes, 'Notes', 5000, 'multiline')
  const version = await changeVersions(deps.db, set.id, async (tx) => {
    const snapshot = await snapshotAdviceSet(tx, set.id)
    const row = await insertVersion(tx, {
      adviceSetId: set.id, number: await nextVersionNumber(tx, set.id), state: 'draft', notes, snapshot,
      contentHash: contentHashOf(snapshot), createdBy: actor.userId,
    })
    await audit(tx, actor, { ownerId: set.ownerId, action: 'create', entityType: ENTITY_VERSION, entityId: row.id, after: versionAuditView(row) })
    return row
  })
  return summaryOf(version)
}
