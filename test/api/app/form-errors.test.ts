// Bad input is told at its field: a refused form page marks each field in error beside it (aria-invalid, its message
// by aria-describedby) and gives the first one the focus (autofocus); a name already taken is told the same way. The
// API answers every field in error at once as error.fields, keeping error.field and error.message (issues 24, 25).
import t from 'tap'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const owner = await createOwner(db, { name: 'Team A' })
const adminUser = await createUser(db, { ownerId: owner, role: 'admin' })
const admin = await signedInAgent(app, adminUser)

/** The opening tag of the control named `name` on a page. */
function controlTag(body: string, name: string): string {
  const tag = new RegExp(`<(input|textarea|select)\\b[^>]*\\bname="${name}"[^>]*>`).exec(body)?.[0]
  if (!tag) throw new Error(`no control named ${name}`)
  return tag
}

const ORIGIN_MESSAGE = /Allowed origins: "ftp:\/\/files.example" is not an origin/
const RATE_MESSAGE = /Rate limit must be a whole number of requests per minute/

t.test('a new API key with a bad origin and a rate limit of 0: the API names both fields at once', async (t) => {
  const res = await admin.api('POST', '/api/admin/apikey/create', { name: 'Partner', allowedOrigins: ['ftp://files.example'], rateLimit: 0 })
  t.equal(res.statusCode, 400)
  const error = res.json().error
  t.equal(error.field, 'allowedOrigins', 'the first field in error leads')
  t.match(error.message, ORIGIN_MESSAGE, 'the message still tells the first problem')
  t.match(error.message, RATE_MESSAGE, 'and the next')
  t.same(error.fields.map((f: { field: string }) => f.field), ['allowedOrigins', 'rateLimit'])
  t.match(error.fields[0].message, ORIGIN_MESSAGE)
  t.match(error.fields[1].message, RATE_MESSAGE)
})

t.test('one bad field: error.fields lists just that one', async (t) => {
  const res = await admin.api('POST', '/api/admin/apikey/create', { name: 'Partner', rateLimit: 0 })
  t.equal(res.statusCode, 400)
  t.same(res.json().error.fields, [{ field: 'rateLimit', message: res.json().error.message }])
})

t.test('the API key form shows both problems beside their fields and focuses the first', async (t) => {
  const form = await admin.postForm('/admin/apikey/new', { name: 'Kept name', allowedOrigins: 'ftp://files.example', rateLimit: '0' }, { page: '/admin/apikey/new' })
  t.equal(form.statusCode, 400)
  t.match(form.body, 'Please correct the 2 fields marked below.')
  t.match(form.body, new RegExp(`id="f-allowedOrigins-error">${ORIGIN_MESSAGE.source.replace(/"/g, '&quot;')}`))
  t.match(form.body, new RegExp(`id="f-rateLimit-error">${RATE_MESSAGE.source}`))
  const origins = controlTag(form.body, 'allowedOrigins')
  t.match(origins, 'aria-invalid="true"')
  t.match(origins, 'aria-describedby="f-allowedOrigins-error"')
  t.match(origins, 'autofocus', 'the first field in error takes the focus')
  t.match(controlTag(form.body, 'rateLimit'), 'aria-describedby="f-rateLimit-error"')
  t.notMatch(controlTag(form.body, 'name'), 'autofocus', 'a field without error does not')
  t.match(form.body, 'value="Kept name"', 'typed values are kept')
})

t.test('a tag name already taken is told at the Tag field, which takes the focus', async (t) => {
  t.equal((await admin.postForm('/admin/tag', { label: 'Pensions', type: 'label' })).statusCode, 303)
  const clash = await admin.postForm('/admin/tag', { label: 'Pensions', type: 'label' })
  t.equal(clash.statusCode, 409)
  t.match(clash.body, /id="f-label-error">A tag “Pensions” already exists\./)
  const label = controlTag(clash.body, 'label')
  t.match(label, 'aria-invalid="true"')
  t.match(label, 'aria-describedby="f-label-error"')
  t.match(label, 'autofocus')
})

t.test('a dictionary name already taken: 409 naming reservedName in error.fields', async (t) => {
  t.equal((await admin.api('POST', '/api/entity', { reservedName: 'Birth_Date', dataType: 'date' })).statusCode, 201)
  const clash = await admin.api('POST', '/api/entity', { reservedName: 'birth_date', dataType: 'date' })
  t.equal(clash.statusCode, 409)
  t.equal(clash.json().error.field, 'reservedName')
  t.same(clash.json().error.fields, [{ field: 'reservedName', message: clash.json().error.message }])
})

t.test('a new advice set with no name and a category that is no id: both at their fields', async (t) => {
  const form = await admin.postForm('/adviceset/new', { name: '', categoryId: 'abc', description: 'Kept text' }, { page: '/adviceset/new' })
  t.equal(form.statusCode, 400)
  t.match(form.body, 'Please correct the 2 fields marked below.')
  t.match(form.body, 'id="f-name-error">Name is required.')
  t.match(form.body, 'id="f-categoryId-error">Invalid item id format.')
  t.match(controlTag(form.body, 'name'), 'autofocus')
  t.match(form.body, 'Kept text')
})

t.test('an external API with no name and a timeout out of range: error.fields names both', async (t) => {
  const res = await admin.api('POST', '/api/external-api', { name: '', method: 'GET', urlTemplate: 'https://rates.example/latest', timeoutMs: 999999 })
  t.equal(res.statusCode, 400)
  t.same(res.json().error.fields.map((f: { field: string }) => f.field), ['name', 'timeoutMs'])
})

t.test('a profile with no name and an About with a control character: error.fields names both', async (t) => {
  const res = await admin.api('PATCH', `/api/user/${adminUser.id}`, { name: ' ', title: 'bell\u0007' })
  t.equal(res.statusCode, 400)
  t.same(res.json().error.fields.map((f: { field: string }) => f.field), ['name', 'title'])
})
