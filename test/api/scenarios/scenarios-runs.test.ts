// Issue 14 part 1, /api/advicescenario/test: running one, several or all scenarios against the draft or a version;
// the run rows stored (status, differences, actual, who, against what); failures after an edit; errors when an answer
// no longer fits; "run as of" as the run's today; the background run-all task with its progress and cancel.
import t from 'tap'
import { and, asc, eq } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInTeam } from '../../helpers/team.ts'
import { retirementSet } from '../../helpers/scenarios.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { buildRule } from '../../helpers/rules.ts'
import { publishVersion } from '../../helpers/publishing.ts'
import { activity, adviceScenarioRuns, entities } from '../../../src/db/schema/index.ts'
import { waitForJob } from '../../helpers/jobs.ts'
import { executePlan, planRun } from '../../../src/services/scenarios/runs.ts'
import { actorForUser } from '../../../src/services/accounts/users.ts'
import { findUserById } from '../../../src/db/queries/users.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const { ownerId, agent, author, strangerAgent } = await signedInTeam(app, db)

async function runsOf(scenarioId: number) {
  return db.select().from(adviceScenarioRuns).where(eq(adviceScenarioRuns.scenarioId, scenarioId)).orderBy(asc(adviceScenarioRuns.id))
}

async function create(adviceSetId: number, body: Record<string, unknown>) {
  const res = await agent.api('POST', '/api/advicescenario', { adviceSetId, ...body })
  if (res.statusCode !== 201) throw new Error(`create failed: ${res.body}`)
  return res.json().data as { id: number; expected: { advice: string[] } }
}

t.test('runs store a row each: pass, then fail with the differences after an edit, against draft and version', async (t) => {
  const { set, rule, ids } = await retirementSet(db, ownerId)
  const old = await create(set.id, { name: 'Old', inputs: { Age: 70 } })
  const bold = await create(set.id, {
    name: 'Bold', inputs: { Age: 30, Risk: 'high' }, expected: { advice: [ids.shares, ids.assumption], focus: 'complete', variables: { Score: 60, Risk: 'high' } },
  })
  const waits = await create(set.id, { name: 'Waits', inputs: { Age: 30 } })

  const first = await agent.api('POST', '/api/advicescenario/test', { adviceSetId: set.id })
  t.equal(first.statusCode, 200)
  const batch = first.json().data
  t.same(batch.counts, { pass: 3, fail: 0, error: 0 })
  t.same(batch.source, { versionId: null, label: 'Draft' })
  t.same(batch.results.map((r: { scenarioId: number; status: string }) => [r.scenarioId, r.status]), [[old.id, 'pass'], [bold.id, 'pass'], [waits.id, 'pass']])
  const [stored] = await runsOf(bold.id)
  t.match(stored, { status: 'pass', userId: author.id, versionId: null, errorMessage: null, differences: { missingAdvice: [], unexpectedAdvice: [], focus: null, variables: [] } })
  t.same(stored!.actual, { advice: [ids.shares, ids.assumption], focus: 'complete', variables: { Score: 60, Risk: 'high' }, errors: [] }, 'the actual outcome, with the checked variables')

  const version = await publishVersion(db, { adviceSetId: set.id })
  // The edit: the old-age advice now needs 75, and shares score triple.
  t.equal((await agent.api('PATCH', `/api/rule/${rule.id}/node/${ids.old}`, { expression: '{{Age}} >= 75' })).statusCode, 200)
  t.equal((await agent.api('PATCH', `/api/rule/${rule.id}/node/${ids.score}`, { expression: '{{Score}} = {{Age}} * 3' })).statusCode, 200)

  const after = (await agent.api('POST', '/api/advicescenario/test', { adviceSetId: set.id, source: 'draft' })).json().data
  t.same(after.counts, { pass: 1, fail: 2, error: 0 })
  const [, oldRun] = await runsOf(old.id)
  t.equal(oldRun!.status, 'fail')
  t.same(oldRun!.differences, {
    missingAdvice: [ids.retire], unexpectedAdvice: [], focus: null, variables: [],
  }, 'a 70-year-old is no longer told to retire')
  const [, boldRun] = await runsOf(bold.id)
  t.same(boldRun!.differences, { missingAdvice: [], unexpectedAdvice: [], focus: null, variables: [{ name: 'Score', expected: 60, actual: 90 }] })

  const onVersion = (await agent.api('POST', '/api/advicescenario/test', { adviceSetId: set.id, source: version.id })).json().data
  t.same(onVersion.counts, { pass: 3, fail: 0, error: 0 }, 'the published version still gives the old outcome')
  t.same(onVersion.source, { versionId: version.id, label: `Version ${version.number}` })
  t.equal((await runsOf(old.id)).at(-1)!.versionId, version.id, 'the run row names the version')

  const shown = (await agent.api('GET', `/api/advicescenario/${old.id}`)).json().data
  t.match(shown, { status: 'pass', lastRun: { source: `Version ${version.number}`, versionId: version.id } }, 'the status is the latest run’s')
  t.same(shown.runs.map((r: { status: string; source: string }) => [r.status, r.source]), [['pass', `Version ${version.number}`], ['fail', 'Draft'], ['pass', 'Draft']], 'the history, newest first')

  const one = (await agent.api('POST', '/api/advicescenario/test', { adviceSetId: set.id, scenarioIds: [bold.id] })).json().data
  t.same(one.results.map((r: { scenarioId: number }) => r.scenarioId), [bold.id], 'one scenario')
  const two = (await agent.api('POST', '/api/advicescenario/test', { adviceSetId: set.id, scenarioIds: `${old.id},${waits.id}` })).json().data
  t.same(two.results.map((r: { scenarioId: number }) => r.scenarioId), [old.id, waits.id], 'several, in id order')
  t.equal((await runsOf(waits.id)).length, 4)
  const counts = (await agent.get(`/adviceset/${set.id}/show`)).body
  t.match(counts, /Scenarios \(3\) · <span class="scenario-failing">2 failing<\/span>/, 'the set page counts the failing ones (latest runs: on the draft)')
})

