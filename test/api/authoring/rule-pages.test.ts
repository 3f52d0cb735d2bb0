// Issue 5 rule pages through app.inject: new, show (+ tree and header fragments), part/{nodeId}, confirm-delete and
// the pick-dialog fragments — who may see and change what, the rule-tree island's props, the fallback tree, form
// errors that name the field, the 221 refusal with its callers, delete with Undo, and the advice set's rule list.
import t from 'tap'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { buildRule, createVariable } from '../../helpers/rules.ts'
import { createExternalApiDefinition } from '../../helpers/external-apis.ts'
import { insertComment } from '../../../src/db/queries/comments.ts'
import { findRule, listRules } from '../../../src/db/queries/rules.ts'
import { PROVIDER_OWNER_ID } from '../../../src/services/context.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const ownerId = await createOwner(db, { name: 'Acme' })
const otherOwner = await createOwner(db, { name: 'Other' })
await createOwner(db, { id: PROVIDER_OWNER_ID, name: 'Advice Studio' })
const author = await createUser(db, { ownerId, role: 'author' })
const viewer = await createUser(db, { ownerId, role: 'viewer' })
const stranger = await createUser(db, { ownerId: otherOwner, role: 'author' })
const agent = await signedInAgent(app, author)
const viewerAgent = await signedInAgent(app, viewer)
const strangerAgent = await signedInAgent(app, stranger)

const pageOf = (body: string) => /<main data-page="([^"]+)"/.exec(body)?.[1]
const unescape = (s: string) => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&')
function treePropsOf(body: string) {
  const raw = /data-island="rule-tree" data-props="([^"]*)"/.exec(body)?.[1]
  if (raw === undefined) throw new Error('no rule-tree island on the page')
  return JSON.parse(unescape(raw))
}
/** Forms that change the rule or its set (rename, promote, delete, recover, reorder); copy forms go elsewhere. */
const writeForms = (body: string) => (body.match(/<form method="post" action="\/adviceset\/\d+\/rule\/\d+\/(rename|promote|delete|move|recover)"/g) ?? [])

const set = await createAdviceSet(db, { ownerId, name: 'Pension advice' })
const age = await createVariable(db, ownerId, 'Age')
const { rule: helper } = await buildRule(db, set.id, 'Helper rule', [{ type: 'ruleExit' }])
const { rule, nodes } = await buildRule(db, set.id, 'Retirement', [
  { type: 'inputRequest', variable: 'Age', question: 'How old are you?' },
  {
    type: 'condition', expression: '{{Age}} >= 67', tags: ['needs-work'], children: [
      { type: 'advice', headline: 'You can retire', text: 'At {{Age}} you may <b>retire</b>.' },
      { type: 'ruleCall', calledRuleId: helper.id },
    ],
  },
])
const [askAge, condition, advice, call] = nodes as [typeof nodes[0], typeof nodes[0], typeof nodes[0], typeof nodes[0]]
await insertComment(db, { ruleNodeId: condition.id, userId: author.id, body: 'Check the age' })
await insertComment(db, { ruleNodeId: condition.id, userId: author.id, body: 'And the year' })
const showUrl = `/adviceset/${set.id}/rule/${rule.id}/show`

