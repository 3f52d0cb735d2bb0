// Issue 24 defect 1: "Drawdown plan" calls "Tax check" for ages 55 to 75. Tax check also ran on its own, so a 1962
// birth date gave "Income tax will apply" twice (the Advice API returned the same nodeId twice) and a 1980 birth date
// gave it although the call never ran. A rule can run only when called (API, rule header); Promote and a Rule Call's
// new rule make such rules; the static checks (rule checks, the review gate) name a rule that runs on its own and is
// called too; versions carry the flag, copies and restores keep it.
import t from 'tap'
import { and, eq } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent, type Agent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { createApiKey } from '../../helpers/api-keys.ts'
import { buildRule, createVariable } from '../../helpers/rules.ts'
import { publishVersion } from '../../helpers/publishing.ts'
import { partnerCall } from '../delivery/advice-api-setup.ts'
import { insertEntity } from '../../../src/db/queries/entities.ts'
import { ENTITY_TYPES } from '../../../src/engine/index.ts'
import { activity, ruleNodes, rules } from '../../../src/db/schema/index.ts'
import type { VersionSnapshot } from '../../../src/services/publishing/snapshot.ts'

const ctx = await buildTestApp(t)
const { app, database } = ctx
const db = database.db
const ownerId = await createOwner(db)
const author = await signedInAgent(app, await createUser(db, { ownerId, role: 'author' }))
const viewer = await signedInAgent(app, await createUser(db, { ownerId, role: 'viewer' }))
const NOW = '2026-06-01T12:00:00Z'
const TAX_WARNING = "Tax check runs on its own and is also called by Drawdown plan: its advice can appear twice. Mark it 'runs only when called'."

/** The set: Client_Age from Birth_Date; Drawdown plan calls Tax check for ages 55 to 75. */
async function drawdownSet(name = 'Drawdown') {
  const set = await createAdviceSet(db, { ownerId, name })
  await createVariable(db, ownerId, 'Birth_Date', { dataType: 'date', adviceSetId: set.id })
  await insertEntity(db, {
    ownerId, adviceSetId: set.id, entityTypeId: ENTITY_TYPES.formula.id, reservedName: 'Client_Age', dataType: 'number', validOptions: [], isClosedSet: false,
    displayFormat: null, defaultValue: null, expression: 'year(today()) - year({{Birth_Date}})', isConstant: false, description: '', createdBy: null,
  })
  const { rule: plan, nodes: [, , call] } = await buildRule(db, set.id, 'Drawdown plan', [
    { type: 'inputRequest', variable: 'Birth_Date', question: 'When were you born?' },
    { type: 'condition', expression: '[[Client_Age]] >= 55 && [[Client_Age]] <= 75', children: [{ type: 'ruleCall' }] },
  ])
  const { rule: tax, nodes: [taxAdvice] } = await buildRule(db, set.id, 'Tax check', [{ type: 'advice', headline: 'Income tax will apply' }])
  await db.update(ruleNodes).set({ calledRuleId: tax.id }).where(eq(ruleNodes.id, call!.id))
  return { set, plan, tax, taxAdvice: taxAdvice!, callNodeId: call!.id }
}

async function adviceIds(agent: Agent, adviceSetId: number, birthDate: string): Promise<string[]> {
  const res = await agent.api('POST', '/api/rule/debug', { adviceSetId, inputs: { Birth_Date: birthDate }, now: NOW })
  t.equal(res.statusCode, 200)
  return res.json().data.result.advice.map((a: { nodeId: string }) => a.nodeId)
}

async function checks(agent: Agent, ruleId: number) {
  return (await agent.api('GET', `/api/rule/${ruleId}/checks`)).json().data as Array<{ code: string; nodeId: string; ruleId: string; aboutRuleId?: string; message: string }>
}

