// Owners and their audiences (SPEC §7 owner {id}, {id}/audience): groups of partner keys that publish/assign can give
// a version of their own. Members of an owner read them; its admins (and provider admins) change them. Audited.
import type { Db } from '../../db/client.ts'
import {
  deleteAudience as deleteAudienceRow, findAudience, insertAudience, keysInAudience, listAudiences as listAudienceRows,
  setsAssignedTo, updateAudience as updateAudienceRow, type AudienceRow,
} from '../../db/queries/audiences.ts'
import { findOwner } from '../../db/queries/users.ts'
import { audit } from '../audit/audit.ts'
import { isProviderAdmin, type Actor, type Deps } from '../context.ts'
import { assertNoDependents, registerDependentCheck } from '../authoring/dependents.ts'
import { ForbiddenError, NotFoundError, ValidationError } from '../errors.ts'
import { optionalText, requireText } from '../validate.ts'
import { canAdministerOwned } from '../accounts/visibility.ts'
import { approvalPolicy } from './approval-policy.ts'

export const ENTITY_AUDIENCE = 'audience'

registerDependentCheck(ENTITY_AUDIENCE, async (db, id) => [
  ...(await keysInAudience(db, id)).map((k) => ({ type: 'apikey', id: k.id, name: k.name, uri: `/admin/apikey/${k.id}/edit` })),
  ...(await setsAssignedTo(db, id)).map((s) => ({ type: 'adviceset', id: s.id, name: s.name, uri: `/adviceset/${s.id}/publish/assign` })),
])

/** Another owner's data is not revealed: 404 unless the actor belongs to it or is a provider admin. */
async function readableOwner(db: Db, actor: Actor, ownerId: string) {
  const owner = actor.ownerId === ownerId || isProviderAdmin(actor) ? await findOwner(db, ownerId) : undefined
  if (!owner) throw new NotFoundError('No owner with this id')
  return owner
}

async function manageableOwner(db: Db, actor: Actor, ownerId: string) {
  const owner = await readableOwner(db, actor, ownerId)
  if (!canAdministerOwned(actor, ownerId)) throw new ForbiddenError('Only an admin of this team or a provider admin can change its audiences: ask an admin of your team.')
  return owner
}

export async function getOwner(deps: Deps, actor: Actor, ownerId: string) {
  const owner = await readableOwner(deps.db, actor, ownerId)
  const { ownerId: _id, ownerName: _name, ...policy } = await approvalPolicy(deps.db, owner.id)
  return { id: owner.id, name: owner.name, ...policy, audiences: await listAudienceRows(deps.db, owner.id) }
}

export async function listAudiences(deps: Deps, actor: Actor, ownerId: string): Promise<AudienceRow[]> {
  await readableOwner(deps.db, actor, ownerId)
  return listAudienceRows(deps.db, ownerId)
}

async function audienceOf(db: Db, actor: Actor, ownerId: string, audienceId: number): Promise<AudienceRow> {
  await readableOwner(db, actor, ownerId)
  const audience = await findAudience(db, audienceId)
  if (!audience || audience.ownerId !== ownerId) throw new NotFoundError('No audience with this id')
  return audience
}

export async function getAudience(deps: Deps, actor: Actor, ownerId: string, audienceId: number): Promise<AudienceRow> {
  return audienceOf(deps.db, actor, ownerId, audienceId)
}

async function assertNameFree(db: Db, ownerId: string, name: string, exceptId?: number): Promise<void> {
  const clash = (await listAudienceRows(db, ownerId)).find((a) => a.id !== exceptId && a.name.toLowerCase() === name.toLowerCase())
  if (clash) throw new ValidationError('name', `This owner already has an audience named “${clash.name}”.`)
}

export async function createAudience(deps: Deps, actor: Actor, ownerId: string, input: { name?: unknown; description?: unknown }): Promise<AudienceRow> {
  await manageableOwner(deps.db, actor, ownerId)
  const name = requireText('name', input.name, 'Name', 200)
  const description = optionalText('description', input.description, 'Description', 2000, 'multiline')
  await assertNameFree(deps.db, ownerId, name)
  return deps.db.transaction(async (tx) => {
    const audience = await insertAudience(tx, { ownerId, name, description })
    await audit(tx, actor, { ownerId, action: 'create', entityType: ENTITY_AUDIENCE, entityId: audience.id, after: audience })
    return audience
  })
}

export async function updateAudience(deps: Deps, actor: Actor, ownerId: string, audienceId: number, input: { name?: unknown; description?: unknown }): Promise<AudienceRow> {
  await manageableOwner(deps.db, actor, ownerId)
  const audience = await audienceOf(deps.db, actor, ownerId, audienceId)
  const changes: Partial<Pick<AudienceRow, 'name' | 'description'>> = {}
  if (input.name !== undefined) changes.name = requireText('name', input.name, 'Name', 200)
  if (input.description !== undefined) changes.description = optionalText('description', input.description, 'Description', 2000, 'multiline')
  if (Object.keys(changes).length === 0) throw new ValidationError('name', 'Nothing to change: send name or description.')
  if (changes.name !== undefined) await assertNameFree(deps.db, ownerId, changes.name, audienceId)
  return deps.db.transaction(async (tx) => {
    const updated = await updateAudienceRow(tx, audienceId, changes)
    await audit(tx, actor, { ownerId, action: 'update', entityType: ENTITY_AUDIENCE, entityId: audienceId, before: audience, after: updated })
    return updated
  })
}

/** Refused with 221 while keys belong to the audience or sets assign it a version. */
export async function deleteAudience(deps: Deps, actor: Actor, ownerId: string, audienceId: number): Promise<void> {
  await manageableOwner(deps.db, actor, ownerId)
  const audience = await audienceOf(deps.db, actor, ownerId, audienceId)
  await assertNoDependents(deps.db, ENTITY_AUDIENCE, audienceId, `The audience “${audience.name}”`)
  await deps.db.transaction(async (tx) => {
    await deleteAudienceRow(tx, audienceId)
    await audit(tx, actor, { ownerId, action: 'delete', entityType: ENTITY_AUDIENCE, entityId: audienceId, before: audience })
  })
}
