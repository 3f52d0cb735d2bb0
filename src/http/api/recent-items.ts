// /api/recentitem (SPEC §7): what the user opened lately.
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ENTITY_ADVICE_SET } from '../../services/library/advice-sets.ts'
import { forgetRecent, listRecent, recordRecentSet } from '../../services/library/recent-items.ts'
import { ValidationError } from '../../services/errors.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { AnyId, IdParams } from '../schemas.ts'
import { itemId } from './ids.ts'

const RecentBody = Type.Object({ entityType: Type.String(), entityId: AnyId }, { additionalProperties: false })

export const recentItemsApi: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('preHandler', requireUser)
  const deps = app.deps

  app.get('/', async (request) => ({ data: await listRecent(deps, actorOf(request)) }))
  app.post('/', { schema: { body: RecentBody } }, async (request, reply) => {
    const body = request.body
    if (body.entityType !== ENTITY_ADVICE_SET) throw new ValidationError('entityType', `entityType must be ${ENTITY_ADVICE_SET}.`)
    const actor = actorOf(request)
    await recordRecentSet(deps, actor, itemId(body.entityId, 'entityId'))
    reply.code(201)
    return { data: await listRecent(deps, actor) }
  })
  app.delete('/:id', { schema: { params: IdParams } }, async (request) => {
    await forgetRecent(deps, actorOf(request), itemId(request.params.id))
    return { data: { deleted: true } }
  })
}
