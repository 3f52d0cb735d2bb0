// Issue 7 Advice API: content types by Accept (the same advice rendered in each), response headers, answers in the
// query or body checked by data type, sparse fieldsets and filters, error shapes, per-item engine errors, legacy.
import t from 'tap'
import { buildTestApp } from '../../helpers/app.ts'
import { partnerCall, partnerFixture, query, RICH_ANSWERS } from './advice-api-setup.ts'

const ctx = await buildTestApp(t)
const f = await partnerFixture(ctx)
const call = partnerCall(ctx, f.production.secret)
const url = `/api/advice/${f.set.id}`
const VENDOR = 'application/vnd.advicestudio.json+'

function mediaType(contentType: string | number | string[] | undefined): string {
  return String(contentType).split(';')[0]!
}

/** Markup removed and entities decoded: what a reader of the html sees. */
function visibleText(html: string): string {
  return html.replace(/<[^>]+>/g, '').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').trim()
}

t.test('each content type renders the same advice of one run', async (t) => {
  const bodies: Record<string, { advice: Array<{ nodeId: string; headline: unknown; text: unknown }> }> = {}
  for (const type of ['text', 'html', 'htmlnolinks', 'attrstring', 'markdown', 'raw']) {
    const res = await call({ url: `${url}?${query(RICH_ANSWERS)}`, accept: VENDOR + type })
    t.equal(res.statusCode, 200, type)
    t.equal(mediaType(res.headers['content-type']), VENDOR + type, `${type}: Content-Type is the vendor type`)
    t.match(res.headers.vary, /Accept/, `${type}: varies by Accept`)
    bodies[type] = res.json().data
  }
  const ids = Object.values(bodies).map((body) => body.advice.map((a) => a.nodeId).join())
  t.equal(new Set(ids).size, 1, 'every type has the same advice items')
  const pick = (type: string) => bodies[type]!.advice[0]!
  const income = f.questions.Income.id
  const age = f.questions.Age.id

  const plain = 'With 60,000 a year at 40, see the guide.'
  t.equal(pick('text').text, plain, 'text: markup gone, values formatted')
  t.equal(pick('text').headline, 'Max out your pension')

  const html = pick('html').text as string
  t.match(html, '<strong>', 'html: markdown rendered')
  t.match(html, `<a class="var-link" href="#question-${income}"><span class="var-chip" data-kind="variable" data-var="Income">60,000</span></a>`, 'html: a chip linked back to its question')
  t.match(html, `href="#question-${age}"`)
  t.match(html, '<a href="https://example.com/guide">the guide</a>', 'html: the author\'s link kept')
  t.equal(visibleText(html), plain, 'html reads as the text')

  const noLinks = pick('htmlnolinks').text as string
  t.notMatch(noLinks, '<a', 'htmlnolinks: no links at all')
  t.match(noLinks, '<strong><span class="var-chip" data-kind="variable" data-var="Income">60,000</span></strong>')
  t.equal(visibleText(noLinks), plain, 'htmlnolinks reads as the text')

  const attributed = pick('attrstring').text as { text: string; ranges: Array<{ start: number; length: number; kind: string; name?: string; href?: string }> }
  t.equal(attributed.text, plain, 'attrstring: the same text')
  const slice = (r: { start: number; length: number }) => attributed.text.slice(r.start, r.start + r.length)
  t.same(attributed.ranges.map((r) => [r.kind, slice(r), r.href ?? null]), [
    ['bold', '60,000', null],
    ['variable', '60,000', `#question-${income}`],
    ['variable', '40', `#question-${age}`],
    ['link', 'the guide', 'https://example.com/guide'],
  ], 'attrstring: ranges over the text')

  t.equal(pick('markdown').text, 'With **60,000** a year at 40, see [the guide](https://example.com/guide).', 'markdown: values in the source')
  t.equal(pick('raw').text, 'With **60,000** a year at 40, see [the guide](https://example.com/guide).', 'raw: the same here, all tags resolved')
})

