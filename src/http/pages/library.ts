// The library pages (SPEC §2 Library row): cards, the dense classic table, the bulk editor, explore, and the
// sidebar's category forms. Filters travel in the query string so every view can be linked and reloaded.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { Type, type FastifyPluginAsyncTypebox, type Static } from '@fastify/type-provider-typebox'
import {
  CLASSIC_PAGE_SIZE, LIBRARY_PAGE_SIZE, bulkUpdateAdviceSets, getAdviceSetsByIds, listInactiveAdviceSets, listLibrary,
  type BulkChanges, type LibraryEntry,
} from '../../services/library/advice-sets.ts'
import { createCategory, deleteCategory, getCategory, listVisibleCategories } from '../../services/library/categories.ts'
import { PROVIDER_OWNER_ID, isProviderAdmin, type Actor } from '../../services/context.ts'
import { DeleteNotAllowedError, NotFoundError, ValidationError } from '../../services/errors.ts'
import { listRecent } from '../../services/library/recent-items.ts'
import { listVisibleTags, tagNamed, TAG_SELECT_MAX, visibleTag } from '../../services/library/tags.ts'
import { listOwnersForAdmin, ownerName } from '../../services/accounts/users.ts'
import { canCreate, canWriteOwned } from '../../services/accounts/visibility.ts'
import { itemId, itemIds } from '../api/ids.ts'
import { countOf, dateFormatter } from '../format.ts'
import { LibraryQuery, libraryFiltersFrom } from '../library-filters.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { FormBody, IdParams } from '../schemas.ts'
import { keptValues, renderFormError } from './forms.ts'

type Body = Record<string, unknown>

const FILTER_KEYS = ['category', 'tag', 'tagName', 'owner', 'public', 'starter', 'q', 'sort'] as const
const LINK_KEYS = [...FILTER_KEYS, 'page'] as const
const EXCERPT_LENGTH = 160

const LibraryPageQuery = Type.Object({
  ...LibraryQuery.properties,
  // The tag picker's field (an owner with more tags than the filter's select offers): a tag's name, not its id.
  tagName: Type.Optional(Type.String({ maxLength: 60 })),
  deleted: Type.Optional(Type.Integer({ minimum: 1 })),
})
type Query = Static<typeof LibraryPageQuery>
/** Keys a link replaces; undefined removes a key. */
type LinkOverrides = Partial<Record<(typeof LINK_KEYS)[number], unknown>>

/** A GET filter form sends "" for every "any" choice; the query schema wants those absent. */
export async function dropEmptyQueryValues(request: FastifyRequest): Promise<void> {
  const query = request.query
  if (query === null || typeof query !== 'object') return
  for (const [key, value] of Object.entries(query)) if (value === '') Reflect.deleteProperty(query, key)
}

/** The current filters as a query string, with some keys replaced (undefined removes a key). */
export function filterQuery(query: Query, overrides: LinkOverrides = {}): string {
  const params = new URLSearchParams()
  for (const key of LINK_KEYS) {
    const value = key in overrides ? overrides[key] : query[key]
    if (value !== undefined && value !== null && value !== '' && value !== false) params.set(key, String(value))
  }
  const text = params.toString()
  return text ? `?${text}` : ''
}

function excerpt(text: string): string {
  return text.length > EXCERPT_LENGTH ? `${text.slice(0, EXCERPT_LENGTH - 1).trimEnd()}…` : text
}

/** Owners the filter offers: everyone for provider admins, otherwise the own team and the provider. */
async function ownerOptions(app: FastifyInstance, actor: Actor) {
  if (isProviderAdmin(actor)) return listOwnersForAdmin(app.deps, actor)
  const ids = [...new Set([actor.ownerId, PROVIDER_OWNER_ID])]
  return Promise.all(ids.map(async (id) => ({ id, name: await ownerName(app.deps, id) })))
}

interface ListOptions { base: string; pageSize: number; shared?: boolean }

/**
 * The tag the library is filtered by: `tag` (an id, the select's and links') or `tagName` (the picker's, resolved as the
 * set page resolves it). A name that is no tag filters to nothing and is told at the field; `name` is what the picker shows.
 */
