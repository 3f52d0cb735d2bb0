// Issue 7 Advice API around the runs: the OpenAPI document at /api/docs, markdown/preview (key or session with
// CSRF), and /api/dictionary (the key owner's variables).
import t from 'tap'
import SwaggerParser from '@apidevtools/swagger-parser'
import { buildTestApp } from '../../helpers/app.ts'
import { Agent, signedInAgent } from '../../helpers/agent.ts'
import { createApiKey } from '../../helpers/api-keys.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { createVariable } from '../../helpers/rules.ts'
import { partnerCall, partnerFixture } from './advice-api-setup.ts'

const ctx = await buildTestApp(t)
const f = await partnerFixture(ctx)
const call = partnerCall(ctx, f.production.secret)

t.test('GET /api/docs: an OpenAPI 3 document of the partner routes, their schemas, bearer security and the error shape', async (t) => {
  const res = await ctx.app.inject({ method: 'GET', url: '/api/docs' })
  t.equal(res.statusCode, 200)
  t.match(res.headers['content-type'], /application\/json/)
  const doc = res.json()
  t.match(doc.openapi, /^3\./)
  for (const path of ['/api/advice/markdown/preview', '/api/advice/{adviceSetId}', '/api/advice/{adviceSetId}/legacy', '/api/dictionary']) t.ok(doc.paths[path], path)
  t.notOk(Object.keys(doc.paths).some((path) => path.startsWith('/api/rule') || path.startsWith('/api/user')), 'the app\'s own browser API stays out')
  t.same(doc.components.securitySchemes.bearerAuth, { type: 'http', scheme: 'bearer', description: String(doc.components.securitySchemes.bearerAuth.description) })
  const advice = doc.paths['/api/advice/{adviceSetId}']
  t.same(Object.keys(advice).sort(), ['get', 'post'])
  t.same(advice.get.security, [{ bearerAuth: [] }])
  t.ok(advice.get.parameters.some((p: { in: string; name: string; required: boolean }) => p.in === 'path' && p.name === 'adviceSetId' && p.required), 'the set id')
  t.ok(advice.get.parameters.some((p: { in: string; name: string }) => p.in === 'query' && p.name === 'fields[advice]'), 'fieldsets are documented')
  t.ok(advice.get.parameters.some((p: { in: string; name: string }) => p.in === 'query' && p.name === 'filter'), 'the filter is documented')
  const ok = advice.get.responses['200'].content
  t.same(Object.keys(ok).sort(), ['application/json', ...['attrstring', 'html', 'htmlnolinks', 'markdown', 'raw', 'text'].map((x) => `application/vnd.advicestudio.json+${x}`)].sort())
  const data = ok['application/vnd.advicestudio.json+html'].schema.properties.data.properties
  t.same(Object.keys(data).sort(), ['advice', 'adviceSet', 'assumptions', 'currentFocus', 'errors', 'examples', 'inputRequests', 'sources', 'variables'])
  for (const status of ['400', '401', '404', '406', '429']) {
    const error = advice.get.responses[status].content['application/json'].schema
    t.same(error.properties.error.required, ['status', 'name', 'message'], `${status} documents the error shape`)
  }
  t.ok(advice.post.requestBody.content['application/json'].schema.properties.inputs, 'POST documents its inputs body')
  t.same(doc.components.schemas.Error.properties.error.required, ['status', 'name', 'message'])
})

t.test('GET /api/docs is a valid OpenAPI 3 document, so partners\' client generators accept it', async (t) => {
  const doc = (await ctx.app.inject({ method: 'GET', url: '/api/docs' })).json()
  await t.resolves(SwaggerParser.validate(structuredClone(doc)), 'swagger-parser validates it against the OpenAPI 3 schema')
  const legacy = doc.paths['/api/advice/{adviceSetId}/legacy']
  for (const method of ['get', 'post']) {
    t.same(legacy[method].parameters.map((p: { in: string; name: string }) => `${p.in}:${p.name}`), ['path:adviceSetId'],
      `${method} legacy: only the set id is a fixed parameter (every query parameter is an answer)`)
  }
  const invalid = structuredClone(doc)
  invalid.paths['/api/dictionary'].get.parameters = [{ name: 'type', in: 'query', schema: 'object' }]
  await t.rejects(SwaggerParser.validate(invalid), 'the validator refuses a parameter whose schema is not an object')
})

