import { and, asc, eq, gte, sql } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { interviewEventCounts } from '../schema/index.ts'

export interface EventCount { adviceSetId: number; day: string; event: string; question: string; count: number }

/**
 * Adds a batch of counts in one statement (the batch travels as one JSON parameter). In key order: instances sharing
 * a PostgreSQL flush at once, and two upserting the same rows in different orders deadlocked, losing one's counts.
 */
export async function addInterviewEventCounts(db: Db, batch: EventCount[]): Promise<void> {
  if (batch.length === 0) return
  const rows = batch.map((c) => ({ advice_set_id: c.adviceSetId, day: c.day, event: c.event, question: c.question, count: c.count }))
  await db.execute(sql`
    insert into interview_event_counts (advice_set_id, day, event, question, count)
    select v.advice_set_id, v.day, v.event, v.question, v.count
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(advice_set_id int, day date, event text, question text, count int)
    order by v.advice_set_id, v.day, v.event, v.question
    on conflict (advice_set_id, day, event, question) do update set count = interview_event_counts.count + excluded.count`)
}

export async function eventCountsSince(db: Db, adviceSetId: number, firstDay: string) {
  return db.select({ day: sql<string>`${interviewEventCounts.day}::text`, event: interviewEventCounts.event, question: interviewEventCounts.question, count: interviewEventCounts.count })
    .from(interviewEventCounts)
    .where(and(eq(interviewEventCounts.adviceSetId, adviceSetId), gte(interviewEventCounts.day, firstDay)))
    .orderBy(asc(interviewEventCounts.day))
}
