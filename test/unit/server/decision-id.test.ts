// Decision ids: UUIDv7s of the answer's moment, which madeAtOf reads back (a record is looked up in that moment's
// partition), distinct even within one millisecond, and ordered by time across milliseconds.
import t from 'tap'
import { decisionIdAt } from '../../../src/services/decisions/decision-id.ts'
import { madeAtOf } from '../../../src/services/decisions/build.ts'
import { decodeOutcome, encodeOutcome, type RecordedOutcome } from '../../../src/db/schema/decision-outcome.ts'

t.test('an id tells the moment it was made', async (t) => {
  for (const at of [0, 1, Date.UTC(2026, 10, 26, 20, 6, 3, 857), Date.UTC(9999, 11, 31, 23, 59, 59, 999)]) {
    const id = decisionIdAt(at)
    t.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, `version 7, RFC variant (${at})`)
    t.equal(madeAtOf(id)?.getTime(), at, `made at ${new Date(at).toISOString()}`)
  }
})

t.test('ids are distinct within a millisecond and ordered across them', async (t) => {
  const at = Date.UTC(2026, 10, 26)
  const same = new Set(Array.from({ length: 10_000 }, () => decisionIdAt(at)))
  t.equal(same.size, 10_000)
  const later = decisionIdAt(at + 1)
  t.ok([...same].every((id) => id < later), 'every id of a millisecond sorts before any of the next')
})

t.test('the outcome’s compact form reads back as written', async (t) => {
  const outcomes: RecordedOutcome[] = [
    { items: [], errors: [] },
    { items: [{ nodeId: '9', group: 'advice', path: ['6', '8'] }, { nodeId: '12', group: 'advice', customHeadline: 'Top up', path: [] },
      { nodeId: '10', group: 'assumptions', path: ['6'] }, { nodeId: '14', group: 'examples', path: ['6', '7'] }],
    errors: [{ nodeId: '11', code: 'E_DIVIDE', message: 'Division by zero', variable: 'Ratio' }, { nodeId: '13', code: 'E_API', message: 'No answer' }] },
    { items: [], errors: [], question: { nodeId: '2', variable: 'Annual_Income', path: ['1'] } },
  ]
  for (const outcome of outcomes) t.same(decodeOutcome(JSON.parse(encodeOutcome(outcome))), outcome)
  t.equal(encodeOutcome(outcomes[0]!), '{}', 'an empty outcome takes two bytes')
})
