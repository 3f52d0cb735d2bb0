// Issue 5 point 7: the rule debug page (/adviceset/{id}/rule/debug) and its tree fragment (debug/tree): rights,
// the form generated from the input requests, the run's outcome, and the trace painted on the tree.
import t from 'tap'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInTeam } from '../../helpers/team.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { buildRule, createVariable } from '../../helpers/rules.ts'
import { insertEntity } from '../../../src/db/queries/entities.ts'
import { ENTITY_TYPES } from '../../../src/engine/index.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const { ownerId, author, viewer, agent, viewerAgent, strangerAgent } = await signedInTeam(app, db)

const set = await createAdviceSet(db, { ownerId, name: 'Tax set' })
await createVariable(db, ownerId, 'Income', { dataType: 'number' })
const { rule, nodes } = await buildRule(db, set.id, 'Tax', [
  { type: 'inputRequest', variable: 'Income', question: 'What is your income?' },
  { type: 'condition', expression: '{{Income}} > 1000', children: [
    { type: 'variableAssignment', expression: '{{Tax}} = {{Income}} * 0.2' },
    { type: 'advice', headline: 'Tax is {{Tax}}', text: 'Pay it by April.' },
  ] },
  { type: 'condition', expression: '{{Income}} <= 1000', children: [{ type: 'advice', headline: 'No tax' }] },
  { type: 'condition', expression: '{{Income}} > 5 && {{Income}} < 3', children: [{ type: 'advice', headline: 'Never' }] },
])
const idOf = (i: number) => String(nodes[i]!.id)
const [ask, rich, assign, taxAdvice, poor, noTax, impossible, never] = [0, 1, 2, 3, 4, 5, 6, 7].map(idOf) as [string, string, string, string, string, string, string, string]

const base = `/adviceset/${set.id}/rule/debug`
const attr = (html: string, name: string) => [...html.matchAll(new RegExp(`<[^>]*\\b${name}="true"[^>]*>`, 'g'))]
  .map((m) => /data-node-id="(\d+)"/.exec(m[0])?.[1]).filter((id): id is string => id !== undefined)
/** The trace part of a page or fragment (so result lists never count as tree nodes). */
const treeOf = (html: string) => html.slice(html.indexOf('data-fragment="rule-debug-tree"'))

t.test('readers of the set may debug it; other owners get 404', async (t) => {
  for (const [who, a] of [['author', agent], ['viewer', viewerAgent]] as const) {
    const page = await a.get(`${base}?ruleId=${rule.id}`)
    t.equal(page.statusCode, 200, `${who}: page`)
    t.match(page.body, '<main data-page="rule-debug">')
    t.equal((await a.get(`${base}/tree?ruleId=${rule.id}`)).statusCode, 200, `${who}: fragment`)
  }
  t.equal((await strangerAgent.get(`${base}?ruleId=${rule.id}`)).statusCode, 404)
  t.equal((await strangerAgent.get(base)).statusCode, 404, 'the whole set too')
  t.equal((await strangerAgent.get(`${base}/tree?ruleId=${rule.id}&run=1`)).statusCode, 404)
  t.equal((await strangerAgent.postForm(base, { ruleId: String(rule.id), 'input.Income': '2000' }, { page: '/' })).statusCode, 404)
  const signedOut = await app.inject({ method: 'GET', url: base, headers: { accept: 'text/html' } })
  t.equal(signedOut.statusCode, 302, 'visitors are sent to sign in')
})

