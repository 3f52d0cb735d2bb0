import t from 'tap'
import { NAME_PATTERN, parseExpression, printExpression, references } from '../../../src/engine/expr/index.ts'

const canonical = (source: string) => printExpression(parseExpression(source))

t.test('the printer writes one canonical spelling with only the parentheses needed', async (t) => {
  const cases: Array<[string, string]> = [
    ['{{ Age }}>=18 AND [[Net]]<>0', '{{Age}} >= 18 && [[Net]] != 0'],
    ['a or not b', 'a || !b'],
    ["'it''s'".replace("''", "\\'"), '"it\'s"'],
    ['"line\nbreak\t\u0001"', '"line\\nbreak\\t\\u0001"'],
    ['((1 + 2)) * 3', '(1 + 2) * 3'],
    ['1 + (2 * 3)', '1 + 2 * 3'],
    ['1 - (2 - 3)', '1 - (2 - 3)'],
    ['(1 - 2) - 3', '1 - 2 - 3'],
    ['(2 ^ 3) ^ 2', '(2 ^ 3) ^ 2'],
    ['2 ^ (3 ^ 2)', '2 ^ 3 ^ 2'],
    ['(a < b) == c', 'a < b == c'],
    ['(a == b) == c', '(a == b) == c'],
    ['a == (b == c)', 'a == (b == c)'],
    ['-(2)', '-(2)'],
    ['- 2', '-2'],
    ['(-2) ^ 2', '(-2) ^ 2'],
    ['-(2 ^ 2)', '-2 ^ 2'],
    ['(-x).includes(1)', '(-x).includes(1)'],
    ['(a + b).match(/x/i)', '(a + b).match(/x/i)'],
    ['ROUND(1.25, 1)', 'round(1.25, 1)'],
    ['[ [1], [2]]', '[ [1], [2]]'],
    ['[ [[F]] ]', '[[[F]]]'],
    ['#2024-05-01#', '#2024-05-01#'],
    ['#2024-05-01T10:30Z#', '#2024-05-01T10:30:00.000Z#'],
    ['1000000000000000000000', '1e+21'],
    ['0.0000001', '1e-7'],
  ]
  for (const [source, printed] of cases) t.equal(canonical(source), printed, source)
})

t.test('references lists each name once, in order of first use, by kind', async (t) => {
  const expr = parseExpression('{{B}} + [[F]] * {{A}} > Bare && {{B}}.includes(Other) || max([[F]], [[G]], if(X, {{C}}, 1)) > 0')
  t.same(references(expr), { variables: ['B', 'A', 'C'], formulas: ['F', 'G'], bare: ['Bare', 'Other', 'X'] })
  t.same(references(parseExpression('1 + 2')), { variables: [], formulas: [], bare: [] })
  t.same(references(parseExpression('{{S}}.match(/a/)')), { variables: ['S'], formulas: [], bare: [] })
})

t.test('NAME_PATTERN follows SPEC §5', async (t) => {
  for (const name of ['Age', 'age_2', '2abc', 'Is_Adult?', 'x', '9', 'Größe']) t.ok(NAME_PATTERN.test(name), name)
  for (const name of ['', '_age', '?x', 'two words', 'a-b', 'a.b', '{{A}}']) t.notOk(NAME_PATTERN.test(name), name)
})
