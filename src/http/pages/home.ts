// The signed-in dashboard; visitors who are not signed in go to /login.
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ACTIVITY_PAGE, ACTIVITY_TIMEFRAMES, recentActivity, timeframeOf } from '../../services/audit/activity.ts'
import { ownerName } from '../../services/accounts/users.ts'
import { dateFormatter } from '../format.ts'
import { actorOf } from '../plugins/auth.ts'

const HomeQuery = Type.Object({
  days: Type.Optional(Type.Integer({ minimum: 1, maximum: 90 })), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
})

export const homePages: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/', { schema: { querystring: HomeQuery } }, async (request, reply) => {
    if (!request.user) return reply.redirect('/login')
    const query = request.query
    const days = timeframeOf(query.days)
    const limit = query.limit ?? ACTIVITY_PAGE
    const { items, hasMore } = await recentActivity(app.deps, actorOf(request), { days, limit })
    return reply.page('dashboard/index', {
      title: 'Home', activity: items, hasMore, days, limit, timeframes: ACTIVITY_TIMEFRAMES,
      ownerName: await ownerName(app.deps, request.user.ownerId), formatDate: dateFormatter(request.user.preferences.tz),
    })
  })
}