t.test('the show page: marker, crumbs, header, app context and the island with its fallback tree', async (t) => {
  const res = await agent.get(showUrl)
  t.equal(res.statusCode, 200)
  t.equal(pageOf(res.body), 'rule-show')
  t.match(res.body, new RegExp(`<a href="/library">Library</a> › <a href="/adviceset/${set.id}/show">Pension advice</a> › <span aria-current="page">Retirement</span>`))
  const context = JSON.parse(/<script type="application\/json" id="app-context">(.*?)<\/script>/s.exec(res.body)![1]!)
  t.match(context.currentRule, { id: rule.id })
  t.match(context.currentAdviceSet, { id: set.id })
  t.match(res.body, `href="/adviceset/${set.id}/rule/debug?ruleId=${rule.id}"`, 'debug link')
  t.match(res.body, `href="/adviceset/${set.id}/rule/confirm-delete?ruleId=${rule.id}"`, 'delete link for writers')
  t.match(res.body, `action="/adviceset/${set.id}/rule/${rule.id}/promote"`)
  t.match(res.body, `action="/adviceset/${set.id}/rule/${rule.id}/rename"`, 'the name editor falls back to a form')
  t.match(res.body, /data-island="inline-editor" data-props="[^"]*&quot;action&quot;:&quot;\/api\/rule\/\d+&quot;/)
  t.match(res.body, /<dt>Nodes<\/dt><dd>4<\/dd>/, 'stats come from ruleStats')
  t.match(res.body, 'No other rule calls this rule.')

  // Fallback tree: nested lists, every node with data-node-id, type names and contents.
  for (const node of nodes) t.match(res.body, `data-node-id="${node.id}"`)
  t.match(res.body, /<li class="rule-node rule-node--condition" id="node-\d+" data-node-id="\d+">[\s\S]*?<span class="rule-node__type">Condition<\/span>\s*<code class="rule-node__content" data-formula-box>\{\{Age\}\} &gt;= 67<\/code>/)
  t.match(res.body, new RegExp(`<span data-formula-box>How old are you\\?</span> <span class="rule-node__target">→ \\{\\{<span data-entity-id="${age.id}" data-entity-name="Age">Age</span>\\}\\}`), 'dictionary names carry their entity id and name')
  t.match(res.body, '<p class="rule-node__text prewrap" data-formula-box>At {{Age}} you may &lt;b&gt;retire&lt;/b&gt;.</p>', 'texts are escaped boxes that follow renames')
  t.match(res.body, `<a href="/adviceset/${set.id}/rule/${helper.id}/show">Helper rule</a>`, 'the called rule is a link')
  t.match(res.body, '<span class="rule-node__tag">Needs Work</span>')
  t.match(res.body, '<span class="rule-node__comments">2 comments</span>')
  const conditionItem = new RegExp(`data-node-id="${condition.id}">[\\s\\S]*?<ul>[\\s\\S]*?data-node-id="${advice.id}"[\\s\\S]*?data-node-id="${call.id}"`)
  t.match(res.body, conditionItem, 'children nest inside their parent')
  t.notMatch(res.body, 'aria-current="true"', 'no active node without part/')
})

t.test('the island props are exactly the contract for a writer', async (t) => {
  const props = treePropsOf((await agent.get(showUrl)).body)
  t.same(Object.keys(props).sort(), ['activeNodeId', 'adviceSet', 'apis', 'comments', 'entities', 'maxSourcesPerNode', 'maxUploadBytes', 'mode', 'nodes', 'rule', 'rules', 'sourceCounts'], 'no model of the whole set: its checks come from /api/rule/{id}/checks')
  t.equal(props.mode, 'edit')
  t.equal(props.comments, true, 'the set\'s own team opens its comments')
  t.same([props.sourceCounts, props.maxSourcesPerNode, props.maxUploadBytes], [{}, 10, 10 * 1024 * 1024], 'no node has sources yet (issue 15)')
  t.same(props.rule, { id: rule.id, name: 'Retirement', adviceSetId: set.id })
  t.same(props.adviceSet, { id: set.id, name: 'Pension advice', ownerId: set.ownerId }, 'its owner: entries made in other tabs join its suggestions only when they are this team’s')
  t.equal(props.activeNodeId, null)
  t.equal(props.nodes.length, 4)
  t.same(props.nodes.find((n: { id: number }) => n.id === condition.id), {
    id: condition.id, position: 1, type: 'condition', expression: '{{Age}} >= 67', tags: ['needs-work'], commentCount: 2,
  }, 'fields without a value are left out')
  t.same(props.nodes.find((n: { id: number }) => n.id === advice.id), {
    id: advice.id, parentId: condition.id, position: 0, type: 'advice', headline: 'You can retire', text: 'At {{Age}} you may <b>retire</b>.',
  })
  t.equal(props.nodes.find((n: { id: number }) => n.id === askAge.id).commentCount, undefined)
  t.same(props.nodes.find((n: { id: number }) => n.id === call.id).calledRuleId, helper.id)
  t.same(props.rules, [{ id: helper.id, name: 'Helper rule', adviceSetId: set.id, adviceSetName: 'Pension advice' }])
  t.match(props.entities, [{ name: 'Age', kind: 'variable', dataType: 'number' }])
})

