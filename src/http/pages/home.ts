// The signed-in dashboard; visitors who are not signed in go to /login.
import type { FastifyInstance } from 'fastify'
import { ACTIVITY_PAGE, ACTIVITY_TIMEFRAMES, recentActivity, timeframeOf } from '../../services/audit/activity.ts'
import { ownerName } from '../../services/accounts/users.ts'
import { dateFormatter } from '../format.ts'
import { actorOf } from '../plugins/auth.ts'

const homeQuery = {
  type: 'object',
  properties: { days: { type: 'integer', minimum: 1, maximum: 90 }, limit: { type: 'integer', minimum: 1, maximum: 500 } },
} as const

export async function homePages(app: FastifyInstance) {
  app.get('/', { schema: { querystring: homeQuery } }, async (request, reply) => {
    if (!request.user) return reply.redirect('/login')
    const query = request.query as { days?: number; limit?: number }
    const days = timeframeOf(query.days)
    const limit = query.limit ?? ACTIVITY_PAGE
    const { items, hasMore } = await recentActivity(app.deps, actorOf(request), { days, limit })
    return reply.page('dashboard/index', {
      title: 'Home', activity: items, hasMore, days, limit, timeframes: ACTIVITY_TIMEFRAMES,
      ownerName: await ownerName(app.deps, request.user.ownerId), formatDate: dateFormatter(request.user.preferences.tz),
    })
  })
}
