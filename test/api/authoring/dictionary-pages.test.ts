// Issue 5 points 5 and 6: the dictionary pages and entity cards — what each user may read and change, form errors
// that name the field and keep the typed text, the 221 refusal listing the uses, where-used counts and links.
import t from 'tap'
import { eq } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { buildRule, createFormula, createVariable } from '../../helpers/rules.ts'
import { entities, ruleNodes } from '../../../src/db/schema/index.ts'
import { insertEntity } from '../../../src/db/queries/entities.ts'
import { ENTITY_TYPES } from '../../../src/engine/index.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
await createOwner(db, { id: 'TF', name: 'Advice Studio' })
const ownerId = await createOwner(db, { name: 'Acme' })
const author = await createUser(db, { ownerId, role: 'author' })
const viewer = await createUser(db, { ownerId, role: 'viewer' })
const stranger = await createUser(db, { role: 'author' })
const authorAgent = await signedInAgent(app, author)
const viewerAgent = await signedInAgent(app, viewer)
const strangerAgent = await signedInAgent(app, stranger)

const set = await createAdviceSet(db, { ownerId, name: 'Loans' })
const otherSet = await createAdviceSet(db, { ownerId, name: 'Savings' })
const income = await createVariable(db, ownerId, 'Income')
const rate = await createVariable(db, ownerId, 'Rate', { adviceSetId: otherSet.id })
const unused = await createVariable(db, ownerId, 'Unused_Thing')
const tax = await createFormula(db, ownerId, 'Tax', '{{Income}} * [[Share]]')
const share = await createFormula(db, ownerId, 'Share', '0.2')
const providerEntry = await createVariable(db, 'TF', 'Country')
const strangersEntry = await createVariable(db, stranger.ownerId, 'Secret_Sauce')
const { rule, nodes } = await buildRule(db, set.id, 'Eligibility', [
  { type: 'inputRequest', variable: 'Income', question: 'What is your income?' },
  { type: 'condition', expression: 'Income > 1000 && {{Country}} == "NL"', children: [
    { type: 'advice', headline: 'High', text: 'With {{Income}} you pay [[Tax]].' },
  ] },
  { type: 'variableAssignment', expression: 'Rate = 2' },
  { type: 'condition', expression: '{{Income}} >', children: [] },
])
const { nodes: otherNodes } = await buildRule(db, otherSet.id, 'Interest', [{ type: 'condition', expression: '{{Rate}} > 1 && {{Income}} > 0' }])

const rowOf = (html: string, id: number) => new RegExp(`<tr data-entity-row="${id}">([\\s\\S]*?)</tr>`).exec(html)?.[1]

t.test('the dictionary lists the own and provider entries with kind, data type, set and uses', async (t) => {
  const res = await authorAgent.get('/admin/dictionary')
  t.equal(res.statusCode, 200)
  t.match(res.body, '<main data-page="entity-page">')
  for (const entry of [income, rate, unused, tax, share, providerEntry]) t.ok(rowOf(res.body, entry.id), `row of ${entry.reservedName}`)
  t.notOk(rowOf(res.body, strangersEntry.id), 'another owner’s entries are not shown')
  const incomeRow = rowOf(res.body, income.id)!
  t.match(incomeRow, `<a href="/card/variable/${income.id}" data-entity-id="${income.id}" data-entity-name="Income">Income</a>`)
  t.match(incomeRow, '<td data-cell="dataType">Number</td>')
  t.match(incomeRow, '<td data-cell="set">All</td>')
  t.match(incomeRow, '<td data-cell="uses">6</td>', 'the question, the bare condition, the advice text, the unparsable condition (by its tag), the other set’s condition and the Tax formula')
  t.match(rowOf(res.body, rate.id)!, '<td data-cell="set">Savings</td>')
  t.match(rowOf(res.body, rate.id)!, '<td data-cell="uses">1</td>', 'only uses in its own set count')
  t.match(rowOf(res.body, tax.id)!, '<td data-cell="kind">Formula</td>')
  t.match(res.body, 'href="/card/variable" data-card-open="new" data-kind="variable">New variable</a>')
  t.match(res.body, `href="/card/variable/${income.id}/edit" data-card-open="${income.id}"`)
  t.notMatch(res.body, `href="/card/variable/${providerEntry.id}/edit"`, 'provider entries are read-only for other owners')
  t.match(res.body, 'data-island="dictionary-dialog"')
})

