// Issue 27 point 2 through the API and the debug page: /api/rule/debug answers `notGiven` — each advice node the run
// did not reach, the first failing condition on each path with the values it read, and the nearest answers (the first
// few worked out, others when asked for by nearestFor) — and the page lists them under "Advice not given", each with a
// link that runs the nearest answers.
import t from 'tap'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInTeam } from '../../helpers/team.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { buildRule, createVariable } from '../../helpers/rules.ts'
import { NEAREST_LIMIT } from '../../../src/services/authoring/rules.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const { ownerId, agent } = await signedInTeam(app, db)
await createVariable(db, ownerId, 'Income', { dataType: 'number' })
await createVariable(db, ownerId, 'Band', { dataType: 'number' })

const set = await createAdviceSet(db, { ownerId, name: 'Tax set' })
const { nodes } = await buildRule(db, set.id, 'Tax', [
  { type: 'inputRequest', variable: 'Income', question: 'What is your income?' },
  { type: 'condition', expression: '{{Income}} > 12570', children: [{ type: 'advice', headline: 'You pay income tax' }] },
  { type: 'condition', expression: '{{Income}} > 5 && {{Income}} < 3', children: [{ type: 'advice', headline: 'Never' }] },
])
const [, taxed, pay, impossible, never] = nodes.map((n) => String(n.id))

interface Blocker { kind: string; nodeId: string; expression?: string; result?: unknown; reads?: Array<{ name: string; value: unknown }> }
interface NotGiven { nodeId: string; headline: string; paths: Array<{ path: string[]; blocker: Blocker }>; nearest?: { inputs: Record<string, unknown>; changes: Array<{ variable: string; from?: unknown; to?: unknown }> } | null; unreachable?: string }

async function debug(body: Record<string, unknown>): Promise<{ notGiven: NotGiven[]; result: { advice: Array<{ nodeId: string }> } }> {
  const res = await agent.api('POST', '/api/rule/debug', { adviceSetId: set.id, ...body })
  if (res.statusCode !== 200) throw new Error(`debug: ${res.statusCode} ${res.body}`)
  return (res.json() as { data: { notGiven: NotGiven[]; result: { advice: Array<{ nodeId: string }> } } }).data
}

t.test('notGiven: the failing condition with its values, and nearest answers that give the advice', async (t) => {
  const { notGiven } = await debug({ inputs: { Income: 9000 } })
  const payEntry = notGiven.find((n) => n.nodeId === pay)!
  t.equal(payEntry.headline, 'You pay income tax')
  t.same(payEntry.paths.map((p) => p.path), [[taxed, pay]])
  t.match(payEntry.paths[0]!.blocker, { kind: 'condition', nodeId: taxed, expression: '{{Income}} > 12570', result: false })
  t.same(payEntry.paths[0]!.blocker.reads!.map((r) => [r.name, r.value]), [['Income', 9000]])
  t.same(payEntry.nearest!.changes.map((c) => [c.variable, c.from]), [['Income', 9000]])
  const rerun = await debug({ inputs: payEntry.nearest!.inputs })
  t.ok(rerun.result.advice.some((item) => item.nodeId === pay), 'running the nearest answers gives it')
  t.notOk(rerun.notGiven.some((n) => n.nodeId === pay), 'and it is no longer listed')

  const neverEntry = notGiven.find((n) => n.nodeId === never)!
  t.equal(neverEntry.nearest, null)
  t.match(neverEntry.unreachable, /\{\{Income\}\} > 5 and \{\{Income\}\} < 3 cannot all hold/, 'the contradiction is named')
  t.match(neverEntry.paths[0]!.blocker, { kind: 'condition', nodeId: impossible })
})

t.test('a run stopped at a question says so; nearest answers are worked out for the first few, others when asked', async (t) => {
  const bands = await createAdviceSet(db, { ownerId, name: 'Bands' })
  const count = NEAREST_LIMIT + 5
  const { nodes: bandNodes } = await buildRule(db, bands.id, 'Bands', [
    { type: 'inputRequest', variable: 'Band', question: 'Which band?' },
    ...Array.from({ length: count }, (_, i) => ({ type: 'condition' as const, expression: `{{Band}} == ${i + 1}`, children: [{ type: 'advice' as const, headline: `Band ${i + 1}` }] })),
  ])
  const adviceIds = bandNodes.filter((n) => n.type === 'advice').map((n) => String(n.id))
  const unanswered = await agent.api('POST', '/api/rule/debug', { adviceSetId: bands.id, inputs: {} })
  const stopped = (unanswered.json() as { data: { notGiven: NotGiven[] } }).data.notGiven
  t.equal(stopped.length, count)
  t.match(stopped[0]!.paths[0]!.blocker, { kind: 'question' }, 'the run stopped at the question before any of them')
  t.same(stopped.filter((n) => n.nearest !== undefined).length, NEAREST_LIMIT, 'nearest answers for the first few')
  const last = adviceIds[count - 1]!
  t.equal(stopped.find((n) => n.nodeId === last)!.nearest, undefined, 'not for the last')
  const asked = await agent.api('POST', '/api/rule/debug', { adviceSetId: bands.id, inputs: {}, nearestFor: [last] })
  const found = (asked.json() as { data: { notGiven: NotGiven[] } }).data.notGiven.find((n) => n.nodeId === last)!
  t.same(found.nearest!.changes, [{ variable: 'Band', to: count }], 'an answer to add')

  const page = await agent.get(`/adviceset/${bands.id}/rule/debug?run=1`)
  t.match(page.body, '<h2 id="debug-not-given-title">Advice not given</h2>')
  t.match(page.body, `data-find-answers="${last}"`, 'a link asks for the others')
  const why = await agent.get(`/adviceset/${bands.id}/rule/debug?run=1&why=${last}`)
  t.match(why.body, new RegExp(`data-use-answers="${last}"`), 'asked for: its answers and a link to run them')
})

t.test('the page links each nearest answers as a run, which then gives the advice', async (t) => {
  const page = await agent.get(`/adviceset/${set.id}/rule/debug?input.Income=9000&run=1`)
  t.equal(page.statusCode, 200)
  t.match(page.body, '{{Income}} &gt; 12570')
  const href = new RegExp(`<a class="button" href="([^"]+)" data-use-answers="${pay}"`).exec(page.body)?.[1]?.replace(/&amp;/g, '&')
  t.ok(href, 'a "Use these answers" link')
  const rerun = await agent.get(href!)
  t.match(rerun.body, /<li data-advice-node="\d+">\s*<div class="debug-headline"><span class="debug-body prewrap">You pay income tax/, 'the linked run gives the advice')
})
