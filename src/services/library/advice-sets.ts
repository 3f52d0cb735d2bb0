// Advice sets: the library, create/edit, copy, transfer, delete and recover, tags. Every write is audited.
import type { Db } from '../../db/client.ts'
import {
  adviceSetStats, findAdviceSet, findAdviceSetEntry, findAdviceSetsByIds, findCategory, insertAdviceSet, listAdviceSets,
  listDeletedAdviceSets, setTagLinks, tagIdsFor, updateAdviceSet as updateAdviceSetRow,
  type AdviceSetFields, type AdviceSetListRow, type AdviceSetRow, type ListAdviceSetsParams,
} from '../../db/queries/advice-sets.ts'
import { findOwner } from '../../db/queries/users.ts'
import { copyAdviceSetContent, takeEntriesAlong } from '../authoring/set-copy.ts'
import { copyScenariosOfSet } from '../scenarios/scenarios.ts'
import { audit } from '../audit/audit.ts'
import { isProviderAdmin, type Actor, type Deps } from '../context.ts'
import { countOpenAdviceRequests } from '../../db/queries/advice-requests.ts'
import { assertNoDependents } from '../authoring/dependents.ts'
import { ForbiddenError, NotFoundError, ValidationError } from '../errors.ts'
import { tagNamed, tagsById, visibleTagIds } from './tags.ts'
import { checkSentFields, optionalText, requireText } from '../validate.ts'
import { assertWritable, canCollaborateOnSet, canCreate, canReadSet, canWriteOwned, setVisibility } from '../accounts/visibility.ts'

export const ENTITY_ADVICE_SET = 'adviceset'
export const LIBRARY_PAGE_SIZE = 24
export const CLASSIC_PAGE_SIZE = 50

/** What the audit log keeps of an advice set: every field a user can change, and its tags. */
export interface AdviceSetSnapshot extends AdviceSetFields {
  id: number
  tagIds: number[]
  deleted: boolean
}

export function snapshotOf(set: AdviceSetRow, tagIds: number[]): AdviceSetSnapshot {
  return {
    id: set.id, ownerId: set.ownerId, categoryId: set.categoryId, name: set.name, nameAlt: set.nameAlt,
    description: set.description, isPublic: set.isPublic, isStarter: set.isStarter, tagIds, deleted: set.deletedAt !== null,
  }
}

async function tagIdsOf(db: Db, id: number): Promise<number[]> {
  return (await tagIdsFor(db, ENTITY_ADVICE_SET, [id])).get(id) ?? []
}

// Reading -----------------------------------------------------------------------------------------------------------

/** The query's filters, with pages instead of offsets; visibility always comes from the actor. */
export type LibraryFilters = Partial<Omit<ListAdviceSetsParams, 'visibility' | 'offset' | 'limit'>> & { page?: number; pageSize?: number }

export interface LibraryEntry extends AdviceSetListRow {
  tags: Array<{ id: number; label: string; slug: string }>
  canWrite: boolean
  /** The actor is of the set's team (or a provider admin): it sees the set's collaboration data (canCollaborateOnSet). */
  canCollaborate: boolean
  /** Open requests for advice, counted for the set's own team only (0 for everyone else). */
  openRequests: number
}

export async function listLibrary(deps: Deps, actor: Actor, f: LibraryFilters) {
  const pageSize = f.pageSize ?? LIBRARY_PAGE_SIZE
  const page = Math.max(1, f.page ?? 1)
  const { rows, total } = await listAdviceSets(deps.db, {
    visibility: setVisibility(actor), categoryId: f.categoryId, tagId: f.tagId, ownerId: f.ownerId,
    onlyPublic: f.onlyPublic, onlyStarter: f.onlyStarter, shared: f.shared, text: f.text?.trim() || undefined,
    sort: f.sort ?? 'updated', offset: (page - 1) * pageSize, limit: pageSize,
  })
  return { entries: await withTags(deps.db, actor, rows), total, page, pageSize, pageCount: Math.max(1, Math.ceil(total / pageSize)) }
}

