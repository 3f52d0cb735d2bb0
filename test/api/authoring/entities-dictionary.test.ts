// Issue 5: the dictionary API — name rule, rights, 221 listing the uses, typeahead, parse and match, expand, copy,
// entity types; every write leaves one activity row.
import t from 'tap'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInTeam } from '../../helpers/team.ts'
import { activityRows } from '../../helpers/activity.ts'
import { createOwner } from '../../helpers/factories.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { buildRule, createFormula, createVariable } from '../../helpers/rules.ts'
import { DEPENDENTS_LISTED } from '../../../src/services/authoring/dependents.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const { ownerId, stranger, agent, viewerAgent, strangerAgent } = await signedInTeam(app, db)

const rowsFor = (id: number) => activityRows(db, 'entity', id)

t.test('create and update with the name rule; one activity row per write', async (t) => {
  const created = await agent.api('POST', '/api/entity', { reservedName: 'Age', dataType: 'number', description: 'Age in years' })
  t.equal(created.statusCode, 201)
  const age = created.json().data
  t.match(age, { reservedName: 'Age', entityTypeId: 12, dataType: 'number', ownerId })
  const formula = await agent.api('POST', '/api/entity', { reservedName: '2x_Age?', entityTypeId: 5, expression: '{{Age}} * 2' })
  t.equal(formula.statusCode, 201, 'a name may start with a digit and contain _ and ?')
  for (const [name, message] of [
    ['_Age', /^reservedName: names start with a letter or digit/], ['Age-2', /^reservedName: names start/], ['Context', /^reservedName: Context is a reserved system name/], ['', /^reservedName: a name is required/],
  ] as const) {
    const res = await agent.api('POST', '/api/entity', { reservedName: name })
    t.equal(res.statusCode, 400, `"${name}" is refused`)
    t.match(res.json().error.message, message)
  }
  t.equal((await agent.api('POST', '/api/entity', { reservedName: 'age' })).statusCode, 409, 'names are unique per owner regardless of case')
  const badFormula = await agent.api('POST', '/api/entity', { reservedName: 'Broken', entityTypeId: 5, expression: '{{Age}} *' })
  t.equal(badFormula.statusCode, 400)
  t.equal(badFormula.json().error.field, 'expression')
  t.ok(badFormula.json().error.position, 'with the position')
  t.match((await agent.api('POST', '/api/entity', { reservedName: 'X', dataType: 'colour' })).json().error.message, /^dataType: /)
  const badDefault = await agent.api('POST', '/api/entity', { reservedName: 'Years', dataType: 'number', defaultValue: 'many' })
  t.equal(badDefault.statusCode, 400)
  t.match(badDefault.json().error.message, /^defaultValue: /)
  t.equal((await agent.api('POST', '/api/entity', { reservedName: 'Years', dataType: 'number', defaultValue: '12' })).statusCode, 201, 'a default the type accepts')
  t.match((await agent.api('PATCH', `/api/entity/${age.id}`, { dataType: 'date', defaultValue: 'soon' })).json().error.message, /^defaultValue: /)
  const updated = await agent.api('PATCH', `/api/entity/${age.id}`, { description: 'Age at last birthday', validOptions: ['18', '65'], isClosedSet: true })
  t.equal(updated.statusCode, 200)
  t.equal(updated.json().data.entity.description, 'Age at last birthday')
  const rows = await rowsFor(age.id)
  t.same(rows.map((r) => r.action), ['create', 'update'])
  t.match(rows[1]!.before, { description: 'Age in years', isClosedSet: false })
  t.match(rows[1]!.after, { description: 'Age at last birthday', isClosedSet: true })
  const shown = (await agent.api('GET', `/api/entity/${age.id}`)).json().data
  t.match(shown, { kind: 'variable', canWrite: true, entityType: { displayName: 'Variable' } })
})

t.test('rights', async (t) => {
  const own = await createVariable(db, ownerId, 'Secret_Var')
  t.equal((await strangerAgent.api('GET', `/api/entity/${own.id}`)).statusCode, 404)
  t.equal((await strangerAgent.api('PATCH', `/api/entity/${own.id}`, { description: 'x' })).statusCode, 404)
  t.equal((await viewerAgent.api('GET', `/api/entity/${own.id}`)).statusCode, 200)
  t.equal((await viewerAgent.api('PATCH', `/api/entity/${own.id}`, { description: 'x' })).statusCode, 403)
  t.equal((await viewerAgent.api('DELETE', `/api/entity/${own.id}`)).statusCode, 403)
  t.equal((await viewerAgent.api('POST', '/api/entity', { reservedName: 'Nope' })).statusCode, 403)
  const provider = await createVariable(db, 'TF', `Provider_${Date.now()}`)
  t.equal((await strangerAgent.api('GET', `/api/entity/${provider.id}`)).statusCode, 200, 'provider entries are readable')
  t.equal((await strangerAgent.api('DELETE', `/api/entity/${provider.id}`)).statusCode, 403, 'but not writable')
  const copy = await strangerAgent.api('POST', `/api/entity/${provider.id}/copy`, { reservedName: 'My_Copy' })
  t.equal(copy.statusCode, 201, 'anyone who can read an entry can copy it into their own dictionary')
  t.equal(copy.json().data.ownerId, stranger.ownerId)
  t.equal((await rowsFor(own.id)).length, 0, 'refused writes leave nothing')
})

