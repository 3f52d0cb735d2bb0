// Issue 14 part 1, the scenario pages without JavaScript: the list with status and the failing filter, Run all as a
// form, new (also prefilled from the debugger), Fill expected from a run, edit, copy, show with expected against
// actual, delete with undo; who sees what; the debugger's "Save as scenario".
import t from 'tap'
import { eq } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInTeam } from '../../helpers/team.ts'
import { retirementSet } from '../../helpers/scenarios.ts'
import { waitForJob } from '../../helpers/jobs.ts'
import { adviceScenarios } from '../../../src/db/schema/index.ts'
import { insertEntity } from '../../../src/db/queries/entities.ts'
import { ENTITY_TYPES } from '../../../src/engine/index.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { buildRule } from '../../helpers/rules.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const { ownerId, agent, viewerAgent, strangerAgent } = await signedInTeam(app, db)
const { set, rule, ids } = await retirementSet(db, ownerId)
const base = `/adviceset/${set.id}/advicescenario`

async function create(body: Record<string, unknown>): Promise<{ id: number }> {
  return (await agent.api('POST', '/api/advicescenario', { adviceSetId: set.id, ...body })).json().data
}

/** The rows of the list: scenario id and status. */
function listed(body: string): Array<[string, string]> {
  return [...body.matchAll(/<tr data-scenario-id="(\d+)" data-status="(\w+)">/g)].map((m) => [m[1]!, m[2]!])
}

t.test('the list: status badges, last run, what differed, the failing filter, Run all', async (t) => {
  const old = await create({ name: 'Old', inputs: { Age: 70 } })
  const wrong = await create({ name: 'Wrong on purpose', inputs: { Age: 70 }, expected: { advice: [ids.retire] } })
  const never = await create({ name: 'Never run', inputs: { Age: 20 } })
  const empty = await agent.get(`${base}/index`)
  t.equal(empty.statusCode, 200)
  t.match(empty.body, '<main data-page="advice-scenario-index">')
  t.same(listed(empty.body), [[String(never.id), 'notRun'], [String(old.id), 'notRun'], [String(wrong.id), 'notRun']])
  t.match(empty.body, 'data-island="scenario-run-all"', 'writers get Run all')

  const ran = await agent.postForm(`${base}/test`, { source: 'draft' }, { page: `${base}/index` })
  t.equal(ran.statusCode, 303)
  t.equal(ran.headers.location, `${base}/index`)
  const started = await agent.get(`${base}/index`)
  t.match(started.body, 'Run 3 scenarios of “Retirement” on the draft: started.', 'Run all starts a job')
  const jobId = Number(/<li class="job job--\w+" data-job-id="(\d+)"/.exec(started.body)?.[1])
  t.ok(jobId, 'the jobs panel on the list shows it')
  await waitForJob(db, jobId, (job) => job.state === 'completed')
  const page = await agent.get(`${base}/index`)
  t.match(page.body, /data-job-state="completed"[\s\S]*3 of 3 scenarios run · 2 passed, 1 failed, 0 could not run/, 'the panel tells the outcome')
  t.same(listed(page.body), [[String(never.id), 'pass'], [String(old.id), 'pass'], [String(wrong.id), 'fail']])
  t.match(page.body, '3 scenarios: 2 pass, 1 fail, 0 error, 0 not run')
  t.match(page.body, 'Unexpected advice: Figures are before tax', 'what differed, in words')
  t.match(page.body, /Draft · User /, 'against what and by whom')
  const failing = await agent.get(`${base}/index?failing=1`)
  t.same(listed(failing.body), [[String(wrong.id), 'fail']], 'failing only')
  t.match(failing.body, 'Failing only (1)')

  const viewerPage = await viewerAgent.get(`${base}/index`)
  t.equal(viewerPage.statusCode, 200, 'viewers read the list')
  t.notMatch(viewerPage.body, 'data-island="scenario-run-all"', 'without Run all')
  t.notMatch(viewerPage.body, 'New scenario')
  t.equal((await viewerAgent.postForm(`${base}/test`, {}, { page: `${base}/index` })).statusCode, 403)
  t.equal((await strangerAgent.get(`${base}/index`)).statusCode, 404, 'other owners do not see it')
  t.equal((await strangerAgent.get(`${base}/${old.id}/show`)).statusCode, 404)
  t.equal((await viewerAgent.get(`${base}/${old.id}/edit`)).statusCode, 403, 'viewers are refused the form before they type into it (issue 25)')
  t.equal((await viewerAgent.postForm(`${base}/${old.id}/edit`, { name: 'Taken' }, { page: `${base}/${old.id}/show` })).statusCode, 403, 'but not save it')

  const single = await agent.postForm(`${base}/test`, { scenarioId: String(wrong.id), back: 'show' })
  t.match(single.headers.location, new RegExp(`^${base}/${wrong.id}/show\\?run=\\d+$`), 'a single run goes to its scenario')
})

