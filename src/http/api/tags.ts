// /api/tags: list and create tags; link and unlink them on advice sets (SPEC §7 tags).
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { setAdviceSetTag, ENTITY_ADVICE_SET } from '../../services/library/advice-sets.ts'
import { createTag, listVisibleTags } from '../../services/library/tags.ts'
import { ValidationError, NotFoundError } from '../../services/errors.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { AnyId, IdParams } from '../schemas.ts'
import { itemId } from './ids.ts'

const TagBody = Type.Object({ label: Type.String(), type: Type.Optional(Type.String()) }, { additionalProperties: false })
const LinkBody = Type.Object({ entityType: Type.String(), entityId: AnyId }, { additionalProperties: false })

export const tagsApi: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('preHandler', requireUser)
  const deps = app.deps

  app.get('/', async (request) => ({ data: await listVisibleTags(deps, actorOf(request)) }))
  app.post('/', { schema: { body: TagBody } }, async (request, reply) => {
    reply.code(201)
    return { data: await createTag(deps, actorOf(request), request.body) }
  })
  app.get('/:id', { schema: { params: IdParams } }, async (request) => {
    const id = itemId(request.params.id)
    const tag = (await listVisibleTags(deps, actorOf(request))).find((t) => t.id === id)
    if (!tag) throw new NotFoundError('No tag with this id')
    return { data: tag }
  })
  for (const [path, linked] of [['/:id/link', true], ['/:id/unlink', false]] as const) {
    app.post(path, { schema: { params: IdParams, body: LinkBody } }, async (request) => {
      const body = request.body
      if (body.entityType !== ENTITY_ADVICE_SET) throw new ValidationError('entityType', `entityType must be ${ENTITY_ADVICE_SET}.`)
      const tagIds = await setAdviceSetTag(deps, actorOf(request), itemId(body.entityId, 'entityId'), itemId(request.params.id), linked)
      return { data: { entityType: body.entityType, entityId: Number(body.entityId), tagIds } }
    })
  }
}
