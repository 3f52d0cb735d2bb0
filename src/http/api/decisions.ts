// GET /api/adviceset/{id}/decisions (issue 26): a set's decision records for its team (session), newest first, with
// the decisions page's filters and an opaque cursor: `data.next` is the `before` of the next page, null on the last.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { listDecisionsJson } from '../../services/decisions/read.ts'
import { DecisionListQuery } from '../decision-query.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { IdParams } from '../schemas.ts'
import { itemId } from './ids.ts'

export const decisionsApi: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/:id/decisions', { preHandler: requireUser, schema: { params: IdParams, querystring: DecisionListQuery } }, async (request) => ({
    data: await listDecisionsJson(app.deps, actorOf(request), itemId(request.params.id), request.query),
  }))
}
