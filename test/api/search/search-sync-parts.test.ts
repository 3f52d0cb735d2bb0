// Issue 6: rule nodes, variables and formulas are searchable and follow every write — create, update, rename,
// delete, recover, copy — and the changes of their rule and set; other owners never see them while private.
import t from 'tap'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { countIndexTasks } from '../../../src/db/queries/search.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const ownerA = await createOwner(db, { name: 'Owner A' })
const ownerB = await createOwner(db, { name: 'Owner B' })
const agent = await signedInAgent(app, await createUser(db, { ownerId: ownerA, role: 'author' }))
const stranger = await signedInAgent(app, await createUser(db, { ownerId: ownerB, role: 'author' }))

interface Hit {
  objectID: string
  name: string
  name_alt: string
  uri: string
  nodeId: number | null
  rule: { id: number } | null
  entityType: { id: number; displayName: string }
  adviceset: { id: number; isPublic: boolean } | null
}

async function search(query: string, as = agent): Promise<Hit[]> {
  const res = await as.api('POST', '/api/search', { requests: [{ indexName: 'advice_updatedAt', params: { query, searchFilter: 'all' } }] })
  if (res.statusCode !== 200) throw new Error(`search answered ${res.statusCode}: ${res.body}`)
  return res.json().results[0].hits as Hit[]
}

const ids = async (query: string, as = agent) => (await search(query, as)).map((h) => h.objectID).sort()

async function created(path: string, body: Record<string, unknown>): Promise<{ id: number }> {
  const res = await agent.api('POST', path, body)
  if (res.statusCode !== 201) throw new Error(`POST ${path} answered ${res.statusCode}: ${res.body}`)
  return res.json().data as { id: number }
}

t.test('rule nodes: found by what an author wrote, updated, deleted and recovered with their subtree, copied', async (t) => {
  const set = await created('/api/adviceset', { name: 'Marmot lending' })
  const rule = await created('/api/rule', { adviceSetId: set.id, name: 'Marmot checks' })
  const base = `/api/rule/${rule.id}/node`
  const question = await created(base, { type: 'inputRequest', variable: 'Ocelot_income', question: 'What is your ocelot income?' })
  const advice = await created(base, { type: 'advice', parentId: question.id, headline: 'Ocelot allowance applies', text: 'Claim the lynx relief' })
  const condition = await created(base, { type: 'condition', expression: '{{Ocelot_income}} > 1000' })
  const exit = await created(base, { type: 'ruleExit' })

  const hits = await search('ocelot')
  t.match(hits.find((h) => h.objectID === `rulenode-${question.id}`), {
    entityType: { id: 6, displayName: 'Input Request' }, name: 'What is your ocelot income?', name_alt: 'Ocelot_income', nodeId: question.id,
    rule: { id: rule.id }, uri: `/adviceset/${set.id}/rule/${rule.id}/part/${question.id}`, adviceset: { id: set.id, isPublic: false },
  }, 'a question by its text, with its variable as name_alt')
  t.match(hits.find((h) => h.objectID === `rulenode-${advice.id}`), { entityType: { displayName: 'Advice' }, name: 'Ocelot allowance applies' }, 'advice by its headline')
  t.match(hits.find((h) => h.objectID === `rulenode-${condition.id}`), { entityType: { displayName: 'Condition' }, name: '{{Ocelot_income}} > 1000' }, 'a condition by its expression')
  t.same(await ids('lynx'), [`rulenode-${advice.id}`], 'found by its other text too')
  t.notOk((await ids('rule exit')).includes(`rulenode-${exit.id}`), 'a node with nothing to find it by is not indexed')

  t.equal((await agent.api('PATCH', `${base}/${advice.id}`, { headline: 'Serval allowance applies' })).statusCode, 200)
  t.same(await ids('serval'), [`rulenode-${advice.id}`], 'updated: found by the new headline')
  t.notOk((await ids('ocelot allowance')).length, 'and no longer by the old one')

  const copy = (await agent.api('POST', `${base}/${question.id}/copy`)).json().data as { id: number }
  const copied = await ids('serval')
  t.equal(copied.length, 2, 'a copy brings its subtree into the index')
  t.ok(copied.includes(`rulenode-${advice.id}`))

  t.equal((await agent.api('DELETE', `${base}/${question.id}`)).statusCode, 200)
  t.same(await ids('serval'), copied.filter((id) => id !== `rulenode-${advice.id}`), 'deleting a node takes its subtree out')
  t.notOk((await ids('ocelot')).includes(`rulenode-${question.id}`))
  t.equal((await agent.api('POST', `${base}/${question.id}/recover`)).statusCode, 200)
  t.same(await ids('serval'), copied, 'recovering brings the subtree back')
  t.equal((await agent.api('DELETE', `${base}/${copy.id}`)).statusCode, 200)
  t.same(await ids('serval'), [`rulenode-${advice.id}`], 'the deleted copy is gone')
  t.equal(await countIndexTasks(db), 0, 'no index task is left over')
})

