// /api/tags: list and create tags; read, change, delete and merge one (tags admin); link and unlink them on advice
// sets (SPEC §7 tags).
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { setAdviceSetTag, ENTITY_ADVICE_SET } from '../../services/library/advice-sets.ts'
import { createTag, deleteTag, findVisibleTags, listVisibleTags, MAX_TAG_SUGGESTIONS, mergeTags, updateTagAdmin, visibleTag } from '../../services/library/tags.ts'
import { ValidationError } from '../../services/errors.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { AnyId, IdParams } from '../schemas.ts'
import { itemId } from './ids.ts'

/** `q` or `limit`: the tags whose label contains `q`, by label, at most `limit` (10 by default): a picker's suggestions. */
const TagsQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 60 })), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_TAG_SUGGESTIONS })),
})
const DEFAULT_SUGGESTIONS = 10
const TagBody = Type.Object({ label: Type.String(), type: Type.Optional(Type.String()) }, { additionalProperties: false })
const TagChangeBody = Type.Object({ label: Type.Optional(Type.String()), type: Type.Optional(Type.String()), description: Type.Optional(Type.String()) }, { additionalProperties: false })
const MergeBody = Type.Object({ into: AnyId }, { additionalProperties: false })
const LinkBody = Type.Object({ entityType: Type.String(), entityId: AnyId }, { additionalProperties: false })

export const tagsApi: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('preHandler', requireUser)
  const deps = app.deps

  app.get('/', { schema: { querystring: TagsQuery } }, async (request) => {
    const { q, limit } = request.query
    if (q === undefined && limit === undefined) return { data: await listVisibleTags(deps, actorOf(request)) }
    return { data: await findVisibleTags(deps, actorOf(request), q ?? '', limit ?? DEFAULT_SUGGESTIONS) }
  })
  app.post('/', { schema: { body: TagBody } }, async (request, reply) => {
    reply.code(201)
    return { data: await createTag(deps, actorOf(request), request.body) }
  })
  app.get('/:id', { schema: { params: IdParams } }, async (request) => ({ data: await visibleTag(deps, actorOf(request), itemId(request.params.id)) }))
  app.patch('/:id', { schema: { params: IdParams, body: TagChangeBody } }, async (request) => ({
    data: await updateTagAdmin(deps, actorOf(request), itemId(request.params.id), request.body),
  }))
  app.delete('/:id', { schema: { params: IdParams } }, async (request) => {
    await deleteTag(deps, actorOf(request), itemId(request.params.id))
    return { data: { deleted: true } }
  })
  app.post('/:id/merge', { schema: { params: IdParams, body: MergeBody } }, async (request) => ({
    data: await mergeTags(deps, actorOf(request), itemId(request.params.id), itemId(request.body.into, 'into')),
  }))
  for (const [path, linked] of [['/:id/link', true], ['/:id/unlink', false]] as const) {
    app.post(path, { schema: { params: IdParams, body: LinkBody } }, async (request) => {
      const body = request.body
      if (body.entityType !== ENTITY_ADVICE_SET) throw new ValidationError('entityType', `entityType must be ${ENTITY_ADVICE_SET}.`)
      const tagIds = await setAdviceSetTag(deps, actorOf(request), itemId(body.entityId, 'entityId'), itemId(request.params.id), linked)
      return { data: { entityType: body.entityType, entityId: Number(body.entityId), tagIds } }
    })
  }
}