t.test('raw keeps tags nobody could resolve, the others leave them out; the engine reports them per item', async (t) => {
  const unemployed = query({ Age: 40, Employed: false, Region: 'South' })
  const raw = await call({ url: `${url}?${unemployed}`, accept: `${VENDOR}raw` })
  t.equal(raw.statusCode, 200, 'an engine error is still a 200')
  const data = raw.json().data
  t.same(data.advice.map((a: { headline: string }) => a.headline), ['Look into benefits'])
  t.same(data.examples.map((a: { text: string }) => a.text), ['Ten percent of {{Income}} is [[Tenth]].'], 'Income was never asked')
  t.match(data.errors, [
    { code: 'UNDEFINED_IN_OUTPUT', nodeId: data.examples[0].nodeId, message: /\{\{Income\}\}/ },
    { code: 'UNDEFINED_IN_OUTPUT', nodeId: data.examples[0].nodeId, message: /\[\[Tenth\]\]/ },
  ], 'per-item errors name what had no value')
  const text = (await call({ url: `${url}?${unemployed}` })).json().data
  t.notMatch(text.examples[0].text, /\{\{|\[\[/, 'text leaves the tags out')
  t.equal(text.errors.length, 2)
})

t.test('plain JSON, a wildcard or no Accept mean text; anything else is a 406 in the error shape', async (t) => {
  for (const accept of ['application/json', '*/*', undefined, 'text/html, application/json;q=0.5']) {
    const res = await call({ url: `${url}?${query(RICH_ANSWERS)}`, ...(accept === undefined ? {} : { accept }) })
    t.equal(res.statusCode, 200, String(accept))
    t.equal(mediaType(res.headers['content-type']), `${VENDOR}text`, `${accept}: answered as text`)
    t.equal(res.json().data.advice[0].text, 'With 60,000 a year at 40, see the guide.')
  }
  const preferred = await call({ url: `${url}?${query(RICH_ANSWERS)}`, accept: `${VENDOR}html;q=0.4, ${VENDOR}markdown;q=0.9` })
  t.equal(mediaType(preferred.headers['content-type']), `${VENDOR}markdown`, 'the highest q wins')

  const refused = await call({ url, accept: 'text/html' })
  t.equal(refused.statusCode, 406)
  t.equal(refused.json().error.status, 406)
  t.equal(refused.json().error.name, 'Not Acceptable')
  t.match(refused.json().error.message, /text\/html.*application\/json/)
  const unknownVendor = await call({ url, accept: `${VENDOR}pdf` })
  t.equal(unknownVendor.statusCode, 406, 'an unknown vendor variant is refused too')
})

t.test('headers: a request id (echoed when sane), the API version and the response date', async (t) => {
  const res = await call({ url })
  t.match(res.headers['x-request-id'], /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
  t.equal(res.headers['x-api-version'], '1')
  const date = Date.parse(String(res.headers['x-response-date']))
  t.ok(Math.abs(date - Date.now()) < 60_000, 'X-Response-Date is now')
  const echoed = await call({ url, headers: { 'x-request-id': 'partner-42.abc' } })
  t.equal(echoed.headers['x-request-id'], 'partner-42.abc')
  const insane = await call({ url, headers: { 'x-request-id': 'a b<script>' } })
  t.not(insane.headers['x-request-id'], 'a b<script>', 'anything else is replaced')
  t.match(insane.headers['x-request-id'], /^[0-9a-f-]{36}$/)
  const error = await call({ url: '/api/advice/999999' })
  t.equal(error.statusCode, 404)
  t.ok(error.headers['x-request-id'] && error.headers['x-api-version'] && error.headers['x-response-date'], 'errors carry them too')
})

t.test('answers in the query and in a JSON body give the same run; the body wins a name given in both', async (t) => {
  const fromQuery = await call({ url: `${url}?${query(RICH_ANSWERS)}` })
  const fromBody = await call({ url, body: { inputs: RICH_ANSWERS } })
  t.equal(fromBody.statusCode, 200)
  t.same(fromBody.json().data, fromQuery.json().data)
  const both = await call({ url: `${url}?Age=12`, body: { inputs: { Age: 40 } } })
  t.equal(both.json().data.inputRequests[0].value, 40)
  const unknownMember = await call({ url, body: { inputs: {}, extra: 1 } })
  t.equal(unknownMember.statusCode, 400)
  t.equal(unknownMember.json().error.field, 'extra')
})

t.test('each step asks the next question with its input type', async (t) => {
  const first = (await call({ url })).json().data
  t.same(first.inputRequests, [])
  t.match(first.currentFocus, { nodeId: String(f.questions.Age.id), variable: 'Age', question: 'How old are you?', inputType: 'number', dataType: 'number', placeholder: String })
  t.same(first.advice, [])
  const region = (await call({ url: `${url}?${query({ Age: 40, Employed: false })}` })).json().data
  t.match(region.currentFocus, { variable: 'Region', inputType: 'select', options: ['North', 'South'] })
  const done = (await call({ url: `${url}?${query(RICH_ANSWERS)}` })).json().data
  t.equal(done.currentFocus, null, 'complete advice has no focus')
  t.same(done.adviceSet, { id: f.set.id, name: 'Pension check', nameAlt: '', description: '', version: f.version.number })
  t.same(done.sources, [{ id: 'guide', name: 'Pension guide', uri: 'https://example.com/guide' }])
  t.same(done.assumptions.map((a: { headline: string }) => a.headline), ['Rules of North'])
  t.same(done.examples.map((a: { text: string }) => a.text), ['Ten percent of 60,000 is 6,000.'])
})

t.test('a bad answer is a 400 naming the variable; names the set does not use are ignored', async (t) => {
  const notNumber = await call({ url: `${url}?Age=old` })
  t.equal(notNumber.statusCode, 400)
  t.same(Object.keys(notNumber.json().error).sort(), ['field', 'fields', 'message', 'name', 'status'])
  t.match(notNumber.json().error, { status: 400, name: 'Bad Request', field: 'Age', message: /^Age: / })
  t.same(notNumber.json().error.fields, [{ field: 'Age', message: notNumber.json().error.message }], 'the one bad field, listed as every error lists its fields')
  const notOption = await call({ url, body: { inputs: { Age: 40, Employed: false, Region: 'East' } } })
  t.match(notOption.json().error, { status: 400, field: 'Region' })
  const system = await call({ url: `${url}?ApiKey_Owner_Id=someone-else` })
  t.match(system.json().error, { status: 400, field: 'ApiKey_Owner_Id', message: /set by the advice set/ })
  const ignored = await call({ url: `${url}?${query({ ...RICH_ANSWERS, Shoe_Size: 'big' })}` })
  t.equal(ignored.statusCode, 200)
  t.notOk('Shoe_Size' in ignored.json().data.variables)
  t.equal(ignored.json().data.variables.ApiKey_Owner_Id.value, f.ownerId, 'the key owner is the run\'s ApiKey_Owner_Id')
})

t.test('sparse fieldsets keep only the fields asked for', async (t) => {
  const res = await call({ url: `${url}?${query(RICH_ANSWERS)}&fields[advice]=nodeId,headline&fields[inputRequests]=variable,valueFormatted&fields[adviceSet]=name&fields[variables]=valueFormatted` })
  t.equal(res.statusCode, 200)
  const data = res.json().data
  t.same(data.advice, [{ nodeId: data.advice[0].nodeId, headline: 'Max out your pension' }])
  t.same(data.inputRequests, [
    { variable: 'Age', valueFormatted: '40' }, { variable: 'Employed', valueFormatted: 'Yes' },
    { variable: 'Income', valueFormatted: '60,000' }, { variable: 'Region', valueFormatted: 'North' },
  ])
  t.same(data.adviceSet, { name: 'Pension check' })
  t.same(data.variables.Income, { valueFormatted: '60,000' })
  t.ok(data.assumptions[0].text, 'types without a fieldset keep every field')
  const focus = await call({ url: `${url}?fields[currentFocus]=variable,inputType` })
  t.same(focus.json().data.currentFocus, { variable: 'Age', inputType: 'number' })
})

t.test('unknown fieldset types and field names are a 400 naming them', async (t) => {
  const field = await call({ url: `${url}?fields[advice]=headline,colour,size` })
  t.equal(field.statusCode, 400)
  t.match(field.json().error, { field: 'fields[advice]', message: /"colour", "size" are not fields of advice/ })
  const type = await call({ url: `${url}?fields[people]=name` })
  t.match(type.json().error, { status: 400, field: 'fields[people]', message: /"people" is not a type/ })
})

t.test('filters drop the variables, system variables or constants', async (t) => {
  const all = (await call({ url: `${url}?${query(RICH_ANSWERS)}` })).json().data
  t.ok(all.variables.Context.isSystem, 'system variables are there by default')
  const none = (await call({ url: `${url}?${query(RICH_ANSWERS)}&filter=variables` })).json().data
  t.notOk('variables' in none, 'filter=variables leaves the member out')
  t.same(none.advice, all.advice)
  const noSystem = (await call({ url: `${url}?${query(RICH_ANSWERS)}&filter=variables:!system` })).json().data
  t.same(Object.keys(noSystem.variables).sort(), ['Age', 'Employed', 'Income', 'Region'])
  const both = (await call({ url: `${url}?${query(RICH_ANSWERS)}&filter=variables:!system,variables:!constant&fields[variables]=value` })).json().data
  t.same(both.variables, { Age: { value: 40 }, Employed: { value: true }, Income: { value: 60000 }, Region: { value: 'North' } })
  const unknown = await call({ url: `${url}?filter=variables:!secret` })
  t.match(unknown.json().error, { status: 400, field: 'filter', message: /"variables:!secret" is not a filter/ })
})

t.test('legacy: answered questions and advice in evaluation order, then the open question', async (t) => {
  const res = await call({ url: `${url}/legacy?${query({ Age: 40, Employed: true, Income: 20000 })}` })
  t.equal(res.statusCode, 200)
  const data = res.json().data
  t.equal(data.done, false)
  t.same(data.items.map((i: { type: string; variable?: string; headline?: string }) => `${i.type}:${i.variable ?? i.headline}`), [
    'inputRequest:Age', 'inputRequest:Employed', 'inputRequest:Income', 'advice:Start small', 'currentFocus:Region',
  ])
  const done = (await call({ url: `${url}/legacy`, body: { inputs: { ...RICH_ANSWERS, Employed: false } } })).json().data
  t.equal(done.done, true)
  t.same(done.items.map((i: { type: string; group?: string; variable?: string; headline?: string }) => `${i.group ?? i.type}:${i.variable ?? i.headline}`), [
    'inputRequest:Age', 'inputRequest:Employed', 'advice:Look into benefits', 'inputRequest:Region', 'assumptions:Rules of North', 'examples:Saving 10%',
  ])
  const html = await call({ url: `${url}/legacy?Age=12`, accept: `${VENDOR}html` })
  t.equal(mediaType(html.headers['content-type']), `${VENDOR}html`)
  t.match(html.json().data.items[1].text, '<span class="var-chip"', 'content types apply to legacy too')
})
