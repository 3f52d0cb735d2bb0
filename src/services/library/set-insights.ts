// What the set's page shows its own team besides the set itself: the requests for advice end users and authors
// sent, the interview analytics (funnel by question, completions per day), and the decisions partners got (per day,
// advice given) with their export's jobs. Other readers (a public set read by another owner) see none of it.
import type { Actor, Deps } from '../context.ts'
import { canCollaborateOnSet } from '../accounts/visibility.ts'
import { ANALYTICS_TIMEFRAMES, completionsChart, interviewAnalytics } from '../delivery/interview-analytics.ts'
import { listRequestsForSet } from './advice-requests.ts'
import type { SetFacts } from './set-ref.ts'
import { decisionInsights } from '../decisions/insights.ts'
import { decisionExportSubject } from '../decisions/export.ts'
import { jobsPanel } from '../operations/jobs.ts'

export async function setInsights(deps: Deps, actor: Actor, set: SetFacts, days: number) {
  if (!canCollaborateOnSet(actor, set)) return null
  const [requests, analytics, decisions, decisionJobs] = await Promise.all([
    listRequestsForSet(deps, actor, set), interviewAnalytics(deps, actor, set, days),
    decisionInsights(deps, actor, set), jobsPanel(deps, actor, decisionExportSubject(set.id)),
  ])
  const maxShown = Math.max(1, ...analytics.funnel.map((q) => q.shown))
  return {
    requests,
    openRequests: requests.filter((r) => r.status === 'open').length,
    analytics,
    chart: completionsChart(analytics.perDay),
    funnel: analytics.funnel.map((q) => ({ ...q, shownShare: q.shown / maxShown, answeredShare: q.answered / maxShown })),
    timeframes: ANALYTICS_TIMEFRAMES,
    decisions,
    decisionJobs,
  }
}
