// /api/google-analytics/getEvents (SPEC §7): interview analytics of one set, answered from our own event counts.
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { analyticsDays, interviewAnalytics } from '../../services/delivery/interview-analytics.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { IdString } from '../schemas.ts'
import { itemId } from './ids.ts'

const EventsQuery = Type.Object({
  adviceSetId: IdString,
  /** 1, 5, 15, 30, 60 or 90. */
  days: Type.Optional(Type.String({ maxLength: 3 })),
}, { additionalProperties: false })

export const analyticsApi: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('preHandler', requireUser)
  app.get('/getEvents', { schema: { querystring: EventsQuery } }, async (request) => ({
    data: await interviewAnalytics(app.deps, actorOf(request), itemId(request.query.adviceSetId, 'adviceSetId'), analyticsDays(request.query.days)),
  }))
}
