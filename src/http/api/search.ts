// POST /api/search (instantsearch.js multi-query, visibility applied by the service) and support's
// DELETE /api/admin/support/algolia/object/{objectID}. Also starts the indexer with the app and stops it on close.
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { deleteSearchObject, searchLibrary, searchRuntime } from '../../services/search.ts'
import { actorOf, requireProviderAdmin, requireUser } from '../plugins/auth.ts'
import { AnyObject } from '../schemas.ts'

const SearchBody = Type.Object({
  requests: Type.Array(Type.Object({ indexName: Type.String({ maxLength: 200 }), params: Type.Optional(AnyObject()) }), { minItems: 1, maxItems: 20 }),
})
const ObjectParams = Type.Object({ objectID: Type.String({ minLength: 1, maxLength: 200 }) })

export const searchApi: FastifyPluginAsyncTypebox = async (app) => {
  const deps = app.deps
  const { indexer } = searchRuntime(deps)
  app.addHook('onReady', async () => {
    await indexer.start(app.log)
  })
  app.addHook('onClose', async () => {
    await indexer.stop()
  })

  app.post('/search', { preHandler: requireUser, schema: { body: SearchBody } }, async (request) => {
    return searchLibrary(deps, actorOf(request), request.body.requests)
  })

  app.delete('/admin/support/algolia/object/:objectID', { preHandler: requireProviderAdmin, schema: { params: ObjectParams } }, async (request) => {
    const { objectID } = request.params
    await deleteSearchObject(deps, actorOf(request), objectID)
    return { data: { deleted: objectID } }
  })
}