async function tagFilterOf(app: FastifyInstance, actor: Actor, query: Query): Promise<{ tagId?: number; name: string; error: string | null }> {
  if (query.tagName !== undefined) {
    try {
      const tag = await tagNamed(app.deps.db, actor.ownerId, query.tagName, 'tagName')
      return { tagId: tag.id, name: tag.label, error: null }
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error
      // No tag has id 0: the list is empty, as a filter by a tag that does not exist should be.
      return { tagId: 0, name: query.tagName, error: error.message }
    }
  }
  if (query.tag === undefined) return { name: '', error: null }
  // A tag the reader may not use (or none) filters as before; the field then shows no name.
  const tag = await visibleTag(app.deps, actor, query.tag).catch((error: unknown) => {
    if (error instanceof NotFoundError) return undefined
    throw error
  })
  return { tagId: query.tag, name: tag?.label ?? '', error: null }
}

/** Everything a library-style page shows: the entries of this page, filter choices and link builders. */
export async function libraryData(app: FastifyInstance, request: FastifyRequest, query: Query, o: ListOptions) {
  const actor = actorOf(request)
  const formatDate = dateFormatter(request.user!.preferences.tz)
  const tagFilter = await tagFilterOf(app, actor, query)
  const [result, categories, tags, owners] = await Promise.all([
    listLibrary(app.deps, actor, { ...libraryFiltersFrom(query), tagId: tagFilter.tagId, pageSize: o.pageSize, shared: o.shared }),
    listVisibleCategories(app.deps, actor),
    // Enough to tell whether the tags fit the filter's select.
    listVisibleTags(app.deps, actor, { limit: TAG_SELECT_MAX + 1 }),
    ownerOptions(app, actor),
  ])
  const entries = result.entries.map((entry: LibraryEntry) => ({
    ...entry,
    excerpt: excerpt(entry.description),
    byline: entry.ownerId === actor.ownerId ? null : entry.ownerName,
    updated: formatDate(entry.updatedAt),
    created: formatDate(entry.createdAt),
  }))
  const hasFilters = FILTER_KEYS.some((key) => key !== 'sort' && query[key] !== undefined)
  return {
    entries, total: result.total, page: result.page, pageCount: result.pageCount, pageSize: result.pageSize,
    filters: query, hasFilters, categories, tags, owners, base: o.base,
    tagPicker: tags.length > TAG_SELECT_MAX
      ? { inputId: 'filter-tag', name: 'tagName', label: 'Tag', exclude: [], value: tagFilter.name, errorId: tagFilter.error ? 'filter-tag-error' : null, required: false, placeholder: 'Any tag' }
      : null,
    tagError: tagFilter.error,
    url: (overrides: LinkOverrides = {}) => `${o.base}${filterQuery(query, overrides)}`,
    /** The filters without the page, for links to the other library views. */
    keep: filterQuery(query, { page: undefined }),
    canCreate: canCreate(actor),
  }
}

async function sidebarData(app: FastifyInstance, actor: Actor, query: Query, categories: Array<{ id: number; ownerId: string; name: string }>) {
  const selected = categories.find((c) => c.id === query.category)
  const deletedId = query.deleted
  const deleted = deletedId === undefined ? undefined : (await listInactiveAdviceSets(app.deps, actor)).find((s) => s.id === deletedId)
  return {
    recent: await listRecent(app.deps, actor),
    selectedCategory: selected ? { ...selected, canDelete: canWriteOwned(actor, selected.ownerId) } : null,
    deletedSet: deleted ? { id: deleted.id, name: deleted.name } : null,
  }
}

async function indexPage(app: FastifyInstance, request: FastifyRequest, query: Query) {
  const data = await libraryData(app, request, query, { base: '/library', pageSize: LIBRARY_PAGE_SIZE })
  return { title: 'Library', ...data, ...(await sidebarData(app, actorOf(request), query, data.categories)) }
}

// Bulk editor -------------------------------------------------------------------------------------------------------