t.test('markdown/preview with a key: sanitized html as the engine renders it, tags listed', async (t) => {
  const markdown = '# Hi {{Age}}\n\n<script>alert(1)</script> **bold** [x](javascript:alert(1)) [ok](https://example.com) [[Tenth]]'
  const res = await call({ url: '/api/advice/markdown/preview', body: { markdown } })
  t.equal(res.statusCode, 200)
  const { html, tags } = res.json().data
  t.match(html, '<h1>Hi <span class="var-chip var-missing"')
  t.match(html, '<strong>bold</strong>')
  t.match(html, '<a href="https://example.com">ok</a>')
  t.notMatch(html, '<script', 'raw html is text, never markup')
  t.notMatch(html, 'href="javascript', 'unsafe links dropped')
  t.same(tags, [{ kind: 'variable', name: 'Age' }, { kind: 'formula', name: 'Tenth' }])
  const noLinks = await call({ url: '/api/advice/markdown/preview', body: { markdown: '[ok](https://example.com)', links: false } })
  t.equal(noLinks.json().data.html, '<p>ok</p>\n')
  t.equal((await call({ url: '/api/advice/markdown/preview', body: {} })).statusCode, 400, 'markdown is required')
})

t.test('markdown/preview for a signed-in author needs the CSRF token; nobody else gets in', async (t) => {
  const author = await createUser(ctx.database.db, { ownerId: f.ownerId, role: 'author' })
  const agent = await signedInAgent(ctx.app, author)
  const withToken = await agent.api('POST', '/api/advice/markdown/preview', { markdown: '*hi*' })
  t.equal(withToken.statusCode, 200)
  t.equal(withToken.json().data.html, '<p><em>hi</em></p>\n')
  const withoutToken = await agent.api('POST', '/api/advice/markdown/preview', { markdown: '*hi*' }, { csrf: false })
  t.equal(withoutToken.statusCode, 403, 'a session without the token is refused')
  const visitor = await new Agent(ctx.app).api('POST', '/api/advice/markdown/preview', { markdown: '*hi*' }, { csrf: false })
  t.equal(visitor.statusCode, 401)
  t.match(visitor.json().error, { status: 401, message: /API key.*or sign in/ })
  const badKey = await partnerCall(ctx, 'as_live_00000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')({ url: '/api/advice/markdown/preview', body: { markdown: 'x' } })
  t.equal(badKey.statusCode, 401, 'a bad key is not rescued by anything')
})

t.test('/api/dictionary: the key owner\'s variables with data type, options, closed set and display format', async (t) => {
  const res = await call({ url: '/api/dictionary' })
  t.equal(res.statusCode, 200)
  const variables = res.json().data as Array<{ name: string }>
  t.same(variables.map((v) => v.name), ['Age', 'Employed', 'Income', 'Region'], 'variables only (the formula Tenth is not listed)')
  t.same(variables.find((v) => v.name === 'Region'), {
    name: 'Region', dataType: 'select', validOptions: ['North', 'South'], isClosedSet: true, displayFormat: null,
    description: 'Where you live', isConstant: false, adviceSetId: null,
  })
  t.match(variables.find((v) => v.name === 'Age'), { dataType: 'number', validOptions: [], isClosedSet: false })

  const other = await createOwner(ctx.database.db)
  await createVariable(ctx.database.db, other, 'Secret_Of_Others')
  const theirs = await createApiKey(ctx.database.db, { ownerId: other })
  t.same((await partnerCall(ctx, theirs.secret)({ url: '/api/dictionary' })).json().data.map((v: { name: string }) => v.name), ['Secret_Of_Others'], 'each owner sees only its own')
  t.notOk(variables.some((v) => v.name === 'Secret_Of_Others'))

  await createVariable(ctx.database.db, f.ownerId, 'Only_For_Set', { adviceSetId: f.set.id })
  const narrow = await createApiKey(ctx.database.db, { ownerId: f.ownerId, allowedAdviceSetIds: [f.set.id + 1000] })
  const narrowNames = (await partnerCall(ctx, narrow.secret)({ url: '/api/dictionary' })).json().data.map((v: { name: string }) => v.name)
  t.notOk(narrowNames.includes('Only_For_Set'), 'entries of sets the key may not use are left out')
  t.ok((await call({ url: '/api/dictionary' })).json().data.some((v: { name: string }) => v.name === 'Only_For_Set'))
  t.equal((await partnerCall(ctx, undefined)({ url: '/api/dictionary' })).statusCode, 401)
})
