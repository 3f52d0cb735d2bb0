// Issue 5: the advice set views over its rules — list-{entityType}, list-advice/logic, unreachable,
// list-calling-advice-sets, logic-cache, list/todoAdvice — and their rights.
import t from 'tap'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { buildRule, createFormula, createVariable } from '../../helpers/rules.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const ownerId = await createOwner(db, { name: 'Acme' })
const author = await createUser(db, { ownerId, role: 'author' })
const stranger = await createUser(db, { role: 'author' })
const agent = await signedInAgent(app, author)
const strangerAgent = await signedInAgent(app, stranger)

const set = await createAdviceSet(db, { ownerId, name: 'Main set' })
await createVariable(db, ownerId, 'Age')
await createFormula(db, ownerId, 'Double_Age', '{{Age}} * 2')
const { rule: first, nodes: firstNodes } = await buildRule(db, set.id, 'First', [
  { type: 'condition', expression: '{{Age}} > 18', children: [
    { type: 'conditionAlways', children: [{ type: 'advice', headline: 'Adult', tags: ['needs-work'] }] },
  ] },
  { type: 'condition', expression: '{{Age}} > 5 && {{Age}} < 3', children: [{ type: 'advice', headline: 'Impossible' }] },
])
await buildRule(db, set.id, 'Second', [{ type: 'advice', headline: 'Always' }])
const caller = await createAdviceSet(db, { ownerId, name: 'Caller' })
const { rule: callingRule } = await buildRule(db, caller.id, 'Calls first', [{ type: 'ruleCall', calledRuleId: first.id }])

t.test('list-{entityType}', async (t) => {
  t.same((await agent.api('GET', `/api/adviceset/list-rule?id=${set.id}`)).json().data.map((r: { name: string }) => r.name), ['First', 'Second'])
  t.same((await agent.api('GET', `/api/adviceset/list-variable?id=${set.id}`)).json().data.map((e: { reservedName: string }) => e.reservedName), ['Age'])
  t.same((await agent.api('GET', `/api/adviceset/list-formula?id=${set.id}`)).json().data.map((e: { reservedName: string }) => e.reservedName), ['Double_Age'])
  t.same((await agent.api('GET', `/api/adviceset/list-advice?id=${set.id}`)).json().data.map((n: { headline: string }) => n.headline), ['Adult', 'Impossible', 'Always'])
  t.equal((await agent.api('GET', `/api/adviceset/list-condition?id=${set.id}`)).json().data.length, 2)
  const bad = await agent.api('GET', `/api/adviceset/list-widget?id=${set.id}`)
  t.equal(bad.statusCode, 400)
  t.match(bad.json().error.message, /^entityType: /)
  t.equal((await strangerAgent.api('GET', `/api/adviceset/list-rule?id=${set.id}`)).statusCode, 404)
})

t.test('list-advice/logic, unreachable, todo', async (t) => {
  const logic = (await agent.api('GET', `/api/adviceset/list-advice/logic?id=${set.id}`)).json().data
  t.same(logic.map((a: { headline: string; logic: Array<{ expression: string | null }> }) => [a.headline, a.logic.map((l) => l.expression)]), [
    ['Adult', ['{{Age}} > 18', null]], ['Impossible', ['{{Age}} > 5 && {{Age}} < 3']], ['Always', []],
  ])
  const unreachable = (await agent.api('GET', `/api/adviceset/unreachable?id=${set.id}`)).json().data
  t.same(unreachable.map((i: { nodeId: string }) => i.nodeId), [String(firstNodes[3]!.id)])
  const todo = (await agent.api('GET', `/api/adviceset/list/todoAdvice?id=${set.id}`)).json().data
  t.same(todo.map((n: { id: number }) => n.id), [firstNodes[2]!.id])
  t.equal((await strangerAgent.api('GET', `/api/adviceset/unreachable?id=${set.id}`)).statusCode, 404)
})

t.test('list-calling-advice-sets and logic-cache', async (t) => {
  const calling = (await agent.api('GET', `/api/adviceset/list-calling-advice-sets?id=${set.id}`)).json().data
  t.same(calling, [{ id: caller.id, name: 'Caller', ownerId, rules: [{ id: callingRule.id, name: 'Calls first' }] }])
  const cache = (await agent.api('GET', `/api/adviceset/logic-cache?id=${set.id}`)).json().data
  t.same(cache.model.rules.map((r: { name: string }) => r.name), ['First', 'Second'])
  t.same(cache.model.entities.map((e: { name: string }) => e.name), ['Age', 'Double_Age'])
  t.ok(cache.issues.some((i: { code: string }) => i.code === 'UNREACHABLE'))
  t.equal((await agent.api('GET', '/api/adviceset/logic-cache?id=x')).json().error.message, 'Invalid item id format.')
})
