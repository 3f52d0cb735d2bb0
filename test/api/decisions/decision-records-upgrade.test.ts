// Issue 26: records kept before migration 0029 (outcome and inputs as jsonb, a descending set index) upgrade in place.
// Each reads back as it was written, its outcome now kept in the compact form, and the set index is ascending.
import t from 'tap'
import { sql } from 'drizzle-orm'
import { rowsOf } from '../../../src/db/queries/rule-nodes.ts'
import { findDecisionRecord, insertDecisionRecords, listDecisionRecords } from '../../../src/db/queries/decisions.ts'
import type { RecordedOutcome } from '../../../src/db/schema/index.ts'
import { databaseBefore } from '../../helpers/upgrade-database.ts'

const complete: RecordedOutcome = {
  items: [
    { nodeId: '9', group: 'advice', path: ['6', '8'] },
    { nodeId: '12', group: 'advice', customHeadline: 'Top up by £1,200', path: ['6'] },
    { nodeId: '10', group: 'assumptions', path: ['6'] },
    { nodeId: '14', group: 'examples', path: [] },
  ],
  errors: [{ nodeId: '11', code: 'E_DIVIDE', message: 'Division by zero', variable: 'Ratio' }, { nodeId: '13', code: 'E_API', message: 'No answer' }],
}
const asking: RecordedOutcome = { items: [], errors: [], question: { nodeId: '2', variable: 'Annual_Income', path: ['1'] } }

t.test('records kept before 0029 read back the same after it, in the compact form', async (t) => {
  const { database, close } = await databaseBefore('0029_decision_records_compact')
  t.teardown(close)
  const db = database.db
  await db.execute(sql`insert into owners (id, name) values ('o1', 'Team one')`)
  const old = [
    { id: '01a21977-1351-71f2-bb73-c94d9ec5b1c0', at: '2026-11-26T20:06:03.857Z', inputs: { Savings: 20000, Age: 34, Has_Pension: false }, status: 'complete', outcome: complete },
    { id: '01a21977-1376-77f8-be1f-837f2d141ed7', at: '2026-11-26T20:06:03.894Z', inputs: { Age: 34 }, status: 'question', outcome: asking },
  ]
  for (const r of old) {
    await db.execute(sql`insert into decision_records (id, received_at, owner_id, advice_set_id, version_id, version_number, api_key_id,
      environment, endpoint, content_type, inputs, status, advice_node_ids, has_errors, outcome, engine_micros)
      values (${r.id}, ${r.at}::timestamptz, 'o1', 1, 1, 1, 1, 'production', 'api', 'json', ${JSON.stringify(r.inputs)}::jsonb, ${r.status},
        '{}'::text[], false, ${JSON.stringify(r.outcome)}::jsonb, 5)`)
  }

  await database.migrate()

  for (const r of old) {
    const row = await findDecisionRecord(db, r.id, new Date(r.at))
    t.same(row?.outcome, r.outcome, `${r.status}: the outcome reads back as written`)
    t.same(row?.inputs, r.inputs, `${r.status}: so do the inputs`)
  }
  const stored = rowsOf(await db.execute(sql`select outcome::text as text, pg_typeof(outcome)::text as type from decision_records where status = 'complete'`))[0]!
  t.equal(stored.type, 'json')
  t.notMatch(String(stored.text), /"items"|"nodeId"|"group"/, 'no field names are kept: the compact form')
  const index = rowsOf(await db.execute(sql`select indexdef from pg_indexes where indexname = 'decision_records_set_idx'`))[0]!
  t.notMatch(String(index.indexdef), /DESC/, 'the set index is ascending')

  const [fresh] = await listDecisionRecords(db, { adviceSetId: 1, status: 'complete' }, 1)
  // Text that CSV (the embedded database's COPY) and array literals must escape: quotes, commas, line breaks, backslashes.
  const awkward = 'a "quoted", comma\nnew line \\ back ü'
  const newId = '01a21978-0000-7000-8000-000000000001'
  // After the set's other advice items: a record keeps advice, assumptions and examples in that order.
  const items = fresh!.outcome.items
  const outcome: RecordedOutcome = { ...fresh!.outcome, items: [...items.slice(0, 2), { nodeId: '15', group: 'advice', customHeadline: awkward, path: ['6'] }, ...items.slice(2)] }
  await insertDecisionRecords(db, [{
    ...fresh!, id: newId, receivedAt: new Date('2026-11-26T20:07:00Z'), inputs: { Age: 1, Zed: awkward },
    personalHashes: ['h"1', 'h\\2,3'], adviceNodeIds: ['9', '12', '15'], environment: awkward, outcome,
  }])
  const written = rowsOf(await db.execute(sql`select inputs::text as inputs, outcome::text as outcome from decision_records where id = ${newId}`))[0]!
  t.equal(written.inputs, JSON.stringify({ Age: 1, Zed: awkward }), 'new inputs are kept as the canonical text they were built as')
  t.equal(written.outcome, JSON.stringify({ a: [['9', ['6', '8']], ['12', ['6'], 'Top up by £1,200'], ['15', ['6'], awkward]], s: [['10', ['6']]], x: [['14', []]], e: [['11', 'E_DIVIDE', 'Division by zero', 'Ratio'], ['13', 'E_API', 'No answer']] }))
  const back = await findDecisionRecord(db, newId, new Date('2026-11-26T20:07:00Z'))
  t.same({ inputs: back?.inputs, personalHashes: back?.personalHashes, adviceNodeIds: back?.adviceNodeIds, environment: back?.environment, outcome: back?.outcome },
    { inputs: { Age: 1, Zed: awkward }, personalHashes: ['h"1', 'h\\2,3'], adviceNodeIds: ['9', '12', '15'], environment: awkward, outcome }, 'every column reads back as written')
  const listed = await listDecisionRecords(db, { adviceSetId: 1 }, 10)
  t.same(listed.map((r) => r.id), ['01a21978-0000-7000-8000-000000000001', old[1]!.id, old[0]!.id], 'newest first, over the ascending index')
})
