// /api/activity (SPEC §7): the owner's recent changes, what was deleted from a place in a tree, and restore.
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ACTIVITY_PAGE, deletedUnder, recentActivity, restoreFromActivity, timeframeOf } from '../../services/audit/activity.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { IdParams, IdString } from '../schemas.ts'
import { itemId } from './ids.ts'
import { forgetDecisionSettingsAfterWrites } from '../decision-settings.ts'

const IndexQuery = Type.Object({
  days: Type.Optional(Type.Integer()), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
  entityType: Type.Optional(Type.String({ maxLength: 40 })), entityId: Type.Optional(Type.String({ maxLength: 40 })),
})
const NodeParams = Type.Object({ nodeId: IdString })
const DeletedQuery = Type.Object({ ruleId: Type.Optional(IdString), adviceSetId: Type.Optional(IdString) })

export const activityApi: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('preHandler', requireUser)
  const deps = app.deps
  // A restore can put back a dictionary entry's personal flag: the Advice API's next record must follow it.
  forgetDecisionSettingsAfterWrites(app)

  app.get('/index', { schema: { querystring: IndexQuery } }, async (request) => {
    const q = request.query
    return { data: await recentActivity(deps, actorOf(request), { days: timeframeOf(q.days), limit: q.limit ?? ACTIVITY_PAGE, entityType: q.entityType, entityId: q.entityId }) }
  })
  // {nodeId}: a rule node id. Places without a node id have a word in its stead, as rule/{id}/node/roots does:
  // `roots?ruleId=N` is rule N's top level, `rules?adviceSetId=N` the rule list of advice set N.
  app.get('/:nodeId/deleted', { schema: { params: NodeParams, querystring: DeletedQuery } }, async (request) => {
    const place = request.params.nodeId
    const query = request.query
    const scope = place === 'roots' ? { ruleId: itemId(query.ruleId, 'ruleId') }
      : place === 'rules' ? { adviceSetId: itemId(query.adviceSetId, 'adviceSetId') }
        : { nodeId: itemId(place, 'nodeId') }
    return { data: await deletedUnder(deps, actorOf(request), scope) }
  })
  app.post('/:id/restore', { schema: { params: IdParams } }, async (request) => {
    return { data: await restoreFromActivity(deps, actorOf(request), itemId(request.params.id)) }
  })
}
