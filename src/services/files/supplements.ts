// Supplements as things authors keep: read one with where it is used, list a library, create a link, edit, delete
// (refused with 221 while something live uses it) and restore. Every write is audited in its transaction.
import { randomBytes } from 'node:crypto'
import type { Db } from '../../db/client.ts'
import {
  insertSupplement, listLinkUses, listSupplements, updateSupplement, type LinkUse, type SupplementRow,
} from '../../db/queries/supplements.ts'
import { SUPPLEMENT_FORMATS, type SupplementFormat } from '../../db/schema/index.ts'
import { canCreate, canWriteOwned } from '../accounts/visibility.ts'
import { audit } from '../audit/audit.ts'
import { isProviderAdmin, PROVIDER_OWNER_ID, type Actor, type Deps } from '../context.ts'
import { DeleteNotAllowedError, ForbiddenError, ValidationError, type Dependent } from '../errors.ts'
import { canSeeUse, readableSupplement, writableSupplement } from './access.ts'
import { isRasterImage, LINK_TYPE } from './kinds.ts'
import { THUMBNAIL_SIZES } from './thumbnails.ts'
import { nameFromUrl, supplementDescription, supplementName, supplementType, webAddress } from './validate.ts'

export const ENTITY_SUPPLEMENT = 'supplement'

/** The two libraries (SPEC §2 Media and Visualizations) and the formats each shows. */
export const LIBRARIES = {
  media: { formats: ['image', 'file', 'link', 'buffer'], path: '/media', title: 'Media' },
  visualizations: { formats: ['viz'], path: '/visualizations', title: 'Visualizations' },
} as const satisfies Record<string, { formats: readonly SupplementFormat[]; path: string; title: string }>
export type Library = keyof typeof LIBRARIES

export const LIBRARY_PAGE_SIZE = 48

export function libraryOf(format: SupplementFormat): Library {
  return format === 'viz' ? 'visualizations' : 'media'
}

/** The page of a supplement in its library. */
export function supplementHref(row: Pick<SupplementRow, 'id' | 'format'>): string {
  return `${LIBRARIES[libraryOf(row.format)].path}/${row.id}/show`
}

export function newAccessToken(): string {
  return randomBytes(24).toString('base64url')
}

/** What the audit log keeps of a supplement (no token: the log is readable by the whole team). */
export function auditView(row: SupplementRow) {
  return {
    id: row.id, name: row.name, type: row.type, format: row.format, contentType: row.contentType, fileExt: row.fileExt, size: row.size,
    url: row.url, imageUrl: row.imageUrl, description: row.description, deleted: row.deletedAt !== null,
  }
}
export type SupplementSnapshot = ReturnType<typeof auditView>

/** A supplement as the API answers it: never its storage key or token. */
export function publicView(row: SupplementRow) {
  return {
    id: row.id, ownerId: row.ownerId, name: row.name, type: row.type, format: row.format, source: row.source, contentType: row.contentType,
    fileExt: row.fileExt, size: row.size, url: row.url, imageUrl: row.imageUrl, description: row.description,
    createdAt: row.createdAt, updatedAt: row.updatedAt, deleted: row.deletedAt !== null,
  }
}
export type SupplementView = ReturnType<typeof publicView>

/** A supplement in a list (library, a target's supplements, an upload's answer): with its page and its thumbnail. */
export function listedView(row: SupplementRow) {
  return { ...publicView(row), href: supplementHref(row), thumbnail: isRasterImage(row.contentType) ? `/api/supplements/${row.id}/view?thumbnail=${THUMBNAIL_SIZES[0]}` : null }
}

// Where used ---------------------------------------------------------------------------------------------------------

export interface UseView { linkId: number; targetType: LinkUse['targetType']; targetId: number; label: string; adviceSetName: string; href: string }

function useLabel(use: LinkUse): string {
  if (!use.node || !use.rule) return `Advice set “${use.adviceSet.name}”`
  const text = (use.node.headline || use.node.text || '').trim().slice(0, 80)
  return `${text ? `Advice “${text}”` : `Node #${use.node.id}`} in ${use.rule.name}`
}

export function useView(use: LinkUse): UseView {
  return {
    linkId: use.linkId, targetType: use.targetType, targetId: use.targetId, label: useLabel(use), adviceSetName: use.adviceSet.name,
    href: use.node && use.rule ? `/adviceset/${use.adviceSet.id}/rule/${use.rule.id}/part/${use.node.id}` : `/adviceset/${use.adviceSet.id}/show`,
  }
}

