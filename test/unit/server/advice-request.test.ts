// The parts of an Advice API request read before the run: Accept → content type, fieldsets and filters, which query
// parameters are answers, and the per-key rate limit.
import t from 'tap'
import { negotiateContentType, NotAcceptableError } from '../../../src/services/delivery/media-types.ts'
import { FULL_SHAPE, parseResponseShape, pick } from '../../../src/services/delivery/fields.ts'
import { inputsFromQuery } from '../../../src/services/delivery/inputs.ts'
import { KeyRateLimiter } from '../../../src/services/delivery/rate-limit.ts'
import { ValidationError } from '../../../src/services/errors.ts'

const VENDOR = 'application/vnd.advicestudio.json+'

function thrownBy(fn: () => unknown): unknown {
  try {
    fn()
  } catch (error) {
    return error
  }
  return undefined
}

t.test('Accept: vendor types, plain JSON and wildcards as text, q-values, 406 otherwise', async (t) => {
  t.equal(negotiateContentType(undefined), 'text')
  t.equal(negotiateContentType(''), 'text')
  t.equal(negotiateContentType('application/json'), 'text')
  t.equal(negotiateContentType('*/*'), 'text')
  t.equal(negotiateContentType(`${VENDOR}attrstring`), 'attrstring')
  t.equal(negotiateContentType(`${VENDOR.toUpperCase()}HTML`), 'html', 'media types are case-insensitive')
  t.equal(negotiateContentType(`text/html, ${VENDOR}markdown`), 'markdown', 'unknown ranges are skipped')
  t.equal(negotiateContentType(`${VENDOR}raw;q=0.2, ${VENDOR}htmlnolinks;q=0.8`), 'htmlnolinks', 'highest q wins')
  t.equal(negotiateContentType(`${VENDOR}raw, ${VENDOR}html`), 'raw', 'equal q: first listed')
  t.equal(negotiateContentType(`${VENDOR}raw;q=0, application/json;q=0.1`), 'text', 'q=0 means not acceptable')
  t.throws(() => negotiateContentType('text/html'), NotAcceptableError)
  t.throws(() => negotiateContentType(`${VENDOR}html;q=0`), NotAcceptableError)
  t.match(thrownBy(() => negotiateContentType(`${VENDOR}pdf`)), { status: 406, message: /pdf/ })
})

t.test('fieldsets and filters; anything unknown is a ValidationError naming it', async (t) => {
  t.equal(parseResponseShape({ Age: '4' }), FULL_SHAPE, 'no shape parameters: the full response')
  const shape = parseResponseShape({ 'fields[advice]': 'headline, text', 'fields[variables]': ['value', 'isSystem'], 'filter': 'variables:!system' })
  t.same([...shape.fields.advice!], ['headline', 'text'])
  t.same([...shape.fields.variables!], ['value', 'isSystem'], 'a repeated parameter adds to the list')
  t.same([shape.withoutVariables, shape.withoutSystemVariables, shape.withoutConstants], [false, true, false])
  t.same([...parseResponseShape({ 'fields[advice]': '' }).fields.advice!], [], 'an empty fieldset keeps no field')
  t.throws(() => parseResponseShape({ 'fields[advice]': 'headline,body' }), new ValidationError('fields[advice]', 'fields[advice]: "body" is not a field of advice. Fields: nodeId, ruleId, headline, text, customHeadline, tags, sources, reasons.'))
  t.match(thrownBy(() => parseResponseShape({ 'fields[constructor]': 'x' })), { field: 'fields[constructor]' }, 'inherited names are not types')
  t.match(thrownBy(() => parseResponseShape({ filter: 'variables,advice' })), { field: 'filter', message: /"advice" is not a filter/ })
  t.match(thrownBy(() => parseResponseShape({ filter: { a: 1 } })), { field: 'filter', message: /comma-separated list/ })
  t.equal(parseResponseShape({ explain: 'true', Age: '4' }).explain, true, 'explain=true asks for reasons')
  t.equal(parseResponseShape({ explain: 'false' }).explain, false)
  t.match(thrownBy(() => parseResponseShape({ explain: 'yes' })), { field: 'explain', message: 'explain: must be true or false.' })
})

t.test('pick keeps only own wanted fields', async (t) => {
  const item = { a: 1, b: 2, c: undefined }
  t.equal(pick(item, undefined), item)
  t.same(pick(item, new Set(['a', 'c', 'toString'])), { a: 1, c: undefined })
})

t.test('every query parameter but the fieldsets and filters is an answer', async (t) => {
  t.same(inputsFromQuery({ 'Age': '4', 'fields[advice]': 'text', 'filter': 'variables', 'fields': 'x', 'Region': ['a', 'b'] }), { Age: '4', fields: 'x', Region: ['a', 'b'] })
})

t.test('rate limit: per key, per one-minute window, with the seconds left', async (t) => {
  let now = 0
  const limiter = new KeyRateLimiter(() => now)
  t.same([limiter.take(1, 2), limiter.take(1, 2)], [{ allowed: true }, { allowed: true }])
  now = 15_000
  t.same(limiter.take(1, 2), { allowed: false, retryAfterSeconds: 45 })
  t.same(limiter.take(2, 2), { allowed: true }, 'another key has its own budget')
  now = 59_999
  t.same(limiter.take(1, 2), { allowed: false, retryAfterSeconds: 1 })
  now = 60_000
  t.same(limiter.take(1, 2), { allowed: true }, 'a new window')
})