t.test('an answer that no longer fits is an error with the reason; bad run requests are named', async (t) => {
  const { set, ids } = await retirementSet(db, ownerId, { name: 'Options set' })
  const bold = await create(set.id, { name: 'Bold', inputs: { Age: 30, Risk: 'high' } })
  const [risk] = await db.select().from(entities).where(eq(entities.reservedName, 'Risk'))
  await db.update(entities).set({ validOptions: ['low', 'medium'] }).where(eq(entities.id, risk!.id))
  t.teardown(() => db.update(entities).set({ validOptions: ['low', 'high'] }).where(eq(entities.id, risk!.id)))
  const batch = (await agent.api('POST', '/api/advicescenario/test', { adviceSetId: set.id })).json().data
  t.same(batch.counts, { pass: 0, fail: 0, error: 1 })
  const [run] = await runsOf(bold.id)
  t.match(run, { status: 'error', differences: null, actual: null, errorMessage: /The answer for \{\{Risk\}\} cannot be used/ })
  t.match((await agent.api('GET', `/api/advicescenario/${bold.id}`)).json().data, { status: 'error' })

  const other = await retirementSet(db, ownerId, { name: 'Another' })
  const elsewhere = await create(other.set.id, { name: 'Elsewhere', inputs: { Age: 70 } })
  const wrongSet = await agent.api('POST', '/api/advicescenario/test', { adviceSetId: set.id, scenarioIds: [bold.id, elsewhere.id] })
  t.equal(wrongSet.statusCode, 404, 'a scenario of another set is not run')
  t.match(wrongSet.json().error.message, `No advice scenario ${elsewhere.id} in this advice set`)
  const otherVersion = await publishVersion(db, { adviceSetId: other.set.id })
  for (const [body, field] of [
    [{ adviceSetId: set.id, source: 'latest' }, 'source'], [{ adviceSetId: set.id, source: otherVersion.id }, 'source'],
    [{ adviceSetId: set.id, scenarioIds: ['x'] }, 'scenarioIds'], [{ adviceSetId: 'none' }, 'adviceSetId'],
  ] as const) {
    const res = await agent.api('POST', '/api/advicescenario/test', body)
    t.equal(res.statusCode, 400, `${JSON.stringify(body)} is refused`)
    t.equal(res.json().error.field, field)
  }
  t.equal((await runsOf(bold.id)).length, 1, 'refused requests store nothing')
  t.ok(ids.askAge)
})

