// /api/adviceset: the advice set family of SPEC §7 that concerns advice sets themselves.
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import {
  bulkUpdateAdviceSets, copyAdviceSet, createAdviceSet, deleteAdviceSet, getAdviceSet, getAdviceSetsByIds,
  libraryStats, listInactiveAdviceSets, listLibrary, recoverAdviceSet, transferAdviceSet, updateAdviceSet,
} from '../../services/library/advice-sets.ts'
import { createCategory, deleteCategory, getCategory, listVisibleCategories, updateCategory } from '../../services/library/categories.ts'
import { listAdviceLogic, listCallingAdviceSets, listSetItems, listTodoAdvice, listUnreachable, logicCache } from '../../services/authoring/rules.ts'
import { listSetScenarios } from '../../services/scenarios/scenarios.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { acceptsToken } from '../plugins/access-tokens.ts'
import { AnyId, IdParams, IdString, OrNull } from '../schemas.ts'
import { itemId, itemIds } from './ids.ts'
import { LibraryQuery, libraryFiltersFrom } from '../library-filters.ts'

const setFields = {
  name: Type.Optional(Type.String()), nameAlt: Type.Optional(Type.String()), description: Type.Optional(Type.String()),
  categoryId: Type.Optional(OrNull(Type.Integer())), isPublic: Type.Optional(Type.Boolean()), isStarter: Type.Optional(Type.Boolean()),
}
const categoryFields = { name: Type.Optional(Type.String()), description: Type.Optional(Type.String()) }
const Ids = Type.Array(Type.Unknown(), { maxItems: 500 })
/** Views over a set's rules; the set is `?id=`. */
const SetQuery = Type.Object({ id: IdString })

export const adviceSetApi: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('preHandler', requireUser)
  const deps = app.deps

  // The two reads the command-line tool finds sets with also take a personal access token with the export scope.
  app.get('/show', { ...acceptsToken('export'), schema: { querystring: LibraryQuery } }, async (request) => {
    return { data: await listLibrary(deps, actorOf(request), libraryFiltersFrom(request.query)) }
  })
  app.get('/stats', async (request) => ({ data: await libraryStats(deps, actorOf(request)) }))
  app.post('/get-list-from-ids', { schema: { body: Type.Object({ ids: Ids }) } }, async (request) => {
    return { data: await getAdviceSetsByIds(deps, actorOf(request), itemIds(request.body.ids)) }
  })
  app.get('/list/inactive', async (request) => ({ data: await listInactiveAdviceSets(deps, actorOf(request)) }))

  app.get('/list-advice/logic', { schema: { querystring: SetQuery } }, async (request) => ({ data: await listAdviceLogic(deps, actorOf(request), itemId(request.query.id)) }))
  app.get('/unreachable', { schema: { querystring: SetQuery } }, async (request) => ({ data: await listUnreachable(deps, actorOf(request), itemId(request.query.id)) }))
  app.get('/list-calling-advice-sets', { schema: { querystring: SetQuery } }, async (request) => {
    return { data: await listCallingAdviceSets(deps, actorOf(request), itemId(request.query.id)) }
  })
  app.get('/logic-cache', { schema: { querystring: SetQuery } }, async (request) => ({ data: await logicCache(deps, actorOf(request), itemId(request.query.id)) }))
  app.get('/list/scenarios', { schema: { querystring: SetQuery } }, async (request) => ({ data: await listSetScenarios(deps, actorOf(request), itemId(request.query.id)) }))
  app.get('/list/todoAdvice', { schema: { querystring: SetQuery } }, async (request) => ({ data: await listTodoAdvice(deps, actorOf(request), itemId(request.query.id)) }))
  app.get('/list-:entityType', { schema: { params: Type.Object({ entityType: Type.String() }), querystring: SetQuery } }, async (request) => {
    return { data: await listSetItems(deps, actorOf(request), itemId(request.query.id), request.params.entityType) }
  })

  app.post('/', { schema: { body: Type.Object({ ...setFields, name: Type.String() }, { additionalProperties: false }) } }, async (request, reply) => {
    reply.code(201)
    return { data: await createAdviceSet(deps, actorOf(request), request.body) }
  })
  app.post('/copy', {
    schema: { body: Type.Object({ id: AnyId, name: Type.Optional(Type.String()) }, { additionalProperties: false }) },
  }, async (request, reply) => {
    const body = request.body
    reply.code(201)
    return { data: await copyAdviceSet(deps, actorOf(request), itemId(body.id), { name: body.name }) }
  })
  app.post('/transfer', {
    schema: { body: Type.Object({ id: AnyId, ownerId: Type.String() }, { additionalProperties: false }) },
  }, async (request) => {
    const body = request.body
    return { data: await transferAdviceSet(deps, actorOf(request), itemId(body.id), { ownerId: body.ownerId }) }
  })
  app.post('/bulk', {
    schema: {
      body: Type.Object({
        ids: Ids, categoryId: Type.Optional(Type.Unknown()), addTagId: Type.Optional(Type.Unknown()), removeTagId: Type.Optional(Type.Unknown()),
        isPublic: Type.Optional(Type.Boolean()), isStarter: Type.Optional(Type.Boolean()),
      }, { additionalProperties: false }),
    },
  }, async (request) => {
    const { ids, ...changes } = request.body
    return { data: await bulkUpdateAdviceSets(deps, actorOf(request), itemIds(ids), changes) }
  })

  app.get('/category', async (request) => ({ data: await listVisibleCategories(deps, actorOf(request)) }))
  app.post('/category', { schema: { body: Type.Object({ ...categoryFields, name: Type.String() }, { additionalProperties: false }) } }, async (request, reply) => {
    reply.code(201)
    return { data: await createCategory(deps, actorOf(request), request.body) }
  })
  app.get('/category/:id', { schema: { params: IdParams } }, async (request) => {
    return { data: await getCategory(deps, actorOf(request), itemId(request.params.id)) }
  })
  app.patch('/category/:id', { schema: { params: IdParams, body: Type.Object(categoryFields, { additionalProperties: false }) } }, async (request) => {
    return { data: await updateCategory(deps, actorOf(request), itemId(request.params.id), request.body) }
  })
  app.delete('/category/:id', { schema: { params: IdParams } }, async (request) => {
    await deleteCategory(deps, actorOf(request), itemId(request.params.id))
    return { data: { deleted: true } }
  })

  app.get('/:id', { ...acceptsToken('export'), schema: { params: IdParams } }, async (request) => {
    return { data: await getAdviceSet(deps, actorOf(request), itemId(request.params.id)) }
  })
  app.patch('/:id', { schema: { params: IdParams, body: Type.Object(setFields, { additionalProperties: false }) } }, async (request) => {
    return { data: await updateAdviceSet(deps, actorOf(request), itemId(request.params.id), request.body) }
  })
  app.delete('/:id', { schema: { params: IdParams } }, async (request) => {
    await deleteAdviceSet(deps, actorOf(request), itemId(request.params.id))
    return { data: { deleted: true } }
  })
  app.post('/:id/recover', { schema: { params: IdParams } }, async (request) => {
    return { data: await recoverAdviceSet(deps, actorOf(request), itemId(request.params.id)) }
  })
}
