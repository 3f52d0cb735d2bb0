// Tags: the provider's tags are everyone's; an owner may add its own (SPEC §3 tags, tag types). The tags admin
// (/admin/tag): admins edit, merge and delete their owner's tags, provider admins every tag; the provider's fixed
// tags (the slugs the engine reads on rule nodes: assumption, collapse, example, follow-on, and the Needs Work
// label) keep their slug and type and cannot be deleted or merged away.
import type { Db } from '../../db/client.ts'
import { keysetPage, type KeysetPage, type KeysetParams } from '../../db/queries/keyset-page.ts'
import {
  countTagUses, deleteTagLinks, findLiveTagBySlug, findTag, findTagBySlug, findTagsByIds, insertTag, listAllTags, listTags, moveTagLinks, searchTags,
  setsWithTag, updateTag, type TagRow,
} from '../../db/queries/advice-sets.ts'
import { listOwnedNodes } from '../../db/queries/rule-nodes.ts'
import { findOwner } from '../../db/queries/users.ts'
import { audit } from '../audit/audit.ts'
import { isProviderAdmin, PROVIDER_OWNER_ID, type Actor, type Deps } from '../context.ts'
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../errors.ts'
import { optionalText, requireOneOf, requireText } from '../validate.ts'
import { canCreate } from '../accounts/visibility.ts'

/** SPEC §3: the provider's tags whose slugs the engine and the rule tree rely on. */
export const FIXED_TAG_SLUGS: readonly string[] = ['assumption', 'collapse', 'example', 'follow-on', 'needs-work']

export const TAG_TYPES = ['label', 'advice_group', 'advice_type'] as const

/** The tags the actor may use, by label; with `page.limit`, the first that many (after `page.afterId`). */
export async function listVisibleTags(deps: Deps, actor: Actor, page: KeysetParams = {}): Promise<TagRow[]> {
  return listTags(deps.db, [...new Set([actor.ownerId, PROVIDER_OWNER_ID])], page)
}

/** A tag the actor may use (its owner's or the provider's), else 404. */
export async function visibleTag(deps: Deps, actor: Actor, id: number): Promise<TagRow> {
  const tag = await findTag(deps.db, id)
  if (!tag || (tag.ownerId !== actor.ownerId && tag.ownerId !== PROVIDER_OWNER_ID)) throw new NotFoundError('No tag with this id')
  return tag
}

/**
 * The most tags a page offers in a select (the set page's "add", the library's filter). An owner may have hundreds (the
 * scale tenant: 300, 15 KB of a page); beyond this many the page has a picker that finds tags by name as they are typed.
 */
export const TAG_SELECT_MAX = 50

/** The most tags a picker suggests at once. */
export const MAX_TAG_SUGGESTIONS = 100

/** The tags the actor may use whose label contains `text`, by label, at most `limit` (the pickers' suggestions). */
export async function findVisibleTags(deps: Deps, actor: Actor, text: string, limit: number): Promise<TagRow[]> {
  return searchTags(deps.db, [...new Set([actor.ownerId, PROVIDER_OWNER_ID])], text.trim(), limit)
}

/**
 * The tag an owner may use that a typed name means: its slug's, so case, spacing and punctuation do not matter (the
 * owner's own before the provider's). `field` names the form field the name came from, for the error.
 */
export async function tagNamed(db: Db, ownerId: string, name: unknown, field: string): Promise<TagRow> {
  const label = requireText(field, name, 'Tag', 60)
  const tag = await findLiveTagBySlug(db, [...new Set([ownerId, PROVIDER_OWNER_ID])], slugify(label))
  if (!tag) throw new ValidationError(field, `No tag is named “${label}”. Admins make tags on the Tags page.`)
  return tag
}

export async function visibleTagIds(db: Db, ownerId: string): Promise<Set<number>> {
  return new Set((await listTags(db, [...new Set([ownerId, PROVIDER_OWNER_ID])])).map((t) => t.id))
}

export async function tagsById(db: Db, ids: number[]): Promise<Map<number, TagRow>> {
  if (ids.length === 0) return new Map()
  return new Map((await findTagsByIds(db, ids)).map((t) => [t.id, t]))
}

export function slugify(label: string): string {
  return label.toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60)
}

export async function createTag(deps: Deps, actor: Actor, input: { label: unknown; type?: unknown }): Promise<TagRow> {
  if (!canCreate(actor)) throw new ForbiddenError('Viewers cannot create tags. Ask an admin of your team to make you an author.')
  const label = requireText('label', input.label, 'Tag', 60)
  const type = input.type === undefined || input.type === '' ? 'label' : requireOneOf('type', input.type, TAG_TYPES, 'Tag type')
  const slug = slugify(label)
  if (!slug) throw new ConflictError('label', 'Tag needs at least one letter or digit.')
  if (await findTagBySlug(deps.db, actor.ownerId, slug) || await findTagBySlug(deps.db, PROVIDER_OWNER_ID, slug)) {
    throw new ConflictError('label', `A tag “${label}” already exists.`)
  }
  return deps.db.transaction(async (tx) => {
    const tag = await insertTag(tx, { ownerId: actor.ownerId, slug, label, type })
    await audit(tx, actor, { ownerId: actor.ownerId, action: 'create', entityType: 'tag', entityId: tag.id, after: { name: label, slug, type } })
    return tag
  })
}