async function withTags(db: Db, actor: Actor, rows: AdviceSetListRow[]): Promise<LibraryEntry[]> {
  const links = await tagIdsFor(db, ENTITY_ADVICE_SET, rows.map((r) => r.id))
  const tags = await tagsById(db, [...new Set([...links.values()].flat())])
  const requests = await countOpenAdviceRequests(db, rows.filter((r) => canCollaborateOnSet(actor, r)).map((r) => r.id))
  return rows.map((row) => ({
    ...row,
    tags: (links.get(row.id) ?? []).map((id) => tags.get(id)).filter((t) => t !== undefined).map((t) => ({ id: t.id, label: t.label, slug: t.slug })),
    canWrite: canWriteOwned(actor, row.ownerId),
    canCollaborate: canCollaborateOnSet(actor, row),
    openRequests: requests.get(row.id) ?? 0,
  }))
}

/** One visible advice set with its tags, owner and category names; 404 when it is not visible. */
export async function getAdviceSet(deps: Deps, actor: Actor, id: number) {
  // Visibility is the query's condition (visibleTo, the rule canReadSet states), so one read finds and checks the set.
  const set = await findAdviceSetEntry(deps.db, id, setVisibility(actor))
  if (!set) throw new NotFoundError('No advice set with this id')
  const [entry] = await withTags(deps.db, actor, [set])
  return { ...entry!, createdBy: set.createdBy, updatedBy: set.updatedBy }
}

export async function getAdviceSetsByIds(deps: Deps, actor: Actor, ids: number[]): Promise<LibraryEntry[]> {
  const rows = await findAdviceSetsByIds(deps.db, ids, setVisibility(actor))
  const byId = new Map((await withTags(deps.db, actor, rows)).map((r) => [r.id, r]))
  return ids.map((id) => byId.get(id)).filter((r) => r !== undefined)
}

export async function libraryStats(deps: Deps, actor: Actor) {
  return adviceSetStats(deps.db, setVisibility(actor))
}

/** The owner's deleted advice sets, for recovery (SPEC §7 adviceset list/inactive). */
export async function listInactiveAdviceSets(deps: Deps, actor: Actor) {
  return listDeletedAdviceSets(deps.db, actor.ownerId)
}

// Writing -----------------------------------------------------------------------------------------------------------

export interface AdviceSetInput {
  name?: unknown
  nameAlt?: unknown
  description?: unknown
  categoryId?: unknown
  isPublic?: unknown
  isStarter?: unknown
}

function parseFlag(field: string, raw: unknown): boolean {
  if (typeof raw === 'boolean') return raw
  if (raw === 'true' || raw === 'on' || raw === '1') return true
  if (raw === 'false' || raw === 'off' || raw === '0' || raw === '') return false
  throw new ValidationError(field, `${field} must be true or false.`)
}

async function parseCategory(db: Db, raw: unknown, ownerId: string): Promise<number | null> {
  if (raw === null || raw === '' || raw === undefined) return null
  const id = typeof raw === 'number' ? raw : Number(raw)
  if (!Number.isSafeInteger(id) || id < 1) throw new ValidationError('categoryId', 'Invalid item id format.')
  const category = await findCategory(db, id)
  if (!category || category.ownerId !== ownerId) throw new ValidationError('categoryId', 'Category does not exist in this advice set’s library.')
  return id
}

/** The fields sent, each checked; all that are wrong are told together. */
function parseChanges(db: Db, input: AdviceSetInput, ownerId: string): Promise<Partial<AdviceSetFields>> {
  return checkSentFields<Pick<AdviceSetFields, 'name' | 'nameAlt' | 'description' | 'categoryId' | 'isPublic' | 'isStarter'>>(input, {
    name: () => requireText('name', input.name, 'Name', 200),
    nameAlt: () => optionalText('nameAlt', input.nameAlt, 'Display name', 200),
    description: () => optionalText('description', input.description, 'Description', 5000, 'multiline'),
    categoryId: () => parseCategory(db, input.categoryId, ownerId),
    isPublic: () => parseFlag('isPublic', input.isPublic),
    isStarter: () => parseFlag('isStarter', input.isStarter),
  })
}

