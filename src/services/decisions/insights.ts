// What the set's page shows its team of the answers partners got (issue 26): decisions per UTC day over the last 30
// days and how often each advice item was given, named by its headline in the published version (or its node id
// when that version does not have it, e.g. an item since removed). Counted in the database (GROUP BY day, unnest of
// the advice given), so the page never reads the records themselves.
import { decisionAdviceCounts, decisionCountsPerDay } from '../../db/queries/decisions.ts'
import { findVersionInState } from '../../db/queries/versions.ts'
import type { NodeModel } from '../../engine/index.ts'
import { canCollaborateOnSet } from '../accounts/visibility.ts'
import type { Actor, Deps } from '../context.ts'
import { dayBarChart, type BarChart } from '../delivery/interview-analytics.ts'
import type { VersionSnapshot } from '../publishing/snapshot.ts'

export const DECISION_INSIGHT_DAYS = 30
const DAY_MS = 24 * 60 * 60 * 1000

export interface AdviceShare { nodeId: string; headline: string; count: number; /** Of all answers in the period, 0–100. */ percent: number }
export interface DecisionInsights {
  days: number
  total: number
  perDay: Array<{ day: string; count: number }>
  chart: BarChart
  advice: AdviceShare[]
}

/** Headlines of the advice nodes a version holds (its own rules and the rules of other sets it calls). */
function headlinesOf(snapshot: VersionSnapshot | undefined): Map<string, string> {
  const headlines = new Map<string, string>()
  const visit = (nodes: NodeModel[]) => nodes.forEach((node) => {
    const words = (node.headline || node.text || '').trim()
    if (node.type === 'advice' && words) headlines.set(node.id, words)
    visit(node.children)
  })
  for (const rule of [...(snapshot?.model.rules ?? []), ...(snapshot?.model.externalRules ?? [])]) visit(rule.nodes)
  return headlines
}

/** Null for readers outside the set's team (records are theirs alone). */
export async function decisionInsights(deps: Deps, actor: Actor, set: { id: number; ownerId: string }, now = new Date()): Promise<DecisionInsights | null> {
  if (!canCollaborateOnSet(actor, set)) return null
  const today = Math.floor(now.getTime() / DAY_MS)
  const from = new Date((today - DECISION_INSIGHT_DAYS + 1) * DAY_MS)
  const [counts, given, published] = await Promise.all([
    decisionCountsPerDay(deps.db, set.id, from), decisionAdviceCounts(deps.db, set.id, from), findVersionInState(deps.db, set.id, 'published'),
  ])
  const byDay = new Map(counts.map((c) => [c.day, c.count]))
  const perDay = Array.from({ length: DECISION_INSIGHT_DAYS }, (_, i) => {
    const day = new Date(from.getTime() + i * DAY_MS).toISOString().slice(0, 10)
    return { day, count: byDay.get(day) ?? 0 }
  })
  const total = perDay.reduce((sum, d) => sum + d.count, 0)
  const headlines = headlinesOf(published?.snapshot as VersionSnapshot | undefined)
  return {
    days: DECISION_INSIGHT_DAYS,
    total,
    perDay,
    chart: dayBarChart(perDay.map((d) => ({ day: d.day, value: d.count, label: `${d.day}: ${d.count} answer${d.count === 1 ? '' : 's'}` }))),
    advice: given.map((g) => ({ nodeId: g.nodeId, headline: headlines.get(g.nodeId) ?? g.nodeId, count: g.count, percent: total === 0 ? 0 : (g.count / total) * 100 })),
  }
}