export function isFixedTag(tag: Pick<TagRow, 'ownerId' | 'slug'>): boolean {
  return tag.ownerId === PROVIDER_OWNER_ID && FIXED_TAG_SLUGS.includes(tag.slug)
}

function canManageTag(actor: Actor, tag: Pick<TagRow, 'ownerId'>): boolean {
  return isProviderAdmin(actor) || (actor.role === 'admin' && tag.ownerId === actor.ownerId)
}

function assertTagAdmin(actor: Actor): void {
  if (actor.role !== 'admin') throw new ForbiddenError('Only admins manage tags: ask an admin of your team.')
}

/** A tag the actor may see in the tags admin (its own owner's, the provider's; provider admins: any), else 404. */
async function adminTag(deps: Deps, actor: Actor, id: number): Promise<TagRow> {
  assertTagAdmin(actor)
  const tag = await findTag(deps.db, id)
  if (!tag || !(isProviderAdmin(actor) || tag.ownerId === actor.ownerId || tag.ownerId === PROVIDER_OWNER_ID)) throw new NotFoundError('No tag with this id')
  return tag
}

async function managedTag(deps: Deps, actor: Actor, id: number): Promise<TagRow> {
  const tag = await adminTag(deps, actor, id)
  if (!canManageTag(actor, tag)) throw new ForbiddenError('Only provider admins change the provider’s tags.')
  return tag
}

export interface AdminTag extends TagRow { uses: number; fixed: boolean; canManage: boolean; ownerName: string }

/** Teams by name (a tag list holds a handful of owners: the provider's and the teams whose tags are shown). */
async function ownerNames(db: Db, ownerIds: string[]): Promise<Map<string, string>> {
  const ids = [...new Set(ownerIds)]
  return new Map(await Promise.all(ids.map(async (id) => [id, id === PROVIDER_OWNER_ID ? 'Provider' : (await findOwner(db, id))?.name ?? 'a deleted team'] as const)))
}

/** Tags a page of the tags admin shows; the rest follow by "Next tags". */
export const TAG_PAGE_SIZE = 100

/** The tags admin's list: the actor's team's and the provider's tags (provider admins: every team's), a page at a time. */
export async function tagAdminPage(deps: Deps, actor: Actor, afterId?: number): Promise<KeysetPage<AdminTag>> {
  return keysetPage(await listTagsForAdmin(deps, actor, { afterId, limit: TAG_PAGE_SIZE + 1 }), TAG_PAGE_SIZE)
}

/** The tags the actor administers, each with its count of live sets; all of them without a page. */
export async function listTagsForAdmin(deps: Deps, actor: Actor, page: KeysetParams = {}): Promise<AdminTag[]> {
  assertTagAdmin(actor)
  const rows = isProviderAdmin(actor) ? await listAllTags(deps.db, page) : await listTags(deps.db, [...new Set([actor.ownerId, PROVIDER_OWNER_ID])], page)
  const [uses, owners] = await Promise.all([countTagUses(deps.db, rows.map((t) => t.id)), ownerNames(deps.db, rows.map((t) => t.ownerId))])
  return rows.map((t) => ({ ...t, uses: uses.get(t.id) ?? 0, fixed: isFixedTag(t), canManage: canManageTag(actor, t), ownerName: owners.get(t.ownerId)! }))
}

/** The edit page: the tag, where it is used (sets; for fixed tags also the rule nodes carrying its slug), merge targets. */
export async function tagDetails(deps: Deps, actor: Actor, id: number) {
  const tag = await adminTag(deps, actor, id)
  const [sets, nodes, sameTeam] = await Promise.all([
    setsWithTag(deps.db, id),
    isFixedTag(tag) ? listOwnedNodes(deps.db, { tag: tag.slug, ownerIds: isProviderAdmin(actor) ? undefined : [actor.ownerId] }) : Promise.resolve([]),
    // A tag merges only into another of its own team: those are read, not every tag the actor administers (for a
    // provider admin, every team's) with their counts of uses.
    canManageTag(actor, tag) && !isFixedTag(tag) ? listTags(deps.db, [tag.ownerId]) : Promise.resolve([]),
  ])
  const visibleSets = sets.filter((s) => isProviderAdmin(actor) || s.ownerId === actor.ownerId)
  return {
    tag: { ...tag, fixed: isFixedTag(tag), canManage: canManageTag(actor, tag), ownerName: (await ownerNames(deps.db, [tag.ownerId])).get(tag.ownerId)! },
    sets: visibleSets,
    nodes: nodes.slice(0, 100).map((n) => ({ id: n.id, adviceSetId: n.adviceSetId, adviceSetName: n.adviceSetName, ruleId: n.ruleId, ruleName: n.ruleName, headline: n.headline ?? n.type })),
    nodeCount: nodes.length,
    mergeTargets: sameTeam.filter((t) => t.id !== id),
  }
}