t.test('a rule that runs only when called gives its advice once, and only when called', async (t) => {
  const f = await drawdownSet()
  t.same(await adviceIds(author, f.set.id, '1962-03-04'), [String(f.taxAdvice.id)], 'even before it is marked, one run gives the advice once')

  const [warning] = (await checks(author, f.plan.id)).filter((i) => i.code === 'RULE_RUNS_TWICE')
  t.match(warning, { nodeId: String(f.callNodeId), ruleId: String(f.plan.id), aboutRuleId: String(f.tax.id), message: TAX_WARNING }, 'the caller’s checks name it at the call')
  t.match((await checks(author, f.tax.id)).map((i) => i.message), [TAX_WARNING], 'and so do the called rule’s')

  t.equal((await viewer.api('PATCH', `/api/rule/${f.tax.id}`, { onlyWhenCalled: true })).statusCode, 403, 'viewers cannot change it')
  const bad = await author.api('PATCH', `/api/rule/${f.tax.id}`, { onlyWhenCalled: 'yes' })
  t.equal(bad.statusCode, 400)
  t.match(bad.json().error.message, /onlyWhenCalled/)
  const marked = await author.api('PATCH', `/api/rule/${f.tax.id}`, { onlyWhenCalled: true })
  t.equal(marked.statusCode, 200)
  t.equal(marked.json().data.onlyWhenCalled, true)
  t.same(await adviceIds(author, f.set.id, '1962-03-04'), [String(f.taxAdvice.id)], 'born 1962 (64): once, through the call')
  t.same(await adviceIds(author, f.set.id, '1980-03-04'), [], 'born 1980 (46): the call never runs, so neither does Tax check')
  t.same((await checks(author, f.plan.id)).filter((i) => i.code === 'RULE_RUNS_TWICE'), [], 'the warning is gone')
  const debugPage = (await author.get(`/adviceset/${f.set.id}/rule/debug`)).body
  t.match(debugPage, /Tax check<\/a> <span class="debug-called">called<\/span>/, 'the set’s debug page shows it among the called rules')
  t.notMatch(debugPage, /Tax check<\/a><\/h3>/, 'not among those that run on their own')
  const debugAlone = await author.api('POST', '/api/rule/debug', { ruleId: f.tax.id, inputs: {}, now: NOW })
  t.same(debugAlone.json().data.result.advice.map((a: { nodeId: string }) => a.nodeId), [String(f.taxAdvice.id)], 'debugging the rule alone runs it')

  const [log] = await db.select().from(activity).where(and(eq(activity.entityType, 'rule'), eq(activity.entityId, String(f.tax.id))))
  t.match(log, { action: 'update', before: { onlyWhenCalled: false }, after: { onlyWhenCalled: true } }, 'the change is in the activity log')
  t.match((await author.get(`/adviceset/${f.set.id}/activity`)).body, /Runs only when called[\s\S]{0,200}No[\s\S]{0,200}Yes/, 'which names it in words')

  // The Advice API serves the published version, which carries the flag.
  const version = await publishVersion(db, { adviceSetId: f.set.id })
  t.match((version.snapshot as VersionSnapshot).model.rules.map((r) => [r.name, r.onlyWhenCalled]), [['Drawdown plan', undefined], ['Tax check', true]])
  const { secret } = await createApiKey(db, { ownerId })
  const partner = partnerCall(ctx, secret)
  const served = async (birthDate: string) => (await partner({ url: `/api/advice/${f.set.id}?Birth_Date=${birthDate}` })).json().data.advice.map((a: { nodeId: string }) => a.nodeId)
  t.same(await served('1962-03-04'), [String(f.taxAdvice.id)], 'the Advice API gives the nodeId once')
  t.same(await served(`${new Date().getUTCFullYear() - 46}-03-04`), [], 'and not without the call')
})

t.test('Promote and a Rule Call’s new rule make rules that run only when called', async (t) => {
  const set = await createAdviceSet(db, { ownerId })
  const { rule } = await buildRule(db, set.id, 'Eligibility', [{ type: 'advice', headline: 'Eligible' }])
  const promoted = (await author.api('POST', '/api/rule/promote', { id: rule.id })).json().data
  t.equal(promoted.rule.onlyWhenCalled, true, 'the promoted rule runs only when called')
  t.same(await adviceIds(author, promoted.adviceSet.id, '1962-03-04'), [], 'the new set does not run it on its own…')
  const headlines = (await author.api('POST', '/api/rule/debug', { adviceSetId: set.id, inputs: {} })).json().data.result.advice.map((a: { headline: string }) => a.headline)
  t.same(headlines, ['Eligible'], '…and the old set still gives its advice, once, through the call')

  const { rule: caller } = await buildRule(db, set.id, 'Caller')
  const res = await author.api('POST', `/api/rule/${caller.id}/node/new-call`, { newRuleName: 'Helper' })
  t.equal(res.statusCode, 201)
  const [made] = await db.select().from(rules).where(eq(rules.id, res.json().data.calledRuleId))
  t.match(made, { name: 'Helper', adviceSetId: set.id, onlyWhenCalled: true }, 'a Rule Call’s new rule runs only when called')
  const both = await author.api('POST', `/api/rule/${caller.id}/node/new-call`, { newRuleName: 'Other', calledRuleId: caller.id })
  t.equal(both.statusCode, 400)
  t.match(both.json().error.message, /^newRuleName: send either calledRuleId or newRuleName/)
  const created = await author.api('POST', '/api/rule', { adviceSetId: set.id, name: 'Made to be called', onlyWhenCalled: true })
  t.equal(created.json().data.onlyWhenCalled, true, 'the rule API takes the flag on creation too')
})

