// What the set's page shows its own team besides the set itself: the requests for advice end users and authors
// sent, and the interview analytics (funnel by question, completions per day). Other readers (a public set read by
// another owner) see neither.
import type { Actor, Deps } from '../context.ts'
import { canCollaborateOnSet } from '../accounts/visibility.ts'
import { ANALYTICS_TIMEFRAMES, completionsChart, interviewAnalytics } from '../delivery/interview-analytics.ts'
import { listRequestsForSet } from './advice-requests.ts'

export async function setInsights(deps: Deps, actor: Actor, set: { id: number; ownerId: string }, days: number) {
  if (!canCollaborateOnSet(actor, set)) return null
  const [requests, analytics] = await Promise.all([listRequestsForSet(deps, actor, set.id), interviewAnalytics(deps, actor, set.id, days)])
  const maxShown = Math.max(1, ...analytics.funnel.map((q) => q.shown))
  return {
    requests,
    openRequests: requests.filter((r) => r.status === 'open').length,
    analytics,
    chart: completionsChart(analytics.perDay),
    funnel: analytics.funnel.map((q) => ({ ...q, shownShare: q.shown / maxShown, answeredShare: q.answered / maxShown })),
    timeframes: ANALYTICS_TIMEFRAMES,
  }
}
