// The activity log pages (SPEC §9 timeframes 1–90 days, 15 items then "more"): who changed what, field by field in
// words, and a Restore button that puts the entity back as it was before that change.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { Type, type FastifyPluginAsyncTypebox, type Static } from '@fastify/type-provider-typebox'
import { ENTITY_TYPE_LIST, ENTITY_TYPES } from '../../engine/index.ts'
import { ACTIVITY_PAGE, ACTIVITY_TIMEFRAMES, placesOfActivity, recentActivity, restoreFromActivity, timeframeOf, type FieldChange } from '../../services/audit/activity.ts'
import { ENTITY_ADVICE_SET, getAdviceSet, getAdviceSetsByIds } from '../../services/library/advice-sets.ts'
import { listVisibleCategories } from '../../services/library/categories.ts'
import { ENTITY_COMMENT } from '../../services/authoring/comments.ts'
import type { Actor } from '../../services/context.ts'
import { ENTITY_DICTIONARY } from '../../services/authoring/entities.ts'
import { ConflictError, DeleteNotAllowedError, ValidationError } from '../../services/errors.ts'
import { ENTITY_RULE, ENTITY_RULE_NODE } from '../../services/authoring/rules.ts'
import { ENTITY_VERSION } from '../../services/publishing/versions.ts'
import { ENTITY_OWNER } from '../../services/publishing/approval-policy.ts'
import { ENTITY_SCENARIO } from '../../services/scenarios/scenarios.ts'
import { ENTITY_SUPPLEMENT, supplementHref } from '../../services/files/supplements.ts'
import { ENTITY_SUPPLEMENT_LINK } from '../../services/files/links.ts'
import { listVisibleTags } from '../../services/library/tags.ts'
import { ENTITY_KEYWORD_MAP } from '../../services/library/keyword-maps.ts'
import { ownerName } from '../../services/accounts/users.ts'
import { itemId } from '../api/ids.ts'
import { countOf, dateFormatter } from '../format.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { FormBody, IdParams } from '../schemas.ts'
import { redirectWithin } from '../header-values.ts'

const ActivityQuery = Type.Object({
  days: Type.Optional(Type.Integer({ minimum: 1, maximum: 90 })), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
})

const FIELD_LABELS: Record<string, string> = {
  name: 'Name', nameAlt: 'Display name', description: 'Description', categoryId: 'Category', isPublic: 'Public',
  isStarter: 'Starter', tagIds: 'Tags', deleted: 'Deleted', ownerId: 'Owner', title: 'About', role: 'Role',
  preferences: 'Preferences', slug: 'Slug', type: 'Type', label: 'Label', status: 'Status', invitation: 'Invitation', password: 'Password',
  position: 'Position', adviceSetId: 'Advice set', parentId: 'Parent node', expression: 'Expression', variable: 'Variable',
  headline: 'Headline', text: 'Text', question: 'Question', calledRuleId: 'Calls rule', apiId: 'External API', tags: 'Tags',
  sources: 'Sources', subtree: 'Nodes', nodes: 'Nodes', entityTypeId: 'Kind', reservedName: 'Name', dataType: 'Data type',
  validOptions: 'Options', isClosedSet: 'Closed set', displayFormat: 'Display format', defaultValue: 'Default value',
  isConstant: 'Constant', body: 'Comment', renamed: 'Renamed', rewritten: 'Rewritten uses', promotedRuleId: 'Promoted rule',
  onlyWhenCalled: 'Runs only when called',
  number: 'Number', state: 'State', notes: 'Notes', transition: 'Step', comment: 'Note',
  inputs: 'Answers', runAsOf: 'Run as of', expected: 'Expected outcome', pinnedResponses: 'Pinned API responses',
  phrases: 'Phrases', scenarioId: 'Scenario', selfApprovalAllowed: 'Self-approval allowed', selfApproval: 'Approved',
  format: 'Format', contentType: 'File type', fileExt: 'Extension', size: 'Size (bytes)', url: 'Address', imageUrl: 'Image', linkedTo: 'Linked to',
}

