// Published (or preview) versions without the workflow, for tests of what partners are served (Advice API, embed).
import type { Db } from '../../src/db/client.ts'
import { findAdviceSet } from '../../src/db/queries/advice-sets.ts'
import { findVersionInState, insertVersion, nextVersionNumber, updateVersionState, type VersionRow } from '../../src/db/queries/versions.ts'
import { changeVersions } from '../../src/services/publishing/versions.ts'
import { contentHashOf, snapshotAdviceSet } from '../../src/services/publishing/snapshot.ts'

/**
 * Snapshots the set as stored now and makes it the published (or preview) version at once; the version it replaces
 * becomes unpublished (or approved), as the workflow would leave it. Served-version listeners hear about it.
 */
export async function publishVersion(db: Db, opts: { adviceSetId: number; actorUserId?: number; environment?: 'production' | 'preview' }): Promise<VersionRow> {
  const set = await findAdviceSet(db, opts.adviceSetId)
  if (!set) throw new Error(`publishVersion: no advice set ${opts.adviceSetId}`)
  const state = opts.environment === 'preview' ? 'preview' : 'published'
  const by = opts.actorUserId ?? null
  return changeVersions(db, set.id, async (tx) => {
    const previous = await findVersionInState(tx, set.id, state)
    if (previous) await updateVersionState(tx, previous.id, state === 'published' ? { state: 'unpublished', unpublishedAt: new Date() } : { state: 'approved' })
    const snapshot = await snapshotAdviceSet(tx, set.id)
    const now = new Date()
    return insertVersion(tx, {
      adviceSetId: set.id, number: await nextVersionNumber(tx, set.id), state, notes: '', snapshot, contentHash: contentHashOf(snapshot),
      createdBy: by, submittedBy: by, submittedAt: now, approvedBy: by, approvedAt: now,
      ...(state === 'published' ? { publishedBy: by, publishedAt: now } : {}),
    })
  })
}