t.test('signing in is required', async (t) => {
  const res = await app.inject({ method: 'GET', url: '/admin/dictionary' })
  t.equal(res.statusCode, 302)
  t.equal(res.headers.location, '/login?next=%2Fadmin%2Fdictionary')
  t.equal((await app.inject({ method: 'GET', url: `/card/variable/${income.id}` })).statusCode, 302)
})

t.test('viewers read the dictionary and cards but cannot add or change', async (t) => {
  const res = await viewerAgent.get('/admin/dictionary')
  t.equal(res.statusCode, 200)
  t.ok(rowOf(res.body, income.id))
  t.notMatch(res.body, 'New variable')
  t.notMatch(res.body, '/edit"')
  t.notMatch(res.body, 'data-island="dictionary-dialog"', 'no editing code for readers')
  t.equal((await viewerAgent.get(`/card/variable/${income.id}`)).statusCode, 200)
  t.equal((await viewerAgent.get('/card/variable')).statusCode, 403)
  t.equal((await viewerAgent.get(`/card/variable/${income.id}/edit`)).statusCode, 403)
  t.equal((await viewerAgent.postForm(`/card/variable/${income.id}/edit`, { reservedName: 'Hacked' }, { page: '/admin/dictionary' })).statusCode, 403)
  t.equal((await viewerAgent.postForm(`/card/variable/${unused.id}/delete`, {})).statusCode, 403)
  t.equal((await viewerAgent.postForm('/card/variable', { reservedName: 'Nope' })).statusCode, 403)
  const [row] = await db.select().from(entities).where(eq(entities.id, income.id))
  t.equal(row!.reservedName, 'Income', 'nothing changed')
})

t.test('other owners’ entries are not found; provider entries are readable but not editable', async (t) => {
  t.equal((await strangerAgent.get(`/card/variable/${income.id}`)).statusCode, 404)
  t.equal((await strangerAgent.get(`/card/variable/${income.id}/edit`)).statusCode, 404)
  t.equal((await authorAgent.get(`/card/variable/${strangersEntry.id}`)).statusCode, 404)
  t.equal((await authorAgent.get('/card/rule')).statusCode, 404, 'cards exist for variables and formulas only')
  const card = await authorAgent.get(`/card/variable/${providerEntry.id}`)
  t.equal(card.statusCode, 200)
  t.match(card.body, 'Advice Studio', 'names the provider as owner')
  t.notMatch(card.body, 'Delete Country')
  t.equal((await authorAgent.get(`/card/variable/${providerEntry.id}/edit`)).statusCode, 403)
})

t.test('filters: kind, advice set (the dictionary that set sees) and text', async (t) => {
  const formulas = await authorAgent.get('/admin/dictionary?kind=formula')
  t.ok(rowOf(formulas.body, tax.id))
  t.notOk(rowOf(formulas.body, income.id))
  const loans = await authorAgent.get(`/admin/dictionary?set=${set.id}&kind=`)
  t.ok(rowOf(loans.body, income.id), 'general entries')
  t.ok(rowOf(loans.body, providerEntry.id), 'provider entries')
  t.notOk(rowOf(loans.body, rate.id), 'not another set’s entries')
  const text = await authorAgent.get('/admin/dictionary?q=sauce')
  t.match(text.body, 'Nothing in the dictionary matches these filters.', 'another owner’s entry is not found by text either')
  t.equal((await authorAgent.get(`/admin/dictionary?set=${(await createAdviceSet(db, { ownerId: stranger.ownerId })).id}`)).statusCode, 404)
})

t.test('the card shows the fields and every use, linked to the node in its rule', async (t) => {
  const res = await authorAgent.get(`/card/variable/${income.id}`)
  t.equal(res.statusCode, 200)
  t.match(res.body, `<span data-entity-id="${income.id}" data-entity-name="Income">Income</span>`)
  t.match(res.body, 'Where used (6)')
  for (const node of [nodes[0]!, nodes[1]!, nodes[2]!, nodes[4]!]) t.match(res.body, `href="/adviceset/${set.id}/rule/${rule.id}/part/${node.id}"`)
  t.match(res.body, `href="/adviceset/${otherSet.id}/rule/${otherNodes[0]!.ruleId}/part/${otherNodes[0]!.id}"`)
  t.match(res.body, `<a href="/card/formula/${tax.id}">[[Tax]]</a>`)
  const formula = await authorAgent.get(`/card/formula/${tax.id}`)
  t.match(formula.body, '<code class="entity-card__expression" data-formula-box>{{Income}} * [[Share]]</code>')
  const fragment = await authorAgent.get(`/card/formula/${tax.id}?fragment=1`)
  t.match(fragment.body, /^\s*<section class="entity-card-fragment" data-fragment="entity-card">/, 'a fragment for modals')
  t.notMatch(fragment.body, /<main\b|<html\b/)
  const edit = await authorAgent.get(`/card/formula/${tax.id}/edit?fragment=1`)
  t.match(edit.body, 'action="/card/formula/' + tax.id + '/edit"')
})

