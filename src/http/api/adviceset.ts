// /api/adviceset: the advice set family of SPEC §7 that concerns advice sets themselves.
import type { FastifyInstance } from 'fastify'
import {
  bulkUpdateAdviceSets, copyAdviceSet, createAdviceSet, deleteAdviceSet, getAdviceSet, getAdviceSetsByIds,
  libraryStats, listInactiveAdviceSets, listLibrary, recoverAdviceSet, transferAdviceSet, updateAdviceSet,
} from '../../services/library/advice-sets.ts'
import { createCategory, deleteCategory, getCategory, listVisibleCategories, updateCategory } from '../../services/library/categories.ts'
import { listAdviceLogic, listCallingAdviceSets, listSetItems, listTodoAdvice, listUnreachable, logicCache } from '../../services/authoring/rules.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { idParamSchema, itemId, itemIds } from './ids.ts'
import { libraryQuerySchema, libraryFiltersFrom } from '../library-filters.ts'

const setBody = {
  type: 'object', additionalProperties: false,
  properties: {
    name: { type: 'string' }, nameAlt: { type: 'string' }, description: { type: 'string' },
    categoryId: { type: ['integer', 'null'] }, isPublic: { type: 'boolean' }, isStarter: { type: 'boolean' },
  },
} as const
const categoryBody = { type: 'object', additionalProperties: false, properties: { name: { type: 'string' }, description: { type: 'string' } } } as const

export async function adviceSetApi(app: FastifyInstance) {
  app.addHook('preHandler', requireUser)
  const deps = app.deps

  app.get('/show', { schema: { querystring: libraryQuerySchema } }, async (request) => {
    return { data: await listLibrary(deps, actorOf(request), libraryFiltersFrom(request.query as Record<string, unknown>)) }
  })
  app.get('/stats', async (request) => ({ data: await libraryStats(deps, actorOf(request)) }))
  app.post('/get-list-from-ids', { schema: { body: { type: 'object', required: ['ids'], properties: { ids: { type: 'array', maxItems: 500 } } } } }, async (request) => {
    return { data: await getAdviceSetsByIds(deps, actorOf(request), itemIds((request.body as { ids: unknown }).ids)) }
  })
  app.get('/list/inactive', async (request) => ({ data: await listInactiveAdviceSets(deps, actorOf(request)) }))

  // Views over a set's rules; the set is `?id=`.
  const setQuery = { querystring: { type: 'object', required: ['id'], properties: { id: { type: 'string', maxLength: 20 } } } } as const
  const setId = (request: { query: unknown }) => itemId((request.query as { id: string }).id)
  app.get('/list-advice/logic', { schema: setQuery }, async (request) => ({ data: await listAdviceLogic(deps, actorOf(request), setId(request)) }))
  app.get('/unreachable', { schema: setQuery }, async (request) => ({ data: await listUnreachable(deps, actorOf(request), setId(request)) }))
  app.get('/list-calling-advice-sets', { schema: setQuery }, async (request) => ({ data: await listCallingAdviceSets(deps, actorOf(request), setId(request)) }))
  app.get('/logic-cache', { schema: setQuery }, async (request) => ({ data: await logicCache(deps, actorOf(request), setId(request)) }))
  app.get('/list/todoAdvice', { schema: setQuery }, async (request) => ({ data: await listTodoAdvice(deps, actorOf(request), setId(request)) }))
  app.get('/list-:entityType', { schema: setQuery }, async (request) => {
    return { data: await listSetItems(deps, actorOf(request), setId(request), (request.params as { entityType: string }).entityType) }
  })

  app.post('/', { schema: { body: { ...setBody, required: ['name'] } } }, async (request, reply) => {
    reply.code(201)
    return { data: await createAdviceSet(deps, actorOf(request), request.body as Record<string, unknown>) }
  })
  app.post('/copy', { schema: { body: { type: 'object', required: ['id'], additionalProperties: false, properties: { id: {}, name: { type: 'string' } } } } }, async (request, reply) => {
    const body = request.body as { id: unknown; name?: string }
    reply.code(201)
    return { data: await copyAdviceSet(deps, actorOf(request), itemId(body.id), { name: body.name }) }
  })
  app.post('/transfer', { schema: { body: { type: 'object', required: ['id', 'ownerId'], additionalProperties: false, properties: { id: {}, ownerId: { type: 'string' } } } } }, async (request) => {
    const body = request.body as { id: unknown; ownerId: string }
    return { data: await transferAdviceSet(deps, actorOf(request), itemId(body.id), { ownerId: body.ownerId }) }
  })
  app.post('/bulk', {
    schema: {
      body: {
        type: 'object', required: ['ids'], additionalProperties: false,
        properties: { ids: { type: 'array', maxItems: 500 }, categoryId: {}, addTagId: {}, removeTagId: {}, isPublic: { type: 'boolean' }, isStarter: { type: 'boolean' } },
      },
    },
  }, async (request) => {
    const { ids, ...changes } = request.body as Record<string, unknown>
    return { data: await bulkUpdateAdviceSets(deps, actorOf(request), itemIds(ids), changes) }
  })

  app.get('/category', async (request) => ({ data: await listVisibleCategories(deps, actorOf(request)) }))
  app.post('/category', { schema: { body: { ...categoryBody, required: ['name'] } } }, async (request, reply) => {
    reply.code(201)
    return { data: await createCategory(deps, actorOf(request), request.body as { name: string }) }
  })
  app.get('/category/:id', { schema: { params: idParamSchema } }, async (request) => {
    return { data: await getCategory(deps, actorOf(request), itemId((request.params as { id: string }).id)) }
  })
  app.patch('/category/:id', { schema: { params: idParamSchema, body: categoryBody } }, async (request) => {
    return { data: await updateCategory(deps, actorOf(request), itemId((request.params as { id: string }).id), request.body as Record<string, unknown>) }
  })
  app.delete('/category/:id', { schema: { params: idParamSchema } }, async (request) => {
    await deleteCategory(deps, actorOf(request), itemId((request.params as { id: string }).id))
    return { data: { deleted: true } }
  })

  app.get('/:id', { schema: { params: idParamSchema } }, async (request) => {
    return { data: await getAdviceSet(deps, actorOf(request), itemId((request.params as { id: string }).id)) }
  })
  app.patch('/:id', { schema: { params: idParamSchema, body: setBody } }, async (request) => {
    return { data: await updateAdviceSet(deps, actorOf(request), itemId((request.params as { id: string }).id), request.body as Record<string, unknown>) }
  })
  app.delete('/:id', { schema: { params: idParamSchema } }, async (request) => {
    await deleteAdviceSet(deps, actorOf(request), itemId((request.params as { id: string }).id))
    return { data: { deleted: true } }
  })
  app.post('/:id/recover', { schema: { params: idParamSchema } }, async (request) => {
    return { data: await recoverAdviceSet(deps, actorOf(request), itemId((request.params as { id: string }).id)) }
  })
}