const ENTITY_LABELS: Record<string, string> = {
  adviceset: 'advice set', category: 'category', tag: 'tag', user: 'user',
  [ENTITY_RULE]: 'rule', [ENTITY_RULE_NODE]: 'rule node', [ENTITY_DICTIONARY]: 'dictionary entry', [ENTITY_COMMENT]: 'comment',
  [ENTITY_VERSION]: 'version', audience: 'audience', [ENTITY_SCENARIO]: 'advice scenario', [ENTITY_KEYWORD_MAP]: 'keyword map',
  [ENTITY_SUPPLEMENT]: 'supplement', [ENTITY_SUPPLEMENT_LINK]: 'supplement link', [ENTITY_OWNER]: 'team',
}

/** Snapshot fields that repeat another one (parentId, name) or never change, per entity type. */
const HIDDEN_BY_TYPE: Record<string, Set<string>> = {
  [ENTITY_RULE]: new Set(['parentId']),
  [ENTITY_RULE_NODE]: new Set(['name', 'ruleId']),
  [ENTITY_DICTIONARY]: new Set(['name', 'parentId', 'ownerId']),
  [ENTITY_COMMENT]: new Set(['name', 'parentId', 'ruleNodeId', 'userId']),
  [ENTITY_VERSION]: new Set(['name', 'adviceSetId', 'contentHash', 'submittedBy', 'approvedBy', 'publishedBy']),
  [ENTITY_SCENARIO]: new Set(['parentId']),
  [ENTITY_SUPPLEMENT_LINK]: new Set(['supplementId', 'targetType', 'targetId']),
}

interface Lookups {
  categories: Map<number, string>; tags: Map<number, string>; owners: Map<string, string>; sets: Map<number, string>; rules: Map<number, string>
}

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
  if (field === 'adviceSetId' && typeof value === 'number') return lookups.sets.get(value) ?? `Advice set #${value}`
  if ((field === 'calledRuleId' || field === 'promotedRuleId') && typeof value === 'number') return lookups.rules.get(value) ?? `Rule #${value}`
  if (field === 'parentId' && typeof value === 'number') return `Node #${value}`
  if (field === 'scenarioId' && typeof value === 'number') return `Scenario #${value}`
  if (field === 'phrases' && Array.isArray(value)) return value.map((p) => `“${String(p)}”`).join(', ')
  if (field === 'pinnedResponses' && typeof value === 'object') {
    const ids = Object.keys(value as Record<string, unknown>)
    return ids.length ? ids.map((id) => `API #${id}`).join(', ') : 'none'
  }
  if (field === 'entityTypeId' && typeof value === 'number') return ENTITY_TYPE_LIST.find((t) => t.id === value)?.displayName ?? String(value)
  if ((field === 'tags' || field === 'validOptions') && Array.isArray(value)) return value.length === 0 ? 'none' : value.join(', ')
  if (field === 'sources' && Array.isArray(value)) return value.length === 0 ? 'none' : value.map((v) => (v as { name?: unknown }).name).join(', ')
  if (field === 'selfApproval' && typeof value === 'object') return `by its submitter, as allowed by ${String((value as { allowedByName?: unknown }).allowedByName)}`
  if (field === 'renamed' && typeof value === 'object') return `${(value as { from: string }).from} → ${(value as { to: string }).to}`
  if (field === 'rewritten' && typeof value === 'object') {
    const { nodes = [], entities = [] } = value as { nodes?: unknown[]; entities?: unknown[] }
    return `${countOf(nodes.length, 'node')}, ${countOf(entities.length, 'formula')}`
  }
  if (field === 'inputs' && typeof value === 'object') return answersText(value as Record<string, unknown>)
  if (field === 'expected' && typeof value === 'object') {
    const { advice = [], focus = 'complete', variables = {} } = value as { advice?: unknown[]; focus?: unknown; variables?: Record<string, unknown> }
    const checked = Object.keys(variables).length ? `; ${answersText(variables)}` : ''
    return `advice ${advice.length ? advice.map((id) => `#${String(id)}`).join(', ') : 'none'}; focus ${focus === 'complete' ? 'complete' : `#${String(focus)}`}${checked}`
  }
  return typeof value === 'string' ? value : JSON.stringify(value)
}