export async function createAdviceSet(deps: Deps, actor: Actor, input: AdviceSetInput): Promise<AdviceSetRow> {
  if (!canCreate(actor)) throw new ForbiddenError('Viewers cannot create advice sets. Ask an admin of your team to make you an author.')
  const changes = await parseChanges(deps.db, { ...input, name: input.name ?? '' }, actor.ownerId)
  return deps.db.transaction(async (tx) => {
    const set = await insertAdviceSet(tx, {
      ownerId: actor.ownerId, name: changes.name!, nameAlt: changes.nameAlt ?? '', description: changes.description ?? '',
      categoryId: changes.categoryId ?? null, isPublic: changes.isPublic ?? false, isStarter: changes.isStarter ?? false,
      createdBy: actor.userId,
    })
    await audit(tx, actor, { ownerId: set.ownerId, action: 'create', entityType: ENTITY_ADVICE_SET, entityId: set.id, after: snapshotOf(set, []) })
    return set
  })
}

async function writableSet(db: Db, actor: Actor, id: number, opts: { includeDeleted?: boolean } = {}): Promise<AdviceSetRow> {
  const set = await findAdviceSet(db, id, opts)
  if (!set) throw new NotFoundError('No advice set with this id')
  assertWritable(actor, set)
  return set
}

/** Applies changes and records one activity row; a change that changes nothing records nothing. */
async function applyChanges(tx: Db, actor: Actor, set: AdviceSetRow, changes: Partial<AdviceSetFields>, tagIds?: number[]): Promise<{ set: AdviceSetRow; changed: boolean }> {
  const beforeTags = await tagIdsOf(tx, set.id)
  const before = snapshotOf(set, beforeTags)
  const changed = (Object.keys(changes) as Array<keyof AdviceSetFields>).filter((k) => changes[k] !== set[k])
  const tagsChanged = tagIds !== undefined && !sameIds(tagIds, beforeTags)
  if (changed.length === 0 && !tagsChanged) return { set, changed: false }
  const updated = changed.length > 0 ? await updateAdviceSetRow(tx, set.id, { ...changes, updatedBy: actor.userId }) : set
  if (tagsChanged) await setTagLinks(tx, ENTITY_ADVICE_SET, set.id, tagIds)
  await audit(tx, actor, { ownerId: updated.ownerId, action: 'update', entityType: ENTITY_ADVICE_SET, entityId: set.id,
    before, after: snapshotOf(updated, tagsChanged ? [...tagIds].sort((a, b) => a - b) : beforeTags) })
  return { set: updated, changed: true }
}

function sameIds(a: number[], b: number[]): boolean {
  const sortedB = [...b].sort((x, y) => x - y)
  return a.length === b.length && [...a].sort((x, y) => x - y).every((v, i) => v === sortedB[i])
}

export async function updateAdviceSet(deps: Deps, actor: Actor, id: number, input: AdviceSetInput): Promise<AdviceSetRow> {
  const set = await writableSet(deps.db, actor, id)
  const changes = await parseChanges(deps.db, input, set.ownerId)
  if (Object.keys(changes).length === 0) throw new ValidationError('name', 'Nothing to change: send name, nameAlt, description, categoryId, isPublic or isStarter.')
  return deps.db.transaction(async (tx) => (await applyChanges(tx, actor, set, changes)).set)
}

export async function deleteAdviceSet(deps: Deps, actor: Actor, id: number): Promise<void> {
  const set = await writableSet(deps.db, actor, id)
  await assertNoDependents(deps.db, ENTITY_ADVICE_SET, id, `“${set.name}”`)
  await deps.db.transaction(async (tx) => {
    const tagIds = await tagIdsOf(tx, id)
    const deleted = await updateAdviceSetRow(tx, id, { deletedAt: new Date(), updatedBy: actor.userId })
    await audit(tx, actor, { ownerId: set.ownerId, action: 'delete', entityType: ENTITY_ADVICE_SET, entityId: id, before: snapshotOf(set, tagIds), after: snapshotOf(deleted, tagIds) })
  })
}

