// Issue 14 parts 2–4 as pages: gen-branches (direct and as a background task, without JavaScript), compare, gen-summary,
// and the Testing links on the advice set page.
import t from 'tap'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInTeam } from '../../helpers/team.ts'
import { buildCoverSet, buildWideSet, createBranchVariables } from '../../helpers/branch-sets.ts'
import { buildRule } from '../../helpers/rules.ts'
import { publishVersion } from '../../helpers/publishing.ts'
import { updateNode } from '../../../src/db/queries/rule-nodes.ts'
import type { Agent } from '../../helpers/agent.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const { ownerId, agent, viewerAgent, strangerAgent } = await signedInTeam(app, db)
await createBranchVariables(db, ownerId)
const cover = await buildCoverSet(db, ownerId)
await buildRule(db, cover.set.id, 'Impossible', [{ type: 'condition', expression: '{{Age}} > 10 && {{Age}} < 5', children: [{ type: 'advice', headline: 'Never' }] }])
const base = `/adviceset/${cover.set.id}/advicescenario`

const decode = (html: string) => html.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>')
const rows = (html: string, attr: string) => [...html.matchAll(new RegExp(`<tr ${attr}="(\\d+)"[\\s\\S]*?</tr>`, 'g'))].map((m) => m[0])

async function settledTask(who: Agent, taskId: string) {
  for (;;) {
    const status = (await who.api('GET', `/api/adviceset/generate-branches/tasks/${taskId}`)).json().data
    if (status.state !== 'running') return status
    await new Promise((resolve) => setImmediate(resolve))
  }
}

t.test('gen-branches: a table of paths in words, answers, outcome and "Save as scenario"; unreachable ones apart', async (t) => {
  const page = await agent.get(`${base}/gen-branches?runAsOf=2026-01-15`)
  t.equal(page.statusCode, 200)
  t.match(page.body, '<main data-page="generate-branches">')
  const branchRows = rows(page.body, 'data-branch')
  t.ok(branchRows.length > 5)
  const smoker = branchRows.find((row) => row.includes('ends at Advice: Smoker rate'))!
  t.match(smoker, '<p class="branch-when">Age is at least 18 and Age is less than 65 and Smoker is Yes</p>')
  t.match(smoker, /<dt>Smoker<\/dt><dd>Yes<\/dd>/)
  t.match(smoker, /<li data-advice-node="\d+">Smoker rate<\/li>/)
  t.match(smoker, '<span class="branch-complete">Complete</span>')
  const href = decode(/<a class="button branch-save" href="([^"]+)">Save as scenario<\/a>/.exec(smoker)![1]!)
  const url = new URL(href, 'http://x')
  t.equal(url.pathname, `${base}/new`)
  t.equal(JSON.parse(url.searchParams.get('inputs')!).Smoker, true)
  t.match(url.searchParams.get('name'), /^Branch \d+: Age is at least 18 and Age is less than 65 and Smoker is Yes$/)
  t.equal(url.searchParams.get('runAsOf'), '2026-01-15')
  const unreachable = rows(page.body, 'data-unreachable')
  t.equal(unreachable.length, 1, 'the impossible path is listed apart')
  t.match(unreachable[0], 'Age is more than 10 and Age is less than 5')
  t.match(unreachable[0], /contradict each other/)
  t.equal((await viewerAgent.get(`${base}/gen-branches`)).statusCode, 200, 'viewers read it')
  t.equal((await strangerAgent.get(`${base}/gen-branches`)).statusCode, 404)
})

