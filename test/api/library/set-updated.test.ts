// Issue 23 defect 7: an advice set's "Updated" (its row, the set page, the library's cards and sort) moves with every
// change to its content — rules, nodes, scenarios, versions and supplement links — and names who made it.
import t from 'tap'
import { eq } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent } from '../../helpers/agent.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { buildRule } from '../../helpers/rules.ts'
import { adviceSets } from '../../../src/db/schema/index.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const ownerId = await createOwner(db, { name: 'Acme' })
const author = await createUser(db, { ownerId, role: 'author', name: 'Ada Author' })
const agent = await signedInAgent(app, author)

const edited = await createAdviceSet(db, { ownerId, name: 'Edited set' })
const other = await createAdviceSet(db, { ownerId, name: 'Untouched set' })
const { rule, nodes: [advice, spare] } = await buildRule(db, edited.id, 'Eligibility', [
  { type: 'advice', headline: 'Save more' }, { type: 'advice', headline: 'Spare advice' },
])
const linkable = await agent.api('POST', '/api/supplements', { url: 'https://example.com/guide', name: 'Guide' })
const supplementId = linkable.json().data.id as number

const LONG_AGO = new Date('2020-01-01T00:00:00Z')
const LATER = new Date('2021-01-01T00:00:00Z')

async function setRow(id: number) {
  const [row] = await db.select({ updatedAt: adviceSets.updatedAt, updatedBy: adviceSets.updatedBy }).from(adviceSets).where(eq(adviceSets.id, id))
  return row!
}

/** Each change, through the API as the author would make it, with the status it answers. */
const CHANGES: Array<[string, () => ReturnType<typeof agent.api>, number]> = [
  ['a rule is added', () => agent.api('POST', '/api/rule', { adviceSetId: edited.id, name: 'Another rule' }), 201],
  ['a rule is renamed', () => agent.api('PATCH', `/api/rule/${rule.id}`, { name: 'Eligibility rules' }), 200],
  ['a node is added', () => agent.api('POST', `/api/rule/${rule.id}/node`, { type: 'advice', headline: 'New advice' }), 201],
  ['a node is edited', () => agent.api('PATCH', `/api/rule/${rule.id}/node/${advice!.id}`, { headline: 'Save much more' }), 200],
  ['a node is deleted', () => agent.api('DELETE', `/api/rule/${rule.id}/node/${spare!.id}`), 200],
  ['a scenario is saved', () => agent.api('POST', '/api/advicescenario', { adviceSetId: edited.id, name: 'First scenario' }), 201],
  ['a version is created', () => agent.api('POST', '/api/adviceset/publish', { action: 'create', adviceSetId: String(edited.id) }), 201],
  ['a supplement is linked to the set', () => agent.api('POST', `/api/supplements/${supplementId}/link`, { targetType: 'adviceSet', targetId: edited.id }), 200],
  ['a supplement is linked to one of its nodes', () => agent.api('POST', `/api/supplements/${supplementId}/link`, { targetType: 'ruleNode', targetId: advice!.id }), 200],
  ['a supplement is unlinked from the set', () => agent.api('POST', `/api/supplements/${supplementId}/unlink`, { targetType: 'adviceSet', targetId: edited.id }), 200],
]

for (const [what, change, status] of CHANGES) {
  t.test(`"Updated" moves when ${what}`, async (t) => {
    await db.update(adviceSets).set({ updatedAt: LONG_AGO, updatedBy: null }).where(eq(adviceSets.id, edited.id))
    await db.update(adviceSets).set({ updatedAt: LATER }).where(eq(adviceSets.id, other.id))
    const before = Date.now()
    const res = await change()
    t.equal(res.statusCode, status, res.body.slice(0, 300))

    const row = await setRow(edited.id)
    t.ok(row.updatedAt.getTime() >= before - 1000, `the set is updated now (${row.updatedAt.toISOString()})`)
    t.equal(row.updatedBy, author.id, 'by the author')
    t.same(await setRow(other.id), { updatedAt: LATER, updatedBy: null }, 'another set is left as it was')

    const page = await agent.get(`/adviceset/${edited.id}/show`)
    t.match(page.body, new RegExp(`<dt>Updated</dt>\\s*<dd><time datetime="${row.updatedAt.toISOString()}" data-moment>[^<]+</time> by Ada Author</dd>`), 'the set page says when and who')
    const library = (await agent.get('/library')).body
    t.ok(library.indexOf('Edited set') !== -1 && library.indexOf('Edited set') < library.indexOf('Untouched set'), 'the library, sorted by Updated, lists it first')
  })
}
