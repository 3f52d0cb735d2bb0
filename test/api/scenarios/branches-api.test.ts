// Issue 14 part 2: POST /api/adviceset/generate-branches and its background tasks — rights, bad input named by field,
// what a branch says (conditions in words, answers, outcome, "Save as scenario"), starting answers, and tasks that
// report progress, finish, and stop when cancelled.
import t from 'tap'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInTeam } from '../../helpers/team.ts'
import { buildCoverSet, buildWideSet, createBranchVariables } from '../../helpers/branch-sets.ts'
import { publishVersion } from '../../helpers/publishing.ts'
import type { Agent } from '../../helpers/agent.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const { ownerId, agent, viewerAgent, strangerAgent } = await signedInTeam(app, db)
await createBranchVariables(db, ownerId)
const cover = await buildCoverSet(db, ownerId)
const setId = cover.set.id

const generate = (who: Agent, body: Record<string, unknown>) => who.api('POST', '/api/adviceset/generate-branches', { adviceSetId: setId, ...body })

interface BranchJson {
  number: number; when: string; conditions: string[]; rules: string[]; ends: string; inputs: Record<string, unknown>
  answers: Array<{ name: string; value: string }>; outcome: { advice: Array<{ headline: string }>; focus: unknown } | null; saveHref: string
}

/** Polls the task until it leaves `running` (each poll is a request; no timers). */
async function settled(who: Agent, taskId: string) {
  for (;;) {
    const status = (await who.api('GET', `/api/adviceset/generate-branches/tasks/${taskId}`)).json().data
    if (status.state !== 'running') return status
    await new Promise((resolve) => setImmediate(resolve))
  }
}

t.test('the owner\'s team generates branches; other owners get 404', async (t) => {
  for (const [who, a] of [['author', agent], ['viewer', viewerAgent]] as const) {
    const res = await generate(a, {})
    t.equal(res.statusCode, 200, `${who} reads the branches`)
    t.ok(res.json().data.branches.length > 0)
  }
  const stranger = await generate(strangerAgent, {})
  t.equal(stranger.statusCode, 404)
  t.equal(stranger.json().error.message, 'No advice set with this id')
  const signedOut = await app.inject({ method: 'GET', url: `/api/adviceset/generate-branches/tasks/${'0'.repeat(36)}`, headers: { accept: 'application/json' } })
  t.equal(signedOut.statusCode, 401, 'signed-out visitors get nothing')
})

t.test('each branch: conditions in words, the answers that reach it, the outcome, and a link to save it', async (t) => {
  const data = (await generate(agent, { runAsOf: '2026-01-15' })).json().data
  t.equal(data.source.label, 'Working draft')
  t.equal(data.total, data.examined)
  const branches: BranchJson[] = data.branches
  const smoker = branches.find((b) => b.ends === 'Advice: Smoker rate')!
  t.equal(smoker.when, 'Age is at least 18 and Age is less than 65 and Smoker is Yes')
  t.same(smoker.rules, ['Age gate'])
  t.equal(smoker.inputs.Smoker, true)
  t.ok((smoker.inputs.Age as number) >= 18 && (smoker.inputs.Age as number) < 65)
  t.same(smoker.answers.find((a) => a.name === 'Smoker'), { name: 'Smoker', value: 'Yes' })
  t.ok(smoker.outcome!.advice.some((a) => a.headline === 'Smoker rate'), 'the outcome names the advice')
  t.equal(smoker.outcome!.focus, null, 'complete: nothing left to ask')
  const href = new URL(smoker.saveHref, 'http://x')
  t.equal(href.pathname, `/adviceset/${setId}/advicescenario/new`)
  t.same(JSON.parse(href.searchParams.get('inputs')!), smoker.inputs)
  t.match(href.searchParams.get('name'), /^Branch \d+: Age is at least 18/)
  t.equal(href.searchParams.get('runAsOf'), '2026-01-15')
  const regional = branches.find((b) => b.ends === 'Advice: Regional office nearby')!
  t.equal(regional.when, 'Region is North or Region is East')
  t.ok(['North', 'East'].includes(regional.inputs.Region as string))
  t.same(data.unreachable, [], 'every path of this set can be reached')
})

t.test('starting answers are kept in every branch; the paths they rule out are listed apart with the reason', async (t) => {
  const data = (await generate(agent, { inputs: { Age: 70 } })).json().data
  t.same(data.startingInputs, { Age: 70 })
  t.ok(data.branches.every((b: BranchJson) => b.inputs.Age === 70))
  const minor = data.unreachable.find((u: { ends: string }) => u.ends === 'Advice: Too young for cover')
  t.match(minor.reason, /starting answer for \{\{Age\}\} rules this path out/)
  const fromText = (await generate(agent, { inputs: '{"Age": 70}' })).json().data
  t.same(fromText.startingInputs, { Age: 70 }, 'the answers may come as JSON text, as in a URL')
})