t.test('a variable in use cannot be deleted: 221 with the uses', async (t) => {
  const set = await createAdviceSet(db, { ownerId, name: 'Loans' })
  const used = await createVariable(db, ownerId, 'Loan_Amount')
  const { rule, nodes } = await buildRule(db, set.id, 'Check', [{ type: 'condition', expression: '{{Loan_Amount}} > 5' }])
  const res = await agent.api('DELETE', `/api/entity/${used.id}`)
  t.equal(res.statusCode, 221)
  t.equal(res.json().error.name, 'Delete Not Allowed')
  t.same(res.json().error.dependents, [{ type: 'rulenode', id: nodes[0]!.id, name: 'Loans › Check', uri: `/adviceset/${set.id}/rule/${rule.id}/part/${nodes[0]!.id}` }])
  t.equal((await rowsFor(used.id)).length, 0)
  const unused = await createVariable(db, ownerId, 'Unused_Var')
  t.equal((await agent.api('DELETE', `/api/entity/${unused.id}`)).statusCode, 200)
  t.equal((await agent.api('GET', `/api/entity/${unused.id}`)).statusCode, 404)
  t.same((await rowsFor(unused.id)).map((r) => r.action), ['delete'])
})

t.test('a variable used more often than a refusal lists: the first ones, and it says there are more', async (t) => {
  const set = await createAdviceSet(db, { ownerId, name: 'Many' })
  const many = await createVariable(db, ownerId, 'Many_Uses')
  await buildRule(db, set.id, 'Uses', Array.from({ length: DEPENDENTS_LISTED + 5 }, (_, i) => ({ type: 'condition' as const, expression: `{{Many_Uses}} > ${i}` })))
  const res = await agent.api('DELETE', `/api/entity/${many.id}`)
  t.equal(res.statusCode, 221)
  const error = res.json().error as { dependents: unknown[]; more?: boolean; message: string }
  t.equal(error.dependents.length, DEPENDENTS_LISTED)
  t.equal(error.more, true)
  t.match(error.message, `{{Many_Uses}} cannot be deleted while these ${DEPENDENTS_LISTED} and more depend on it.`)
  t.same((await agent.api('GET', `/api/entity/${many.id}/used`)).json().data, { used: true, count: DEPENDENTS_LISTED + 5 }, 'the count is whole')
  t.equal((await agent.api('GET', `/api/entity/${many.id}`)).statusCode, 200, 'not deleted')
})

t.test('the uses list comes in pages: nodes in id order, then formulas, each page after the last use shown', async (t) => {
  const set = await createAdviceSet(db, { ownerId, name: 'Paged' })
  const paged = await createVariable(db, ownerId, 'Paged_Var')
  const { nodes } = await buildRule(db, set.id, 'Uses', Array.from({ length: 5 }, (_, i) => ({ type: 'condition' as const, expression: `{{Paged_Var}} > ${i}` })))
  const first = await createFormula(db, ownerId, 'Paged_Twice', '{{Paged_Var}} * 2')
  const second = await createFormula(db, ownerId, 'Paged_Thrice', '{{Paged_Var}} * 3')
  const everything = [...nodes.map((n) => `rulenode:${n.id}`), `entity:${first.id}`, `entity:${second.id}`]
  const whole = (await agent.api('GET', `/api/entity/${paged.id}/list-uses`)).json()
  t.same(whole.data.map((u: { type: string; id: number }) => `${u.type}:${u.id}`), everything, 'one page holds them all by default')
  t.equal(whole.next, null)
  const seen: string[] = []
  const nexts: string[] = []
  for (let after: string | null = '', pages = 0; after !== null && pages < 10; pages++) {
    const res = await agent.api('GET', `/api/entity/${paged.id}/list-uses?limit=2${after ? `&after=${after}` : ''}`)
    t.equal(res.statusCode, 200)
    const page = res.json() as { data: { type: string; id: number }[]; next: string | null }
    t.ok(page.data.length <= 2)
    seen.push(...page.data.map((u) => `${u.type}:${u.id}`))
    after = page.next
    if (after !== null) nexts.push(after)
  }
  t.same(seen, everything, 'the pages together list each use once, in order')
  t.same(nexts, [everything[1], everything[3], everything[5]], 'a page ends where the next starts; the last says null')
  const bad = await agent.api('GET', `/api/entity/${paged.id}/list-uses?after=node-7`)
  t.equal(bad.statusCode, 400)
  t.equal(bad.json().error.field, 'after')
  t.match(bad.json().error.message, /^after: give the type and id of the last use shown/)
  const tooMany = await agent.api('GET', `/api/entity/${paged.id}/list-uses?limit=5000`)
  t.equal(tooMany.statusCode, 400)
  t.match(tooMany.json().error.message, /limit/)
})

