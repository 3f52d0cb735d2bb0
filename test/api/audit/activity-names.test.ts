// Issue 24/25: activity entries read as sentences with names, never internal values: no "rule node ruleCall",
// "Node #20", raw JSON (draftRules, restoredIntoDraft), "Nodes — → 1", "user #5", "impersonation #4", "createdBy 3",
// "by 1", "Scenario #6" or "mergedInto 6", on the pages and in /api/activity/index (its `summary`).
import t from 'tap'
import { buildTestApp } from '../../helpers/app.ts'
import { activitySentences } from '../../helpers/activity.ts'
import { signedInAgent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { insertActivity, type InsertActivityParams } from '../../../src/db/queries/activity.ts'
import { tags } from '../../../src/db/schema/index.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const ownerId = await createOwner(db, { name: 'Acme Advice' })
const admin = await createUser(db, { ownerId, role: 'admin', name: 'Ada Admin' })
const author = await createUser(db, { ownerId, role: 'author', name: 'Bob Author' })
const agent = await signedInAgent(app, admin)
const set = await createAdviceSet(db, { ownerId, name: 'Pensions' })

const rule = (await agent.api('POST', '/api/rule', { adviceSetId: set.id, name: 'Eligibility' })).json().data
const callee = (await agent.api('POST', '/api/rule', { adviceSetId: set.id, name: 'Tax check' })).json().data
const parent = (await agent.api('POST', `/api/rule/${rule.id}/node`, { type: 'condition', expression: '{{Age}} > 55' })).json().data
const call = (await agent.api('POST', `/api/rule/${rule.id}/node`, { type: 'ruleCall', calledRuleId: callee.id, parentId: parent.id })).json().data
const scenario = (await agent.api('POST', '/api/advicescenario', { adviceSetId: set.id, name: 'Retiree' })).json().data
const [into] = await db.insert(tags).values({ ownerId, label: 'Pensions tag', slug: 'pensions-tag', type: 'label' }).returning()

const log = (row: Partial<InsertActivityParams> & Pick<InsertActivityParams, 'action' | 'entityType' | 'entityId'>) =>
  insertActivity(db, { ownerId, actorId: admin.id, impersonatorId: null, source: 'users', before: null, after: null, ...row })

// Rows as the services write them (support.ts, tags.ts merge, publishing/restore.ts, invitations).
await log({ action: 'create', entityType: 'impersonation', entityId: String(author.id), after: { userId: author.id, email: author.email, by: admin.id } })
await log({ action: 'delete', entityType: 'impersonation', entityId: String(author.id), actorId: author.id, before: { userId: author.id, by: admin.id } })
await log({ action: 'update', entityType: 'user', entityId: String(author.id), before: { role: 'author', createdBy: admin.id }, after: { role: 'viewer', createdBy: admin.id } })
await log({ action: 'delete', entityType: 'tag', entityId: '999999', before: { name: 'Old tag', slug: 'old-tag', type: 'general' }, after: { mergedInto: into!.id, sets: [set.id] } })
await log({
  action: 'restore', entityType: 'version', entityId: '424242',
  before: { draftRules: [{ id: rule.id, name: 'Eligibility' }] },
  after: { number: 3, adviceSetId: set.id, restoredIntoDraft: { adviceSetId: set.id, versionId: 424242, rules: 2, nodes: 7, entities: 1 } },
})
await log({ action: 'update', entityType: 'advicescenario', entityId: String(scenario.id), before: { name: 'Retiree', adviceSetId: set.id, scenarioId: null }, after: { name: 'Retiree', adviceSetId: set.id, scenarioId: scenario.id } })
await log({ action: 'update', entityType: 'rulenode', entityId: String(call.id), before: { type: 'ruleCall', ruleId: rule.id, parentId: null, calledRuleId: callee.id }, after: { type: 'ruleCall', ruleId: rule.id, parentId: parent.id, calledRuleId: callee.id } })

const RAW = [/ruleCall/, /rule node/, /Node #\d/, /draftRules/, /restoredIntoDraft/, /[{[]"/, /user #\d/, /impersonation #\d/, /createdBy/, /\bby \d/, /Scenario #\d/, /mergedInto/, /— → \d/, new RegExp(ownerId)]

t.test('the activity page: every entry a sentence with names, no internal values', async (t) => {
  const page = await agent.get('/activity?days=1&limit=100')
  t.equal(page.statusCode, 200)
  const sentences = activitySentences(page.body)
  for (const expected of [
    'Ada Admin started impersonating “Bob Author”.',
    'Ada Admin stopped impersonating “Bob Author”.',
    'Ada Admin changed the profile of “Bob Author”.',
    'Ada Admin merged the tag “Old tag” into “Pensions tag”.',
    'Ada Admin restored “Version 3” of “Pensions” into the working draft (2 rules, 7 nodes, 1 dictionary entry).',
    'Ada Admin changed the advice scenario “Retiree” of “Pensions”.',
    'Ada Admin changed the Rule Call to “Tax check” in the Rule “Eligibility”.',
    'Ada Admin added the Condition “{{Age}} > 55” in the Rule “Eligibility”.',
  ]) t.ok(sentences.includes(expected), expected)
  const shown = page.body.slice(page.body.indexOf('<ol class="activity-log">'), page.body.indexOf('</ol>'))
  // Tags become spaces and runs of spaces one, so a diff row reads as text ("Nodes — → 1"), as a person reads it.
  const text = shown.replace(/<[^>]+>/g, ' ').replace(/&quot;/g, '"').replace(/\s+/g, ' ')
  for (const raw of RAW) t.notMatch(text, raw, `no ${raw}`)
  t.match(shown, /<th scope="row">Parent node<\/th><td class="diff__before">the top of the rule<\/td><td aria-hidden="true">→<\/td><td class="diff__after">Condition “\{\{Age\}\} &gt; 55”<\/td>/, 'a parent node by its type and text')
  t.match(shown, /<th scope="row">Scenario<\/th><td class="diff__before">—<\/td><td aria-hidden="true">→<\/td><td class="diff__after">Retiree<\/td>/, 'a scenario by name')
})

t.test('/api/activity/index: a summary sentence per entry', async (t) => {
  const res = await agent.api('GET', '/api/activity/index?days=1&limit=100')
  t.equal(res.statusCode, 200)
  const items = res.json().data.items as Array<{ summary: string; details: Array<{ label: string; before: string; after: string }> }>
  t.ok(items.some((i) => i.summary === 'Ada Admin stopped impersonating “Bob Author”.'))
  for (const item of items) {
    t.match(item.summary, /^Ada Admin .+\.$/, 'a sentence')
    const read = [item.summary, ...item.details.map((d) => `${d.label} ${d.before} ${d.after}`)].join(' ')
    for (const raw of RAW) t.notMatch(read, raw, `${item.summary}: no ${raw}`)
  }
})
