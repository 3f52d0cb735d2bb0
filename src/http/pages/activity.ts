// The activity log pages (SPEC §9 timeframes 1–90 days, 15 items then "more"): who changed what, field by field in
// words, and a Restore button that puts the entity back as it was before that change.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { ACTIVITY_PAGE, ACTIVITY_TIMEFRAMES, recentActivity, restoreFromActivity, timeframeOf, type FieldChange } from '../../services/activity.ts'
import { ENTITY_ADVICE_SET, getAdviceSet } from '../../services/advice-sets.ts'
import { listVisibleCategories } from '../../services/categories.ts'
import type { Actor } from '../../services/context.ts'
import { DeleteNotAllowedError, ValidationError } from '../../services/errors.ts'
import { listVisibleTags } from '../../services/tags.ts'
import { ownerName } from '../../services/users.ts'
import { idParamSchema, itemId } from '../api/ids.ts'
import { dateFormatter } from '../format.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { safeNext } from './forms.ts'

const activityQuery = {
  type: 'object',
  properties: { days: { type: 'integer', minimum: 1, maximum: 90 }, limit: { type: 'integer', minimum: 1, maximum: 500 } },
} as const

const FIELD_LABELS: Record<string, string> = {
  name: 'Name', nameAlt: 'Display name', description: 'Description', categoryId: 'Category', isPublic: 'Public',
  isStarter: 'Starter', tagIds: 'Tags', deleted: 'Deleted', ownerId: 'Owner', title: 'About', role: 'Role',
  preferences: 'Preferences', slug: 'Slug', type: 'Type', label: 'Label',
}

const ENTITY_LABELS: Record<string, string> = { adviceset: 'advice set', category: 'category', tag: 'tag', user: 'user' }

interface Lookups { categories: Map<number, string>; tags: Map<number, string>; owners: Map<string, string> }

const EMPTY = '—'

/** One value as a person reads it: Yes/No, tag and category names instead of ids. */
function readable(field: string, value: unknown, lookups: Lookups): string {
  if (value === null || value === undefined || value === '') return EMPTY
  if (typeof value === 'boolean') return value ? 'Yes' : 'No'
  if (field === 'categoryId' && typeof value === 'number') return lookups.categories.get(value) ?? `Category #${value} (deleted)`
  if (field === 'tagIds' && Array.isArray(value)) {
    return value.length === 0 ? 'none' : value.map((id) => lookups.tags.get(Number(id)) ?? `#${String(id)}`).join(', ')
  }
  if (field === 'ownerId' && typeof value === 'string') return lookups.owners.get(value) ?? value
  return typeof value === 'string' ? value : JSON.stringify(value)
}

/** Values a new entity starts with anyway; a create lists only what was actually set. */
function isDefault(field: string, value: unknown): boolean {
  return value === null || value === undefined || value === '' || value === false || field === 'ownerId' || (Array.isArray(value) && value.length === 0)
}

function readableChanges(action: string, changes: FieldChange[], lookups: Lookups) {
  return changes
    .filter((c) => action !== 'create' || !isDefault(c.field, c.after))
    .map((c) => ({ label: FIELD_LABELS[c.field] ?? c.field, before: readable(c.field, c.before, lookups), after: readable(c.field, c.after, lookups) }))
}

async function lookupsFor(app: FastifyInstance, actor: Actor, changes: FieldChange[]): Promise<Lookups> {
  const [categories, tags] = await Promise.all([listVisibleCategories(app.deps, actor), listVisibleTags(app.deps, actor)])
  const ownerIds = [...new Set(changes.filter((c) => c.field === 'ownerId').flatMap((c) => [c.before, c.after]).filter((v): v is string => typeof v === 'string'))]
  return {
    categories: new Map(categories.map((c) => [c.id, c.name])),
    tags: new Map(tags.map((t) => [t.id, t.label])),
    owners: new Map(await Promise.all(ownerIds.map(async (id) => [id, await ownerName(app.deps, id)] as const))),
  }
}

async function activityPage(app: FastifyInstance, request: FastifyRequest, scope: { base: string; setId?: number }) {
  const actor = actorOf(request)
  const query = request.query as { days?: number; limit?: number }
  const days = timeframeOf(query.days)
  const limit = query.limit ?? ACTIVITY_PAGE
  const set = scope.setId === undefined ? null : await getAdviceSet(app.deps, actor, scope.setId)
  const { items, hasMore } = await recentActivity(app.deps, actor, {
    days, limit, ...(set ? { entityType: ENTITY_ADVICE_SET, entityId: String(set.id), ownerId: set.ownerId } : {}),
  })
  const lookups = await lookupsFor(app, actor, items.flatMap((i) => i.changes))
  const formatDate = dateFormatter(request.user!.preferences.tz)
  return {
    title: set ? `Activity · ${set.name}` : 'Activity',
    set, days, limit, hasMore, timeframes: ACTIVITY_TIMEFRAMES, base: scope.base,
    here: `${scope.base}?days=${days}${limit !== ACTIVITY_PAGE ? `&limit=${limit}` : ''}`,
    items: items.map((item) => ({
      ...item,
      what: ENTITY_LABELS[item.entityType] ?? item.entityType,
      when: formatDate(item.createdAt),
      uri: item.entityType === ENTITY_ADVICE_SET && item.action !== 'delete' ? `/adviceset/${item.entityId}/show` : null,
      changes: readableChanges(item.action, item.changes, lookups),
    })),
  }
}

export async function activityPages(app: FastifyInstance) {
  app.get('/activity', { preHandler: requireUser, schema: { querystring: activityQuery } }, async (request, reply) =>
    reply.page('activity/index', await activityPage(app, request, { base: '/activity' })))

  app.get('/adviceset/:id/activity', { preHandler: requireUser, schema: { params: idParamSchema, querystring: activityQuery } }, async (request, reply) => {
    const id = itemId((request.params as { id: string }).id)
    return reply.page('activity/index', await activityPage(app, request, { base: `/adviceset/${id}/activity`, setId: id }))
  })

  app.post('/activity/:id/restore', { preHandler: requireUser, schema: { params: idParamSchema } }, async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>
    const next = safeNext(body.next) === '/' ? '/activity' : safeNext(body.next)
    try {
      const { entityType } = await restoreFromActivity(app.deps, actorOf(request), itemId((request.params as { id: string }).id))
      reply.flash({ type: 'info', text: `Restored the ${ENTITY_LABELS[entityType] ?? entityType} as it was before that change.` })
    } catch (error) {
      // A refused restore leaves everything as it was; the log page says why.
      if (!(error instanceof DeleteNotAllowedError || error instanceof ValidationError)) throw error
      reply.flash({ type: 'error', heading: 'Not restored', text: error.message })
    }
    return reply.redirect(next, 303)
  })
}
