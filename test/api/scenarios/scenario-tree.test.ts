// Issue 14 part 5, the tree builder: scenarios placed by their answers in the order the draft asks them, outcome
// splits marked, forking one scenario at one of its questions (form without JavaScript, and POST
// /api/advicescenario/{id}/fork), bad input named by field, who may do what.
import t from 'tap'
import { eq } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInTeam } from '../../helpers/team.ts'
import { retirementSet } from '../../helpers/scenarios.ts'
import { adviceScenarios } from '../../../src/db/schema/index.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const { ownerId, agent, viewerAgent, strangerAgent } = await signedInTeam(app, db)
const { set, ids } = await retirementSet(db, ownerId)
const base = `/adviceset/${set.id}/advicescenario`

async function create(name: string, inputs: Record<string, unknown>): Promise<{ id: number }> {
  const res = await agent.api('POST', '/api/advicescenario', { adviceSetId: set.id, name, inputs })
  // Setup, not a subtest: an assertion here would land on the root test, which tap may have ended while it waited.
  if (res.statusCode !== 201) throw new Error(`creating ${name} answered ${res.statusCode}: ${res.body}`)
  return res.json().data
}

const retired = await create('Retired', { Age: 70 })
const bold = await create('Bold saver', { Age: 40, Risk: 'high' })
const careful = await create('Careful saver', { Age: 40, Risk: 'low' })
const undecided = await create('Undecided', { Age: 50 })