t.test('"run as of" is the run’s today', async (t) => {
  const set = await createAdviceSet(db, { ownerId, name: 'Dated' })
  const { nodes } = await buildRule(db, set.id, 'Year', [
    { type: 'condition', expression: 'year(today()) >= 2030', children: [{ type: 'advice', headline: 'The future' }] },
  ])
  const future = String(nodes[1]!.id)
  const later = await create(set.id, { name: 'Later', runAsOf: '2031-06-01', expected: { advice: [future] } })
  const now = await create(set.id, { name: 'Now', runAsOf: '2026-06-01', expected: { advice: [] } })
  const implicit = await create(set.id, { name: 'Implicit later', runAsOf: '2030-01-01' })
  t.same(implicit.expected.advice, [future], 'an expected outcome taken from a run uses the date too')
  const batch = (await agent.api('POST', '/api/advicescenario/test', { adviceSetId: set.id })).json().data
  t.same(batch.results.map((r: { scenarioId: number; status: string }) => [r.scenarioId, r.status]), [[later.id, 'pass'], [now.id, 'pass'], [implicit.id, 'pass']])
})

t.test('run all in the background: 202 with the job, its progress to the end, only for who may see it', async (t) => {
  const { set } = await retirementSet(db, ownerId, { name: 'Background' })
  for (let i = 0; i < 30; i++) await create(set.id, { name: `S${i}`, inputs: { Age: 20 + i * 2, Risk: i % 2 ? 'high' : 'low' } })
  const started = await agent.api('POST', '/api/advicescenario/test', { adviceSetId: set.id, background: true })
  t.equal(started.statusCode, 202)
  const job = started.json().data
  t.match(job, { kind: 'scenarios.run-all', title: 'Run 30 scenarios of “Background” on the draft', subject: `adviceset:${set.id}:scenarios`, cancellable: true })
  const done = await waitForJob(db, job.id, (j) => j.state === 'completed' || j.state === 'failed')
  t.match(done, { state: 'completed', progress: 100, progressText: '30 of 30 scenarios run · 30 passed, 0 failed, 0 could not run' })
  t.same(done.result, { adviceSetId: set.id, source: 'Draft', total: 30, counts: { pass: 30, fail: 0, error: 0 } })
  t.match((await agent.api('GET', `/api/job/${job.id}`)).json().data, { state: 'completed' }, 'the starter reads it through /api/job')
  t.equal((await strangerAgent.api('GET', `/api/job/${job.id}`)).statusCode, 404, 'another owner cannot')
  const rows = await db.select().from(adviceScenarioRuns).where(eq(adviceScenarioRuns.userId, author.id))
  const listed = (await agent.api('GET', `/api/advicescenario/adviceset/${set.id}`)).json().data as Array<{ status: string; lastRun: { userName: string } }>
  t.ok(listed.every((s) => s.status === 'pass'), 'every scenario has its run, by the one who started the job')
  t.ok(rows.length >= 30)
  const [audited] = await db.select().from(activity).where(and(eq(activity.entityType, 'job'), eq(activity.entityId, String(job.id))))
  t.match(audited, { action: 'create', actorId: author.id, after: { kind: 'scenarios.run-all', adviceSetId: set.id } }, 'starting it is audited')
  t.equal((await agent.api('POST', '/api/advicescenario/test', { adviceSetId: set.id, background: true, source: 'nope' })).statusCode, 400, 'bad requests fail at once')
})

t.test('a cancelled batch stops between slices and keeps what ran', async (t) => {
  const { set } = await retirementSet(db, ownerId, { name: 'Cancelled' })
  for (let i = 0; i < 5; i++) await create(set.id, { name: `C${i}`, inputs: { Age: 70 } })
  const actor = actorForUser((await findUserById(db, author.id))!)
  const plan = await planRun(app.deps, actor, { adviceSetId: set.id, source: 'draft' })
  let slices = 0
  const batch = await executePlan(app.deps, actor, plan, { sliceMs: 0, onProgress: (done) => { if (done > 0) slices++ }, isCancelled: () => slices >= 2 })
  t.equal(batch.cancelled, true)
  t.equal(batch.results.length, 2, 'one scenario a slice, two slices')
  const stored = await db.select().from(adviceScenarioRuns).where(eq(adviceScenarioRuns.userId, author.id))
  t.same(batch.results.map((r) => stored.some((s) => s.id === r.runId)), [true, true], 'the runs that happened are stored')
})
