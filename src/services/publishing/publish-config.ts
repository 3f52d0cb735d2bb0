// publish-config: which version each environment and audience gets of a set, what one API key gets, and publish/assign
// (an audience's keys get an assigned version instead of the published one). Assigning needs an admin of the set's
// owner (or a provider admin) and a version that was approved; every change is audited and heard by served-version
// listeners.
import { keysetPageBy } from '../../db/queries/keyset-page.ts'
import { findLiveApiKey } from '../../db/queries/api-keys.ts'
import { findAudience, listAudiences } from '../../db/queries/audiences.ts'
import {
  deleteAssignment, findVersion, findVersionInState, listAssignments, listServedVersions, upsertAssignment,
  type VersionRow,
} from '../../db/queries/versions.ts'
import { audit } from '../audit/audit.ts'
import { ENTITY_AUDIENCE } from './audiences.ts'
import { canAdministerOwned } from '../accounts/visibility.ts'
import type { Actor, Deps } from '../context.ts'
import { ForbiddenError, NotFoundError, ValidationError } from '../errors.ts'
import { changeVersions, teamSet } from './versions.ts'

function brief(v: VersionRow | undefined) {
  return v ? { versionId: v.id, number: v.number, state: v.state } : null
}

/** What each environment gets, and every audience of the set's owner with its assigned version (or the published one). */
export async function getPublishConfig(deps: Deps, actor: Actor, adviceSetId: number) {
  const set = await teamSet(deps.db, actor, adviceSetId)
  const published = await findVersionInState(deps.db, set.id, 'published')
  const preview = await findVersionInState(deps.db, set.id, 'preview')
  const assigned = new Map((await listAssignments(deps.db, set.id)).map((a) => [a.audienceId, a]))
  const audiences = await listAudiences(deps.db, set.ownerId)
  return {
    adviceSetId: set.id,
    production: brief(published),
    preview: brief(preview) ?? brief(published),
    audiences: audiences.map((a) => {
      const own = assigned.get(a.id)
      return {
        audienceId: a.id, name: a.name, assigned: own !== undefined,
        version: own ? { versionId: own.versionId, number: own.versionNumber, state: own.versionState } : brief(published),
      }
    }),
  }
}

const ASSIGNABLE = new Set(['approved', 'preview', 'published', 'unpublished'])

/** Gives an audience its own version of the set (versionId null: back to the published one). */
export async function assignVersion(deps: Deps, actor: Actor, input: { adviceSetId: number; audienceId: number; versionId: number | null }) {
  const set = await teamSet(deps.db, actor, input.adviceSetId)
  if (!canAdministerOwned(actor, set.ownerId)) throw new ForbiddenError('Only an admin of this advice set’s team or a provider admin can assign versions to audiences.')
  const audience = await findAudience(deps.db, input.audienceId)
  if (!audience || audience.ownerId !== set.ownerId) throw new ValidationError('audienceId', 'No audience with this id among the owner’s audiences.')
  if (input.versionId !== null) {
    const version = await findVersion(deps.db, input.versionId)
    if (!version || version.adviceSetId !== set.id) throw new ValidationError('versionId', 'No version with this id in this advice set.')
    if (!ASSIGNABLE.has(version.state) || version.approvedAt === null) {
      throw new ValidationError('versionId', `Version ${version.number} has not been approved, so it cannot be assigned to an audience.`)
    }
  }
  await changeVersions(deps.db, set.id, async (tx) => {
    const before = (await listAssignments(tx, set.id)).find((a) => a.audienceId === audience.id)
    if (input.versionId === null) await deleteAssignment(tx, set.id, audience.id)
    else await upsertAssignment(tx, { adviceSetId: set.id, audienceId: audience.id, versionId: input.versionId, assignedBy: actor.userId })
    await audit(tx, actor, {
      ownerId: set.ownerId, action: 'update', entityType: ENTITY_AUDIENCE, entityId: audience.id,
      before: { adviceSetId: set.id, versionId: before?.versionId ?? null }, after: { adviceSetId: set.id, versionId: input.versionId },
    })
  })
  return getPublishConfig(deps, actor, set.id)
}

/** What one API key is served of each set it may use. Admins of the key's owner and provider admins. */
export async function keyPublishConfig(deps: Deps, actor: Actor, keyId: number, page: { afterId?: number; limit: number }) {
  const key = await findLiveApiKey(deps.db, keyId)
  if (!key || !canAdministerOwned(actor, key.ownerId)) throw new NotFoundError('No API key with this id')
  const rows = await listServedVersions(deps.db, { ownerId: key.ownerId, allowedIds: key.allowedAdviceSetIds }, { environment: key.environment, audienceId: key.audienceId }, {
    ...page, limit: page.limit + 1,
  })
  const { shown, nextAfter } = keysetPageBy(rows, page.limit, (row) => row.adviceSetId)
  return {
    keyId: key.id, name: key.name, prefix: key.prefix, environment: key.environment, audienceId: key.audienceId,
    adviceSets: shown.map((r) => ({
      adviceSetId: r.adviceSetId, name: r.name,
      version: r.versionId === null ? null : { versionId: r.versionId, number: r.versionNumber, state: r.state },
      source: r.versionId === null ? null : r.assigned ? 'audience' : r.state === 'preview' ? 'preview' : 'published',
    })),
    next: nextAfter === null ? null : String(nextAfter),
  }
}