t.test('show: expected against actual, the differences, the trace, the runs', async (t) => {
  const bold = await create({ name: 'Bold', inputs: { Age: 30, Risk: 'high' }, expected: { advice: [ids.assumption, ids.shares], variables: { Score: 61 } } })
  const notRun = await agent.get(`${base}/${bold.id}/show`)
  t.match(notRun.body, 'Not run yet.')
  await agent.postForm(`${base}/test`, { scenarioId: String(bold.id), back: 'show' }, { page: `${base}/${bold.id}/show` })
  const shown = await agent.get(`${base}/${bold.id}/show`)
  t.equal(shown.statusCode, 200)
  t.match(shown.body, /<section class="card scenario-show" data-scenario-id="\d+" data-status="fail">/)
  t.match(shown.body, '{{Score}}: expected 61, got 60', 'the difference in words')
  t.match(shown.body, /<tr class="is-different" data-differs="true"><th scope="row">\{\{Score\}\}<\/th><td>61<\/td><td>60/, 'and highlighted side by side')
  t.match(shown.body, /<tr><th scope="row">Shares<\/th><td>Shown<\/td><td>Shown<\/td><\/tr>/, 'matching rows are plain')
  t.match(shown.body, 'How much risk do you take?', 'the answers with their questions')
  t.match(shown.body, `data-node-id="${ids.shares}" data-node-type="advice" data-visited="true"`, 'the trace paints the path')
  t.match(shown.body, /<tr data-run-id="\d+" aria-current="true">/, 'the shown run is marked in the history')
  const ruleRows = (await viewerAgent.get(`${base}/${bold.id}/show`)).body
  t.notMatch(ruleRows, 'action="' + base + '/test"', 'viewers get no Run button')
})

t.test('show: the answers as the set formats them ("Yes", "$60,000"), not as stored', async (t) => {
  const variable = (name: string, dataType: string, displayFormat: string | null) => insertEntity(db, {
    ownerId, adviceSetId: null, entityTypeId: ENTITY_TYPES.variable.id, reservedName: name, dataType, validOptions: [], isClosedSet: false,
    displayFormat, defaultValue: null, expression: null, isConstant: false, description: '', createdBy: null,
  })
  await variable('Employed', 'boolean', null)
  await variable('Salary', 'number', '$0,0')
  const loans = await createAdviceSet(db, { ownerId, name: 'Loans' })
  await buildRule(db, loans.id, 'Affordability', [
    { type: 'inputRequest', variable: 'Employed', question: 'Are you employed?' },
    { type: 'inputRequest', variable: 'Salary', question: 'What do you earn a year?' },
  ])
  const created = await agent.api('POST', '/api/advicescenario', { adviceSetId: loans.id, name: 'Employed, 60k', inputs: { Employed: true, Salary: 60000 } })
  t.equal(created.statusCode, 201, created.body)
  const scenario = created.json().data
  const shown = await agent.get(`/adviceset/${loans.id}/advicescenario/${scenario.id}/show`)
  t.equal(shown.statusCode, 200)
  t.match(shown.body, '<tr data-variable="Employed"><td>Are you employed?</td><td><code>{{Employed}}</code></td><td>Yes</td></tr>')
  t.match(shown.body, '<tr data-variable="Salary"><td>What do you earn a year?</td><td><code>{{Salary}}</code></td><td>$60,000</td></tr>')
})