t.test('bad input is refused naming the field', async (t) => {
  const cases: Array<[Record<string, unknown>, string, RegExp]> = [
    [{ limit: 0 }, 'limit', /limit: must be a whole number from 1 to 20000/],
    [{ limit: 20001 }, 'limit', /limit: must be a whole number from 1 to 20000/],
    [{ limit: 'many' }, 'limit', /limit/],
    [{ inputs: '{not json' }, 'inputs', /inputs: must be a JSON object/],
    [{ inputs: '[1, 2]' }, 'inputs', /inputs: must be an object/],
    [{ inputs: { Height: 180 } }, 'inputs', /inputs: this advice set has no variable named Height/],
    [{ inputs: { Age: 'old' } }, 'inputs', /inputs: Age: /],
    [{ source: '999999' }, 'source', /source: there is no version 999999 of this advice set/],
    [{ source: 'yesterday' }, 'source', /source: must be "draft", "published" or the id of a version/],
    [{ source: 'published' }, 'source', /source: nothing of this advice set is published yet/],
    [{ runAsOf: '2026-02-30' }, 'runAsOf', /runAsOf: must be a date written YYYY-MM-DD/],
    [{ colour: 'red' }, 'colour', /colour: is not an accepted field/],
  ]
  for (const [body, field, message] of cases) {
    const res = await generate(agent, body)
    t.equal(res.statusCode, 400, JSON.stringify(body))
    t.equal(res.json().error.field, field, `${JSON.stringify(body)} names ${field}`)
    t.match(res.json().error.message, message)
  }
  const badId = await agent.api('POST', '/api/adviceset/generate-branches', { adviceSetId: 'abc' })
  t.equal(badId.statusCode, 400)
  t.equal(badId.json().error.field, 'adviceSetId')
})

t.test('a version of the set is a source; another set\'s version is not', async (t) => {
  const version = await publishVersion(db, { adviceSetId: setId })
  const res = await generate(agent, { source: String(version.id) })
  t.equal(res.statusCode, 200)
  t.equal(res.json().data.source.label, `Version ${version.number} (published)`)
  t.equal((await generate(agent, { source: 'published' })).json().data.source.key, String(version.id))
  t.equal((await generate(viewerAgent, { source: String(version.id) })).statusCode, 200, 'the viewer is on the team')
  const other = await buildCoverSet(db, ownerId, 'Other cover')
  const otherVersion = await publishVersion(db, { adviceSetId: other.set.id })
  const wrong = await generate(agent, { source: String(otherVersion.id) })
  t.equal(wrong.statusCode, 400)
  t.match(wrong.json().error.message, `source: there is no version ${otherVersion.id} of this advice set`)
})

t.test('a large set runs in the background: progress, then the same result a direct run gives', async (t) => {
  const wide = await buildWideSet(db, ownerId, { calls: 12, bands: 12 })
  t.ok(wide.paths > 200, `${wide.paths} paths is more than the direct limit`)
  const started = await agent.api('POST', '/api/adviceset/generate-branches', { adviceSetId: wide.set.id, runAsOf: '2026-01-15' })
  t.equal(started.statusCode, 202)
  const task = started.json().data.task
  t.match(task, { kind: 'generate', adviceSetId: wide.set.id, state: 'running' })
  const done = await settled(agent, task.id)
  t.equal(done.state, 'done')
  t.equal(done.done, done.total)
  t.equal(done.total, wide.paths)
  const result = (await agent.api('GET', `/api/adviceset/generate-branches/tasks/${task.id}/result`)).json().data
  t.equal(result.kind, 'generate')
  t.equal(result.view.branches.length + result.view.unreachable.length, wide.paths)
  const forced = await agent.api('POST', '/api/adviceset/generate-branches', { adviceSetId: setId, background: true, runAsOf: '2026-01-15' })
  t.equal(forced.statusCode, 202, 'a small set runs in the background when asked')
  await settled(agent, forced.json().data.task.id)
  const direct = (await generate(agent, { runAsOf: '2026-01-15' })).json().data
  const background = (await agent.api('GET', `/api/adviceset/generate-branches/tasks/${forced.json().data.task.id}/result`)).json().data.view
  t.same(background, direct, 'the background result equals the direct one')
})

t.test('a task can be cancelled; only the person who started it sees it', async (t) => {
  // 16,202 paths whose every run walks 8,000 conditions: seconds of work, so the cancel below comes well before the end.
  const huge = await buildWideSet(db, ownerId, { calls: 80, bands: 100, name: 'Huge' })
  const started = await agent.api('POST', '/api/adviceset/generate-branches', { adviceSetId: huge.set.id, limit: 20000 })
  const id = started.json().data.task.id
  const early = await agent.api('GET', `/api/adviceset/generate-branches/tasks/${id}/result`)
  t.equal(early.statusCode, 409, 'no result while it runs')
  t.match(early.json().error.message, /^This task has no result: it is still running \((Waiting for a worker…|Starting|[\d,]+ of [\d,]+ paths)\)\.$/)
  const cancelled = await agent.api('POST', `/api/adviceset/generate-branches/tasks/${id}/cancel`)
  t.equal(cancelled.statusCode, 200)
  t.equal(cancelled.json().data.state, 'cancelled')
  t.ok(cancelled.json().data.done < huge.paths, 'it stopped before the end')
  // The job itself stops within a second (its worker looks for cancels); from then on nothing moves.
  let job = (await agent.api('GET', `/api/job/${id}`)).json().data
  while (job.state !== 'cancelled') {
    await new Promise((resolve) => setImmediate(resolve))
    job = (await agent.api('GET', `/api/job/${id}`)).json().data
  }
  const later = await settled(agent, id)
  t.equal(later.state, 'cancelled', 'and stays stopped')
  t.ok(later.done < huge.paths, 'it stopped before the end')
  t.equal((await settled(agent, id)).done, later.done, 'no more progress once the job has stopped')
  const result = await agent.api('GET', `/api/adviceset/generate-branches/tasks/${id}/result`)
  t.equal(result.statusCode, 409)
  t.match(result.json().error.message, 'This task has no result: it was cancelled.')
  t.equal((await viewerAgent.api('GET', `/api/adviceset/generate-branches/tasks/${id}`)).statusCode, 404, 'a teammate does not see it')
  t.equal((await viewerAgent.api('POST', `/api/adviceset/generate-branches/tasks/${id}/cancel`)).statusCode, 404, 'nor cancel it')
  t.equal((await agent.api('GET', '/api/adviceset/generate-branches/tasks/not-a-task')).statusCode, 404)
})
