// Issue 22 finding 6: control characters U+0000–U+001F are refused in names and titles, and in multi-line text
// (descriptions, comments, notes) all but tabs and line breaks, with a 400 naming the field and nothing saved. The
// rule lives in services/validate.ts (requireText/optionalText), so every name the services check is covered; this
// test asks each kind of name through its own route.
import t from 'tap'
import { sql } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { Agent, signedInAgent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { buildRule } from '../../helpers/rules.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const ownerId = await createOwner(db)
const admin = await createUser(db, { ownerId, role: 'admin' })
const agent = await signedInAgent(app, admin)
const set = await createAdviceSet(db, { ownerId, name: 'Pensions' })
const { nodes } = await buildRule(db, set.id, 'Eligibility', [{ type: 'advice', headline: 'You may retire' }])

const rowsOf = <T>(result: unknown): T[] => (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[]
async function rowCount(table: string): Promise<number> {
  return Number(rowsOf<{ n: string }>(await db.execute(sql.raw(`SELECT count(*) AS n FROM ${table}`)))[0]!.n)
}

/** Control characters a name may not hold (NUL is the input guard's, with its own message: see fuzz-routes). */
const CONTROLS = ['\u0001', '\t', '\n', '\r', '\r\n', '\u000b', '\u000c', '\u001b', '\u001f']

interface NameCase { what: string; method: string; url: string; field: string; table: string; body: (value: string) => Record<string, unknown> }
const NAMES: NameCase[] = [
  { what: 'advice set name', method: 'POST', url: '/api/adviceset', field: 'name', table: 'advice_sets', body: (v) => ({ name: v }) },
  { what: 'advice set display name', method: 'POST', url: '/api/adviceset', field: 'nameAlt', table: 'advice_sets', body: (v) => ({ name: 'Fine', nameAlt: v }) },
  { what: 'rule name', method: 'POST', url: '/api/rule', field: 'name', table: 'rules', body: (v) => ({ adviceSetId: set.id, name: v }) },
  { what: 'scenario name', method: 'POST', url: '/api/advicescenario', field: 'name', table: 'advice_scenarios', body: (v) => ({ adviceSetId: set.id, name: v }) },
  { what: 'tag label', method: 'POST', url: '/api/tags', field: 'label', table: 'tags', body: (v) => ({ label: v }) },
  { what: 'category name', method: 'POST', url: '/api/adviceset/category', field: 'name', table: 'advice_categories', body: (v) => ({ name: v }) },
  { what: 'audience name', method: 'POST', url: `/api/owner/${ownerId}/audience`, field: 'name', table: 'audiences', body: (v) => ({ name: v }) },
  { what: 'keyword map name', method: 'POST', url: '/api/keywordmap', field: 'name', table: 'keyword_maps', body: (v) => ({ name: v, phrases: ['pension'], adviceSetId: set.id }) },
  { what: 'API key name', method: 'POST', url: '/api/admin/apikey/create', field: 'name', table: 'api_keys', body: (v) => ({ name: v, environment: 'production' }) },
  { what: 'external API name', method: 'POST', url: '/api/external-api', field: 'name', table: 'external_apis', body: (v) => ({ name: v, method: 'GET', urlTemplate: 'https://api.example/rates' }) },
  { what: 'media name', method: 'POST', url: '/api/supplements', field: 'name', table: 'supplements', body: (v) => ({ url: 'https://example.com/guide', name: v }) },
  { what: 'invited user\'s name', method: 'POST', url: '/api/user/create', field: 'name', table: 'users', body: (v) => ({ name: v, email: 'new.person@example.com', role: 'author' }) },
  { what: 'user name', method: 'PATCH', url: `/api/user/${admin.id}`, field: 'name', table: 'users', body: (v) => ({ name: v }) },
]

t.test('names and titles: every control character is refused with a 400 naming the field, nothing saved', async (t) => {
  for (const c of NAMES) {
    for (const control of CONTROLS) {
      const value = `Bad${control}name`
      const before = await rowCount(c.table)
      const res = await agent.api(c.method, c.url, c.body(value))
      const what = `${c.what} with ${JSON.stringify(control)}`
      t.equal(res.statusCode, 400, `${what}: 400`)
      t.equal(res.json().error?.field, c.field, `${what}: names ${c.field}`)
      t.match(res.json().error?.message, /control characters/, `${what}: ${res.json().error?.message}`)
      t.equal(await rowCount(c.table), before, `${what}: no row`)
    }
  }
  const [me] = rowsOf<{ name: string }>(await db.execute(sql.raw(`SELECT name FROM users WHERE id = ${admin.id}`)))
  t.equal(me!.name, admin.name, 'the user\'s name is unchanged')
})

t.test('the same names with ordinary text, spaces and non-ASCII letters are saved', async (t) => {
  for (const c of NAMES) {
    const res = await agent.api(c.method, c.url, c.body(`Ünïcode name ${c.table}`))
    t.ok(res.statusCode < 300, `${c.what}: ${res.statusCode} ${res.statusCode >= 300 ? res.body : ''}`)
  }
})

t.test('multi-line text keeps tabs and line breaks and refuses the other control characters', async (t) => {
  const description = 'First line\r\n\tindented second line\nthird'
  const ok = await agent.api('PATCH', `/api/adviceset/${set.id}`, { description })
  t.equal(ok.statusCode, 200)
  t.equal(ok.json().data.description, description)
  const comment = await agent.api('POST', `/api/comment/${nodes[0]!.id}`, { body: 'Is this right?\nI think\tso.' })
  t.equal(comment.statusCode, 201)
  for (const control of ['\u0001', '\u000b', '\u001b']) {
    const refused = await agent.api('PATCH', `/api/adviceset/${set.id}`, { description: `a${control}b` })
    t.equal(refused.statusCode, 400, `description with ${JSON.stringify(control)}: 400`)
    t.equal(refused.json().error.field, 'description')
    t.match(refused.json().error.message, /other than tabs and line breaks/)
    const refusedComment = await agent.api('POST', `/api/comment/${nodes[0]!.id}`, { body: `a${control}b` })
    t.equal(refusedComment.statusCode, 400, `comment with ${JSON.stringify(control)}: 400`)
  }
  const [row] = rowsOf<{ description: string }>(await db.execute(sql.raw(`SELECT description FROM advice_sets WHERE id = ${set.id}`)))
  t.equal(row!.description, description, 'the saved description is untouched by the refusals')
})

t.test('the sign-up form: the name and the organisation are one line each', async (t) => {
  const visitor = new Agent(app)
  const users = await rowCount('users')
  for (const [field, form] of [
    ['name', { name: 'Eve\r\nEvil', email: 'eve@example.com', password: 'a-long-password-4', company: 'Acme' }],
    ['company', { name: 'Eve', email: 'eve@example.com', password: 'a-long-password-4', company: 'Acme\u001b[31m' }],
  ] as const) {
    const res = await visitor.postForm('/signup', form, { page: '/signup' })
    t.equal(res.statusCode, 400, `${field}: 400`)
    t.match(res.body, /must be one line without control characters/, `${field}: the form says why`)
  }
  t.equal(await rowCount('users'), users, 'nobody was signed up')
})