t.test('the where-used counts agree with the API’s list-uses for every own entry', async (t) => {
  const res = await authorAgent.get('/admin/dictionary')
  for (const entry of [income, rate, unused, tax, share]) {
    const uses = (await authorAgent.api('GET', `/api/entity/${entry.id}/list-uses`)).json().data
    t.match(rowOf(res.body, entry.id)!, `<td data-cell="uses">${uses.length}</td>`, `${entry.reservedName}: ${uses.length}`)
  }
})

t.test('the full list sorts, pages and links each use', async (t) => {
  const res = await authorAgent.get('/admin/dictionary/list?sort=uses&dir=desc')
  t.equal(res.statusCode, 200)
  const order = [...res.body.matchAll(/<tr data-entity-row="(\d+)">/g)].map((m) => Number(m[1]))
  t.equal(order[0], income.id, 'the most used first')
  t.match(res.body, `<a href="/adviceset/${set.id}/rule/${rule.id}/part/${nodes[2]!.id}">Loans › Eligibility</a>`)
  t.match(res.body, 'aria-sort="descending"><a href="/admin/dictionary/list?sort=uses">Where used</a>', 'the header link turns the order around')
  const byName = await authorAgent.get('/admin/dictionary/list')
  const names = [...byName.body.matchAll(/data-entity-name="([^"]+)"/g)].map((m) => m[1])
  t.same(names, [...names].sort((a, b) => a!.toLowerCase().localeCompare(b!.toLowerCase())), 'by name by default')

  const many = await createOwner(db)
  const bulk = await createUser(db, { ownerId: many })
  for (let i = 0; i < 55; i++) await createVariable(db, many, `V${String(i).padStart(2, '0')}`)
  const bulkAgent = await signedInAgent(app, bulk)
  const second = await bulkAgent.get('/admin/dictionary/list?page=2')
  t.match(second.body, 'page 2 of 2')
  t.equal([...second.body.matchAll(/<tr data-entity-row=/g)].length, 55 + 1 - 50, 'the rest, with the provider’s entry')
})

t.test('a new entry: the name rule names the field and keeps what was typed; a good one opens its card', async (t) => {
  const form = await authorAgent.get('/card/formula')
  t.equal(form.statusCode, 200)
  t.match(form.body, 'data-island="dictionary-editor"')
  const bad = await authorAgent.postForm('/card/formula', { kind: 'formula', reservedName: '_Bad name', expression: '1 + 1', description: 'Kept text' })
  t.equal(bad.statusCode, 400)
  t.match(bad.body, 'reservedName: names start with a letter or digit, then contain only letters, digits, _ or ?.')
  t.match(bad.body, 'id="f-reservedName-error"')
  t.match(bad.body, 'value="_Bad name"')
  t.match(bad.body, '>Kept text</textarea>')
  t.match(bad.body, '>1 + 1</textarea>')
  const noExpression = await authorAgent.postForm('/card/formula', { kind: 'formula', reservedName: 'Total' })
  t.equal(noExpression.statusCode, 400)
  t.match(noExpression.body, 'id="f-expression-error">expression: a formula needs the expression that computes it.')
  const taken = await authorAgent.postForm('/card/variable', { kind: 'variable', reservedName: 'income' })
  t.equal(taken.statusCode, 409)
  t.match(taken.body, 'reservedName: income is already in the dictionary.')
  const badDefault = await authorAgent.postForm('/card/variable', { kind: 'variable', reservedName: 'Age', dataType: 'number', defaultValue: 'old' })
  t.equal(badDefault.statusCode, 400)
  t.match(badDefault.body, 'id="f-defaultValue-error">defaultValue:')

  const good = await authorAgent.postForm('/card/variable', {
    kind: 'variable', reservedName: 'Loan_Term', dataType: 'select', validOptions: '10 years\r\n20 years\r\n', isClosedSet: 'true',
    displayFormat: '', defaultValue: '', description: 'Years to repay', adviceSetId: String(set.id),
  })
  t.equal(good.statusCode, 303)
  const [row] = await db.select().from(entities).where(eq(entities.reservedName, 'Loan_Term'))
  t.equal(good.headers.location, `/card/variable/${row!.id}`)
  t.match(row, { ownerId, adviceSetId: set.id, dataType: 'select', validOptions: ['10 years', '20 years'], isClosedSet: true, isConstant: false, defaultValue: null, expression: null })
  const card = await authorAgent.get(good.headers.location as string)
  t.match(card.body, 'Variable Loan_Term added to the dictionary.')
  t.match(card.body, '<li>20 years</li>')
})

