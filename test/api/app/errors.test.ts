// One error handler: /api gets { error: { status, name, message } }, pages get an error page, 5xx never leak.
import t from 'tap'
import { buildTestApp } from '../../helpers/app.ts'
import { Agent } from '../../helpers/agent.ts'
import { ValidationError } from '../../../src/services/errors.ts'

const { app } = await buildTestApp(t)

t.test('unknown /api route: JSON 404', async (t) => {
  const res = await app.inject({ method: 'GET', url: '/api/nothing-here' })
  t.equal(res.statusCode, 404)
  t.same(res.json(), { error: { status: 404, name: 'Not Found', message: 'No route GET /api/nothing-here' } })
})

t.test('unknown page: an HTML 404 page', async (t) => {
  const res = await new Agent(app).get('/no/such/page')
  t.equal(res.statusCode, 404)
  t.match(res.headers['content-type'], /text\/html/)
  t.match(res.body, '<main data-page="dashboard-error">')
  t.match(res.body, 'This page does not exist.')
})

t.test('a missing static file: a plain-text 404, not an error page', async (t) => {
  const res = await new Agent(app).get('/static/no-such-file.js')
  t.equal(res.statusCode, 404)
  t.match(res.headers['content-type'], /text\/plain/)
  t.equal(res.body, '404 Not Found: This page does not exist.')
})

t.test('a failing handler answers 500 without internals', async (t) => {
  const leaky = await buildTestApp(t, {}, {
    beforeReady: (app) => {
      app.get('/api/explode', async () => { throw new Error('password=hunter2 at /srv/secret.ts:42') })
      app.get('/explode', async () => { throw new Error('SELECT * FROM users; -- internal') })
    },
  })
  const api = await leaky.app.inject({ method: 'GET', url: '/api/explode' })
  t.equal(api.statusCode, 500)
  t.same(api.json(), { error: { status: 500, name: 'Internal Server Error', message: 'Something went wrong on our side. Please try again.' } })
  const page = await new Agent(leaky.app).get('/explode')
  t.equal(page.statusCode, 500)
  t.notMatch(page.body, 'SELECT')
  t.match(page.body, 'Something went wrong on our side.')
})

t.test('bad input names the field in the message, as error.field and in error.fields', async (t) => {
  const checked = await buildTestApp(t, {}, {
    beforeReady: (app) => {
      app.post('/api/check-schema', { schema: { body: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, age: { type: 'integer' } } } } }, async () => ({}))
      app.get('/api/check-service', async () => { throw new ValidationError('reservedName', 'reservedName: must start with a letter or digit.') })
    },
  })
  const schema = await checked.app.inject({ method: 'POST', url: '/api/check-schema', payload: { name: 'x', age: 'old' } })
  t.equal(schema.statusCode, 400)
  t.same(schema.json(), { error: { status: 400, name: 'Bad Request', message: 'age: must be integer', field: 'age', fields: [{ field: 'age', message: 'age: must be integer' }] } })
  const missing = await checked.app.inject({ method: 'POST', url: '/api/check-schema', payload: {} })
  t.equal(missing.json().error.field, 'name')
  const service = await checked.app.inject({ method: 'GET', url: '/api/check-service' })
  t.same(service.json(), { error: {
    status: 400, name: 'Bad Request', message: 'reservedName: must start with a letter or digit.', field: 'reservedName',
    fields: [{ field: 'reservedName', message: 'reservedName: must start with a letter or digit.' }],
  } })
})

t.test('security headers and cookie flags', async (t) => {
  const res = await new Agent(app).get('/login')
  t.match(res.headers['content-security-policy'], /default-src 'self'/)
  t.match(res.headers['content-security-policy'], /script-src 'self'/)
  t.equal(res.headers['x-content-type-options'], 'nosniff')
  const cookie = String(res.headers['set-cookie'])
  t.match(cookie, /HttpOnly/)
  t.match(cookie, /SameSite=Lax/)
  t.notMatch(cookie, /Secure/, 'not Secure on http')
  const https = await buildTestApp(t, { BASE_URL: 'https://advice.example', TRUST_PROXY: 'true' })
  const secure = await https.app.inject({ method: 'GET', url: '/login', headers: { 'x-forwarded-proto': 'https' } })
  t.match(String(secure.headers['set-cookie']), /; Secure/, 'Secure behind an https proxy')
})
