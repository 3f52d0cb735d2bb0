// The activity log pages (SPEC §9 timeframes 1–90 days, 15 items then "more"): who changed what, field by field in
// words, and a Restore button that puts the entity back as it was before that change.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { Type, type FastifyPluginAsyncTypebox, type Static } from '@fastify/type-provider-typebox'
import { ACTIVITY_PAGE, ACTIVITY_TIMEFRAMES, recentActivity, restoreFromActivity, restorePreview, timeframeOf } from '../../services/audit/activity.ts'
import { getAdviceSet } from '../../services/library/advice-sets.ts'
import { ENTITY_COMMENT } from '../../services/authoring/comments.ts'
import { ENTITY_DICTIONARY } from '../../services/authoring/entities.ts'
import { ConflictError, DeleteNotAllowedError, ValidationError } from '../../services/errors.ts'
import { ENTITY_RULE, ENTITY_RULE_NODE } from '../../services/authoring/rules.ts'
import { ENTITY_VERSION } from '../../services/publishing/versions.ts'
import { ENTITY_OWNER } from '../../services/publishing/approval-policy.ts'
import { ENTITY_SCENARIO } from '../../services/scenarios/scenarios.ts'
import { ENTITY_SUPPLEMENT } from '../../services/files/supplements.ts'
import { ENTITY_SUPPLEMENT_LINK } from '../../services/files/links.ts'
import { ENTITY_KEYWORD_MAP } from '../../services/library/keyword-maps.ts'
import { itemId } from '../api/ids.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { FormBody, IdParams } from '../schemas.ts'
import { redirectWithin, sameOriginPath } from '../header-values.ts'
import { forgetDecisionSettingsAfterWrites } from '../decision-settings.ts'

const ActivityQuery = Type.Object({
  days: Type.Optional(Type.Integer({ minimum: 1, maximum: 90 })), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
})

const ENTITY_LABELS: Record<string, string> = {
  adviceset: 'advice set', category: 'category', tag: 'tag', user: 'user',
  [ENTITY_RULE]: 'rule', [ENTITY_RULE_NODE]: 'rule node', [ENTITY_DICTIONARY]: 'dictionary entry', [ENTITY_COMMENT]: 'comment',
  [ENTITY_VERSION]: 'version', audience: 'audience', [ENTITY_SCENARIO]: 'advice scenario', [ENTITY_KEYWORD_MAP]: 'keyword map',
  [ENTITY_SUPPLEMENT]: 'supplement', [ENTITY_SUPPLEMENT_LINK]: 'supplement link', [ENTITY_OWNER]: 'team',
}

async function activityPage(app: FastifyInstance, request: FastifyRequest, query: Static<typeof ActivityQuery>, scope: { base: string; setId?: number }) {
  const actor = actorOf(request)
  const days = timeframeOf(query.days)
  const limit = query.limit ?? ACTIVITY_PAGE
  const set = scope.setId === undefined ? null : await getAdviceSet(app.deps, actor, scope.setId)
  const { items, hasMore } = await recentActivity(app.deps, actor, { days, limit, ...(set ? { adviceSetId: set.id } : {}) })
  return {
    title: set ? `Activity · ${set.name}` : 'Activity',
    set, days, limit, hasMore, timeframes: ACTIVITY_TIMEFRAMES, base: scope.base,
    here: `${scope.base}?days=${days}${limit !== ACTIVITY_PAGE ? `&limit=${limit}` : ''}`,
    items,
  }
}

export const activityPages: FastifyPluginAsyncTypebox = async (app) => {
  // A restore can put back a dictionary entry's personal flag: the Advice API's next record must follow it.
  forgetDecisionSettingsAfterWrites(app)
  app.get('/activity', { preHandler: requireUser, schema: { querystring: ActivityQuery } }, async (request, reply) =>
    reply.page('activity/index', await activityPage(app, request, request.query, { base: '/activity' })))

  app.get('/adviceset/:id/activity', { preHandler: requireUser, schema: { params: IdParams, querystring: ActivityQuery } }, async (request, reply) => {
    const id = itemId(request.params.id)
    return reply.page('activity/index', await activityPage(app, request, request.query, { base: `/adviceset/${id}/activity`, setId: id }))
  })

  app.post('/activity/:id/restore', { preHandler: requireUser, schema: { params: IdParams, body: FormBody } }, async (request, reply) => {
    const body = request.body ?? {}
    // Where to go back to, kept through the question: a path of this app, else the activity page.
    const next = sameOriginPath(body.next, app.deps.config.baseUrl) ?? '/activity'
    const id = itemId(request.params.id)
    // Restoring a create takes the thing away again: that asks first, naming what goes.
    const { entry, removes } = await restorePreview(app.deps, actorOf(request), id)
    if (removes !== null && body.confirm !== 'remove') {
      return reply.page('activity/confirm-restore', { title: 'Restore?', entry, removes, next })
    }
    try {
      const { entityType } = await restoreFromActivity(app.deps, actorOf(request), id)
      const text = removes !== null ? `Deleted ${removes}.` : `Restored the ${ENTITY_LABELS[entityType] ?? entityType} as it was before that change.`
      reply.flash({ type: 'info', text })
    } catch (error) {
      // A refused restore leaves everything as it was; the log page says why.
      if (!(error instanceof DeleteNotAllowedError || error instanceof ValidationError || error instanceof ConflictError)) throw error
      const uses = error instanceof DeleteNotAllowedError ? ` ${error.dependents.map((d) => d.name).join('; ')}.` : ''
      reply.flash({ type: 'error', heading: 'Not restored', text: `${error.message}${uses}` })
    }
    return redirectWithin(reply, next, '/activity', { code: 303 })
  })
}