t.test('a page of a provider entry’s uses skips what the reader may not see and is still full', async (t) => {
  const shared = await createVariable(db, 'TF', 'Paged_Shared')
  const otherOwner = await createOwner(db, { name: 'Delta' })
  const hidden = await buildRule(db, (await createAdviceSet(db, { ownerId: otherOwner, name: 'Delta private' })).id, 'Hidden', [
    { type: 'condition', expression: '{{Paged_Shared}} > 1' }, { type: 'condition', expression: '{{Paged_Shared}} > 2' },
  ])
  const mine = await buildRule(db, (await createAdviceSet(db, { ownerId, name: 'Mine' })).id, 'Mine', [
    { type: 'condition', expression: '{{Paged_Shared}} > 3' }, { type: 'condition', expression: '{{Paged_Shared}} > 4' },
  ])
  t.ok(hidden.nodes[0]!.id < mine.nodes[0]!.id, 'the hidden uses come first in id order')
  const page = (await agent.api('GET', `/api/entity/${shared.id}/list-uses?limit=1`)).json()
  t.same(page.data.map((u: { id: number }) => u.id), [mine.nodes[0]!.id], 'the first use the reader may see')
  t.equal(page.next, `rulenode:${mine.nodes[0]!.id}`)
  const last = (await agent.api('GET', `/api/entity/${shared.id}/list-uses?limit=1&after=${page.next}`)).json()
  t.same(last.data.map((u: { id: number }) => u.id), [mine.nodes[1]!.id])
  t.equal(last.next, null)
})

t.test('typeahead, text search, parse, parse/match, expand, types', async (t) => {
  const set = await createAdviceSet(db, { ownerId })
  await createVariable(db, ownerId, 'Salary')
  await createVariable(db, ownerId, 'Savings')
  await createFormula(db, ownerId, 'Net', '{{Salary}} - [[Costs]]')
  await createFormula(db, ownerId, 'Costs', '{{Savings}} / 2')
  const ahead = (await agent.api('GET', '/api/entity/typeahead?q=Sa&kind=variable')).json().data
  t.same(ahead.map((e: { tag: string }) => e.tag), ['{{Salary}}', '{{Savings}}'])
  t.same((await agent.api('GET', `/api/entity/typeahead/classic?q=ne&adviceSetId=${set.id}`)).json().data, ['[[Net]]'])
  t.same((await agent.api('GET', '/api/entity/text-search?q=alar')).json().data.map((e: { reservedName: string }) => e.reservedName), ['Salary'])
  t.same((await strangerAgent.api('GET', '/api/entity/typeahead?q=Sa')).json().data, [], 'others do not see them')

  const ok = (await agent.api('GET', `/api/entity/parse?content=${encodeURIComponent('{{Salary}} > [[Net]]')}`)).json().data
  t.match(ok, { ok: true, variables: ['Salary'], formulas: ['Net'] })
  const bad = (await agent.api('GET', `/api/entity/parse?content=${encodeURIComponent('{{Salary}} += 1')}`)).json().data
  t.match(bad, { ok: false, error: { position: { start: 11 } } })
  const match = (await agent.api('GET', `/api/entity/parse/match?content=${encodeURIComponent('{{Salary}} > {{Bonus}} && [[Net]] > 0')}&adviceSetId=${set.id}`)).json().data
  t.same(match.matched.map((m: { name: string }) => m.name), ['Salary', 'Net'])
  t.same(match.unknown, [{ name: 'Bonus', kind: 'variable' }])

  const net = (await agent.api('GET', '/api/entity/typeahead?q=Net')).json().data[0]
  t.equal((await agent.api('GET', `/api/entity/${net.id}/expand`)).json().data.expanded, '{{Salary}} - ({{Savings}} / 2)')

  const types = (await agent.api('GET', '/api/entity/type/index')).json().data
  t.equal(types.length, 13)
  t.same((await agent.api('GET', '/api/entity/type/12')).json().data.displayName, 'Variable')
  t.same((await agent.api('GET', '/api/entity/type/typeahead?q=cond')).json().data.map((x: { id: number }) => x.id), [3, 4])
  t.equal((await agent.api('GET', '/api/entity/type/99')).statusCode, 404)
})

