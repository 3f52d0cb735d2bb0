// /api/recentitem (SPEC §7): what the user opened lately.
import type { FastifyInstance } from 'fastify'
import { ENTITY_ADVICE_SET, getAdviceSet } from '../../services/library/advice-sets.ts'
import { forgetRecent, listRecent, recordRecentItem } from '../../services/library/recent-items.ts'
import { ValidationError } from '../../services/errors.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { idParamSchema, itemId } from './ids.ts'

export async function recentItemsApi(app: FastifyInstance) {
  app.addHook('preHandler', requireUser)
  const deps = app.deps

  app.get('/', async (request) => ({ data: await listRecent(deps, actorOf(request)) }))
  app.post('/', { schema: { body: { type: 'object', required: ['entityType', 'entityId'], additionalProperties: false, properties: { entityType: { type: 'string' }, entityId: {} } } } }, async (request, reply) => {
    const body = request.body as { entityType: string; entityId: unknown }
    if (body.entityType !== ENTITY_ADVICE_SET) throw new ValidationError('entityType', `entityType must be ${ENTITY_ADVICE_SET}.`)
    const actor = actorOf(request)
    const set = await getAdviceSet(deps, actor, itemId(body.entityId, 'entityId'))
    await recordRecentItem(deps, actor, ENTITY_ADVICE_SET, set.id)
    reply.code(201)
    return { data: await listRecent(deps, actor) }
  })
  app.delete('/:id', { schema: { params: idParamSchema } }, async (request) => {
    await forgetRecent(deps, actorOf(request), itemId((request.params as { id: string }).id))
    return { data: { deleted: true } }
  })
}
