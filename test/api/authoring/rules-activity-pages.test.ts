// Issue 5: the activity pages show rule, rule node, dictionary entry and comment rows with readable labels, links to
// where they are today, and a Restore button for writers; a refused restore says why and lists what depends on it.
import t from 'tap'
import { buildTestApp } from '../../helpers/app.ts'
import { activityRows, sentenceOf } from '../../helpers/activity.ts'
import { signedInAgent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { buildRule } from '../../helpers/rules.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const ownerId = await createOwner(db, { name: 'Acme' })
const author = await createUser(db, { ownerId, role: 'author', name: 'Ada Author' })
const viewer = await createUser(db, { ownerId, role: 'viewer' })
const agent = await signedInAgent(app, author)
const viewerAgent = await signedInAgent(app, viewer)

const set = await createAdviceSet(db, { ownerId, name: 'Pensions' })
const otherSet = await createAdviceSet(db, { ownerId, name: 'Elsewhere' })
const rule = (await agent.api('POST', '/api/rule', { adviceSetId: set.id, name: 'Eligibility' })).json().data
const node = (await agent.api('POST', `/api/rule/${rule.id}/node`, { type: 'condition', expression: '{{Age}} >= 18' })).json().data
await agent.api('PATCH', `/api/rule/${rule.id}/node/${node.id}`, { expression: '{{Age}} >= 21', tags: ['needs-work'] })
const variable = (await agent.api('POST', '/api/entity', { reservedName: 'Age', dataType: 'number', adviceSetId: set.id })).json().data
const formula = (await agent.api('POST', '/api/entity', { reservedName: 'Twice_Age', entityTypeId: 5, expression: '{{Age}} * 2', adviceSetId: set.id })).json().data
const comment = (await agent.api('POST', `/api/comment/${node.id}`, { body: 'Is 21 right?' })).json().data
const elsewhere = (await agent.api('POST', '/api/rule', { adviceSetId: otherSet.id, name: 'Not this set' })).json().data

/** The newest log item (the <li>) whose sentence contains `text`, optionally of one action. */
function itemOf(body: string, text: string, action?: string): string | undefined {
  return body.split('<li class="activity-item">').slice(1).find((li) => sentenceOf(li).includes(text) && (action === undefined || li.includes(`data-action="${action}"`)))
}

t.test('the advice set\'s log: its rules, nodes, dictionary entries and comments, linked, with Restore', async (t) => {
  const page = await agent.get(`/adviceset/${set.id}/activity`)
  t.equal(page.statusCode, 200)
  const ruleItem = itemOf(page.body, 'Ada Author created the Rule “Eligibility” of “Pensions”.')
  t.match(ruleItem, `<a href="/adviceset/${set.id}/rule/${rule.id}/show"><strong>Eligibility</strong></a>`, 'a rule links to its show page')
  const nodeUpdate = itemOf(page.body, 'Ada Author changed the Condition “{{Age}} >= 21” in the Rule “Eligibility”.')
  t.match(nodeUpdate, `href="/adviceset/${set.id}/rule/${rule.id}/part/${node.id}"`, 'a node links to its part page')
  t.match(nodeUpdate, /<th scope="row">Expression<\/th><td class="diff__before">\{\{Age\}\} &gt;= 18<\/td><td aria-hidden="true">→<\/td><td class="diff__after">\{\{Age\}\} &gt;= 21<\/td>/)
  t.match(nodeUpdate, /<th scope="row">Tags<\/th><td class="diff__before">none<\/td><td aria-hidden="true">→<\/td><td class="diff__after">needs-work<\/td>/)
  t.notMatch(nodeUpdate, /<th scope="row">name<\/th>/, 'the derived label is not listed as a change')
  t.match(itemOf(page.body, 'created the Variable “{{Age}}”'), `href="/card/variable/${variable.id}"`, 'a variable links to its card')
  t.match(itemOf(page.body, 'created the Formula “[[Twice_Age]]”'), `href="/card/formula/${formula.id}"`, 'a formula links to its card')
  const commentItem = itemOf(page.body, 'Ada Author commented on the Condition “{{Age}} >= 21” in the Rule “Eligibility”: “Is 21 right?”.')
  t.match(commentItem, `href="/adviceset/${set.id}/rule/${rule.id}/part/${node.id}"`, 'a comment links to its node')
  t.match(commentItem, /<th scope="row">Comment<\/th>/)
  for (const item of [ruleItem, nodeUpdate, commentItem]) t.match(item, /action="\/activity\/\d+\/restore"/, 'each has a Restore button')
  t.notMatch(page.body, 'Not this set', 'rows of other sets are not shown')
  t.notMatch((await viewerAgent.get(`/adviceset/${set.id}/activity`)).body, '/restore"', 'viewers get no Restore button')

  const all = await agent.get('/activity')
  t.ok(itemOf(all.body, 'created the Rule “Not this set” of “Elsewhere”'), 'the owner-wide log shows every set\'s rules')
  t.ok(itemOf(all.body, 'changed the Condition “{{Age}} >= 21”'))
  t.ok(itemOf(all.body, '“Is 21 right?”'))
  t.match(itemOf(all.body, 'created the Rule “Not this set” of “Elsewhere”'), `href="/adviceset/${otherSet.id}/rule/${elsewhere.id}/show"`)
})

t.test('restoring from the page; deleted items are not linked; a refusal lists the uses', async (t) => {
  await agent.api('DELETE', `/api/rule/${rule.id}/node/${node.id}`)
  const page = await agent.get(`/adviceset/${set.id}/activity`)
  const deleted = itemOf(page.body, 'Ada Author deleted the Condition “{{Age}} >= 21” in the Rule “Eligibility”.', 'delete')
  t.ok(deleted, 'the delete reads as a sentence')
  t.notMatch(deleted, '/part/', 'a deleted node has no link')
  const deleteRow = (await activityRows(db, 'rulenode', node.id)).at(-1)!
  const restored = await agent.postForm(`/activity/${deleteRow.id}/restore`, { next: `/adviceset/${set.id}/activity` })
  t.equal(restored.statusCode, 303)
  t.equal(restored.headers.location, `/adviceset/${set.id}/activity`)
  const after = await agent.get(`/adviceset/${set.id}/activity`)
  t.match(after.body, 'Restored the rule node as it was before that change.')
  t.match(itemOf(after.body, 'Ada Author restored the Condition “{{Age}} >= 21”'), `href="/adviceset/${set.id}/rule/${rule.id}/part/${node.id}"`, 'linked again once it is back')

  await agent.api('POST', `/api/rule/${rule.id}/node`, { type: 'advice', headline: 'You are {{Age}}' })
  const created = (await activityRows(db, 'entity', variable.id))[0]!
  const refused = await agent.postForm(`/activity/${created.id}/restore`, { next: '/activity', confirm: 'remove' })
  t.equal(refused.statusCode, 303)
  const log = await agent.get('/activity')
  t.match(log.body, 'Not restored')
  t.match(log.body, /\{\{Age\}\} cannot be deleted while these \d+ depend on it\. Pensions › Eligibility/, 'the uses are named')
})

t.test('ids inside snapshots read as names', async (t) => {
  const callee = (await agent.api('POST', '/api/rule', { adviceSetId: set.id, name: 'Callee rule' })).json().data
  const call = (await agent.api('POST', `/api/rule/${rule.id}/node/new-call`, { calledRuleId: callee.id })).json().data
  const promoted = (await agent.api('POST', '/api/rule/promote', { id: callee.id, name: 'Callee set' })).json().data
  const page = await agent.get('/activity')
  const created = itemOf(page.body, 'Ada Author added the Rule Call to “Callee rule” in the Rule “Eligibility”.')
  t.match(created, `href="/adviceset/${set.id}/rule/${rule.id}/part/${call.id}"`)
  t.match(created, /<th scope="row">Calls rule<\/th><td class="diff__before"><\/td><td><\/td><td class="diff__after">Callee rule<\/td>/)
  t.match(created, /<th scope="row">Type<\/th>[^]*?<td class="diff__after">Rule Call<\/td>/, 'the node type by its display name')
  t.notMatch(created, /ruleCall|rule node/, 'no internal type names')
  const moved = itemOf(page.body, 'Ada Author changed the Rule “Callee rule” of “Callee set”.', 'update')
  t.match(moved, `href="/adviceset/${promoted.adviceSet.id}/rule/${callee.id}/show"`, 'a promoted rule links to its new set')
  t.ok(itemOf(page.body, 'Ada Author created the Advice Set “Callee set” by promoting the Rule “Callee rule”.'), 'the promotion names the rule')
})

t.test('restoring a create asks first and names what goes', async (t) => {
  const doomed = (await agent.api('POST', '/api/rule', { adviceSetId: set.id, name: 'Short-lived' })).json().data
  const created = (await activityRows(db, 'rule', doomed.id))[0]!
  const asked = await agent.postForm(`/activity/${created.id}/restore`, { next: '/activity' })
  t.equal(asked.statusCode, 200, 'no redirect: a question')
  t.match(asked.body, 'Restore to before it was created?')
  t.match(asked.body, /restoring <strong>deletes the Rule “Short-lived” of “Pensions”<\/strong>/, 'names what goes')
  t.match(asked.body, /name="confirm" value="remove"/)
  const stillThere = await agent.api('GET', `/api/rule/${doomed.id}`)
  t.equal(stillThere.statusCode, 200, 'nothing is deleted before the answer')

  const done = await agent.postForm(`/activity/${created.id}/restore`, { next: '/activity', confirm: 'remove' })
  t.equal(done.statusCode, 303)
  t.equal((await agent.api('GET', `/api/rule/${doomed.id}`)).statusCode, 404, 'deleted once confirmed')
  t.match((await agent.get('/activity')).body, 'Deleted the Rule “Short-lived” of “Pensions”.')

  const update = (await activityRows(db, 'rulenode', node.id)).find((r) => r.action === 'update')!
  t.equal((await agent.postForm(`/activity/${update.id}/restore`, { next: '/activity' })).statusCode, 303, 'other restores need no question')
})