t.test('the set\'s static checks for a rule come from /api/rule/{id}/checks', async (t) => {
  const checked = await createAdviceSet(db, { ownerId, name: 'Checked' })
  const { rule: other } = await buildRule(db, checked.id, 'Other', [{ type: 'advice', headline: '{{Nope}}' }])
  const { rule: mine, nodes: [, afterExit, unknown] } = await buildRule(db, checked.id, 'Mine', [
    { type: 'ruleExit' },
    { type: 'advice', headline: 'After the exit' },
    { type: 'condition', expression: '{{Age}} > {{Missing}}' },
  ])
  const res = await agent.api('GET', `/api/rule/${mine.id}/checks`)
  t.equal(res.statusCode, 200)
  const issues: Array<{ nodeId: string; ruleId: string; code: string; severity: string }> = res.json().data
  t.ok(issues.every((issue) => issue.ruleId === String(mine.id)), 'only this rule\'s issues, not those of the other rule')
  t.ok(issues.some((issue) => issue.nodeId === String(afterExit!.id) && issue.code === 'UNREACHABLE'), 'a node after a Rule Exit never runs')
  t.ok(issues.some((issue) => issue.nodeId === String(unknown!.id) && issue.code === 'UNKNOWN_VARIABLE'), 'unknown names are named')
  t.ok((await agent.api('GET', `/api/rule/${other.id}/checks`)).json().data.some((issue: { code: string }) => issue.code === 'UNKNOWN_VARIABLE'))
  t.equal((await viewerAgent.api('GET', `/api/rule/${mine.id}/checks`)).statusCode, 200, 'readers read them')
  t.equal((await strangerAgent.api('GET', `/api/rule/${mine.id}/checks`)).statusCode, 404, 'another owner does not see the rule')
  t.equal((await agent.api('GET', '/api/rule/abc/checks')).statusCode, 400)
})

t.test('part/{nodeId} marks the node active; other rules\' nodes and junk ids are 404/400', async (t) => {
  const res = await agent.get(`/adviceset/${set.id}/rule/${rule.id}/part/${advice.id}`)
  t.equal(res.statusCode, 200)
  t.equal(pageOf(res.body), 'rule-show')
  t.match(res.body, new RegExp(`data-node-id="${advice.id}" aria-current="true"`))
  t.equal((res.body.match(/aria-current="true"/g) ?? []).length, 1, 'exactly one active node')
  t.equal(treePropsOf(res.body).activeNodeId, advice.id)
  const { nodes: [foreign] } = await buildRule(db, set.id, 'Elsewhere', [{ type: 'ruleExit' }])
  t.equal((await agent.get(`/adviceset/${set.id}/rule/${rule.id}/part/${foreign!.id}`)).statusCode, 404)
  t.equal((await agent.get(`/adviceset/${set.id}/rule/${rule.id}/part/abc`)).statusCode, 400)
  const otherSet = await createAdviceSet(db, { ownerId })
  t.equal((await agent.get(`/adviceset/${otherSet.id}/rule/${rule.id}/show`)).statusCode, 404, 'the rule must be in the set of the URL')
})

t.test('fragments: header and tree without a page around them', async (t) => {
  const header = await agent.get(`${showUrl}/header`)
  t.equal(header.statusCode, 200)
  t.match(header.body, /^\s*<section class="rule-header" data-fragment="rule-show-header">/)
  t.notMatch(header.body, /<main|<html/)
  const tree = await agent.get(`${showUrl}/tree`)
  t.equal(tree.statusCode, 200)
  t.match(tree.body, /^\s*<section class="rule-tree-fallback" data-fragment="rule-show-tree">/)
  for (const node of nodes) t.match(tree.body, `data-node-id="${node.id}"`)
  t.notMatch(tree.body, /<main|<html|data-island/)
})

