// Interview events are counted in memory and written by a flush (src/services/delivery/interview-events.ts). The app's
// timer flushes every two seconds; a flush called while that write is under way (the app closing, a test reading the
// counts) must settle after it, or what it promises written may not be yet.
import t from 'tap'
import { eq } from 'drizzle-orm'
import { openTestDatabase } from '../../helpers/database.ts'
import { interviewEventCounts } from '../../../src/db/schema/index.ts'
import { flushInterviewEvents, recordInterviewEvent } from '../../../src/services/delivery/interview-events.ts'

t.test('a flush settles after the write already under way', async (t) => {
  const database = await openTestDatabase()
  t.teardown(() => database.close())
  const db = database.db
  recordInterviewEvent(4242, 'started')
  recordInterviewEvent(4242, 'question_shown', 'Age')
  let firstWritten = false
  const first = flushInterviewEvents(db).then((rows) => { firstWritten = true; return rows })
  // Nothing new to write: before, this settled at once, while the first write was still on its way.
  t.equal(await flushInterviewEvents(db), 0, 'the second flush has nothing of its own')
  t.equal(firstWritten, true, 'it settled after the first write')
  t.equal(await first, 2, 'the first wrote both counts')
  const rows = await db.select().from(interviewEventCounts).where(eq(interviewEventCounts.adviceSetId, 4242))
  t.same(rows.map((r) => `${r.event} ${r.question} ${r.count}`).sort(), ['question_shown Age 1', 'started  1'])
})
