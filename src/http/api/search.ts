// POST /api/search (instantsearch.js multi-query, visibility applied by the service) and support's
// DELETE /api/admin/support/algolia/object/{objectID}. Also starts the indexer with the app and stops it on close.
import type { FastifyInstance } from 'fastify'
import { deleteSearchObject, searchLibrary, searchRuntime, type MultiSearchRequest } from '../../services/search.ts'
import { actorOf, requireProviderAdmin, requireUser } from '../plugins/auth.ts'

const searchBody = {
  type: 'object', required: ['requests'],
  properties: {
    requests: {
      type: 'array', minItems: 1, maxItems: 20,
      items: {
        type: 'object', required: ['indexName'],
        properties: { indexName: { type: 'string', maxLength: 200 }, params: { type: 'object' } },
      },
    },
  },
} as const

export async function searchApi(app: FastifyInstance) {
  const deps = app.deps
  const { indexer } = searchRuntime(deps)
  app.addHook('onReady', async () => {
    await indexer.start(app.log)
  })
  app.addHook('onClose', async () => {
    await indexer.stop()
  })

  app.post('/search', { preHandler: requireUser, schema: { body: searchBody } }, async (request) => {
    return searchLibrary(deps, actorOf(request), (request.body as { requests: MultiSearchRequest[] }).requests)
  })

  app.delete('/admin/support/algolia/object/:objectID', {
    preHandler: requireProviderAdmin,
    schema: { params: { type: 'object', required: ['objectID'], properties: { objectID: { type: 'string', minLength: 1, maxLength: 200 } } } },
  }, async (request) => {
    const { objectID } = request.params as { objectID: string }
    await deleteSearchObject(deps, actorOf(request), objectID)
    return { data: { deleted: objectID } }
  })
}
