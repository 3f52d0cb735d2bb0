// The decisions pages (issue 26): a set's decision records, newest first, filtered and paged by keyset, and one record
// with its inputs, its version and the path to each item it gave. Only the set's own team and provider admins read them.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { decisionPage, decisionsPage } from '../../services/decisions/read.ts'
import { DECISION_STATUSES } from '../../services/decisions/filters.ts'
import { itemId } from '../api/ids.ts'
import { DecisionListQuery, DecisionParams, DecisionRunQuery } from '../decision-query.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { IdParams } from '../schemas.ts'

export const decisionPages: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/adviceset/:id/decisions', { preHandler: requireUser, schema: { params: IdParams, querystring: DecisionListQuery } }, async (request, reply) => {
    const id = itemId(request.params.id)
    const page = await decisionsPage(app.deps, actorOf(request), id, request.query)
    const base = `/adviceset/${id}/decisions`
    // The "Older" link keeps the filters and adds the cursor.
    const olderQuery = new URLSearchParams()
    for (const [name, value] of Object.entries(request.query)) if (name !== 'before' && value) olderQuery.set(name, value)
    if (page.next !== null) olderQuery.set('before', page.next)
    const older = page.next === null ? null : `${base}?${olderQuery.toString()}`
    if (page.problem) reply.code(400)
    return reply.page('decisions/index', {
      title: `Decisions · ${page.set.name}`, ...page, base, older, query: request.query, statuses: DECISION_STATUSES,
      errors: page.problem ? { [page.problem.field]: page.problem.message } : {},
    })
  })

  app.get('/adviceset/:id/decisions/:decisionId', { preHandler: requireUser, schema: { params: DecisionParams, querystring: DecisionRunQuery } }, async (request, reply) => {
    const id = itemId(request.params.id)
    const { run, against } = request.query
    const page = await decisionPage(app.deps, actorOf(request), id, request.params.decisionId, against !== undefined ? itemId(against, 'against') : run)
    return reply.page('decisions/show', { title: `Decision · ${page.set.name}`, ...page })
  })
}