t.test('editing through the page form renames every use; errors keep what was typed', async (t) => {
  const entry = await createVariable(db, ownerId, 'Balance')
  const { nodes: [node] } = await buildRule(db, set.id, 'Balance rule', [{ type: 'condition', expression: '{{Balance}} > 0' }])
  const form = await authorAgent.get(`/card/variable/${entry.id}/edit`)
  t.match(form.body, 'value="Balance"')
  const bad = await authorAgent.postForm(`/card/variable/${entry.id}/edit`, { kind: 'variable', reservedName: 'Bad name!', dataType: 'number' })
  t.equal(bad.statusCode, 400)
  t.match(bad.body, 'value="Bad name!"')
  t.match(bad.body, 'reservedName: names start with a letter or digit')
  const good = await authorAgent.postForm(`/card/variable/${entry.id}/edit`, { kind: 'variable', reservedName: 'Account_Balance', dataType: 'number' })
  t.equal(good.statusCode, 303)
  t.equal(good.headers.location, `/card/variable/${entry.id}`)
  const [stored] = await db.select().from(ruleNodes).where(eq(ruleNodes.id, node!.id))
  t.equal(stored!.expression, '{{Account_Balance}} > 0')
  t.match((await authorAgent.get(good.headers.location as string)).body, 'Renamed to Account_Balance; 1 use rewritten.')

  const toFormula = await authorAgent.postForm(`/card/variable/${entry.id}/edit`, { kind: 'formula', reservedName: 'Account_Balance', expression: '100', dataType: 'number' })
  t.equal(toFormula.headers.location, `/card/formula/${entry.id}`)
  t.match((await authorAgent.get(toFormula.headers.location as string)).body, 'This item was changed to a Formula entity.')
  const [switched] = await db.select().from(ruleNodes).where(eq(ruleNodes.id, node!.id))
  t.equal(switched!.expression, '[[Account_Balance]] > 0')
})

t.test('delete: a used entry is refused with "Delete Not Allowed" and its uses; an unused one is deleted', async (t) => {
  const refused = await authorAgent.postForm(`/card/formula/${share.id}/delete`, {})
  t.equal(refused.statusCode, 221)
  t.match(refused.body, 'Delete Not Allowed.')
  t.match(refused.body, '[[Share]] cannot be deleted while this depends on it.')
  t.match(refused.body, `<a href="/card/formula/${tax.id}">[[Tax]]</a>`)
  const [kept] = await db.select().from(entities).where(eq(entities.id, share.id))
  t.equal(kept!.deletedAt, null)

  const deleted = await authorAgent.postForm(`/card/variable/${unused.id}/delete`, {})
  t.equal(deleted.statusCode, 303)
  t.equal(deleted.headers.location, '/admin/dictionary')
  const [gone] = await db.select().from(entities).where(eq(entities.id, unused.id))
  t.not(gone!.deletedAt, null)
  t.equal((await authorAgent.get(`/card/variable/${unused.id}`)).statusCode, 404)
})

t.test('a provider entry’s uses are counted only where no own entry of that name shadows it', async (t) => {
  const shadowOwner = await createOwner(db)
  const shadowUser = await createUser(db, { ownerId: shadowOwner })
  await insertEntity(db, {
    ownerId: shadowOwner, adviceSetId: null, entityTypeId: ENTITY_TYPES.variable.id, reservedName: 'country', dataType: null, validOptions: [],
    isClosedSet: false, displayFormat: null, defaultValue: null, expression: null, isConstant: false, description: '', createdBy: null,
  })
  const shadowSet = await createAdviceSet(db, { ownerId: shadowOwner })
  await buildRule(db, shadowSet.id, 'R', [{ type: 'condition', expression: '{{Country}} == "BE"' }])
  const shadowAgent = await signedInAgent(app, shadowUser)
  const res = await shadowAgent.get('/admin/dictionary')
  t.match(rowOf(res.body, providerEntry.id)!, '<td data-cell="uses">0</td>', 'their own entry is the one they use')
  const mine = await authorAgent.get('/admin/dictionary')
  t.match(rowOf(mine.body, providerEntry.id)!, '<td data-cell="uses">1</td>', 'and another owner’s use is not shown to me')
})