const isLive = (use: LinkUse) => use.node?.live ?? use.adviceSet.live

/** The live uses of supplements, by supplement: those the actor can see, and how many others there are. */
export async function usesOf(db: Db, actor: Actor, ids: number[]): Promise<Map<number, { shown: UseView[]; hidden: number }>> {
  const uses = new Map<number, { shown: UseView[]; hidden: number }>(ids.map((id) => [id, { shown: [], hidden: 0 }]))
  for (const use of await listLinkUses(db, ids)) {
    if (!isLive(use)) continue
    const entry = uses.get(use.supplementId)!
    if (canSeeUse(actor, use)) entry.shown.push(useView(use))
    else entry.hidden += 1
  }
  return uses
}

// Reading --------------------------------------------------------------------------------------------------------------

export async function getSupplement(deps: Deps, actor: Actor, id: number) {
  const row = await readableSupplement(deps.db, actor, id)
  const uses = (await usesOf(deps.db, actor, [id])).get(id)!
  return { ...publicView(row), uses: uses.shown, hiddenUses: uses.hidden, canWrite: canWriteOwned(actor, row.ownerId), href: supplementHref(row) }
}

/** `all`: both libraries (the pickers that attach an existing supplement). */
export interface LibraryQuery { library: Library | 'all'; text?: string; page: number }

/** A page of a library: the actor's owner's supplements and the provider's (provider admins: everyone's). */
export async function listLibrary(deps: Deps, actor: Actor, query: LibraryQuery) {
  const page = Math.max(1, query.page)
  const { rows, total } = await listSupplements(deps.db, {
    ownerIds: isProviderAdmin(actor) ? undefined : [...new Set([actor.ownerId, PROVIDER_OWNER_ID])],
    formats: query.library === 'all' ? SUPPLEMENT_FORMATS : LIBRARIES[query.library].formats, text: query.text?.trim() || undefined,
    offset: (page - 1) * LIBRARY_PAGE_SIZE, limit: LIBRARY_PAGE_SIZE,
  })
  const uses = await usesOf(deps.db, actor, rows.map((r) => r.id))
  return {
    entries: rows.map((row) => ({ ...listedView(row), ownerName: row.ownerName, useCount: uses.get(row.id)!.shown.length + uses.get(row.id)!.hidden })),
    total, page, pageCount: Math.max(1, Math.ceil(total / LIBRARY_PAGE_SIZE)),
  }
}

// Writing ------------------------------------------------------------------------------------------------------------

export function assertCanCreate(actor: Actor): void {
  if (!canCreate(actor)) throw new ForbiddenError('Viewers cannot add supplements.')
}

export interface LinkInput { url?: unknown; name?: unknown; imageUrl?: unknown; type?: unknown; description?: unknown }

/** Google's document and drive hosts: a link there is a google source (SPEC §3 sources). */
function linkSource(href: string): SupplementRow['source'] {
  return /(^|\.)(docs|drive|sheets|slides)\.google\.com$/.test(new URL(href).hostname) ? 'google' : null
}

/** Values of a link supplement from its form; the name defaults to the address. */
function linkValues(input: LinkInput) {
  const url = webAddress('url', input.url, { required: true })!
  const name = input.name === undefined || (typeof input.name === 'string' && input.name.trim() === '') ? nameFromUrl(url) : supplementName(input.name)
  return { url, name, imageUrl: webAddress('imageUrl', input.imageUrl, { required: false }), source: linkSource(url) }
}

/** A link supplement (format link): the address, and a name and image the client typed or took from the page's OpenGraph data. */
export async function createLinkSupplement(deps: Deps, actor: Actor, input: LinkInput, tx?: Db): Promise<SupplementRow> {
  assertCanCreate(actor)
  const values = linkValues(input)
  const type = supplementType(input.type)
  const description = supplementDescription(input.description)
  const write = async (db: Db) => {
    const row = await insertSupplement(db, {
      ownerId: actor.ownerId, ...values, type, description, format: 'link', contentType: LINK_TYPE, fileExt: '', size: 0, storageKey: null,
      accessToken: newAccessToken(), createdBy: actor.userId,
    })
    await audit(db, actor, { ownerId: row.ownerId, action: 'create', entityType: ENTITY_SUPPLEMENT, entityId: row.id, after: auditView(row) })
    return row
  }
  return tx ? write(tx) : deps.db.transaction(write)
}

