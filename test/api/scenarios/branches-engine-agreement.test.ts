// Issue 23 defect 1 and issue 24 defect 3, through the app: generated branches agree with the debugger (the same run,
// errors included), avoid answers that divide by zero, mark error branches and steps (page and API), derive answers
// through formulas (every path of the drawdown set is reached), report coverage two ways (branches reached, advice
// covered) on the generated-branches page and the summary, and an edited advice text shows as a changed outcome with
// its text before and after — in compare and at the review gate.
import t from 'tap'
import { eq } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent, type Agent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { buildDrawdownSet, buildMortgageSet } from '../../helpers/branch-sets.ts'
import { buildRule, createVariable } from '../../helpers/rules.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { publishVersion } from '../../helpers/publishing.ts'
import { ruleNodes } from '../../../src/db/schema/index.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const ownerId = await createOwner(db, { name: 'Acme' })
const author = await signedInAgent(app, await createUser(db, { ownerId, role: 'author' }))
const admin = await signedInAgent(app, await createUser(db, { ownerId, role: 'admin' }))
const AS_OF = '2026-01-15'

interface BranchJson {
  number: number; path: string[]; rules: string[]; kind: 'outcome' | 'error' | 'prefix'; inputs: Record<string, unknown>; ends: string
  outcome: { advice: Array<{ nodeId: string; headline: string }>; focus: { nodeId: string } | null; errors: string[] }
}

const generate = async (who: Agent, adviceSetId: number, body: Record<string, unknown> = {}) => {
  const res = await who.api('POST', '/api/adviceset/generate-branches', { adviceSetId, runAsOf: AS_OF, ...body })
  t.equal(res.statusCode, 200)
  return res.json().data as { branches: BranchJson[]; unreachable: Array<{ ends: string; reason: string }> }
}

/** What the debugger gives for these answers, as of the same day. */
async function debugged(adviceSetId: number, inputs: Record<string, unknown>) {
  const res = await author.api('POST', '/api/rule/debug', { adviceSetId, inputs, now: `${AS_OF}T00:00:00Z` })
  t.equal(res.statusCode, 200)
  const result = res.json().data.result
  return {
    advice: [...result.advice, ...result.assumptions, ...result.examples].map((item: { nodeId: string }) => item.nodeId),
    focus: result.currentFocus?.nodeId ?? null,
    errors: result.errors.map((error: { message: string }) => error.message),
  }
}

const mortgage = await buildMortgageSet(db, ownerId)

t.test('each branch of the mortgage set reports what the debugger gives for its answers; none divides by zero', async (t) => {
  const { branches, unreachable } = await generate(author, mortgage.set.id)
  t.same(unreachable, [], 'the 0.2–0.4 band is reached too')
  t.same(branches.map((b) => b.kind), ['prefix', 'prefix', 'outcome', 'outcome', 'outcome'], 'the two questions are steps, not outcomes')
  for (const branch of branches) {
    t.not(branch.inputs.Income, 0, `branch ${branch.number}: Income is not 0`)
    const debug = await debugged(mortgage.set.id, branch.inputs)
    t.same({ advice: branch.outcome.advice.map((a) => a.nodeId), focus: branch.outcome.focus?.nodeId ?? null, errors: branch.outcome.errors }, debug,
      `branch ${branch.number} (${branch.ends}) agrees with the debugger`)
  }
})