t.test('a bad ruleId gets an error naming it', async (t) => {
  const malformed = await agent.get(`${base}?ruleId=abc`)
  t.equal(malformed.statusCode, 400)
  t.match(malformed.body, 'ruleId: Invalid item id format.')
  const missing = await agent.get(`${base}/tree?ruleId=999999`)
  t.equal(missing.statusCode, 404)
  t.match(missing.body, 'ruleId: there is no rule 999999 in this advice set.')
  const other = await createAdviceSet(db, { ownerId })
  const { rule: elsewhere } = await buildRule(db, other.id, 'Elsewhere')
  const wrongSet = await agent.get(`${base}?ruleId=${elsewhere.id}`)
  t.equal(wrongSet.statusCode, 404)
  t.match(wrongSet.body, `ruleId: there is no rule ${elsewhere.id} in this advice set.`)
  const badType = await agent.get(`${base}?contentType=pdf`)
  t.equal(badType.statusCode, 400)
  t.match(badType.body, 'contentType')
})

t.test('the form has one control per input request, of the variable\'s type', async (t) => {
  const formSet = await createAdviceSet(db, { ownerId })
  const entity = (name: string, dataType: string, validOptions: string[] = []) => insertEntity(db, {
    ownerId, adviceSetId: formSet.id, entityTypeId: ENTITY_TYPES.variable.id, reservedName: name, dataType, validOptions,
    isClosedSet: false, displayFormat: null, defaultValue: null, expression: null, isConstant: false, description: '', createdBy: null,
  })
  await entity('Age', 'number')
  await entity('Rate', 'percent')
  await entity('Start', 'date')
  await entity('Student', 'boolean')
  await entity('Plan', 'select', ['Basic', 'Plus'])
  await entity('Note', 'freetext')
  await entity('Pets', 'array')
  const { rule: form } = await buildRule(db, formSet.id, 'Everything', [
    { type: 'inputRequest', variable: 'Age', question: 'How old are you?' },
    { type: 'inputRequest', variable: 'Rate', question: 'Rate?' },
    { type: 'conditionAlways', children: [
      { type: 'inputRequest', variable: 'Start', question: 'When do you start?' },
      { type: 'inputRequest', variable: 'Student', question: 'Are you a student?' },
      { type: 'inputRequest', variable: 'Age', question: 'Asked again' },
    ] },
    { type: 'inputRequest', variable: 'Plan', question: 'Which plan?' },
    { type: 'inputRequest', variable: 'Pets', question: 'Your pets?' },
    { type: 'inputRequest', variable: 'Note', question: '' },
  ])
  const html = (await agent.get(`/adviceset/${formSet.id}/rule/debug?ruleId=${form.id}`)).body
  const fields = [...html.matchAll(/<div class="field debug-field" data-variable="([^"]+)" data-control="([^"]+)">([\s\S]*?)<p class="hint">/g)]
  t.same(fields.map((f) => [f[1], f[2]]), [
    ['Age', 'number'], ['Rate', 'number'], ['Start', 'date'], ['Student', 'boolean'], ['Plan', 'select'], ['Pets', 'lines'], ['Note', 'text'],
  ], 'one field per variable asked, in tree order')
  const body = (name: string) => fields.find((f) => f[1] === name)![3]!
  t.match(body('Age'), /<label for="debug-input-Age">How old are you\?<\/label>/, 'labelled with the question')
  t.match(body('Age'), /<input id="debug-input-Age" name="input.Age" type="text" inputmode="decimal"/)
  t.match(body('Rate'), /name="input.Rate" type="text" inputmode="decimal"[^>]*><span class="debug-percent-sign" aria-hidden="true">%<\/span>/, 'a percent is typed as text with its sign')
  t.match(body('Start'), /name="input.Start" type="date"/)
  t.same([...body('Student').matchAll(/type="radio" name="input.Student" value="([^"]*)"/g)].map((m) => m[1]), ['true', 'false', ''], 'yes / no / no answer')
  t.match(body('Student'), /<legend>Are you a student\?<\/legend>/)
  t.same([...body('Plan').matchAll(/<option value="([^"]*)"/g)].map((m) => m[1]), ['', 'Basic', 'Plus'], 'a dropdown of the valid options')
  t.match(body('Note'), /<label for="debug-input-Note">Note<\/label>/, 'an empty question falls back to the name')
  t.match(body('Note'), /name="input.Note" type="text"/)
  t.match(body('Pets'), /<textarea id="debug-input-Pets" name="input.Pets"/)
  t.equal(new Set([...html.matchAll(/name="(input\.[^"]+)"/g)].map((m) => m[1])).size, 7, 'no other answer controls')
  t.match(html, /<select id="debug-content-type" name="contentType">/)
  t.match(html, /<input id="debug-now" name="now" type="date"/)

  const run = (await agent.get(`/adviceset/${formSet.id}/rule/debug?ruleId=${form.id}&run=1&input.Age=40&input.Rate=4.2&input.Start=2024-03-31&input.Student=false&input.Plan=Plus&input.Pets=${encodeURIComponent('cat\ndog\n')}`)).body
  t.match(run, /<tr data-variable="Pets" data-kind="variable"><td><code>Pets<\/code><\/td><td><code>\[&quot;cat&quot;,&quot;dog&quot;\]<\/code>/, 'a textarea answer is one item per line')
  t.match(run, /data-focus-variable="Note"/, 'the run stops at the first unanswered question')
  t.match(run, /<input type="radio" name="input.Student" value="false" checked>/, 'answers are kept in the form')
})

t.test('a run shows the advice and paints the visited nodes', async (t) => {
  const page = await agent.get(`${base}?ruleId=${rule.id}&input.Income=2000&run=1`)
  t.equal(page.statusCode, 200)
  t.match(page.body, /<div class="debug-headline"><span class="debug-body prewrap">Tax is 400<\/span><\/div>/)
  t.match(page.body, /Pay it by April\./)
  t.match(page.body, /<p class="debug-focus">Nothing left to ask.<\/p>/)
  t.match(page.body, /<tr data-variable="Tax" data-kind="variable"><td><code>Tax<\/code><\/td><td><code>400<\/code><\/td><td>400<\/td><\/tr>/)
  t.match(page.body, /<td><span class="debug-body prewrap">What is your income\?<\/span><\/td><td><code>\{\{Income\}\}<\/code><\/td><td>2,000<\/td>/, 'the answered question')
  t.match(page.body, `href="${base}?ruleId=${rule.id}&amp;input.Income=2000&amp;run=1"`, 'a permalink to the run')
  t.same(attr(treeOf(page.body), 'data-visited').sort(), [ask, rich, assign, taxAdvice, poor, impossible].sort(), 'the page embeds the painted tree')

  const fragment = await agent.get(`${base}/tree?ruleId=${rule.id}&input.Income=2000&run=1`)
  t.equal(fragment.statusCode, 200)
  t.match(fragment.body, /^\s*<section class="card debug-tree" data-fragment="rule-debug-tree" data-ran="true">/)
  t.same(attr(fragment.body, 'data-visited').sort(), [ask, rich, assign, taxAdvice, poor, impossible].sort(), 'exactly the visited nodes')
  const node = (id: string) => new RegExp(`<li id="debug-node-${id}" class="([^"]*)"[^>]*>[\\s\\S]*?</div>`).exec(fragment.body)
  t.match(node(rich)?.[0], /<span class="debug-node-value" title="Value">= true<\/span>/, 'a condition shows its outcome')
  t.match(node(poor)?.[0], /= false/)
  t.match(node(assign)?.[0], /= 400/, 'an assignment shows the value')
  t.match(node(assign)?.[0], /<span class="debug-node-time" title="Time">\d+\.\d+ (µs|ms)<\/span>/, 'and its time')
  t.equal(node(noTax)?.[1], 'debug-node is-skipped', 'nodes not visited are dimmed')
  t.equal(node(never)?.[1], 'debug-node is-skipped')
  t.same(attr(fragment.body, 'data-unreachable'), [impossible], 'the never-true condition is marked unreachable')
  t.match(fragment.body, new RegExp(`<li data-unreachable-node="${impossible}"><a href="#debug-node-${impossible}">Condition: \\{\\{Income\\}\\} &gt; 5 &amp;&amp; \\{\\{Income\\}\\} &lt; 3</a> in Tax · <a href="/adviceset/${set.id}/rule/${rule.id}/part/${impossible}">`), 'and listed above the tree with links')

  const low = await agent.get(`${base}/tree?ruleId=${rule.id}&input.Income=10&run=1`)
  t.same(attr(low.body, 'data-visited').sort(), [ask, rich, poor, noTax, impossible].sort(), 'another answer, another path')
})

t.test('without answers the run stops at the question; without run nothing is painted', async (t) => {
  const waiting = await agent.get(`${base}/tree?ruleId=${rule.id}&run=1`)
  t.same(attr(waiting.body, 'data-visited'), [ask])
  t.same(attr(waiting.body, 'data-focus'), [ask], 'the question waiting for an answer is marked')
  const page = await agent.get(`${base}?ruleId=${rule.id}`)
  t.notMatch(page.body, 'class="card debug-results"', 'no result before a run')
  t.same(attr(treeOf(page.body), 'data-visited'), [])
  t.same(attr(treeOf(page.body), 'data-unreachable'), [impossible], 'unreachable nodes show before any run')
})

t.test('the form posts back to the same page (no JavaScript)', async (t) => {
  const res = await agent.postForm(base, { 'ruleId': String(rule.id), 'input.Income': '2000', 'contentType': 'html', 'now': '2024-01-31' }, { page: base })
  t.equal(res.statusCode, 200)
  t.match(res.body, /<div class="debug-headline"><div class="debug-body"><p>Tax is <span class="var-chip" data-kind="variable" data-var="Tax">400<\/span><\/p>/, 'html content is rendered as html')
  t.match(res.body, `href="${base}?ruleId=${rule.id}&amp;input.Income=2000&amp;now=2024-01-31&amp;contentType=html&amp;run=1"`)
  t.same(attr(treeOf(res.body), 'data-visited').sort(), [ask, rich, assign, taxAdvice, poor, impossible].sort())
  const badNow = await agent.postForm(base, { ruleId: String(rule.id), now: 'someday' })
  t.equal(badNow.statusCode, 400)
  t.match(badNow.body, 'now: must be a date and time.')
  t.equal((await agent.request({ method: 'POST', url: base, form: { ruleId: String(rule.id) } })).statusCode, 403, 'the form needs its CSRF token')
})

t.test('without ruleId the whole set runs, called rules included', async (t) => {
  const { rule: helper, nodes: helperNodes } = await buildRule(db, set.id, 'Helper', [{ type: 'advice', headline: 'From the helper' }])
  const { rule: caller, nodes: callerNodes } = await buildRule(db, set.id, 'Caller', [{ type: 'ruleCall', calledRuleId: helper.id }])
  const whole = await agent.get(`${base}?input.Income=10&run=1`)
  t.match(whole.body, /No tax[\s\S]*From the helper[\s\S]*From the helper/, 'every rule runs in order (Helper, then again through Caller)')
  const visited = attr(treeOf(whole.body), 'data-visited')
  t.ok(visited.includes(String(helperNodes[0]!.id)) && visited.includes(String(callerNodes[0]!.id)) && visited.includes(ask))
  t.match(whole.body, /<h1>Debug the whole advice set<\/h1>/)

  const one = await agent.get(`${base}/tree?ruleId=${caller.id}&run=1`)
  t.same([...one.body.matchAll(/<section class="debug-rule" data-rule-id="(\d+)"/g)].map((m) => m[1]), [String(caller.id), String(helper.id)], 'the called rule is drawn after the caller')
  t.match(one.body, /<span class="debug-called">called<\/span>/)
  t.same(attr(one.body, 'data-visited').sort(), [String(callerNodes[0]!.id), String(helperNodes[0]!.id)].sort(), 'its nodes are painted too')
})
