// /api/activity (SPEC §7): the owner's recent changes, deleted children of a node, and restore.
import type { FastifyInstance } from 'fastify'
import { ACTIVITY_PAGE, deletedUnder, recentActivity, restoreFromActivity, timeframeOf } from '../../services/activity.ts'
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
  app.get('/:nodeId/deleted', { schema: { params: nodeParams } }, async (request) => {
    return { data: await deletedUnder(deps, actorOf(request), itemId((request.params as { nodeId: string }).nodeId, 'nodeId')) }
  })
  app.post('/:id/restore', { schema: { params: idParams } }, async (request) => {
    return { data: await restoreFromActivity(deps, actorOf(request), itemId((request.params as { id: string }).id)) }
  })
}