t.test('an error branch is marked in the API and on the page, with the debugger\'s message', async (t) => {
  await createVariable(db, ownerId, 'Share_Count')
  const set = await createAdviceSet(db, { ownerId, name: 'Broken shares' })
  await buildRule(db, set.id, 'Shares', [
    { type: 'condition', expression: '{{Share_Count}} > 5', children: [{ type: 'advice', headline: 'Many shares' }] },
    { type: 'condition', expression: '1 / ({{Share_Count}} - {{Share_Count}}) > 1', children: [{ type: 'advice', headline: 'Never' }] },
  ])
  const { branches } = await generate(author, set.id)
  const many = branches.find((b) => b.ends === 'Advice: Many shares')!
  t.equal(many.kind, 'error')
  t.same(many.outcome.errors, (await debugged(set.id, many.inputs)).errors)
  t.match(many.outcome.errors[0], /could not finish\. Cannot divide by zero\./)
  const page = await author.get(`/adviceset/${set.id}/advicescenario/gen-branches?runAsOf=${AS_OF}`)
  t.equal(page.statusCode, 200)
  t.match(page.body, new RegExp(`<tr data-branch="${many.number}" data-path="[^"]+" data-kind="error" class="is-error">`))
  t.match(page.body, 'Error branch: no answers tried reach it without an error.')
  t.match(page.body, /<li class="branch-error">Incomplete advice: the rule &quot;Shares&quot; could not finish\. Cannot divide by zero\.<\/li>/)
  t.match(page.body, /<span class="branch-error-count" data-count="errors">1<\/span> ending in an error/)
})

t.test('coverage two ways: saved scenarios reach 2 of 3 outcome branches and 2 of 3 advice items; steps are not counted', async (t) => {
  for (const [name, inputs] of [['High', { Income: 1000, Debts: 500 }], ['Low', { Income: 1000, Debts: 100 }]] as const) {
    t.equal((await author.api('POST', '/api/advicescenario', { adviceSetId: mortgage.set.id, name, inputs })).statusCode, 201)
  }
  const page = await author.get(`/adviceset/${mortgage.set.id}/advicescenario/gen-branches?runAsOf=${AS_OF}`)
  t.match(page.body, '<h2 id="coverage-heading">Coverage by saved scenarios</h2>')
  t.match(page.body, /data-branches-covered="2\/3"><strong data-coverage-percent="66.6">66.6%<\/strong> of the 3 outcome branches reached by the 2 saved scenarios \(2 of 3\)/)
  t.match(page.body, /data-advice-covered="2\/3"><strong>Advice covered: 2 of 3<\/strong> \(66.6%\) — no saved scenario gives “You can afford it”/)
  t.match(page.body, /<span data-count="steps">2<\/span> ending at a question or another step/)
  const summary = await author.get(`/adviceset/${mortgage.set.id}/advicescenario/gen-summary`)
  t.equal(summary.statusCode, 200)
  t.match(summary.body, /data-advice-covered="2\/3"><strong>Advice covered: 2 of 3<\/strong>/, 'the summary says the same')
  t.match(summary.body, /data-branches-covered="2\/3"/)
})

const drawdown = await buildDrawdownSet(db, ownerId)

t.test('the drawdown set: every path reached, with ages on each side of 55 and 75 derived from the birth date', async (t) => {
  const { branches, unreachable } = await generate(author, drawdown.set.id)
  t.same(unreachable, [], '0 unreachable paths')
  const age = (branch: BranchJson) => 2026 - Number(String(branch.inputs.Birth_Date).slice(0, 4))
  const ending = (headline: string) => branches.filter((b) => b.ends === `Advice: ${headline}`)
  t.ok(ending('Consider an annuity').every((b) => age(b) > 75))
  t.ok(ending('Income tax will apply').some((b) => age(b) >= 55 && age(b) <= 76), 'through the called rule under 55–75')
  t.ok(ending('Too early to draw').every((b) => age(b) < 55))
  for (const branch of branches) {
    const debug = await debugged(drawdown.set.id, branch.inputs)
    t.same(branch.outcome.advice.map((a) => a.nodeId), debug.advice, `branch ${branch.number} agrees with the debugger`)
  }
})