/** A scenario's answers (or checked variables) as `{{Name}} = value` pairs. */
function answersText(values: Record<string, unknown>): string {
  const pairs = Object.entries(values).map(([name, v]) => `{{${name}}} = ${typeof v === 'string' ? v : JSON.stringify(v)}`)
  return pairs.length ? pairs.join(', ') : 'none'
}

/** Values a new entity starts with anyway; a create lists only what was actually set. */
function isDefault(field: string, value: unknown): boolean {
  return value === null || value === undefined || value === '' || value === false || field === 'ownerId' || (Array.isArray(value) && value.length === 0)
}

function readableChanges(entityType: string, action: string, changes: FieldChange[], lookups: Lookups) {
  const hidden = HIDDEN_BY_TYPE[entityType]
  return changes
    .filter((c) => !hidden?.has(c.field))
    .filter((c) => action !== 'create' || !isDefault(c.field, c.after))
    .map((c) => ({ label: FIELD_LABELS[c.field] ?? c.field, before: readable(c.field, c.before, lookups), after: readable(c.field, c.after, lookups) }))
}

async function lookupsFor(app: FastifyInstance, actor: Actor, changes: FieldChange[], places: Places): Promise<Lookups> {
  const [categories, tags] = await Promise.all([listVisibleCategories(app.deps, actor), listVisibleTags(app.deps, actor)])
  const valuesOf = (field: string) => changes.filter((c) => c.field === field).flatMap((c) => [c.before, c.after])
  const ownerIds = [...new Set(valuesOf('ownerId').filter((v): v is string => typeof v === 'string'))]
  const setIds = [...new Set(valuesOf('adviceSetId').filter((v): v is number => typeof v === 'number'))]
  return {
    categories: new Map(categories.map((c) => [c.id, c.name])),
    tags: new Map(tags.map((t) => [t.id, t.label])),
    owners: new Map(await Promise.all(ownerIds.map(async (id) => [id, await ownerName(app.deps, id)] as const))),
    sets: new Map((await getAdviceSetsByIds(app.deps, actor, setIds)).map((s) => [s.id, s.name])),
    rules: new Map([...places.rules].map(([id, r]) => [id, r.name])),
  }
}

type Places = Awaited<ReturnType<typeof placesOfActivity>>
type Item = Awaited<ReturnType<typeof recentActivity>>['items'][number]

/** A dictionary entry reads as it is written in expressions: {{Variable}} or [[Formula]]. */
function isFormula(item: Item): boolean {
  const snapshot = (item.after ?? item.before) as { entityTypeId?: unknown } | null
  return snapshot?.entityTypeId === ENTITY_TYPES.formula.id
}

function labelOf(item: Item): string {
  if (item.entityType !== ENTITY_DICTIONARY) return item.label
  return isFormula(item) ? `[[${item.label}]]` : `{{${item.label}}}`
}

function whatOf(item: Item): string {
  if (item.entityType === ENTITY_DICTIONARY) return isFormula(item) ? 'formula' : 'variable'
  return ENTITY_LABELS[item.entityType] ?? item.entityType
}

