// /api/tags: list and create tags; link and unlink them on advice sets (SPEC §7 tags).
import type { FastifyInstance } from 'fastify'
import { setAdviceSetTag, ENTITY_ADVICE_SET } from '../../services/library/advice-sets.ts'
import { createTag, listVisibleTags } from '../../services/library/tags.ts'
import { ValidationError, NotFoundError } from '../../services/errors.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { idParamSchema, itemId } from './ids.ts'

const linkBody = { type: 'object', required: ['entityType', 'entityId'], additionalProperties: false, properties: { entityType: { type: 'string' }, entityId: {} } } as const

export async function tagsApi(app: FastifyInstance) {
  app.addHook('preHandler', requireUser)
  const deps = app.deps

  app.get('/', async (request) => ({ data: await listVisibleTags(deps, actorOf(request)) }))
  app.post('/', { schema: { body: { type: 'object', required: ['label'], additionalProperties: false, properties: { label: { type: 'string' }, type: { type: 'string' } } } } }, async (request, reply) => {
    reply.code(201)
    return { data: await createTag(deps, actorOf(request), request.body as { label: string; type?: string }) }
  })
  app.get('/:id', { schema: { params: idParamSchema } }, async (request) => {
    const id = itemId((request.params as { id: string }).id)
    const tag = (await listVisibleTags(deps, actorOf(request))).find((t) => t.id === id)
    if (!tag) throw new NotFoundError('No tag with this id')
    return { data: tag }
  })
  for (const [path, linked] of [['/:id/link', true], ['/:id/unlink', false]] as const) {
    app.post(path, { schema: { params: idParamSchema, body: linkBody } }, async (request) => {
      const body = request.body as { entityType: string; entityId: unknown }
      if (body.entityType !== ENTITY_ADVICE_SET) throw new ValidationError('entityType', `entityType must be ${ENTITY_ADVICE_SET}.`)
      const tagIds = await setAdviceSetTag(deps, actorOf(request), itemId(body.entityId, 'entityId'), itemId((request.params as { id: string }).id), linked)
      return { data: { entityType: body.entityType, entityId: Number(body.entityId), tagIds } }
    })
  }
}