export async function updateTagAdmin(deps: Deps, actor: Actor, id: number, input: { label?: unknown; type?: unknown; description?: unknown }): Promise<TagRow> {
  const tag = await managedTag(deps, actor, id)
  const label = input.label === undefined ? tag.label : requireText('label', input.label, 'Tag', 60)
  const type = input.type === undefined ? tag.type : requireOneOf('type', input.type, TAG_TYPES, 'Tag type')
  const description = input.description === undefined ? tag.description : optionalText('description', input.description, 'Description', 500, 'multiline')
  if (isFixedTag(tag) && type !== tag.type) throw new ValidationError('type', `The type of “${tag.label}” is fixed: the advice relies on it.`)
  // The slug follows the label, except for fixed tags, whose slug rule nodes carry.
  const slug = isFixedTag(tag) ? tag.slug : slugify(label)
  if (!slug) throw new ValidationError('label', 'Tag needs at least one letter or digit.')
  const clash = await findTagBySlug(deps.db, tag.ownerId, slug)
  if (clash && clash.id !== id && clash.deletedAt === null) throw new ConflictError('label', `A tag “${clash.label}” already exists.`)
  return deps.db.transaction(async (tx) => {
    const row = await updateTag(tx, id, { label, slug, type, description })
    await audit(tx, actor, { ownerId: tag.ownerId, action: 'update', entityType: 'tag', entityId: id, before: { name: tag.label, slug: tag.slug, type: tag.type, description: tag.description }, after: { name: label, slug, type, description } })
    return row
  })
}

export async function deleteTag(deps: Deps, actor: Actor, id: number): Promise<void> {
  const tag = await deletableTag(deps, actor, id)
  await deps.db.transaction(async (tx) => {
    const sets = await setsWithTag(tx, id)
    await deleteTagLinks(tx, id)
    await updateTag(tx, id, { deletedAt: new Date() })
    await audit(tx, actor, { ownerId: tag.ownerId, action: 'delete', entityType: 'tag', entityId: id, before: { name: tag.label, slug: tag.slug, type: tag.type, sets: sets.map((s) => s.id) } })
  })
}

/** A tag that may be merged into another, and that other: both the actor's to manage, of one owner. */
async function mergePair(deps: Deps, actor: Actor, id: number, intoId: number): Promise<{ tag: TagRow; into: TagRow }> {
  const tag = await managedTag(deps, actor, id)
  if (isFixedTag(tag)) throw new ValidationError('into', `“${tag.label}” cannot be merged away: the advice relies on it.`)
  if (intoId === id) throw new ValidationError('into', 'Choose another tag to merge into.')
  const into = await managedTag(deps, actor, intoId).catch(() => { throw new ValidationError('into', 'Choose a tag of the same team to merge into.') })
  if (into.ownerId !== tag.ownerId) throw new ValidationError('into', 'Choose a tag of the same team to merge into.')
  return { tag, into }
}

/**
 * What a merge would do, for its confirmation: of the advice sets carrying the tag, how many move to the target and
 * how many already carry it (they only lose the merged tag).
 */
export async function mergePreview(deps: Deps, actor: Actor, id: number, intoId: number) {
  const { tag, into } = await mergePair(deps, actor, id, intoId)
  const [sets, intoSets] = await Promise.all([setsWithTag(deps.db, id), setsWithTag(deps.db, intoId)])
  const carrying = new Set(intoSets.map((s) => s.id))
  const already = sets.filter((s) => carrying.has(s.id)).length
  return { tag, into, moving: sets.length - already, already }
}

async function deletableTag(deps: Deps, actor: Actor, id: number): Promise<TagRow> {
  const tag = await managedTag(deps, actor, id)
  if (isFixedTag(tag)) throw new ValidationError('id', `“${tag.label}” cannot be deleted: the advice relies on it.`)
  return tag
}

/** What a delete would do, for its confirmation: how many advice sets lose the tag. */
export async function deletePreview(deps: Deps, actor: Actor, id: number) {
  const tag = await deletableTag(deps, actor, id)
  return { tag, links: (await setsWithTag(deps.db, id)).length }
}

/** Merges `id` into `intoId` (both of one owner): every set carrying `id` carries `intoId` instead; `id` is deleted. */
export async function mergeTags(deps: Deps, actor: Actor, id: number, intoId: number): Promise<TagRow> {
  const { tag, into } = await mergePair(deps, actor, id, intoId)
  return deps.db.transaction(async (tx) => {
    const sets = await setsWithTag(tx, id)
    await moveTagLinks(tx, id, intoId)
    await updateTag(tx, id, { deletedAt: new Date() })
    await audit(tx, actor, { ownerId: tag.ownerId, action: 'delete', entityType: 'tag', entityId: id, before: { name: tag.label, slug: tag.slug, type: tag.type }, after: { mergedInto: intoId, sets: sets.map((s) => s.id) } })
    return into
  })
}
