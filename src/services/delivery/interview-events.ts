// Interview analytics, recording side: the embed and the Advice API report interview events (started, question
// shown, question answered, advice reached, abandoned at a question). Like API usage (usage.ts) they are counted in
// memory on the request path — one Map increment, no I/O — and added to interview_event_counts in one batched
// statement every two seconds (the api-usage plugin's timer) and when the app closes.
import type { Db } from '../../db/client.ts'
import { addInterviewEventCounts, type EventCount } from '../../db/queries/interview-events.ts'

export const INTERVIEW_EVENTS = ['started', 'question_shown', 'question_answered', 'advice_reached', 'abandoned'] as const
export type InterviewEvent = (typeof INTERVIEW_EVENTS)[number]
/** What the embed may report itself; the others the Advice API sees. */
export const EMBED_EVENTS = ['question_answered', 'abandoned'] as const

const DAY_MS = 24 * 60 * 60 * 1000
/** Past this many distinct counters in one interval, further ones wait for the next flush's map (bounded memory). */
const MAX_COUNTERS = 100_000

let enabled = true
let counters = new Map<string, EventCount & { dayNumber: number }>()

/** On by default; `bench:api` turns it off to measure the Advice API without it. */
export function setInterviewEventsEnabled(on: boolean): void {
  enabled = on
}

/** Counts one event; `question` is the variable asked for ('' for events about the whole interview). */
export function recordInterviewEvent(adviceSetId: number, event: InterviewEvent, question = '', now = Date.now()): void {
  if (!enabled) return
  const dayNumber = Math.floor(now / DAY_MS)
  const id = `${adviceSetId}|${dayNumber}|${event}|${question}`
  const counter = counters.get(id)
  if (counter) { counter.count++; return }
  if (counters.size >= MAX_COUNTERS) return
  counters.set(id, { adviceSetId, dayNumber, day: '', event, question, count: 1 })
}

/** What one Advice API run tells: a run with no answers starts an interview; a focus is a question shown; done is advice reached. */
export function recordAdviceRunEvents(adviceSetId: number, answered: number, focusVariable: string | undefined): void {
  if (!enabled) return
  if (answered === 0) recordInterviewEvent(adviceSetId, 'started')
  if (focusVariable !== undefined) recordInterviewEvent(adviceSetId, 'question_shown', focusVariable)
  else recordInterviewEvent(adviceSetId, 'advice_reached')
}

/** Writes and clears the counts so far; the counts of a failed write are dropped, never written twice. */
export async function flushInterviewEvents(db: Db): Promise<number> {
  if (counters.size === 0) return 0
  const batch = [...counters.values()].map(({ dayNumber, ...c }) => ({ ...c, day: new Date(dayNumber * DAY_MS).toISOString().slice(0, 10) }))
  counters = new Map()
  await addInterviewEventCounts(db, batch)
  return batch.length
}