t.test('new: prefilled from the debugger, fill expected from a run, save; errors keep what was typed', async (t) => {
  const prefilled = await agent.get(`${base}/new?inputs=${encodeURIComponent(JSON.stringify({ Age: '30', Risk: 'high' }))}&name=From%20debug&runAsOf=2026-05-01`)
  t.equal(prefilled.statusCode, 200)
  t.match(prefilled.body, 'value="From debug"')
  t.match(prefilled.body, 'value="2026-05-01"')
  t.match(prefilled.body, /name="input.Age" type="text" inputmode="decimal" autocomplete="off" value="30"/)
  t.match(prefilled.body, new RegExp(`name="expected.advice" value="${ids.shares}" checked`), 'the expected advice is ticked from a run')
  t.match(prefilled.body, new RegExp(`name="expected.advice" value="${ids.assumption}" checked`))
  t.notMatch(prefilled.body, new RegExp(`name="expected.advice" value="${ids.retire}" checked`))
  t.match(prefilled.body, '<option value="complete" selected>')

  const badJson = await agent.get(`${base}/new?inputs=${encodeURIComponent('{Age: 30')}`)
  t.equal(badJson.statusCode, 400)
  t.match(badJson.body, 'inputs: must be a JSON object of answers by variable name.')
  const badAnswer = await agent.get(`${base}/new?inputs=${encodeURIComponent(JSON.stringify({ Age: 'old' }))}`)
  t.equal(badAnswer.statusCode, 400)
  t.match(badAnswer.body, /inputs.Age: The answer for \{\{Age\}\} cannot be used/)

  const form = { name: 'Waits', 'input.Age': '40', 'expected.focus': 'complete', 'expected.var.Age': '1', 'expected.value.Age': '' }
  const filled = await agent.postForm(`${base}/new`, { ...form, action: 'fill' }, { page: `${base}/new` })
  t.equal(filled.statusCode, 200)
  t.match(filled.body, 'The expected outcome below is what these answers give on the working draft now.')
  t.match(filled.body, new RegExp(`<option value="${ids.askRisk}" selected>`), 'the focus is the risk question')
  t.match(filled.body, /name="expected.value.Age" value="40"/, 'ticked variables get their value')
  t.equal((await db.select().from(adviceScenarios).where(eq(adviceScenarios.name, 'Waits'))).length, 0, 'filling saves nothing')

  const invalid = await agent.postForm(`${base}/new`, { ...form, name: 'Waits', 'input.Age': '40', 'expected.focus': ids.retire })
  t.equal(invalid.statusCode, 400)
  t.match(invalid.body, /expected.focus: must be (&#39;|')complete(&#39;|') or the node id of a question/)
  t.match(invalid.body, 'value="Waits"', 'what was typed is kept')

  const saved = await agent.postForm(`${base}/new`, { ...form, 'expected.focus': ids.askRisk, 'expected.value.Age': '40', 'expected.advice': ids.assumption })
  t.equal(saved.statusCode, 303)
  const [row] = await db.select().from(adviceScenarios).where(eq(adviceScenarios.name, 'Waits'))
  t.match(row, { inputs: { Age: 40 }, expected: { advice: [ids.assumption], focus: ids.askRisk, variables: { Age: 40 } } }, 'typed answers and values')
  t.equal(saved.headers.location, `${base}/${row!.id}/show`)
  const run = await agent.postForm(`${base}/test`, { scenarioId: String(row!.id), back: 'show' })
  t.match((await agent.get(run.headers.location as string)).body, 'data-status="pass"', 'and it passes')
})

t.test('edit, copy, delete with undo', async (t) => {
  const s = await create({ name: 'To edit', inputs: { Age: 70 }, description: 'first' })
  const edit = await agent.get(`${base}/${s.id}/edit`)
  t.match(edit.body, 'value="To edit"')
  t.match(edit.body, new RegExp(`name="expected.advice" value="${ids.retire}" checked`))
  const changed = await agent.postForm(`${base}/${s.id}/edit`, {
    name: 'Edited', description: 'second', 'input.Age': '80', 'expected.advice': [ids.retire, ids.assumption].join(','), 'expected.focus': 'complete',
  })
  t.equal(changed.statusCode, 400, 'one value holding two ids is not an advice node')
  t.match(changed.body, 'expected.advice:')
  const ok = await agent.request({
    method: 'POST', url: `${base}/${s.id}/edit`, headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: `_csrf=${encodeURIComponent(agent.csrfToken)}&name=Edited&description=second&input.Age=80&expected.advice=${ids.retire}&expected.advice=${ids.assumption}&expected.focus=complete`,
  })
  t.equal(ok.statusCode, 303)
  const [row] = await db.select().from(adviceScenarios).where(eq(adviceScenarios.id, s.id))
  t.match(row, { name: 'Edited', description: 'second', inputs: { Age: 80 }, expected: { advice: [ids.retire, ids.assumption], focus: 'complete' } })

  const copyForm = await agent.get(`${base}/${s.id}/copy`)
  t.match(copyForm.body, 'value="Copy of Edited"', 'the copy form is prefilled')
  const copied = await agent.postForm(`${base}/${s.id}/copy`, { name: 'Copied', 'input.Age': '90', 'expected.advice': ids.retire, 'expected.focus': 'complete' })
  t.equal(copied.statusCode, 303)
  const [copy] = await db.select().from(adviceScenarios).where(eq(adviceScenarios.name, 'Copied'))
  t.match(copy, { inputs: { Age: 90 }, adviceSetId: set.id })
  t.match((await db.select().from(adviceScenarios).where(eq(adviceScenarios.id, s.id)))[0], { name: 'Edited' }, 'the original stays')

  const confirm = await agent.get(`${base}/${s.id}/delete`)
  t.match(confirm.body, 'Delete “Edited”?')
  const deleted = await agent.postForm(`${base}/${s.id}/delete`, {})
  t.equal(deleted.headers.location, `${base}/index?deleted=${s.id}`)
  const note = await agent.get(deleted.headers.location as string)
  t.match(note.body, 'Scenario “Edited” was deleted.')
  t.match(note.body, `action="${base}/${s.id}/restore"`, 'with Undo')
  t.match(note.body, `href="/adviceset/${set.id}/activity"`, 'and the way back through the activity log')
  t.notOk(listed(note.body).some(([id]) => id === String(s.id)))
  const log = await agent.get(`/adviceset/${set.id}/activity`)
  t.match(log.body, /<\/strong> deleted the advice scenario “<strong>Edited<\/strong>”/, 'the activity log lists the delete, as a sentence')
  const restored = await agent.postForm(`${base}/${s.id}/restore`, {})
  t.equal(restored.headers.location, `${base}/${s.id}/show`)
  t.equal((await agent.get(`${base}/${s.id}/show`)).statusCode, 200)
  t.equal((await agent.get(`/adviceset/${set.id}/advicescenario/999999/show`)).statusCode, 404)
})

t.test('the debugger offers "Save as scenario" to writers after a run', async (t) => {
  const run = await agent.get(`/adviceset/${set.id}/rule/debug?ruleId=${rule.id}&input.Age=30&input.Risk=high&now=2026-05-01&run=1`)
  const link = /<a href="([^"]+)" class="debug-save-scenario">Save as scenario<\/a>/.exec(run.body)?.[1]?.replace(/&amp;/g, '&')
  t.ok(link, 'the link is there')
  const url = new URL(link!, 'http://x')
  t.equal(url.pathname, `${base}/new`)
  t.same(JSON.parse(url.searchParams.get('inputs')!), { Age: '30', Risk: 'high' })
  t.equal(url.searchParams.get('runAsOf'), '2026-05-01')
  t.equal((await agent.get(link!)).statusCode, 200, 'and opens the prefilled form')
  t.notMatch((await viewerAgent.get(`/adviceset/${set.id}/rule/debug?input.Age=30&run=1`)).body, 'Save as scenario', 'not for viewers')
  t.notMatch((await agent.get(`/adviceset/${set.id}/rule/debug`)).body, 'Save as scenario', 'nor before a run')
})