const FLAG_CHOICES = new Set(['', 'true', 'false'])
const BULK_FIELDS = ['categoryId', 'addTagId', 'removeTagId', 'isPublic', 'isStarter']

interface BulkRequest { ids: number[]; changes: BulkChanges }

/** The bulk form as service input: "" means no change, category "none" clears the category. */
function bulkRequestFrom(body: Body): BulkRequest {
  const ids = itemIds(body.ids)
  if (ids.length === 0) throw new ValidationError('ids', 'Select at least one advice set.')
  const text = (key: string) => (typeof body[key] === 'string' ? body[key] : '')
  const changes: BulkChanges = {}
  if (text('categoryId') === 'none') changes.categoryId = null
  else if (text('categoryId') !== '') changes.categoryId = text('categoryId')
  if (text('addTagId') !== '') changes.addTagId = text('addTagId')
  if (text('removeTagId') !== '') changes.removeTagId = text('removeTagId')
  for (const flag of ['isPublic', 'isStarter'] as const) {
    if (!FLAG_CHOICES.has(text(flag))) throw new ValidationError(flag, `${flag} must be yes, no or no change.`)
    if (text(flag) !== '') changes[flag] = text(flag)
  }
  if (Object.keys(changes).length === 0) throw new ValidationError('changes', 'Choose at least one change to make.')
  return { ids, changes }
}

/**
 * The bulk form with its tag pickers' names (a team with more tags than a select offers) as the tag ids the selects
 * send, so the confirmation carries ids as for a select. A name that is no tag is refused at its field.
 */
async function withTagIdsFromNames(app: FastifyInstance, actor: Actor, body: Body): Promise<Body> {
  const named: Body = { ...body }
  for (const [nameField, idField] of [['addTagName', 'addTagId'], ['removeTagName', 'removeTagId']] as const) {
    const name = body[nameField]
    delete named[nameField]
    if (typeof name === 'string' && name.trim() !== '') named[idField] = String((await tagNamed(app.deps.db, actor.ownerId, name, nameField)).id)
  }
  return named
}

/** What the confirmation page says will happen, in words. */
async function describeBulk(app: FastifyInstance, actor: Actor, { changes }: BulkRequest): Promise<string[]> {
  const [categories, tags] = await Promise.all([listVisibleCategories(app.deps, actor), listVisibleTags(app.deps, actor)])
  const tagLabel = (field: string, raw: unknown) => {
    const tag = tags.find((t) => String(t.id) === raw)
    if (!tag) throw new ValidationError(field, 'Tag does not exist.')
    return tag.label
  }
  const lines: string[] = []
  if (changes.categoryId === null) lines.push('Remove the category')
  else if (changes.categoryId !== undefined) {
    const category = categories.find((c) => String(c.id) === changes.categoryId && c.ownerId === actor.ownerId)
    if (!category) throw new ValidationError('categoryId', 'Category does not exist.')
    lines.push(`Move to the category “${category.name}”`)
  }
  if (changes.addTagId !== undefined) lines.push(`Add the tag “${tagLabel('addTagId', changes.addTagId)}”`)
  if (changes.removeTagId !== undefined) lines.push(`Remove the tag “${tagLabel('removeTagId', changes.removeTagId)}”`)
  if (changes.isPublic !== undefined) lines.push(changes.isPublic === 'true' ? 'Make public' : 'Make not public')
  if (changes.isStarter !== undefined) lines.push(changes.isStarter === 'true' ? 'Mark as starter' : 'Unmark as starter')
  return lines
}

async function bulkEditorPage(app: FastifyInstance, request: FastifyRequest, query: Query) {
  const data = await libraryData(app, request, query, { base: '/library/bulkeditor', pageSize: CLASSIC_PAGE_SIZE })
  const actor = actorOf(request)
  return { title: 'Bulk editor', ...data, ownCategories: data.categories.filter((c) => c.ownerId === actor.ownerId) }
}

function selectedIdsOf(body: Body): string[] {
  const raw = body.ids
  return (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).map(String)
}