t.test("nodes follow their rule and set: names of called rules, visibility, deletion", async (t) => {
  const set = await created('/api/adviceset', { name: 'Gecko grants' })
  const rule = await created('/api/rule', { adviceSetId: set.id, name: 'Gecko main' })
  const callee = await created('/api/rule', { adviceSetId: set.id, name: 'Tapir eligibility' })
  const call = await created(`/api/rule/${rule.id}/node/new-call`, { calledRuleId: callee.id })
  const advice = await created(`/api/rule/${callee.id}/node`, { type: 'advice', headline: 'Tapir grant' })
  t.match((await search('tapir')).find((h) => h.objectID === `rulenode-${call.id}`), { entityType: { displayName: 'Rule Call' }, name: 'Tapir eligibility' },
    'a rule call by the rule it calls')

  t.equal((await agent.api('PATCH', `/api/rule/${callee.id}`, { name: 'Okapi eligibility' })).statusCode, 200)
  t.same(await ids('okapi'), [`rule-${callee.id}`, `rulenode-${call.id}`], 'renaming the called rule renames the call')

  t.same(await ids('tapir', stranger), [], 'another owner does not see private nodes')
  t.equal((await agent.api('PATCH', `/api/adviceset/${set.id}`, { isPublic: true })).statusCode, 200)
  t.same(await ids('tapir', stranger), [`rulenode-${advice.id}`], 'but does once the set is public')

  t.equal((await agent.api('DELETE', `/api/rule/${rule.id}`)).statusCode, 200)
  t.same(await ids('okapi'), [`rule-${callee.id}`], 'a deleted rule takes its nodes out')
  t.equal((await agent.api('POST', `/api/rule/${rule.id}/recover`)).statusCode, 200)
  t.same(await ids('okapi'), [`rule-${callee.id}`, `rulenode-${call.id}`], 'and brings them back when recovered')

  t.equal((await agent.api('DELETE', `/api/adviceset/${set.id}`)).statusCode, 200)
  t.same(await ids('okapi'), [], 'a deleted set takes its rules and nodes out')
  t.equal((await agent.api('POST', `/api/adviceset/${set.id}/recover`)).statusCode, 200)
  t.same(await ids('okapi'), [`rule-${callee.id}`, `rulenode-${call.id}`])
})

t.test('variables and formulas: created, renamed (with the nodes using them), switched, deleted', async (t) => {
  const set = await created('/api/adviceset', { name: 'Quoll quotes' })
  const variable = await created('/api/entity', { reservedName: 'Zorilla_age', dataType: 'number', description: 'Age of the aardwolf' })
  const formula = await created('/api/entity', { reservedName: 'Zorilla_double', entityTypeId: 5, dataType: 'number', expression: '{{Zorilla_age}} * 2', adviceSetId: set.id })
  t.match((await search('zorilla')).find((h) => h.objectID === `entity-${variable.id}`), {
    entityType: { id: 12, displayName: 'Variable' }, name: 'Zorilla_age', uri: `/card/variable/${variable.id}`, nodeId: null, rule: null, adviceset: null,
  }, 'a variable kept for the owner as a whole')
  t.match((await search('zorilla')).find((h) => h.objectID === `entity-${formula.id}`), {
    entityType: { id: 5, displayName: 'Formula' }, uri: `/card/formula/${formula.id}`, adviceset: { id: set.id },
  }, 'a formula kept for a set carries the set')
  t.same(await ids('aardwolf'), [`entity-${variable.id}`], 'found by its description')
  t.same(await ids('zorilla', stranger), [], 'another owner does not see them')

  const rule = await created('/api/rule', { adviceSetId: set.id, name: 'Quoll rule' })
  const condition = await created(`/api/rule/${rule.id}/node`, { type: 'condition', expression: '{{Zorilla_age}} >= 18' })
  t.equal((await agent.api('PATCH', `/api/entity/${variable.id}`, { reservedName: 'Zorro_age' })).statusCode, 200)
  t.same(await ids('zorro'), [`entity-${formula.id}`, `entity-${variable.id}`, `rulenode-${condition.id}`].sort(),
    'renamed: the variable, and the formula and node whose references were rewritten')

  t.equal((await agent.api('POST', `/api/entity/${variable.id}/alternate`, { expression: '40' })).statusCode, 200)
  t.match((await search('zorro_age')).find((h) => h.objectID === `entity-${variable.id}`), { entityType: { displayName: 'Formula' }, uri: `/card/formula/${variable.id}` },
    'switched to a formula')

  t.equal((await agent.api('DELETE', `/api/entity/${formula.id}`)).statusCode, 200)
  t.notOk((await ids('zorro')).includes(`entity-${formula.id}`), 'deleted: gone')
  t.equal((await agent.api('DELETE', `/api/adviceset/${set.id}`)).statusCode, 200)
  t.same(await ids('zorro'), [`entity-${variable.id}`], "a deleted set's nodes leave; the owner's own entry stays")
  t.equal(await countIndexTasks(db), 0)
})