t.test('uses of a provider entry: each owner sees only the uses in sets it may read', async (t) => {
  const shared = await createVariable(db, 'TF', 'Shared_Rate')
  const otherOwner = await createOwner(db, { name: 'Beta' })
  const privateSet = await createAdviceSet(db, { ownerId: otherOwner, name: 'Beta private plans' })
  const publicSet = await createAdviceSet(db, { ownerId: otherOwner, name: 'Beta public plans', isPublic: true })
  await buildRule(db, privateSet.id, 'Secret rule', [{ type: 'condition', expression: '{{Shared_Rate}} > 1' }])
  const open = await buildRule(db, publicSet.id, 'Open rule', [{ type: 'condition', expression: '{{Shared_Rate}} > 2' }])
  const mine = await buildRule(db, (await createAdviceSet(db, { ownerId, name: 'Acme plans' })).id, 'My rule', [{ type: 'condition', expression: '{{Shared_Rate}} > 3' }])
  const res = await agent.api('GET', `/api/entity/${shared.id}/list-uses`)
  t.equal(res.statusCode, 200)
  const ids = res.json().data.map((use: { id: number }) => use.id).sort((a: number, b: number) => a - b)
  t.same(ids, [open.nodes[0]!.id, mine.nodes[0]!.id].sort((a, b) => a - b), 'own and public uses, not the other owner’s private one')
  t.notMatch(JSON.stringify(res.json()), 'Secret rule')
  t.equal((await agent.api('GET', `/api/entity/${shared.id}/used`)).json().data.count, 2)
})

t.test('an entry kept for another owner’s public set can be read, not changed; one of a private set stays hidden', async (t) => {
  const otherOwner = await createOwner(db, { name: 'Gamma' })
  const publicSet = await createAdviceSet(db, { ownerId: otherOwner, isPublic: true })
  const privateSet = await createAdviceSet(db, { ownerId: otherOwner })
  const shown = await createVariable(db, otherOwner, 'Public_Rate', { adviceSetId: publicSet.id })
  const hidden = await createVariable(db, otherOwner, 'Private_Rate', { adviceSetId: privateSet.id })
  const read = await agent.api('GET', `/api/entity/${shown.id}`)
  t.equal(read.statusCode, 200)
  t.equal(read.json().data.canWrite, false)
  t.equal((await agent.api('PATCH', `/api/entity/${shown.id}`, { description: 'mine now' })).statusCode, 403)
  t.equal((await agent.api('GET', `/api/entity/${hidden.id}`)).statusCode, 404)
  t.equal((await agent.get(`/card/variable/${shown.id}`)).statusCode, 200, 'its card opens, as search links to it')
})

t.test('issue 24: names of one set are unique in that set; an owner-wide name in the whole owner', async (t) => {
  const first = await createAdviceSet(db, { ownerId })
  const second = await createAdviceSet(db, { ownerId })
  const make = (body: Record<string, unknown>) => agent.api('POST', '/api/entity', { dataType: 'date', ...body })
  t.equal((await make({ reservedName: 'Birth_Date', adviceSetId: first.id })).statusCode, 201)
  const other = await make({ reservedName: 'birth_date', adviceSetId: second.id })
  t.equal(other.statusCode, 201, 'another set of the owner may hold the name (a copy of a set does)')
  const twice = await make({ reservedName: 'BIRTH_DATE', adviceSetId: first.id })
  t.equal(twice.statusCode, 409, 'one set holds a name once')
  t.match(twice.json().error.message, 'reservedName: BIRTH_DATE is already in the dictionary.')
  t.equal((await make({ reservedName: 'Birth_Date' })).statusCode, 409, 'an owner-wide entry would meet the sets’ own')
  t.equal((await make({ reservedName: 'Pension_Pot' })).statusCode, 201)
  t.equal((await make({ reservedName: 'pension_pot', adviceSetId: first.id })).statusCode, 409, 'a set’s entry may not hide an owner-wide one')
  const moved = await agent.api('PATCH', `/api/entity/${other.json().data.id}`, { adviceSetId: first.id })
  t.equal(moved.statusCode, 409, 'nor may an entry move into a set that holds its name')
  t.equal((await agent.api('PATCH', `/api/entity/${other.json().data.id}`, { adviceSetId: null })).statusCode, 409, 'or become owner-wide while a set holds it')
})