t.test('viewers and readers of provider content get read-only pages; other owners get 404', async (t) => {
  const viewerPage = await viewerAgent.get(showUrl)
  t.equal(viewerPage.statusCode, 200)
  t.equal(treePropsOf(viewerPage.body).mode, 'read')
  t.same(writeForms(viewerPage.body), [], 'no write forms for a viewer')
  t.notMatch(viewerPage.body, 'data-island="inline-editor"')
  t.notMatch(viewerPage.body, 'confirm-delete')
  t.notMatch(viewerPage.body, '/copy"', 'viewers cannot copy')
  t.same(writeForms((await viewerAgent.get(`${showUrl}/header`)).body), [])

  const providerSet = await createAdviceSet(db, { ownerId: PROVIDER_OWNER_ID, name: 'Starter content' })
  const { rule: providerRule } = await buildRule(db, providerSet.id, 'Provided', [{ type: 'condition', expression: 'true' }])
  const providerUrl = `/adviceset/${providerSet.id}/rule/${providerRule.id}/show`
  const reader = await agent.get(providerUrl)
  t.equal(reader.statusCode, 200)
  t.equal(treePropsOf(reader.body).mode, 'read')
  t.same(writeForms(reader.body), [], 'no forms that change the provider rule')
  t.match(reader.body, new RegExp(`action="/adviceset/${providerSet.id}/rule/${providerRule.id}/copy"[\\s\\S]*?name="adviceSetId" value="${set.id}"`), 'but it can be copied into an own set')
  t.equal((await agent.get(`/adviceset/${providerSet.id}/rule/new`)).statusCode, 403)
  t.equal((await agent.get(`/adviceset/${providerSet.id}/rule/confirm-delete?ruleId=${providerRule.id}`)).statusCode, 403)

  for (const url of [showUrl, `${showUrl}/header`, `${showUrl}/tree`, `/adviceset/${set.id}/rule/${rule.id}/part/${advice.id}`,
    `/adviceset/${set.id}/rule/new`, `/adviceset/${set.id}/rule/confirm-delete?ruleId=${rule.id}`, `/adviceset/${set.id}/rule/selector`,
    `/adviceset/${set.id}/rule/copyselector?ruleId=${rule.id}`, `/adviceset/${set.id}/rule/apiselector`]) {
    t.equal((await strangerAgent.get(url)).statusCode, 404, `${url} is hidden from another owner`)
  }
  t.equal((await viewerAgent.get(`/adviceset/${set.id}/rule/new`)).statusCode, 403)
  t.equal((await viewerAgent.get(`/adviceset/${set.id}/rule/confirm-delete?ruleId=${rule.id}`)).statusCode, 403)
})

t.test('viewer and stranger POSTs are refused and change nothing', async (t) => {
  const base = `/adviceset/${set.id}/rule/${rule.id}`
  const posts: Array<[string, Record<string, string>]> = [
    [`/adviceset/${set.id}/rule/new`, { name: 'Sneaky' }], [`${base}/rename`, { name: 'Sneaky' }], [`${base}/move`, { direction: 'up' }],
    [`${base}/promote`, {}], [`${base}/delete`, {}], [`${base}/copy`, { adviceSetId: String(set.id) }], [`${base}/recover`, {}],
  ]
  const before = (await listRules(db, set.id)).map((r) => [r.id, r.name, r.position])
  for (const [url, form] of posts) {
    t.equal((await viewerAgent.postForm(url, form, { page: showUrl })).statusCode, 403, `viewer POST ${url}`)
    t.equal((await strangerAgent.postForm(url, form, { page: '/library' })).statusCode, 404, `stranger POST ${url}`)
  }
  t.same((await listRules(db, set.id)).map((r) => [r.id, r.name, r.position]), before)
})