export async function editSupplement(deps: Deps, actor: Actor, id: number, input: LinkInput): Promise<SupplementRow> {
  const row = await writableSupplement(deps.db, actor, id)
  const changes: Parameters<typeof updateSupplement>[2] = { updatedBy: actor.userId }
  if (input.name !== undefined) changes.name = supplementName(input.name)
  if (input.type !== undefined) changes.type = supplementType(input.type)
  if (input.description !== undefined) changes.description = supplementDescription(input.description)
  if (row.format === 'link') {
    if (input.url !== undefined) {
      changes.url = webAddress('url', input.url, { required: true })
      changes.source = linkSource(changes.url!)
    }
    if (input.imageUrl !== undefined) changes.imageUrl = webAddress('imageUrl', input.imageUrl, { required: false })
  } else if (input.url !== undefined || input.imageUrl !== undefined) {
    throw new ValidationError(input.url !== undefined ? 'url' : 'imageUrl', 'Only a link has an address; upload a new file to change a file.')
  }
  return deps.db.transaction(async (tx) => {
    const updated = await updateSupplement(tx, id, changes)
    await audit(tx, actor, { ownerId: row.ownerId, action: 'update', entityType: ENTITY_SUPPLEMENT, entityId: id, before: auditView(row), after: auditView(updated) })
    return updated
  })
}

/** What keeps a supplement from being deleted: its live uses (those the actor cannot see are named only by kind). */
async function dependentsOf(db: Db, actor: Actor, id: number): Promise<Dependent[]> {
  const uses = (await usesOf(db, actor, [id])).get(id)!
  return [
    ...uses.shown.map((use) => ({ type: use.targetType, id: use.targetId, name: use.label, uri: use.href })),
    ...Array.from({ length: uses.hidden }, (_, i) => ({ type: 'adviceSet', id: `hidden-${i + 1}`, name: 'An advice set of another team' })),
  ]
}

/** Soft delete; refused with 221 "Delete Not Allowed" while a live node or advice set uses it. The file is kept for restore. */
export async function deleteSupplement(deps: Deps, actor: Actor, id: number): Promise<void> {
  const row = await writableSupplement(deps.db, actor, id)
  const dependents = await dependentsOf(deps.db, actor, id)
  if (dependents.length > 0) throw new DeleteNotAllowedError(dependents, `“${row.name}”`)
  await deps.db.transaction(async (tx) => {
    const deleted = await updateSupplement(tx, id, { deletedAt: new Date(), updatedBy: actor.userId })
    await audit(tx, actor, { ownerId: row.ownerId, action: 'delete', entityType: ENTITY_SUPPLEMENT, entityId: id, before: auditView(row), after: auditView(deleted) })
  })
}

export async function restoreSupplement(deps: Deps, actor: Actor, id: number): Promise<SupplementRow> {
  const row = await writableSupplement(deps.db, actor, id, { includeDeleted: true })
  if (!row.deletedAt) throw new ValidationError('id', 'This supplement is not deleted.')
  return deps.db.transaction(async (tx) => {
    const restored = await updateSupplement(tx, id, { deletedAt: null, updatedBy: actor.userId })
    await audit(tx, actor, { ownerId: row.ownerId, action: 'restore', entityType: ENTITY_SUPPLEMENT, entityId: id, before: auditView(row), after: auditView(restored) })
    return restored
  })
}

/** Restoring from the activity log: puts back what a snapshot says (its texts, deleted or not); null (undoing a create) deletes it. */
export async function restoreSupplementSnapshot(deps: Deps, actor: Actor, id: number, target: SupplementSnapshot | null): Promise<SupplementRow> {
  const row = await writableSupplement(deps.db, actor, id, { includeDeleted: true })
  const deleteIt = target === null || target.deleted
  if (deleteIt) {
    if (row.deletedAt) throw new ValidationError('id', 'This supplement is already deleted.')
    const dependents = await dependentsOf(deps.db, actor, id)
    if (dependents.length > 0) throw new DeleteNotAllowedError(dependents, `“${row.name}”`)
  }
  const texts = deleteIt ? {} : {
    name: supplementName(target!.name), type: supplementType(target!.type), description: supplementDescription(target!.description),
    ...(row.format === 'link' ? linkValues({ url: target!.url, name: target!.name, imageUrl: target!.imageUrl }) : {}),
  }
  return deps.db.transaction(async (tx) => {
    const restored = await updateSupplement(tx, id, { ...texts, deletedAt: deleteIt ? new Date() : null, updatedBy: actor.userId })
    await audit(tx, actor, { ownerId: row.ownerId, action: 'restore', entityType: ENTITY_SUPPLEMENT, entityId: id, before: auditView(row), after: auditView(restored) })
    return restored
  })
}
