// Issue 18 point 3, short: the app (as `npm start` runs it) SIGKILLed three times under concurrent API writers loses no
// acknowledged write, refuses none, and its search index converges to the rows; every durable decision record a
// client was told of survives, and best effort loses at most a flush interval of answers. PostgreSQL only: PGlite is one
// process's embedded database. The full run (20 kills) is `npm run test:crash`.
import t from 'tap'
import { crashDurability, formatCrashSummary } from '../../../scripts/crash-durability.ts'
import { testDriver } from '../../helpers/database.ts'

const databaseUrl = process.env.TEST_DATABASE_URL
if (testDriver() !== 'postgres' || !databaseUrl) {
  t.plan(0, 'crash durability needs PostgreSQL (TEST_DRIVER=postgres and TEST_DATABASE_URL): PGlite lives inside one process')
} else {
  t.test('three kills under four writers: every acknowledged write survives, the index converges', async (t) => {
    const summary = await crashDurability({ databaseUrl, kills: 3, seed: 18, writers: 4, upMs: [500, 1500], keep: false, log: (line) => t.comment(line) })
    t.comment(formatCrashSummary(summary))
    const acknowledged = Object.values(summary.acknowledged).reduce((a, b) => a + b, 0)
    t.ok(acknowledged >= 20, `${acknowledged} acknowledged writes`)
    t.ok(summary.acknowledged.node > 0 && summary.acknowledged.rule > 0, 'rules and nodes among them')
    t.same(summary.missing, [], 'no acknowledged write is missing')
    t.same(summary.refused, [], 'no write was refused with an error status')
    t.equal(summary.search.pendingTasks, 0, 'the index outbox emptied')
    t.match(summary.search, { missing: 0, stale: 0, extra: 0 }, 'the search index holds exactly the documents the rows make')
    t.equal(summary.search.indexed, summary.search.expected)
    // Issue 26: decision records under kill -9, durable in odd phases and best effort in even ones.
    t.ok(summary.decisions.answered.durable > 0 && summary.decisions.answered.best_effort > 0, `answers in both modes: ${JSON.stringify(summary.decisions.answered)}`)
    t.same(summary.decisions.durableMissing, [], 'every Decision-Id received in durable mode is in the database after the restart')
    for (const k of summary.decisions.bestEffortKills) t.ok(k.lost <= k.allowed, `kill ${k.kill}, best effort: ${k.lost} records lost, at most one flush interval of traffic (${k.allowed})`)
  })
}
