// /api/activity (SPEC §7): the owner's recent changes, what was deleted from a place in a tree, and restore.
import type { FastifyInstance } from 'fastify'
import { ACTIVITY_PAGE, deletedUnder, recentActivity, restoreFromActivity, timeframeOf } from '../../services/audit/activity.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { itemId } from './ids.ts'

const nodeParams = { type: 'object', required: ['nodeId'], properties: { nodeId: { type: 'string', maxLength: 20 } } } as const
const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', maxLength: 20 } } } as const

export async function activityApi(app: FastifyInstance) {
  app.addHook('preHandler', requireUser)
  const deps = app.deps

  app.get('/index', {
    schema: {
      querystring: {
        type: 'object',
        properties: {
          days: { type: 'integer' }, limit: { type: 'integer', minimum: 1, maximum: 500 },
          entityType: { type: 'string', maxLength: 40 }, entityId: { type: 'string', maxLength: 40 },
        },
      },
    },
  }, async (request) => {
    const q = request.query as { days?: number; limit?: number; entityType?: string; entityId?: string }
    return { data: await recentActivity(deps, actorOf(request), { days: timeframeOf(q.days), limit: q.limit ?? ACTIVITY_PAGE, entityType: q.entityType, entityId: q.entityId }) }
  })
  // {nodeId}: a rule node id. Places without a node id have a word in its stead, as rule/{id}/node/roots does:
  // `roots?ruleId=N` is rule N's top level, `rules?adviceSetId=N` the rule list of advice set N.
  app.get('/:nodeId/deleted', {
    schema: { params: nodeParams, querystring: { type: 'object', properties: { ruleId: { type: 'string', maxLength: 20 }, adviceSetId: { type: 'string', maxLength: 20 } } } },
  }, async (request) => {
    const place = (request.params as { nodeId: string }).nodeId
    const query = request.query as { ruleId?: string; adviceSetId?: string }
    const scope = place === 'roots' ? { ruleId: itemId(query.ruleId, 'ruleId') }
      : place === 'rules' ? { adviceSetId: itemId(query.adviceSetId, 'adviceSetId') }
        : { nodeId: itemId(place, 'nodeId') }
    return { data: await deletedUnder(deps, actorOf(request), scope) }
  })
  app.post('/:id/restore', { schema: { params: idParams } }, async (request) => {
    return { data: await restoreFromActivity(deps, actorOf(request), itemId((request.params as { id: string }).id)) }
  })
}
