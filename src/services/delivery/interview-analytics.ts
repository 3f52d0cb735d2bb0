// Interview analytics, reading side (SPEC §7 google-analytics/getEvents, answered from our own data — no third-party
// calls): for one advice set over 1, 5, 15, 30, 60 or 90 days (SPEC §9 timeframes), the embed's interviews started
// and completed per day with a funnel by question (shown, answered, abandoned there), and apart from them the
// partners' Advice API runs (interview-events.ts says why they are not interviews). The set's team reads it.
import { eventCountsSince } from '../../db/queries/interview-events.ts'
import type { Actor, Deps } from '../context.ts'
import { canCollaborateOnSet } from '../accounts/visibility.ts'
import { ValidationError } from '../errors.ts'
import { setAllowed, type SetRef } from '../library/set-ref.ts'

export const ANALYTICS_TIMEFRAMES = [1, 5, 15, 30, 60, 90] as const
/** SPEC §9 says 1 for recent activity; a funnel over one day says little, so analytics open on 30. */
export const DEFAULT_ANALYTICS_DAYS = 30
const DAY_MS = 24 * 60 * 60 * 1000

export interface DayFigures { day: string; started: number; completed: number; apiRuns: number }
export interface QuestionFigures { question: string; shown: number; answered: number; abandoned: number }
export interface InterviewAnalytics {
  adviceSetId: number
  days: number
  totals: {
    started: number; completed: number; abandoned: number; questionsShown: number; questionsAnswered: number
    /** Advice API runs of partners, and how many of them reached advice. */
    apiRuns: number; apiRunsComplete: number
  }
  perDay: DayFigures[]
  funnel: QuestionFigures[]
}

export function analyticsDays(raw: unknown): number {
  if (raw === undefined || raw === '') return DEFAULT_ANALYTICS_DAYS
  const days = Number(raw)
  if (!(ANALYTICS_TIMEFRAMES as readonly number[]).includes(days)) throw new ValidationError('days', `days must be one of ${ANALYTICS_TIMEFRAMES.join(', ')}.`)
  return days
}

export async function interviewAnalytics(deps: Deps, actor: Actor, adviceSet: SetRef, days: number, now = new Date()): Promise<InterviewAnalytics> {
  const adviceSetId = (await setAllowed(deps.db, adviceSet, (set) => canCollaborateOnSet(actor, set))).id
  const today = Math.floor(now.getTime() / DAY_MS)
  const perDay = Array.from({ length: days }, (_, i) => ({ day: new Date((today - days + 1 + i) * DAY_MS).toISOString().slice(0, 10), started: 0, completed: 0, apiRuns: 0 }))
  const byDay = new Map(perDay.map((d) => [d.day, d]))
  const questions = new Map<string, QuestionFigures>()
  const totals = { started: 0, completed: 0, abandoned: 0, questionsShown: 0, questionsAnswered: 0, apiRuns: 0, apiRunsComplete: 0 }
  for (const row of await eventCountsSince(deps.db, adviceSetId, perDay[0]!.day)) {
    const day = byDay.get(row.day)
    if (!day) continue
    if (row.event === 'started') { day.started += row.count; totals.started += row.count; continue }
    if (row.event === 'advice_reached') { day.completed += row.count; totals.completed += row.count; continue }
    if (row.event === 'api_run') { day.apiRuns += row.count; totals.apiRuns += row.count; continue }
    if (row.event === 'api_run_complete') { totals.apiRunsComplete += row.count; continue }
    if (!row.question) continue
    let q = questions.get(row.question)
    if (!q) questions.set(row.question, q = { question: row.question, shown: 0, answered: 0, abandoned: 0 })
    if (row.event === 'question_shown') { q.shown += row.count; totals.questionsShown += row.count }
    else if (row.event === 'question_answered') { q.answered += row.count; totals.questionsAnswered += row.count }
    else if (row.event === 'abandoned') { q.abandoned += row.count; totals.abandoned += row.count }
  }
  const funnel = [...questions.values()].sort((a, b) => b.shown - a.shown || a.question.localeCompare(b.question))
  return { adviceSetId, days, totals, perDay, funnel }
}

export interface BarChart { width: number; height: number; max: number; bars: Array<{ x: number; y: number; width: number; height: number; day: string; value: number; label: string }>; ticks: Array<{ x: number; label: string }> }

/** Geometry of a bars-per-day chart, drawn as SVG by the set's page (no chart library needed). */
export function dayBarChart(points: Array<{ day: string; value: number; label: string }>, width = 640, height = 160): BarChart {
  const max = Math.max(1, ...points.map((p) => p.value))
  const slot = width / points.length
  const barWidth = Math.max(2, slot * 0.7)
  const bars = points.map((p, i) => {
    const h = Math.round((p.value / max) * (height - 20))
    return { x: Math.round(i * slot + (slot - barWidth) / 2), y: height - h, width: Math.round(barWidth), height: h, day: p.day, value: p.value, label: p.label }
  })
  const every = Math.max(1, Math.ceil(points.length / 6))
  const ticks = points.map((p, i) => ({ i, p })).filter(({ i }) => i % every === 0 || i === points.length - 1)
    .map(({ i, p }) => ({ x: Math.round(i * slot + slot / 2), label: p.day.slice(5) }))
  return { width, height, max, bars, ticks }
}

/** The completions-per-day chart of the interview analytics. */
export function completionsChart(perDay: DayFigures[], width = 640, height = 160): BarChart {
  return dayBarChart(perDay.map((d) => ({ day: d.day, value: d.completed, label: `${d.day}: ${d.completed} completed, ${d.started} started` })), width, height)
}