t.test('gen-branches: starting answers and bad input on the form', async (t) => {
  const start = await agent.get(`${base}/gen-branches?inputs=${encodeURIComponent('{"Age": 70}')}`)
  t.equal(start.statusCode, 200)
  t.match(start.body, /Every branch starts from these answers: <strong>Age<\/strong> = 70\./)
  const bad = await agent.get(`${base}/gen-branches?inputs=${encodeURIComponent('{oops')}&limit=5`)
  t.equal(bad.statusCode, 400)
  t.match(bad.body, /<p class="field-error" id="f-inputs-error">inputs: must be a JSON object/)
  t.match(bad.body, '>{oops</textarea>', 'what was typed is kept')
  t.notMatch(bad.body, 'data-branch=', 'no results for a bad request')
  const limit = await agent.get(`${base}/gen-branches?limit=0`)
  t.match(limit.body, /id="f-limit-error">limit: must be a whole number from 1 to 20000/)
  const version = await agent.get(`${base}/gen-branches?source=424242`)
  t.match(version.body, /id="f-source-error">source: there is no version 424242 of this advice set/)
})

t.test('gen-branches/{id}: a scenario\'s answers as the starting point (404 until scenarios exist)', async (t) => {
  const res = await agent.get(`${base}/gen-branches/12345`)
  t.equal(res.statusCode, 404)
  t.match(res.body, 'No advice scenario with this id')
  t.equal((await strangerAgent.get(`${base}/gen-branches/12345`)).statusCode, 404)
})

t.test('without JavaScript: a small set\'s form redirects to its permalink; a large one runs as a task with Refresh and Cancel', async (t) => {
  const small = await agent.postForm(`${base}/gen-branches`, { source: 'draft', inputs: '', limit: '50', runAsOf: '' })
  t.equal(small.statusCode, 303)
  t.equal(small.headers.location, `${base}/gen-branches?source=draft&limit=50`)

  // 16,202 paths whose every run walks 8,000 conditions: seconds of work, still running when the page is read.
  const wide = await buildWideSet(db, ownerId, { calls: 80, bands: 100 })
  const wideBase = `/adviceset/${wide.set.id}/advicescenario`
  const plan = await agent.get(`${wideBase}/gen-branches`)
  t.match(plan.body, /This source has <strong>16,202<\/strong> paths; generating 1,000 of them runs in the background/)
  t.notMatch(plan.body, 'data-island="task-progress"', 'GET starts nothing')
  const started = await agent.postForm(`${wideBase}/gen-branches`, { source: 'draft', inputs: '', limit: '20000', runAsOf: '' })
  t.equal(started.statusCode, 303)
  const taskId = /\?task=([0-9a-f-]{36})$/.exec(started.headers.location as string)![1]!
  const running = await agent.get(started.headers.location as string)
  t.equal(running.statusCode, 200)
  t.match(running.body, 'data-island="task-progress"')
  t.match(running.body, /data-task-state="running"/)
  t.match(running.body, `href="${wideBase}/gen-branches?task=${taskId}">Refresh</a>`)
  const cancel = await agent.postForm(`${wideBase}/gen-branches/tasks/${taskId}/cancel`, {})
  t.equal(cancel.statusCode, 303)
  t.equal(cancel.headers.location, `${wideBase}/gen-branches?task=${taskId}`)
  const after = await agent.get(cancel.headers.location as string)
  t.match(after.body, /data-task-state="cancelled"/)
  t.match(after.body, '<strong>Cancelled</strong>')
  t.notMatch(after.body, '>Cancel</button>')
  t.equal((await agent.get(`${base}/gen-branches?task=${taskId}`)).statusCode, 404, 'a task belongs to its own set\'s page')
  t.equal((await viewerAgent.get(`${wideBase}/gen-branches?task=${taskId}`)).statusCode, 404, 'and to the person who started it')

  const again = await agent.postForm(`${wideBase}/gen-branches`, { source: 'draft', inputs: '', limit: '300', runAsOf: '2026-01-15' })
  const againId = /\?task=([0-9a-f-]{36})$/.exec(again.headers.location as string)![1]!
  await settledTask(agent, againId)
  const fragment = await agent.get(`${wideBase}/gen-branches?task=${againId}&fragment=1`)
  t.match(fragment.body, /^<div class="branch-results" data-fragment="generate-branches-results">/, 'the results alone, for the island')
  t.equal(rows(fragment.body, 'data-branch').length, 200, 'the first page of 200 rows')
  t.match(fragment.body, `href="${wideBase}/gen-branches?task=${againId}&amp;page=2"`)
  const done = await agent.get(`${wideBase}/gen-branches?task=${againId}&page=2`)
  t.equal(rows(done.body, 'data-branch').length, 100)
  t.match(done.body, '<strong>Done</strong>')
})