export async function recoverAdviceSet(deps: Deps, actor: Actor, id: number): Promise<AdviceSetRow> {
  const set = await writableSet(deps.db, actor, id, { includeDeleted: true })
  if (!set.deletedAt) throw new ValidationError('id', 'This advice set is not deleted.')
  return deps.db.transaction(async (tx) => {
    const tagIds = await tagIdsOf(tx, id)
    const recovered = await updateAdviceSetRow(tx, id, { deletedAt: null, updatedBy: actor.userId })
    await audit(tx, actor, { ownerId: set.ownerId, action: 'restore', entityType: ENTITY_ADVICE_SET, entityId: id, before: snapshotOf(set, tagIds), after: snapshotOf(recovered, tagIds) })
    return recovered
  })
}

/** Copies a readable set, with its rules, trees, dictionary entries and scenarios, into the actor's own library. Tags the new owner cannot see are left behind. */
export async function copyAdviceSet(deps: Deps, actor: Actor, id: number, input: { name?: unknown } = {}): Promise<AdviceSetRow> {
  if (!canCreate(actor)) throw new ForbiddenError('Viewers cannot copy advice sets. Ask an admin of your team to make you an author.')
  const source = await findAdviceSet(deps.db, id)
  if (!source || !canReadSet(actor, source)) throw new NotFoundError('No advice set with this id')
  const name = input.name === undefined || input.name === '' ? `Copy of ${source.name}`.slice(0, 200) : requireText('name', input.name, 'Name', 200)
  const allowedTags = await visibleTagIds(deps.db, actor.ownerId)
  return deps.db.transaction(async (tx) => {
    const tagIds = (await tagIdsOf(tx, id)).filter((t) => allowedTags.has(t))
    const copy = await insertAdviceSet(tx, {
      ownerId: actor.ownerId, name, nameAlt: source.nameAlt, description: source.description,
      categoryId: source.ownerId === actor.ownerId ? source.categoryId : null,
      isPublic: false, isStarter: false, createdBy: actor.userId,
    })
    await setTagLinks(tx, ENTITY_ADVICE_SET, copy.id, tagIds)
    const { counts, nodeIds } = await copyAdviceSetContent(tx, actor, source, copy)
    const copied = { ...counts, scenarios: await copyScenariosOfSet(tx, actor, source.id, copy.id, nodeIds) }
    await audit(tx, actor, { ownerId: copy.ownerId, action: 'create', entityType: ENTITY_ADVICE_SET, entityId: copy.id, after: { ...snapshotOf(copy, tagIds), copiedFrom: id, copied } })
    return copy
  })
}

/**
 * Moves a set to another owner (provider admins only). Its category and the old owner's own tags stay behind; its
 * dictionary entries come along (authoring/set-copy.ts).
 */
export async function transferAdviceSet(deps: Deps, actor: Actor, id: number, input: { ownerId: unknown }): Promise<AdviceSetRow> {
  if (!isProviderAdmin(actor)) throw new ForbiddenError('Only provider admins can transfer advice sets.')
  const ownerId = requireText('ownerId', input.ownerId, 'Owner', 64)
  const set = await writableSet(deps.db, actor, id)
  if (!(await findOwner(deps.db, ownerId))) throw new ValidationError('ownerId', 'Owner does not exist.')
  if (ownerId === set.ownerId) throw new ValidationError('ownerId', 'The advice set already belongs to this owner.')
  const keep = await visibleTagIds(deps.db, ownerId)
  return deps.db.transaction(async (tx) => {
    const tagIds = (await tagIdsOf(tx, id)).filter((t) => keep.has(t))
    await takeEntriesAlong(tx, actor, set, ownerId)
    return (await applyChanges(tx, actor, set, { ownerId, categoryId: null }, tagIds)).set
  })
}

export interface BulkChanges {
  categoryId?: unknown
  addTagId?: unknown
  removeTagId?: unknown
  isPublic?: unknown
  isStarter?: unknown
}

