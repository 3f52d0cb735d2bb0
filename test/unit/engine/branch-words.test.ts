// Conditions in words (gen-branches, gen-summary): readable phrases for comparisons, by data type, with negations
// pushed down and anything else quoted without braces.
import t from 'tap'
import { conditionInWords, constantInWords, pathInWords, vocabularyOf } from '../../../src/engine/branches/words.ts'
import { compileAdviceSet, parseExpression } from '../../../src/engine/index.ts'
import { adviceSet, advice, call, condition, formula, rule, variable } from '../../fixtures/engine/build.ts'

const model = adviceSet(
  [
    rule('r-main', 'Main',
      condition('c-age', '{{Age}} >= 65', condition('c-or', '{{Region}} == "North" || {{Region}} == "East"', call('k', 'r-helper'))),
    ),
    rule('r-helper', 'Helper', condition('c-smoke', '!{{Smoker}}', advice('a', 'Keep it up'))),
  ],
  [
    variable('Age'), variable('Income'), variable('Smoker', { dataType: 'boolean' }), variable('Rate', { dataType: 'percent' }),
    variable('Start', { dataType: 'date' }), variable('Region', { dataType: 'select', options: ['North', 'East', 'South'] }),
    variable('Note', { dataType: 'freetext' }), formula('Years', '2'),
  ],
)
const compiled = compileAdviceSet(model)
const vocabulary = vocabularyOf(compiled)
const words = (source: string) => conditionInWords(parseExpression(source, { mode: 'condition' }), vocabulary)

t.test('comparisons with a constant read as phrases of the variable\'s type', async (t) => {
  for (const [source, expected] of [
    ['{{Age}} >= 65 && !{{Smoker}}', 'Age is at least 65 and Smoker is No'],
    ['{{Age}} < 18', 'Age is less than 18'],
    ['{{Age}} <= 18', 'Age is at most 18'],
    ['{{Age}} > 18', 'Age is more than 18'],
    ['{{Age}} == 18', 'Age is 18'],
    ['{{Age}} <> 18', 'Age is not 18'],
    ['{{Income}} > 100000', 'Income is more than 100,000'],
    ['{{Age}} > -5', 'Age is more than -5'],
    ['{{Rate}} > 0.05', 'Rate is more than 5%'],
    ['{{Start}} < #2020-01-01#', 'Start is before 2020-01-01'],
    ['{{Start}} >= #2020-01-01#', 'Start is on or after 2020-01-01'],
    ['{{Start}} <= #2020-01-01#', 'Start is on or before 2020-01-01'],
    ['{{Region}} == "North"', 'Region is North'],
    ['{{Note}} == ""', 'Note is “”'],
    ['[[Years]] >= 5', 'Years is at least 5'],
  ] as const) t.equal(words(source), expected, source)
})

t.test('yes/no variables', async (t) => {
  for (const [source, expected] of [
    ['{{Smoker}}', 'Smoker is Yes'],
    ['not {{Smoker}}', 'Smoker is No'],
    ['{{Smoker}} == true', 'Smoker is Yes'],
    ['{{Smoker}} == false', 'Smoker is No'],
    ['{{Smoker}} != true', 'Smoker is No'],
  ] as const) t.equal(words(source), expected, source)
})

t.test('the variable is the subject even when written second', async (t) => {
  for (const [source, expected] of [
    ['65 <= {{Age}}', 'Age is at least 65'],
    ['18 > {{Age}}', 'Age is less than 18'],
  ] as const) t.equal(words(source), expected, source)
})

t.test('negations are pushed down; mixed connectives keep parentheses', async (t) => {
  for (const [source, expected] of [
    ['!({{Age}} >= 65)', 'Age is less than 65'],
    ['!({{Age}} >= 65 && {{Smoker}})', 'Age is less than 65 or Smoker is No'],
    ['!({{Age}} < 18 || {{Age}} > 65)', 'Age is at least 18 and Age is at most 65'],
    ['{{Age}} > 18 and ({{Region}} == "North" or {{Region}} == "East")', 'Age is more than 18 and (Region is North or Region is East)'],
    ['({{Age}} > 18 and {{Smoker}}) or {{Region}} == "East"', '(Age is more than 18 and Smoker is Yes) or Region is East'],
  ] as const) t.equal(words(source), expected, source)
})

t.test('what has no phrase is quoted without braces', async (t) => {
  for (const [source, expected] of [
    ['round({{Income}} / 12) > 1000', 'round(Income / 12) is more than 1000'],
    ['{{Age}} > {{Income}}', 'Age is more than Income'],
    ['{{Note}}.includes("x")', 'Note includes x'],
    ['!{{Note}}.match(/^a/i)', 'Note does not match /^a/i'],
    ['isBlank({{Note}})', 'isBlank(Note) is true'],
    ['true', 'always'],
    ['!true', 'never'],
  ] as const) t.equal(words(source), expected, source)
})

t.test('constants as a person writes them', async (t) => {
  t.equal(constantInWords(true), 'Yes')
  t.equal(constantInWords(0.125, 'percent'), '12.5%')
  t.equal(constantInWords(2024), '2024', 'years are not grouped')
  t.equal(constantInWords(new Date('2024-02-29T00:00:00Z')), '2024-02-29')
})

t.test('a path in words: its conditions through called rules, an "or" in parentheses beside others', async (t) => {
  const path = pathInWords(compiled, ['c-age', 'c-or', 'k', 'c-smoke', 'a'])
  t.same(path.conditions, ['Age is at least 65', 'Region is North or Region is East', 'Smoker is No'])
  t.equal(path.text, 'Age is at least 65 and (Region is North or Region is East) and Smoker is No')
  t.same(path.rules, ['Main', 'Helper'])
  t.equal(pathInWords(compiled, ['c-or']).text, 'Region is North or Region is East', 'alone, no parentheses')
  t.equal(pathInWords(compiled, ['a']).text, 'Always', 'a path without conditions')
})