t.test('compare page: nothing published is said; a draft edit shows as a changed path', async (t) => {
  const edited = await buildCoverSet(db, ownerId, 'Edited on the page')
  const editedBase = `/adviceset/${edited.set.id}/advicescenario`
  const nothing = await agent.get(`${editedBase}/gen-branches/compare`)
  t.equal(nothing.statusCode, 200)
  t.match(nothing.body, 'Nothing of this advice set is published yet')
  t.notMatch(nothing.body, 'data-change=')
  await publishVersion(db, { adviceSetId: edited.set.id })
  await updateNode(db, edited.conditions.get('{{Age}} >= 65')!.id, { expression: '{{Age}} >= 70', updatedBy: null })
  const page = await agent.get(`${editedBase}/gen-branches/compare?runAsOf=2026-01-15`)
  t.equal(page.statusCode, 200)
  t.match(page.body, /<strong>1<\/strong> changed · <strong>0<\/strong> added · <strong>0<\/strong> removed/)
  const changed = [...page.body.matchAll(/<tr data-change="changed">[\s\S]*?<\/tr>/g)].map((m) => m[0])
  t.equal(changed.length, 1)
  t.match(changed[0], 'Age is at least 70')
  t.match(changed[0], 'Before: Age is at least 65')
  t.match(changed[0], /<dt>Age<\/dt><dd>65<\/dd>/)
  t.match(changed[0], 'Senior cover')
  t.equal((await viewerAgent.get(`${editedBase}/gen-branches/compare`)).statusCode, 200)
  const bad = await agent.get(`${editedBase}/gen-branches/compare?base=999999`)
  t.equal(bad.statusCode, 400)
  t.match(bad.body, /id="f-base-error">base: there is no version 999999/)
  const posted = await agent.postForm(`${editedBase}/gen-branches/compare`, { base: '', next: 'draft', limit: '', runAsOf: '' })
  t.equal(posted.statusCode, 303, 'a small compare redirects to its permalink')
})

t.test('summary page: the document, and a Markdown download link', async (t) => {
  const page = await agent.get(`${base}/gen-summary`)
  t.equal(page.statusCode, 200)
  t.match(page.body, '<main data-page="generate-summary">')
  t.match(page.body, /<article class="card summary-document" data-source="draft"><h1>Cover<\/h1>/)
  t.match(page.body, '<h2>Questions</h2>')
  t.match(page.body, 'Age is at least 18 and Age is less than 65 and Smoker is Yes')
  t.match(page.body, `href="/api/adviceset/generate-summary?adviceSetId=${cover.set.id}&amp;source=draft&amp;format=markdown" download>Download Markdown</a>`)
  const bad = await agent.get(`${base}/gen-summary?source=nope`)
  t.equal(bad.statusCode, 400)
  t.match(bad.body, 'id="f-source-error"')
  t.equal((await strangerAgent.get(`${base}/gen-summary`)).statusCode, 404)
})

t.test('the advice set page links its testing tools; compare only for its team', async (t) => {
  const show = await agent.get(`/adviceset/${cover.set.id}/show`)
  t.match(show.body, `<a href="${base}/gen-branches">Generate branches</a>`)
  t.match(show.body, `<a href="${base}/gen-branches/compare">Compare with published</a>`)
  t.match(show.body, `<a href="${base}/gen-summary">Summary</a>`)
  const viewer = await viewerAgent.get(`/adviceset/${cover.set.id}/show`)
  t.match(viewer.body, 'Compare with published', 'the viewer is on the team')
})