t.test('new rule: the error names the field and keeps the typed value; success opens the rule', async (t) => {
  const page = await agent.get(`/adviceset/${set.id}/rule/new`)
  t.equal(page.statusCode, 200)
  t.equal(pageOf(page.body), 'rule-new')
  const long = 'x'.repeat(201)
  const bad = await agent.postForm(`/adviceset/${set.id}/rule/new`, { name: long })
  t.equal(bad.statusCode, 400)
  t.match(bad.body, /<input id="f-name" name="name" type="text" value="x{201}"[^>]*aria-invalid="true"/)
  t.match(bad.body, /<p class="field-error" id="f-name-error">[^<]*Name[^<]*<\/p>/)
  const empty = await agent.postForm(`/adviceset/${set.id}/rule/new`, { name: '  ' })
  t.equal(empty.statusCode, 400)
  t.match(empty.body, 'Name is required.')
  const ok = await agent.postForm(`/adviceset/${set.id}/rule/new`, { name: 'Pensions abroad' })
  t.equal(ok.statusCode, 303)
  const created = (await listRules(db, set.id)).at(-1)!
  t.equal(created.name, 'Pensions abroad')
  t.equal(ok.headers.location, `/adviceset/${set.id}/rule/${created.id}/show`)
  t.match((await agent.get(ok.headers.location as string)).body, 'Rule “Pensions abroad” created.')
})

t.test('rename form: errors name the field; success redirects with the new name', async (t) => {
  const { rule: renamed } = await buildRule(db, set.id, 'Old name')
  const url = `/adviceset/${set.id}/rule/${renamed.id}`
  const bad = await agent.postForm(`${url}/rename`, { name: '' })
  t.equal(bad.statusCode, 400)
  t.equal(pageOf(bad.body), 'rule-show')
  t.match(bad.body, /id="f-name-error">Name is required\.</)
  const ok = await agent.postForm(`${url}/rename`, { name: 'New name' })
  t.equal(ok.statusCode, 303)
  t.equal((await findRule(db, renamed.id))!.name, 'New name')
})

t.test('confirm-delete: counts nodes; a called rule is refused with its callers (221), never a 500', async (t) => {
  const page = await agent.get(`/adviceset/${set.id}/rule/confirm-delete?ruleId=${rule.id}`)
  t.equal(page.statusCode, 200)
  t.equal(pageOf(page.body), 'rule-delete')
  t.match(page.body, 'This deletes the rule and its 4 nodes')
  t.equal((await agent.get(`/adviceset/${set.id}/rule/confirm-delete`)).statusCode, 400, 'ruleId is required')

  const callerSet = await createAdviceSet(db, { ownerId, name: 'Caller set' })
  const { rule: caller } = await buildRule(db, callerSet.id, 'Calls helper', [{ type: 'ruleCall', calledRuleId: helper.id }])
  const confirm = await agent.get(`/adviceset/${set.id}/rule/confirm-delete?ruleId=${helper.id}`)
  t.equal(confirm.statusCode, 200)
  t.match(confirm.body, 'Delete not allowed')
  t.match(confirm.body, `<a href="/adviceset/${callerSet.id}/rule/${caller.id}/show">Caller set › Calls helper</a>`)
  t.notMatch(confirm.body, `/rule/${helper.id}/delete"`, 'no Delete button for a called rule')

  const refused = await agent.postForm(`/adviceset/${set.id}/rule/${helper.id}/delete`, {})
  t.equal(refused.statusCode, 221)
  t.equal(pageOf(refused.body), 'rule-delete')
  t.match(refused.body, /“Helper rule” cannot be deleted while (this depends|these \d+ depend) on it\./)
  t.match(refused.body, 'Caller set › Calls helper')
  t.ok(await findRule(db, helper.id), 'still there')

  const header = await agent.get(`/adviceset/${set.id}/rule/${helper.id}/show/header`)
  t.match(header.body, new RegExp(`<h2>Called by</h2>[\\s\\S]*?<a href="/adviceset/${callerSet.id}/rule/${caller.id}/show">Caller set › Calls helper</a>`))
})

