// Decision mode with checkTags reports the same missing-tag errors (UNDEFINED_IN_OUTPUT) as a rendered run, without
// rendering: replays of recorded answers rely on it to find new errors.
import t from 'tap'
import fc from 'fast-check'
import { compileAdviceSet, evaluate } from '../../../src/engine/index.ts'
import { advice, adviceSet, ask, assign, condition, formula, rule, variable } from '../../fixtures/engine/build.ts'

const model = adviceSet([
  rule('r1', 'Texts', ask('q-a', 'A'),
    condition('c1', '{{A}} > 5', assign('set-b', '{{B}} = {{A}} * 2'), advice('a1', 'B is {{B}}', 'and [[Half]], {{C}} and {{Nobody}}')),
    advice('a2', 'A is {{A}} and B is {{B}}', '[[Half]] twice: [[Half]]'),
    condition('c2', '{{A}} > 8', assign('custom', '{{Headline_Custom}} = "Custom {{C}}"'), advice('a3', 'Replaced', '{{A}}'))),
], [variable('A'), variable('B'), variable('C'), formula('Half', '{{C}} / 2')])
const compiled = compileAdviceSet(model)

t.test('the same errors as rendering, for any answers', async (t) => {
  fc.assert(fc.property(fc.integer({ min: 0, max: 12 }), fc.option(fc.integer({ min: 0, max: 9 }), { nil: undefined }), (a, c) => {
    const inputs = c === undefined ? { A: a } : { A: a, C: c }
    const rendered = evaluate(compiled, inputs, { render: true, contentType: 'text' }).errors
    const checked = evaluate(compiled, inputs, { render: false, checkTags: true }).errors
    return JSON.stringify(rendered) === JSON.stringify(checked)
  }), { numRuns: 200 })
  const errors = evaluate(compiled, { A: 9 }, { render: false, checkTags: true }).errors
  t.ok(errors.some((e) => e.code === 'UNDEFINED_IN_OUTPUT' && e.variable === 'Nobody'), 'a missing tag is reported')
  t.same(evaluate(compiled, { A: 9 }, { render: false }).errors.filter((e) => e.code === 'UNDEFINED_IN_OUTPUT' && e.nodeId !== 'a3'), [], 'not without checkTags')
})