/** Where the item can be seen today; none once it is deleted. */
function uriOf(item: Item, places: Places): string | null {
  const id = Number(item.entityId)
  const part = (p: { adviceSetId: number; ruleId: number; nodeId?: number }) => `/adviceset/${p.adviceSetId}/rule/${p.ruleId}/part/${p.nodeId}`
  switch (item.entityType) {
    case ENTITY_ADVICE_SET: return item.action !== 'delete' ? `/adviceset/${item.entityId}/show` : null
    case ENTITY_RULE: {
      const rule = places.rules.get(id)
      return rule?.live ? `/adviceset/${rule.adviceSetId}/rule/${id}/show` : null
    }
    case ENTITY_RULE_NODE: {
      const node = places.nodes.get(id)
      return node?.live ? part(node) : null
    }
    case ENTITY_COMMENT: {
      const at = places.comments.get(id)
      return at?.live ? part(at) : null
    }
    case ENTITY_DICTIONARY: return places.liveEntities.has(id) ? `/card/${isFormula(item) ? 'formula' : 'variable'}/${id}` : null
    case ENTITY_SCENARIO: {
      const setId = ((item.after ?? item.before) as { adviceSetId?: unknown } | null)?.adviceSetId
      const deleted = ((item.after ?? item.before) as { deleted?: unknown } | null)?.deleted === true
      return typeof setId === 'number' && !deleted ? `/adviceset/${setId}/advicescenario/${id}/show` : null
    }
    case ENTITY_KEYWORD_MAP: {
      const deleted = ((item.after ?? item.before) as { deleted?: unknown } | null)?.deleted === true
      return item.action === 'delete' || deleted ? null : `/admin/keywordMap/${id}`
    }
    case ENTITY_VERSION: {
      const setId = ((item.after ?? item.before) as { adviceSetId?: unknown } | null)?.adviceSetId
      return typeof setId === 'number' ? `/adviceset/${setId}/publish/versions/${id}` : null
    }
    case ENTITY_SUPPLEMENT:
    case ENTITY_SUPPLEMENT_LINK: {
      const snapshot = (item.after ?? item.before) as { format?: unknown; deleted?: unknown } | null
      if (item.entityType === ENTITY_SUPPLEMENT && (item.action === 'delete' || snapshot?.deleted === true)) return null
      return supplementHref({ id, format: snapshot?.format === 'viz' ? 'viz' : 'file' })
    }
    default: return null
  }
}

async function activityPage(app: FastifyInstance, request: FastifyRequest, query: Static<typeof ActivityQuery>, scope: { base: string; setId?: number }) {
  const actor = actorOf(request)
  const days = timeframeOf(query.days)
  const limit = query.limit ?? ACTIVITY_PAGE
  const set = scope.setId === undefined ? null : await getAdviceSet(app.deps, actor, scope.setId)
  const { items, hasMore } = await recentActivity(app.deps, actor, { days, limit, ...(set ? { adviceSetId: set.id } : {}) })
  const places = await placesOfActivity(app.deps, items)
  const lookups = await lookupsFor(app, actor, items.flatMap((i) => i.changes), places)
  const formatDate = dateFormatter(request.user!.preferences.tz)
  return {
    title: set ? `Activity · ${set.name}` : 'Activity',
    set, days, limit, hasMore, timeframes: ACTIVITY_TIMEFRAMES, base: scope.base,
    here: `${scope.base}?days=${days}${limit !== ACTIVITY_PAGE ? `&limit=${limit}` : ''}`,
    items: items.map((item) => ({
      ...item,
      what: whatOf(item),
      label: labelOf(item),
      when: formatDate(item.createdAt),
      uri: uriOf(item, places),
      changes: readableChanges(item.entityType, item.action, item.changes, lookups),
    })),
  }
}

export const activityPages: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/activity', { preHandler: requireUser, schema: { querystring: ActivityQuery } }, async (request, reply) =>
    reply.page('activity/index', await activityPage(app, request, request.query, { base: '/activity' })))

  app.get('/adviceset/:id/activity', { preHandler: requireUser, schema: { params: IdParams, querystring: ActivityQuery } }, async (request, reply) => {
    const id = itemId(request.params.id)
    return reply.page('activity/index', await activityPage(app, request, request.query, { base: `/adviceset/${id}/activity`, setId: id }))
  })

  app.post('/activity/:id/restore', { preHandler: requireUser, schema: { params: IdParams, body: FormBody } }, async (request, reply) => {
    const body = request.body ?? {}
    try {
      const { entityType } = await restoreFromActivity(app.deps, actorOf(request), itemId(request.params.id))
      reply.flash({ type: 'info', text: `Restored the ${ENTITY_LABELS[entityType] ?? entityType} as it was before that change.` })
    } catch (error) {
      // A refused restore leaves everything as it was; the log page says why.
      if (!(error instanceof DeleteNotAllowedError || error instanceof ValidationError || error instanceof ConflictError)) throw error
      const uses = error instanceof DeleteNotAllowedError ? ` ${error.dependents.map((d) => d.name).join('; ')}.` : ''
      reply.flash({ type: 'error', heading: 'Not restored', text: `${error.message}${uses}` })
    }
    return redirectWithin(reply, body.next, '/activity', { code: 303 })
  })
}