t.test('delete leaves an Undo on the advice set page that brings the rule back in place', async (t) => {
  const doomedSet = await createAdviceSet(db, { ownerId, name: 'Doomed set' })
  const { rule: first } = await buildRule(db, doomedSet.id, 'First')
  const { rule: doomed } = await buildRule(db, doomedSet.id, 'Doomed', [{ type: 'ruleExit' }])
  const { rule: last } = await buildRule(db, doomedSet.id, 'Last')
  const res = await agent.postForm(`/adviceset/${doomedSet.id}/rule/${doomed.id}/delete`, {})
  t.equal(res.statusCode, 303)
  t.equal(res.headers.location, `/adviceset/${doomedSet.id}/show?deletedRule=${doomed.id}`)
  t.same((await listRules(db, doomedSet.id)).map((r) => r.name), ['First', 'Last'])
  const page = await agent.get(res.headers.location as string)
  t.match(page.body, 'Rule “Doomed” deleted.', 'flash')
  t.match(page.body, new RegExp(`<form method="post" action="/adviceset/${doomedSet.id}/rule/${doomed.id}/recover"[^>]*>[\\s\\S]*?Rule “Doomed” was deleted\\. <button type="submit">Undo</button>`))
  t.notMatch((await viewerAgent.get(res.headers.location as string)).body, '/recover"', 'viewers get no Undo')
  t.notMatch((await agent.get(`/adviceset/${doomedSet.id}/show?deletedRule=${first.id}`)).body, '/recover"', 'only for a deleted rule')
  const undo = await agent.postForm(`/adviceset/${doomedSet.id}/rule/${doomed.id}/recover`, {})
  t.equal(undo.statusCode, 303)
  t.equal(undo.headers.location, `/adviceset/${doomedSet.id}/rule/${doomed.id}/show`)
  t.same((await listRules(db, doomedSet.id)).map((r) => r.id), [first.id, doomed.id, last.id])
})