t.test('the review gate counts the warning; copies and restores keep the flag', async (t) => {
  const f = await drawdownSet('Gate')
  const version = (await author.api('POST', '/api/adviceset/publish', { action: 'create', adviceSetId: f.set.id })).json().data
  const page = await author.get(`/adviceset/${f.set.id}/publish/versions/${version.id}`)
  t.match(page.body, TAX_WARNING.replace(/'/g, '&#39;'), 'the gate lists it')
  t.match(page.body, /0<\/span> static errors · 1 warning/)

  await author.api('PATCH', `/api/rule/${f.tax.id}`, { onlyWhenCalled: true })
  const copy = (await author.api('POST', '/api/adviceset/copy', { id: f.set.id })).json().data
  const copied = await db.select().from(rules).where(eq(rules.adviceSetId, copy.id)).orderBy(rules.position)
  t.same(copied.map((r) => [r.name, r.onlyWhenCalled]), [['Drawdown plan', false], ['Tax check', true]], 'a copy keeps the flag')

  const marked = (await author.api('POST', '/api/adviceset/publish', { action: 'create', adviceSetId: f.set.id })).json().data
  await author.api('PATCH', `/api/rule/${f.tax.id}`, { onlyWhenCalled: false })
  t.equal((await author.api('POST', `/api/adviceset/restore/${marked.id}`)).statusCode, 200)
  const [tax] = await db.select().from(rules).where(eq(rules.id, f.tax.id))
  t.equal(tax!.onlyWhenCalled, true, 'restoring a version brings its flag back')
  t.equal((await author.api('POST', `/api/adviceset/restore/${version.id}`)).statusCode, 200)
  const [before] = await db.select().from(rules).where(eq(rules.id, f.tax.id))
  t.equal(before!.onlyWhenCalled, false, 'a version without the flag runs the rule on its own again')
})

t.test('the rule header shows how the rule runs and toggles it', async (t) => {
  const f = await drawdownSet('Header')
  const url = `/adviceset/${f.set.id}/rule/${f.tax.id}/show`
  const page = (await author.get(url)).body
  t.match(page, 'data-only-when-called="false"')
  t.match(page, 'Runs on its own, in the advice set’s order.')
  t.match(page, '<button type="submit">Run only when called</button>')
  t.match(page, TAX_WARNING.replace(/'/g, '&#39;'), 'the warning stands beside the button')
  t.notMatch((await viewer.get(url)).body, 'Run only when called</button>', 'viewers get no button')

  const toggled = await author.postForm(`/adviceset/${f.set.id}/rule/${f.tax.id}/only-when-called`, { onlyWhenCalled: 'true' }, { page: url })
  t.equal(toggled.statusCode, 303)
  t.equal(toggled.headers.location, url)
  const after = (await author.get(url)).body
  t.match(after, '“Tax check” now runs only when called.')
  t.match(after, 'data-only-when-called="true"')
  t.match(after, '<button type="submit">Run on its own too</button>')
  t.notMatch(after, 'its advice can appear twice')
  const bad = await author.postForm(`/adviceset/${f.set.id}/rule/${f.tax.id}/only-when-called`, { onlyWhenCalled: 'maybe' })
  t.equal(bad.statusCode, 400)
  t.equal((await viewer.postForm(`/adviceset/${f.set.id}/rule/${f.tax.id}/only-when-called`, { onlyWhenCalled: 'false' }, { page: url })).statusCode, 403)

  const { rule: lonely } = await buildRule(db, f.set.id, 'Lonely')
  await author.api('PATCH', `/api/rule/${lonely.id}`, { onlyWhenCalled: true })
  t.match((await author.get(`/adviceset/${f.set.id}/rule/${lonely.id}/show`)).body, 'No rule calls it yet, so it never runs.')
})
