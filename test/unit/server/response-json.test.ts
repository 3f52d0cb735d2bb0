// The Advice API writes its response from serialized pieces (response-json.ts); it must be the very text that
// stringifying the response object gives, for every content type, answer and shape of result.
import t, { type Test } from 'tap'
import fc from 'fast-check'
import { compileAdviceSet, CONTENT_TYPES, evaluate, type AdviceSetModel, type CompiledAdviceSet, type ContentType } from '../../../src/engine/index.ts'
import { parseResponseShape, FULL_SHAPE, type ResponseShape } from '../../../src/services/delivery/fields.ts'
import { adviceJson } from '../../../src/services/delivery/response-json.ts'
import { adviceData } from '../../../src/services/delivery/response.ts'
import type { ServedVersion } from '../../../src/services/publishing/versions.ts'
import { syntheticAdviceSet } from '../../../scripts/bench/fixtures/synthetic.ts'
import { advice, adviceSet, ask, assign, condition, formula, rule, variable } from '../../fixtures/engine/build.ts'

function served(model: AdviceSetModel): ServedVersion {
  return {
    id: 1, number: 3, adviceSetId: 7, ownerId: 'owner', isPublic: false,
    snapshot: { adviceSet: { id: 7, name: 'Set "quoted" \u2028', nameAlt: '', description: 'Line\nbreak' }, model },
  }
}

function both(compiled: CompiledAdviceSet, version: ServedVersion, inputs: Record<string, unknown>, contentType: ContentType, shape: ResponseShape = FULL_SHAPE) {
  const run = () => evaluate(compiled, inputs, { context: 'run', contentType, questionHref: (id) => `#question-${id}`, apiKeyOwnerId: 'owner', now: new Date('2026-03-04T05:06:07Z') })
  return { written: adviceJson(run(), version, compiled, shape), stringified: JSON.stringify({ data: adviceData(run(), version, compiled, shape) }) }
}

const contentType = fc.constantFrom(...CONTENT_TYPES)

function sameTextForAny(t: Test, compiled: CompiledAdviceSet, version: ServedVersion, answers: fc.Arbitrary<Record<string, unknown>>) {
  fc.assert(fc.property(answers, contentType, (inputs, type) => {
    const { written, stringified } = both(compiled, version, inputs, type)
    t.equal(written, stringified)
    return written === stringified
  }), { numRuns: 300 })
}

t.test('the synthetic 500-node set: any answers, some missing, any content type', async (t) => {
  const model = syntheticAdviceSet(500)
  const compiled = compileAdviceSet(model)
  const version = served(model)
  const answers = fc.record({
    Age: fc.oneof(fc.integer({ min: 0, max: 99 }).map(String), fc.constant('not a number')),
    Income: fc.integer({ min: 0, max: 120_000 }),
    Region: fc.constantFrom('North', 'South', 'East', 'West'),
    Employed: fc.boolean(),
    Dependants: fc.integer({ min: 0, max: 4 }),
  }, { requiredKeys: [] })
  sameTextForAny(t, compiled, version, answers)
})

t.test('sources, tags, a custom headline, constants, dates, lists, errors and quoting', async (t) => {
  const model = adviceSet(
    [
      rule('r1', 'Main',
        ask('q-name', 'Name', 'Who are you, **{{Name}}**?'),
        ask('q-born', 'Born', 'When were you born?'),
        ask('q-kids', 'Kids'),
        condition('c1', '{{Kids}} > 0',
          assign('a1', '{{Headline_Custom}} = "Custom \\"one\\""'),
          advice('ad1', 'Hello {{Name}}', 'Born {{Born}}, [[Twice]] with a [link](https://example.com/{{Name}}) and {{Missing}}', ['assumption'], {
            sources: [{ id: 's1', name: 'Act "A"', uri: 'https://example.com/a' }],
          }),
          advice('ad2', 'Second', 'Kids: {{Kids}}; list {{Pets}}', ['example', 'follow-on'], { sources: [{ id: 's1', name: 'Act "A"', uri: 'https://example.com/a' }, { id: 's2', name: 'B', uri: '' }] }),
          advice('ad3', 'Plain', 'Rate {{Rate}}'),
        ),
        ask('q-last', 'Last'),
      ),
    ],
    [
      variable('Name', { dataType: 'freetext' }),
      variable('Born', { dataType: 'date', displayFormat: 'D MMMM YYYY' }),
      variable('Kids'),
      variable('Pets', { dataType: 'array', defaultValue: ['cat', 'dog "rex"'] }),
      variable('Rate', { isConstant: true, defaultValue: 0.25, displayFormat: '0%' }),
      variable('Last', { dataType: undefined }),
      formula('Twice', '{{Kids}} * 2'),
    ],
  )
  const compiled = compileAdviceSet(model)
  const version = served(model)
  const names = fc.constantFrom('Ann', 'Bo "B"', '<b>x</b>', 'line\nbreak', 'é\u2028\ud800', '')
  const inputs = fc.record({
    Name: names,
    Born: fc.constantFrom('2001-02-03', '1990-12-31', 'yesterday'),
    Kids: fc.constantFrom('0', '2', '3.5', 'x'),
    Last: fc.constantFrom('anything', ''),
  }, { requiredKeys: [] })
  sameTextForAny(t, compiled, version, inputs)
  const full = JSON.parse(both(compiled, version, { Name: 'Ann', Born: '2001-02-03', Kids: '2', Last: 'x' }, 'text').written)
  t.equal(full.data.assumptions[0].customHeadline, 'Custom "one"', 'the fixture reaches a custom headline')
  t.same([full.data.advice.length, full.data.examples.length], [1, 1], 'and every group')
  t.same(full.data.sources.map((s: { id: string }) => s.id), ['s1', 's2'], 'and sources')
  t.ok(full.data.errors.length > 0, 'and errors')
  t.equal(full.data.variables.Rate.isConstant, true, 'and constants')
})

t.test('fieldsets, filters and index-like variable names take the general path, with the same text', async (t) => {
  const model = adviceSet([rule('r', 'R', ask('q12', '12'), ask('qa', 'A'), advice('ad', 'Got {{12}} and {{A}}'))], [variable('12'), variable('A')])
  const compiled = compileAdviceSet(model)
  const version = served(model)
  const { written, stringified } = both(compiled, version, { 12: '4', A: '5' }, 'html')
  t.equal(written, stringified)
  t.same(Object.keys(JSON.parse(written).data.variables).slice(0, 1), ['12'], 'an index-like name comes first, as in any object')
  const shape = parseResponseShape({ 'fields[advice]': 'headline', 'filter': 'variables:!system' })
  const narrowed = both(compiled, version, { 12: '4', A: '5' }, 'text', shape)
  t.equal(narrowed.written, narrowed.stringified)
  t.same(JSON.parse(narrowed.written).data.advice, [{ headline: 'Got 4 and 5' }])
})