t.test('the advice set page lists its rules in order with links, New rule and reorder for writers', async (t) => {
  const listSet = await createAdviceSet(db, { ownerId, name: 'Ordered' })
  const empty = await agent.get(`/adviceset/${listSet.id}/show`)
  t.match(empty.body, 'This advice set has no rules yet.')
  t.match(empty.body, `href="/adviceset/${listSet.id}/rule/new">New rule</a>`)
  const { rule: a } = await buildRule(db, listSet.id, 'Alpha')
  const { rule: b } = await buildRule(db, listSet.id, 'Beta')
  const { rule: c } = await buildRule(db, listSet.id, 'Gamma')
  const names = (body: string) => [...body.matchAll(/<li id="rule-\d+" data-rule-id="\d+">\s*<a href="[^"]+">([^<]+)<\/a>/g)].map((m) => m[1])
  const page = await agent.get(`/adviceset/${listSet.id}/show`)
  t.same(names(page.body), ['Alpha', 'Beta', 'Gamma'])
  t.match(page.body, `<a href="/adviceset/${listSet.id}/rule/${b.id}/show">Beta</a>`)
  t.notMatch(page.body, 'This advice set has no rules yet.')
  const moved = await agent.postForm(`/adviceset/${listSet.id}/rule/${c.id}/move`, { direction: 'up' })
  t.equal(moved.statusCode, 303)
  t.same(names((await agent.get(`/adviceset/${listSet.id}/show`)).body), ['Alpha', 'Gamma', 'Beta'])
  await agent.postForm(`/adviceset/${listSet.id}/rule/${a.id}/move`, { direction: 'down' })
  t.equal((await agent.postForm(`/adviceset/${listSet.id}/rule/${a.id}/move`, { direction: 'sideways' })).statusCode, 400)
  t.same((await listRules(db, listSet.id)).map((r) => r.id), [c.id, a.id, b.id])
  const viewerPage = await viewerAgent.get(`/adviceset/${listSet.id}/show`)
  t.same(names(viewerPage.body), ['Gamma', 'Alpha', 'Beta'])
  t.notMatch(viewerPage.body, '/move"', 'viewers cannot reorder')
  t.notMatch(viewerPage.body, 'New rule')
})

t.test('copy and promote from the page', async (t) => {
  const source = await createAdviceSet(db, { ownerId, name: 'Source' })
  const target = await createAdviceSet(db, { ownerId, name: 'Target' })
  const { rule: original } = await buildRule(db, source.id, 'Shared logic', [{ type: 'condition', expression: 'true', children: [{ type: 'ruleExit' }] }])
  const copied = await agent.postForm(`/adviceset/${source.id}/rule/${original.id}/copy`, { adviceSetId: String(target.id) })
  t.equal(copied.statusCode, 303)
  const copy = (await listRules(db, target.id))[0]!
  t.equal(copy.name, 'Shared logic')
  t.equal(copied.headers.location, `/adviceset/${target.id}/rule/${copy.id}/show`)
  t.equal(treePropsOf((await agent.get(copied.headers.location as string)).body).nodes.length, 2, 'the tree came along')

  const promoted = await agent.postForm(`/adviceset/${source.id}/rule/${original.id}/promote`, {})
  t.equal(promoted.statusCode, 303)
  const moved = (await findRule(db, original.id))!
  t.not(moved.adviceSetId, source.id, 'the rule moved into a new set')
  t.equal(promoted.headers.location, `/adviceset/${moved.adviceSetId}/show`)
  const stub = (await listRules(db, source.id))[0]!
  const stubPage = await agent.get(`/adviceset/${source.id}/rule/${stub.id}/show`)
  t.match(stubPage.body, `<a href="/adviceset/${moved.adviceSetId}/rule/${original.id}/show">Shared logic › Shared logic</a>`, 'the stub calls it')
})

t.test('pick-dialog fragments: selector, copyselector, apiselector', async (t) => {
  const publicSet = await createAdviceSet(db, { ownerId: otherOwner, name: 'Aaa public', isPublic: true })
  const { rule: publicRule } = await buildRule(db, publicSet.id, 'Public rule')
  const privateSet = await createAdviceSet(db, { ownerId: otherOwner, name: 'Aab private' })
  const { rule: privateRule } = await buildRule(db, privateSet.id, 'Private rule')

  const selector = await agent.get(`/adviceset/${set.id}/rule/selector`)
  t.equal(selector.statusCode, 200)
  t.match(selector.body, /^\s*<section class="rule-picker" data-fragment="rule-selector">/)
  t.notMatch(selector.body, /<main|<html/)
  const groups = [...selector.body.matchAll(/data-advice-set-id="(\d+)"/g)].map((m) => Number(m[1]))
  t.equal(groups[0], set.id, 'this set first')
  t.ok(groups.includes(publicSet.id), 'readable other sets follow')
  t.notOk(groups.includes(privateSet.id), 'unreadable sets are left out')
  t.match(selector.body, `<button type="button" class="link-button" data-pick-rule-id="${rule.id}" data-pick-name="Retirement">Retirement</button>`)
  t.match(selector.body, `data-pick-rule-id="${publicRule.id}" data-pick-name="Public rule"`)
  t.notMatch(selector.body, `data-pick-rule-id="${privateRule.id}"`)
  const filtered = await agent.get(`/adviceset/${set.id}/rule/selector?q=public`)
  t.match(filtered.body, `data-pick-rule-id="${publicRule.id}"`)
  t.notMatch(filtered.body, `data-pick-rule-id="${rule.id}"`)
  t.equal((await viewerAgent.get(`/adviceset/${set.id}/rule/selector`)).statusCode, 200, 'viewers may look')

  const copySelector = await agent.get(`/adviceset/${set.id}/rule/copyselector?ruleId=${rule.id}`)
  t.equal(copySelector.statusCode, 200)
  t.match(copySelector.body, /^\s*<section class="rule-picker" data-fragment="rule-copyselector">/)
  t.match(copySelector.body, new RegExp(`<form method="post" action="/adviceset/${set.id}/rule/${rule.id}/copy"[\\s\\S]*?name="adviceSetId" value="${set.id}"`))
  t.notMatch(copySelector.body, `value="${publicSet.id}"`, 'only sets the user can write')
  const viewerCopy = await viewerAgent.get(`/adviceset/${set.id}/rule/copyselector?ruleId=${rule.id}`)
  t.equal(viewerCopy.statusCode, 200)
  t.notMatch(viewerCopy.body, '<form', 'viewers get no copy forms')
  t.match(viewerCopy.body, 'You have no advice set you can copy this rule into.')

  const api = await agent.get(`/adviceset/${set.id}/rule/apiselector`)
  t.equal(api.statusCode, 200)
  t.match(api.body, /^\s*<section class="rule-picker" data-fragment="rule-apiselector">/)
  t.match(api.body, 'No external APIs yet.')
  t.match(api.body, '<a href="/api-manager/new">', 'the empty picker says where to set one up')
  const rates = await createExternalApiDefinition(db, app.deps.config.secretKey, {
    ownerId, name: 'Rates', urlTemplate: 'https://api.example/rates', responseMapping: [{ path: '/rate', variable: 'Rate', dataType: 'number' }],
  })
  const theirs = await createExternalApiDefinition(db, app.deps.config.secretKey, { ownerId: otherOwner, name: 'Theirs', urlTemplate: 'https://api.example/x' })
  const listed = await agent.get(`/adviceset/${set.id}/rule/apiselector`)
  t.match(listed.body, `data-pick-api-id="${rates.id}" data-pick-name="Rates" data-pick-mapped="Rate:number"`, 'each mapped variable with its data type')
  t.notMatch(listed.body, `data-pick-api-id="${theirs.id}"`, 'only the set owner’s definitions')
})

t.test('the show page and its header fragment count what /api/rule/stats counts', async (t) => {
  const { rule: flawed } = await buildRule(db, set.id, 'Flawed', [
    { type: 'condition', expression: '{{Nobody_Knows}} > 1', children: [{ type: 'advice', headline: 'Never' }] },
    { type: 'ruleExit' }, { type: 'advice', headline: 'After the exit' },
  ])
  const stats = (await agent.api('GET', `/api/rule/stats?id=${flawed.id}`)).json().data
  t.ok(stats.errors > 0 && stats.unreachable > 0, 'the rule has errors and unreachable nodes to count')
  const counts = (html: string) => [...html.matchAll(/<dt>(Nodes|Depth|Errors|Warnings|Unreachable)<\/dt><dd[^>]*>(\d+)<\/dd>/g)].map((m) => `${m[1]}=${m[2]}`)
  const expected = [`Nodes=${stats.nodes}`, `Depth=${stats.depth}`, `Errors=${stats.errors}`, `Warnings=${stats.warnings}`, `Unreachable=${stats.unreachable}`]
  t.same(counts((await agent.get(`/adviceset/${set.id}/rule/${flawed.id}/show`)).body), expected)
  t.same(counts((await agent.get(`/adviceset/${set.id}/rule/${flawed.id}/show/header`)).body), expected)
})

t.test('the header counts the checks the tree paints: a rule reading what an earlier rule asks has no warning', async (t) => {
  const staged = await createAdviceSet(db, { ownerId, name: 'Staged questions' })
  await createVariable(db, ownerId, 'Pot')
  await buildRule(db, staged.id, 'Ask', [{ type: 'inputRequest', variable: 'Pot', question: 'What is your pot?' }, { type: 'inputRequest', variable: 'Age', question: 'How old are you?' }])
  const { rule: reads } = await buildRule(db, staged.id, 'Decide', [
    { type: 'condition', expression: '{{Pot}} > 1000 && {{Age}} > 55', children: [{ type: 'advice', headline: 'Draw down' }] },
  ])
  const checks = (await agent.api('GET', `/api/rule/${reads.id}/checks`)).json().data as Array<{ severity: string }>
  const stats = (await agent.api('GET', `/api/rule/stats?id=${reads.id}`)).json().data
  t.same(checks, [], 'the tree paints nothing on this rule')
  t.match(stats, { errors: 0, warnings: 0, unreachable: 0 }, 'and the header counts nothing')
  const counts = (html: string) => [...html.matchAll(/<dt>(Errors|Warnings)<\/dt><dd[^>]*>(\d+)<\/dd>/g)].map((m) => `${m[1]}=${m[2]}`)
  t.same(counts((await agent.get(`/adviceset/${staged.id}/rule/${reads.id}/show`)).body), ['Errors=0', 'Warnings=0'])
})