/** The tree's nesting as text: questions by variable, answers by value, leaves by scenario id. */
function outline(body: string): string[] {
  return [...body.matchAll(/<li class="tree-question" data-variable="(\w+)"( data-splits="true")?|<span class="tree-answer__value">([^<]*)<|<li class="tree-leaf[^"]*" id="scenario-(\d+)"/g)]
    .map((m) => m[1] ? `Q ${m[1]}${m[2] ? ' splits' : ''}` : m[3] !== undefined ? `A ${m[3]}` : `S ${m[4]}`)
}

t.test('the tree: shared answers, engine order, leaves with status and outcome, splits marked', async (t) => {
  const page = await agent.get(`${base}/tree`)
  t.equal(page.statusCode, 200)
  t.match(page.body, '<main data-page="tree-builder">')
  t.same(outline(page.body), [
    'Q Age splits',
    'A 40', 'Q Risk splits', 'A high', `S ${bold.id}`, 'A low', `S ${careful.id}`,
    'A 50', 'Q Risk', 'A No answer: the run stops here', `S ${undecided.id}`,
    'A 70', `S ${retired.id}`,
  ], 'Age first (asked first), Risk under the answers that ask it, numbers in order')
  t.match(page.body, '4 scenarios, 4 different outcomes.')
  t.match(page.body, /id="scenario-\d+" data-scenario-id="\d+" data-outcome="[^"]*"[\s\S]*?Advice now:<\/span> Retire · Figures are before tax/, 'a leaf shows the advice the draft gives')
  t.match(page.body, /<span class="scenario-status scenario-status-notRun"/, 'and its status')
  t.match(page.body, `href="${base}/tree?fork=${retired.id}#fork"`, 'each leaf can be forked')
  t.match(page.body, '<details open>', 'branches open and close with the keyboard (summary elements)')
  t.match(page.body, 'data-island="scenario-fork"', 'the fork island, with its form fallback')
  t.match((await agent.get(`${base}/index`)).body, `href="${base}/tree"`, 'the list links the tree builder')
})

t.test('a leaf says when the draft no longer gives what the scenario expects', async (t) => {
  const stale = (await agent.api('POST', '/api/advicescenario', { adviceSetId: set.id, name: 'Stale', inputs: { Age: 80 }, expected: { advice: [ids.retire] } })).json().data
  const page = await agent.get(`${base}/tree`)
  t.match(page.body, new RegExp(`id="scenario-${stale.id}"[\\s\\S]*?The draft now gives another outcome than this scenario expects\\.`))
  await agent.api('DELETE', `/api/advicescenario/${stale.id}`)
})

t.test('fork without JavaScript: choose the question, preview, save as a new scenario', async (t) => {
  const panel = await agent.get(`${base}/tree?fork=${bold.id}&question=Age`)
  t.equal(panel.statusCode, 200)
  t.match(panel.body, 'Fork “Bold saver”')
  t.match(panel.body, /<li aria-current="step"><a [^>]*>How old are you\?<\/a>: <span class="muted">40<\/span>/, 'its path, the chosen question marked')
  t.match(panel.body, /<input id="debug-input-Age" name="input.Age" type="text" inputmode="decimal" autocomplete="off" value="40"/, 'the answer field holds its answer')

  const preview = await agent.postForm(`${base}/tree`, { fork: String(bold.id), question: 'Age', 'input.Age': '70', action: 'preview' })
  t.equal(preview.statusCode, 200)
  t.match(preview.body, /class="fork-preview"[\s\S]*Retire · Figures are before tax/, 'the outcome of the forked answers')
  t.match(preview.body, 'Adds: Retire')
  t.match(preview.body, 'No longer: Shares')
  t.match(preview.body, 'Answers no longer asked are left out: Risk.')
  t.match(preview.body, 'value="Bold saver · How old are you? = 70"', 'a name is proposed')
  t.equal((await db.select().from(adviceScenarios).where(eq(adviceScenarios.adviceSetId, set.id))).length, 5, 'a preview stores nothing')

  const saved = await agent.postForm(`${base}/tree`, { fork: String(bold.id), question: 'Age', 'input.Age': '70', name: 'What if 70', action: 'save' })
  t.equal(saved.statusCode, 303)
  const [row] = await db.select().from(adviceScenarios).where(eq(adviceScenarios.name, 'What if 70'))
  t.ok(row, 'saved')
  t.equal(saved.headers.location, `${base}/tree?created=${row!.id}#scenario-${row!.id}`)
  t.same(row!.inputs, { Age: 70 }, 'the changed answer; Risk, no longer asked, left out')
  t.same(new Set(row!.expected.advice), new Set([ids.assumption, ids.retire]), 'expected outcome from the forked run')
  t.equal(row!.expected.focus, 'complete')
  t.equal(row!.description, 'Forked from “Bold saver”: {{Age}} = 70 instead of 40.')
  const tree = await agent.get(saved.headers.location as string)
  t.match(tree.body, `class="tree-leaf is-new" id="scenario-${row!.id}"`, 'the new leaf is marked')
  t.match(tree.body, /Scenario “What if 70” saved\./)
})

t.test('fork at the question a scenario stops at', async (t) => {
  const preview = await agent.postForm(`${base}/tree`, { fork: String(undecided.id), question: 'Risk', 'input.Risk': 'high', action: 'preview' })
  t.equal(preview.statusCode, 200)
  t.match(preview.body, 'Adds: Shares')
  t.match(preview.body, 'Ends elsewhere: Complete: nothing left to ask')
})

t.test('bad input is refused by field and the panel keeps what was typed', async (t) => {
  const same = await agent.postForm(`${base}/tree`, { fork: String(bold.id), question: 'Age', 'input.Age': '40', action: 'preview' })
  t.equal(same.statusCode, 400)
  t.match(same.body, 'inputs.Age: 40 is the scenario’s own answer; choose another to fork.')
  const blank = await agent.postForm(`${base}/tree`, { fork: String(bold.id), question: 'Age', 'input.Age': '', action: 'preview' })
  t.equal(blank.statusCode, 400)
  t.match(blank.body, 'inputs.Age: give the answer to fork with.')
  const wrongType = await agent.postForm(`${base}/tree`, { fork: String(bold.id), question: 'Risk', 'input.Risk': 'reckless', action: 'preview' })
  t.equal(wrongType.statusCode, 400)
  t.match(wrongType.body, /inputs\.Risk: The answer for \{\{Risk\}\} cannot be used/)
  t.match(wrongType.body, '<option value="">No answer</option>', 'the panel is still there')
  const offPath = await agent.postForm(`${base}/tree`, { fork: String(retired.id), question: 'Risk', 'input.Risk': 'high', action: 'preview' })
  t.equal(offPath.statusCode, 400)
  t.match(offPath.body, 'question: “Retired” does not ask {{Risk}}; fork at one of its questions.')
  const noName = await agent.postForm(`${base}/tree`, { fork: String(bold.id), question: 'Age', 'input.Age': '66', name: '  ', action: 'save' })
  t.equal(noName.statusCode, 400)
  t.match(noName.body, 'Name is required.')
  t.match(noName.body, 'value="66"', 'the answer typed is kept')
  const other = await retirementSet(db, ownerId, { name: 'Other set' })
  const elsewhere = await agent.get(`/adviceset/${other.set.id}/advicescenario/tree?fork=${bold.id}`)
  t.equal(elsewhere.statusCode, 400)
  t.match(elsewhere.body, `fork: advice scenario ${bold.id} is not in this advice set.`)
})

t.test('the fork API previews and saves; bad input named by field', async (t) => {
  const panel = await agent.api('POST', `/api/advicescenario/${careful.id}/fork`, {})
  t.equal(panel.statusCode, 200)
  t.match(panel.json().data, { scenario: { id: careful.id }, step: { variable: 'Age' }, value: '40', preview: null, canSave: true })
  t.same(panel.json().data.steps.map((s: { variable: string }) => s.variable), ['Age', 'Risk'])
  const preview = await agent.api('POST', `/api/advicescenario/${careful.id}/fork`, { question: 'Risk', value: 'high' })
  t.equal(preview.statusCode, 200)
  t.match(preview.json().data.preview, { inputs: { Age: 40, Risk: 'high' }, added: ['Shares'], removed: [], dropped: [] })
  const refused = await agent.api('POST', `/api/advicescenario/${careful.id}/fork`, { question: 'Risk', value: 'low' })
  t.equal(refused.statusCode, 400)
  t.equal(refused.json().error.field, 'inputs.Risk')
  const noValue = await agent.api('POST', `/api/advicescenario/${careful.id}/fork`, { question: 'Risk', save: true })
  t.equal(noValue.statusCode, 400)
  t.equal(noValue.json().error.field, 'value')
  const unknownField = await agent.api('POST', `/api/advicescenario/${careful.id}/fork`, { answer: 'high' })
  t.equal(unknownField.statusCode, 400)
  t.match(unknownField.json().error.message, /answer/)
  const saved = await agent.api('POST', `/api/advicescenario/${careful.id}/fork`, { question: 'Risk', value: 'high', name: 'Careful turns bold', save: true })
  t.equal(saved.statusCode, 201)
  t.match(saved.json().data, { name: 'Careful turns bold', inputs: { Age: 40, Risk: 'high' }, description: 'Forked from “Careful saver”: {{Risk}} = high instead of low.' })
  t.same(new Set(saved.json().data.expected.advice), new Set([ids.assumption, ids.shares]))
})

t.test('viewers read the tree and preview forks but save nothing; other owners see nothing', async (t) => {
  const page = await viewerAgent.get(`${base}/tree?fork=${bold.id}`)
  t.equal(page.statusCode, 200)
  const preview = await viewerAgent.postForm(`${base}/tree`, { fork: String(bold.id), question: 'Age', 'input.Age': '70', action: 'preview' }, { page: `${base}/tree` })
  t.equal(preview.statusCode, 200)
  t.notMatch(preview.body, 'Save as scenario', 'no save for viewers')
  const save = await viewerAgent.postForm(`${base}/tree`, { fork: String(bold.id), question: 'Age', 'input.Age': '70', name: 'Viewer fork', action: 'save' }, { page: `${base}/tree` })
  t.equal(save.statusCode, 403)
  t.equal((await viewerAgent.api('POST', `/api/advicescenario/${bold.id}/fork`, { question: 'Age', value: '70', save: true })).statusCode, 403)
  t.equal((await strangerAgent.get(`${base}/tree`)).statusCode, 404)
  t.equal((await strangerAgent.postForm(`${base}/tree`, { fork: String(bold.id), question: 'Age', 'input.Age': '70', action: 'save' }, { page: '/' })).statusCode, 404)
  t.equal((await strangerAgent.api('POST', `/api/advicescenario/${bold.id}/fork`, { question: 'Age', value: '70' })).statusCode, 404)
  t.equal((await db.select().from(adviceScenarios).where(eq(adviceScenarios.name, 'Viewer fork'))).length, 0)
})