/** One transaction, one activity row per set that actually changed (SPEC §2 bulk editor). */
export async function bulkUpdateAdviceSets(deps: Deps, actor: Actor, ids: number[], input: BulkChanges): Promise<{ changed: number }> {
  if (ids.length === 0) throw new ValidationError('ids', 'Select at least one advice set.')
  if (ids.length > 500) throw new ValidationError('ids', 'Select at most 500 advice sets at a time.')
  const sets = await Promise.all(ids.map((id) => writableSet(deps.db, actor, id)))
  const tags = await visibleTagIds(deps.db, actor.ownerId)
  const addTag = parseTagId('addTagId', input.addTagId, tags)
  const removeTag = parseTagId('removeTagId', input.removeTagId, tags)
  let changed = 0
  await deps.db.transaction(async (tx) => {
    for (const set of sets) {
      const changes = await parseChanges(tx, { categoryId: input.categoryId, isPublic: input.isPublic, isStarter: input.isStarter }, set.ownerId)
      let tagIds: number[] | undefined
      if (addTag !== undefined || removeTag !== undefined) {
        const current = await tagIdsOf(tx, set.id)
        tagIds = [...new Set([...current, ...(addTag !== undefined ? [addTag] : [])])].filter((t) => t !== removeTag)
      }
      if ((await applyChanges(tx, actor, set, changes, tagIds)).changed) changed += 1
    }
  })
  return { changed }
}

function parseTagId(field: string, raw: unknown, allowed: Set<number>): number | undefined {
  if (raw === undefined || raw === '' || raw === null) return undefined
  const id = typeof raw === 'number' ? raw : Number(raw)
  if (!Number.isSafeInteger(id) || !allowed.has(id)) throw new ValidationError(field, 'Tag does not exist.')
  return id
}

/** Adds the tag a typed name means (tagNamed) to a set: the set page's picker, for owners with many tags. */
export async function addAdviceSetTagNamed(deps: Deps, actor: Actor, setId: number, name: unknown): Promise<number[]> {
  const set = await writableSet(deps.db, actor, setId)
  const tag = await tagNamed(deps.db, set.ownerId, name, 'tagLabel')
  return setAdviceSetTag(deps, actor, setId, tag.id, true)
}

/** Links or unlinks one tag (SPEC §7 tags {id}/link and {id}/unlink); recorded as an update of the set. */
export async function setAdviceSetTag(deps: Deps, actor: Actor, setId: number, tagId: number, linked: boolean): Promise<number[]> {
  const set = await writableSet(deps.db, actor, setId)
  if (!(await visibleTagIds(deps.db, set.ownerId)).has(tagId)) throw new NotFoundError('No tag with this id')
  return deps.db.transaction(async (tx) => {
    const current = await tagIdsOf(tx, setId)
    const next = linked ? [...new Set([...current, tagId])] : current.filter((t) => t !== tagId)
    await applyChanges(tx, actor, set, {}, next)
    return tagIdsOf(tx, setId)
  })
}


/** Puts a set back as a snapshot describes it; null (undoing its creation) deletes it. Used by the activity log. */
export async function restoreAdviceSetSnapshot(deps: Deps, actor: Actor, id: number, target: AdviceSetSnapshot | null): Promise<void> {
  const set = await writableSet(deps.db, actor, id, { includeDeleted: true })
  if (target === null || target.deleted) await assertNoDependents(deps.db, ENTITY_ADVICE_SET, id, `“${set.name}”`)
  const keep = await visibleTagIds(deps.db, target?.ownerId ?? set.ownerId)
  await deps.db.transaction(async (tx) => {
    const beforeTags = await tagIdsOf(tx, id)
    const fields: Partial<AdviceSetFields> & { deletedAt: Date | null } = target === null
      ? { deletedAt: set.deletedAt ?? new Date() }
      : {
          ownerId: target.ownerId, name: target.name, nameAlt: target.nameAlt, description: target.description,
          isPublic: target.isPublic, isStarter: target.isStarter, deletedAt: target.deleted ? (set.deletedAt ?? new Date()) : null,
          categoryId: target.categoryId !== null && (await findCategory(tx, target.categoryId))?.ownerId === target.ownerId ? target.categoryId : null,
        }
    const restored = await updateAdviceSetRow(tx, id, { ...fields, updatedBy: actor.userId })
    const tagIds = target === null ? beforeTags : target.tagIds.filter((t) => keep.has(t))
    if (target !== null) await setTagLinks(tx, ENTITY_ADVICE_SET, id, tagIds)
    await audit(tx, actor, { ownerId: restored.ownerId, action: 'restore', entityType: ENTITY_ADVICE_SET, entityId: id,
      before: snapshotOf(set, beforeTags), after: snapshotOf(restored, tagIds) })
  })
}
