// bench:replay (issue 27): replay at the review gate, and "why not".
//   1. 100,000 recorded answers of the published 500-node synthetic set (1,000 distinct answers run by the engine and
//      recorded, copied to 100,000 over the last 100 days) replayed on a working draft that changes one condition:
//      the time (target < 10 s on PostgreSQL), the longest gap between two progress reports (target ≤ 250 ms) and the
//      heap (flat: after a full GC before, at every 100th report (that GC's time left out of the gaps) and after).
//   2. "Why not" for advice nodes of the 5,000-node synthetic set: an explained run, then the blocking conditions and
//      the nearest answers of one node (target < 200 ms for any node): every 10th advice node not given, p50 and max.
// On embedded PGlite by default; BENCH_DATABASE_URL for PostgreSQL. `--records N` (default 100,000).
import { eq, sql } from 'drizzle-orm'
import { insertDecisionRecords, type NewDecisionRecord } from '../../src/db/queries/decisions.ts'
import { findVersionInState } from '../../src/db/queries/versions.ts'
import { ruleNodes, rules } from '../../src/db/schema/index.ts'
import { compileAdviceSet, evaluate, whyNot } from '../../src/engine/index.ts'
import { recordedOutcome } from '../../src/services/decisions/build.ts'
import { decisionIdAt } from '../../src/services/decisions/decision-id.ts'
import { replayRecorded } from '../../src/services/decisions/replay-batch.ts'
import type { VersionSnapshot } from '../../src/services/publishing/snapshot.ts'
import { compileSource } from '../../src/services/scenarios/runs.ts'
import type { Deps } from '../../src/services/context.ts'
import { createApiKey } from '../../test/helpers/api-keys.ts'
import { createOwner } from '../../test/helpers/factories.ts'
import { openBenchDatabase } from './bench-database.ts'
import { syntheticAdviceSet, syntheticInputs } from './fixtures/synthetic.ts'
import { seedPublishedSet } from './published-set.ts'

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? Number(process.argv[i + 1]) : fallback
}
const RECORDS = arg('records', 100_000)
const DISTINCT = 1000
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {})
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`

const bench = await openBenchDatabase('replay')
const db = bench.database.db
try {
  console.log(`bench:replay on ${bench.driver}, node ${process.version}`)
  const ownerId = await createOwner(db, { name: 'Replay bench' })
  const setId = await seedPublishedSet(db, ownerId, { nodes: 500, entities: true })
  const published = (await findVersionInState(db, setId, 'published'))!
  const key = await createApiKey(db, { ownerId })

  // 1,000 answers recorded as the published version gave them, then copied to RECORDS over the last 100 days.
  const seeded = performance.now()
  const compiled = compileAdviceSet((published.snapshot as VersionSnapshot).model)
  const now = Date.now()
  const rows: NewDecisionRecord[] = syntheticInputs(DISTINCT).map((inputs, i) => {
    const receivedAt = new Date(now - 100 * 86_400_000 - i * 1000)
    const { outcome, status, adviceNodeIds } = recordedOutcome(compiled, evaluate(compiled, inputs, { context: 'run', contentType: 'html', now: receivedAt }))
    return {
      id: decisionIdAt(receivedAt.getTime()), receivedAt, ownerId, adviceSetId: setId, versionId: published.id, versionNumber: published.number,
      apiKeyId: key.key.id, environment: 'production', endpoint: 'api', contentType: 'html', inputs, status, adviceNodeIds,
      hasErrors: outcome.errors.length > 0, outcome, engineMicros: 50,
    }
  })
  for (let i = 0; i < rows.length; i += 500) await insertDecisionRecords(db, rows.slice(i, i + 500))
  const copies = Math.ceil(RECORDS / DISTINCT) - 1
  if (copies > 0) {
    await db.execute(sql`
      insert into decision_records (id, received_at, owner_id, advice_set_id, version_id, version_number, api_key_id, environment, endpoint,
        content_type, inputs, personal_hashes, status, advice_node_ids, has_errors, outcome, engine_micros)
      select gen_random_uuid(), r.received_at + (g * interval '1 day'), r.owner_id, r.advice_set_id, r.version_id, r.version_number, r.api_key_id,
        r.environment, r.endpoint, r.content_type, r.inputs, r.personal_hashes, r.status, r.advice_node_ids, r.has_errors, r.outcome, r.engine_micros
      from generate_series(1, ${copies}) g, (select * from decision_records where advice_set_id = ${setId}) r`)
  }
  await db.execute(sql`analyze decision_records`)
  console.log(`seeded ${(DISTINCT * (copies + 1)).toLocaleString('en')} records in ${((performance.now() - seeded) / 1000).toFixed(1)} s`)

  // The working draft changes one condition: the first rule's age band starts five years later.
  const [node] = await db.select({ id: ruleNodes.id, expression: ruleNodes.expression }).from(ruleNodes)
    .innerJoin(rules, eq(rules.id, ruleNodes.ruleId)).where(eq(rules.adviceSetId, setId)).orderBy(ruleNodes.id)
    .then((all) => all.filter((n) => n.expression?.startsWith('{{Age}} >=')))
  await db.update(ruleNodes).set({ expression: node!.expression!.replace(/\{\{Age\}\} >= (\d+)/, (_m, n: string) => `{{Age}} >= ${Number(n) + 5}`) }).where(eq(ruleNodes.id, node!.id))
  const target = await compileSource(db, { id: setId }, 'draft')

  const deps = { db } as Deps
  gc()
  const heapStart = process.memoryUsage().heapUsed
  const heaps: number[] = []
  let lastReport = performance.now()
  let longestGap = 0
  let reports = 0
  const started = performance.now()
  const summary = await replayRecorded(deps, { id: setId }, published, target, {
    limit: RECORDS,
    onProgress: () => {
      const at = performance.now()
      longestGap = Math.max(longestGap, at - lastReport)
      lastReport = at
      reports++
      // Every 100th report, what is still held after a full GC (the reports between show only garbage coming and going).
      if (reports % 100 === 0) {
        gc()
        heaps.push(process.memoryUsage().heapUsed)
        lastReport = performance.now()
      }
    },
  })
  const seconds = (performance.now() - started) / 1000
  gc()
  const heapEnd = process.memoryUsage().heapUsed
  const target10 = bench.driver === 'PostgreSQL' ? (seconds < 10 ? 'met' : 'MISSED') : 'target is for PostgreSQL'
  console.log(`\nreplay of ${summary.replayed.toLocaleString('en')} recorded answers on the draft: ${seconds.toFixed(2)} s (${Math.round(summary.replayed / seconds).toLocaleString('en')}/s) · < 10 s: ${target10}`)
  console.log(`  changed ${summary.changed.toLocaleString('en')} (${summary.groups.filter((g) => g.count > 0).map((g) => `${g.label.toLowerCase()} ${g.count.toLocaleString('en')}`).join(', ')}), not replayable ${summary.notReplayable}`)
  console.log(`  progress: ${reports} reports, longest gap ${longestGap.toFixed(0)} ms · ≤ 250 ms: ${longestGap <= 250 ? 'met' : 'MISSED'}`)
  console.log(`  heap after a GC: ${mb(heapStart)} before, ${mb(Math.min(...heaps))}–${mb(Math.max(...heaps))} at ${heaps.length} points while replaying, ${mb(heapEnd)} after`)

  // Part 2: why not, on the 5,000-node set.
  const big = compileAdviceSet(syntheticAdviceSet(5000))
  const inputs = syntheticInputs(1, 11)[0]!
  const run = () => evaluate(big, inputs, { explain: true, trace: 'visits', render: false })
  const notGiven = whyNot(big, inputs, run(), { nearestLimit: 0 })
  const sample = notGiven.filter((_, i) => i % 10 === 0)
  const times: number[] = []
  let found = 0
  for (const entry of sample) {
    const t0 = performance.now()
    const asked = new Set([entry.nodeId])
    const [one] = whyNot(big, inputs, run(), { only: asked, nearestFor: asked })
    times.push(performance.now() - t0)
    if (one?.nearest) found++
  }
  times.sort((a, b) => a - b)
  const max = times[times.length - 1]!
  console.log(`\nwhy not, 5,000-node set: ${notGiven.length.toLocaleString('en')} advice nodes not given; ${sample.length} of them (every 10th) explained one at a time, run included`)
  console.log(`  p50 ${times[Math.floor(times.length / 2)]!.toFixed(1)} ms, p95 ${times[Math.floor(times.length * 0.95)]!.toFixed(1)} ms, max ${max.toFixed(1)} ms · < 200 ms: ${max < 200 ? 'met' : 'MISSED'}; nearest answers found for ${found} of ${sample.length}`)
} finally {
  await bench.close()
}