export const libraryPages: FastifyPluginAsyncTypebox = async (app) => {
  const listRoute = { preHandler: requireUser, preValidation: dropEmptyQueryValues, schema: { querystring: LibraryPageQuery } }
  // The forms re-render the library page they were posted from, with its filters.
  const formRoute = { preHandler: requireUser, preValidation: dropEmptyQueryValues, schema: { querystring: LibraryPageQuery, body: FormBody } }

  app.get('/library', listRoute, async (request, reply) => reply.page('library/index', await indexPage(app, request, request.query)))

  app.get('/library/classic', listRoute, async (request, reply) => {
    const data = await libraryData(app, request, request.query, { base: '/library/classic', pageSize: CLASSIC_PAGE_SIZE })
    return reply.page('library/classic', { title: 'Library', ...data })
  })

  app.get('/explore', listRoute, async (request, reply) => {
    const data = await libraryData(app, request, request.query, { base: '/explore', pageSize: LIBRARY_PAGE_SIZE, shared: true })
    return reply.page('library/explore', { title: 'Explore', ...data })
  })

  app.get('/library/bulkeditor', listRoute, async (request, reply) => reply.page('library/bulk-editor', await bulkEditorPage(app, request, request.query)))

  app.post('/library/bulkeditor', formRoute, async (request, reply) => {
    const body = request.body ?? {}
    const actor = actorOf(request)
    try {
      const named = await withTagIdsFromNames(app, actor, body)
      const bulk = bulkRequestFrom(named)
      const sets = await getAdviceSetsByIds(app.deps, actor, bulk.ids)
      if (sets.length !== bulk.ids.length || sets.some((s) => !s.canWrite)) throw new ValidationError('ids', 'Some selected advice sets cannot be changed by you.')
      return reply.page('library/bulk-confirm', {
        title: 'Confirm bulk change', sets, changes: await describeBulk(app, actor, bulk), values: keptValues(named), ids: bulk.ids, fieldNames: BULK_FIELDS,
      })
    } catch (error) {
      return renderFormError(reply, error, 'library/bulk-editor', { ...(await bulkEditorPage(app, request, request.query)), values: keptValues(body), selectedIds: selectedIdsOf(body) })
    }
  })

  app.post('/library/bulkeditor/confirm', formRoute, async (request, reply) => {
    const body = request.body ?? {}
    try {
      const bulk = bulkRequestFrom(body)
      const { changed } = await bulkUpdateAdviceSets(app.deps, actorOf(request), bulk.ids, bulk.changes)
      reply.flash({ type: 'info', text: `${countOf(changed, 'advice set')} changed.` })
      return reply.redirect('/library/bulkeditor', 303)
    } catch (error) {
      return renderFormError(reply, error, 'library/bulk-editor', { ...(await bulkEditorPage(app, request, request.query)), values: keptValues(body), selectedIds: selectedIdsOf(body) })
    }
  })

  // Categories (the library sidebar) ----------------------------------------------------------------------------------

  app.post('/library/categories', formRoute, async (request, reply) => {
    const body = request.body ?? {}
    try {
      const category = await createCategory(app.deps, actorOf(request), { name: body.name })
      reply.flash({ type: 'info', text: `Category “${category.name}” created.` })
      return reply.redirect(`/library?category=${category.id}`, 303)
    } catch (error) {
      return renderFormError(reply, error, 'library/index', { ...(await indexPage(app, request, request.query)), values: keptValues(body) })
    }
  })

  app.post('/library/categories/:id/delete', { preHandler: requireUser, schema: { params: IdParams } }, async (request, reply) => {
    const actor = actorOf(request)
    const category = await getCategory(app.deps, actor, itemId(request.params.id))
    try {
      await deleteCategory(app.deps, actor, category.id)
    } catch (error) {
      if (!(error instanceof DeleteNotAllowedError)) throw error
      reply.code(221)
      return reply.page('library/category-blocked', { title: 'Delete not allowed', category, message: error.message, dependents: error.dependents })
    }
    reply.flash({ type: 'info', text: `Category “${category.name}” deleted.` })
    return reply.redirect('/library', 303)
  })
}