t.test('an edited advice text is a changed outcome, before and after: in compare and at the review gate', async (t) => {
  const taxed = drawdown.byHeadline.get('Income tax will apply')!
  const branches = (await generate(author, drawdown.set.id)).branches
  const throughTax = branches.find((b) => b.path.includes(String(taxed.id)) && b.rules.length > 1)!
  t.equal((await author.api('POST', '/api/advicescenario', { adviceSetId: drawdown.set.id, name: 'Taxed', inputs: throughTax.inputs, runAsOf: AS_OF })).statusCode, 201)
  const v1 = await publishVersion(db, { adviceSetId: drawdown.set.id })
  await db.update(ruleNodes).set({ text: 'Income tax will apply at your marginal rate.' }).where(eq(ruleNodes.id, taxed.id))

  const compare = await author.api('POST', '/api/adviceset/generate-branches/compare', { adviceSetId: drawdown.set.id, base: String(v1.id), next: 'draft', runAsOf: AS_OF })
  t.equal(compare.statusCode, 200)
  const changed = compare.json().data.changed as Array<{ ends: string; reason: string; changedAdvice: Array<{ before: { text: string }; after: { text: string } }> }>
  const row = changed.find((c) => c.ends === 'Advice: Income tax will apply')
  t.ok(row, 'the path through the called rule is changed')
  t.equal(row?.reason, 'The text of the advice on this path changed.')
  t.same(row?.changedAdvice.map((e) => [e.before.text, e.after.text]), [['', 'Income tax will apply at your marginal rate.']])
  const comparePage = await author.get(`/adviceset/${drawdown.set.id}/advicescenario/gen-branches/compare?base=${v1.id}&next=draft&runAsOf=${AS_OF}`)
  t.match(comparePage.body, /<dl class="advice-edit" data-edited-advice="\d+">\s*<div><dt>Before<\/dt><dd><strong>Income tax will apply<\/strong><\/dd><\/div>\s*<div><dt>After<\/dt><dd><strong>Income tax will apply<\/strong> — Income tax will apply at your marginal rate\.<\/dd><\/div>/)

  const v2 = (await author.api('POST', '/api/adviceset/publish', { action: 'create', adviceSetId: drawdown.set.id })).json().data
  const gate = await admin.get(`/adviceset/${drawdown.set.id}/publish/versions/${v2.id}`)
  t.equal(gate.statusCode, 200)
  t.match(gate.body, `1</span> outcome changed from version ${v1.number}`)
  t.match(gate.body, /data-edited-advice="\d+">Text of “Income tax will apply” changed: <span class="gate-edit__before">before “Income tax will apply”<\/span>, <span class="gate-edit__after">now “Income tax will apply — Income tax will apply at your marginal rate\.”<\/span>/)
  t.match(gate.body, /data-advice-covered="\d+\/\d+"><span class="gate-figure__value">\d+ of \d+<\/span> advice covered/)
  t.match(gate.body, 'data-error-branches="0"')
})

t.test('the review gate counts branches that end in an error as a problem of the version', async (t) => {
  const set = await createAdviceSet(db, { ownerId, name: 'Broken at the gate' })
  await buildRule(db, set.id, 'Shares', [
    { type: 'condition', expression: '{{Share_Count}} > 5', children: [{ type: 'advice', headline: 'Many shares' }] },
    { type: 'condition', expression: '1 / ({{Share_Count}} - {{Share_Count}}) > 1', children: [{ type: 'advice', headline: 'Never' }] },
  ])
  const version = (await author.api('POST', '/api/adviceset/publish', { action: 'create', adviceSetId: set.id })).json().data
  t.equal((await author.api('POST', '/api/adviceset/publish', { action: 'submit', versionId: version.id })).statusCode, 200)
  const page = await admin.get(`/adviceset/${set.id}/publish/versions/${version.id}`)
  t.match(page.body, /data-error-branches="[1-9]\d*"/)
  t.match(page.body, 'Branches that end in an error</h4>')
  t.match(page.body, /This version has \d+ branch(es)? that end(s)? in an error\./)
  const refused = await admin.api('POST', '/api/adviceset/publish', { action: 'approve', versionId: version.id })
  t.equal(refused.statusCode, 400)
  t.match(refused.json().error.message, /branch(es)? that ends? in an error/)
  t.equal((await admin.api('POST', '/api/adviceset/publish', { action: 'approve', versionId: version.id, acknowledgeRisks: true })).statusCode, 200)
})
