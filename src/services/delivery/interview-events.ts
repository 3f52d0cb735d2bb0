// Interview analytics, recording side. Interviews are counted by session: the embed reports each of its interviews
// (started once, each question shown and answered, the advice reached at most once, abandoned at a question when left
// unfinished), so no interview completes more often than it starts. The Advice API is stateless (a partner may send
// all answers at once, or one more each call), so its calls are counted apart, as runs and runs that reached advice;
// the embed's own calls to it are not runs of a partner. Like API usage (usage.ts) the events are counted in memory
// on the request path — one Map increment, no I/O — and added to interview_event_counts in one batched statement every
// two seconds (the api-usage plugin's timer) and when the app closes.
import type { Db } from '../../db/client.ts'
import { addInterviewEventCounts, type EventCount } from '../../db/queries/interview-events.ts'
import { oneAtATime } from '../one-at-a-time.ts'

/** What the embed reports of its interviews: about the whole interview, and about one question of it. */
export const INTERVIEW_LEVEL_EVENTS = ['started', 'advice_reached'] as const
export const QUESTION_EVENTS = ['question_shown', 'question_answered', 'abandoned'] as const
/** What the Advice API counts of its calls (not the embed's): every run, and the runs that reached advice. */
export const API_RUN_EVENTS = ['api_run', 'api_run_complete'] as const
export type InterviewEvent = (typeof INTERVIEW_LEVEL_EVENTS)[number] | (typeof QUESTION_EVENTS)[number] | (typeof API_RUN_EVENTS)[number]

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

/** A partner's Advice API run: one run, and one that reached advice when no question was left to ask. */
export function recordAdviceRun(adviceSetId: number, complete: boolean): void {
  if (!enabled) return
  recordInterviewEvent(adviceSetId, 'api_run')
  if (complete) recordInterviewEvent(adviceSetId, 'api_run_complete')
}

/**
 * Writes and clears the counts so far (how many rows it wrote); the counts of a failed write are dropped, never written
 * twice. A flush called while the timer's write is under way settles after that write.
 */
export const flushInterviewEvents: (db: Db) => Promise<number> = oneAtATime(writeCounters)

async function writeCounters(db: Db): Promise<number> {
  if (counters.size === 0) return 0
  const batch = [...counters.values()].map(({ dayNumber, ...c }) => ({ ...c, day: new Date(dayNumber * DAY_MS).toISOString().slice(0, 10) }))
  counters = new Map()
  await addInterviewEventCounts(db, batch)
  return batch.length
}
