import t from 'tap'
import fc from 'fast-check'
import { DEFAULT_FORMATS, formatValue } from '../../../src/engine/format/index.ts'
import { parseNumberPattern } from '../../../src/engine/format/number-pattern.ts'
import { DATA_TYPES } from '../../../src/engine/types/index.ts'
import type { Value } from '../../../src/engine/value.ts'

const day = (iso: string): Date => new Date(`${iso}T00:00:00.000Z`)

t.test('numeral-style number patterns', async (t) => {
  const cases: Array<[number, string, string]> = [
    [1234567.891, '0,0', '1,234,568'],
    [1234567.891, '0,0.00', '1,234,567.89'],
    [1234.5, '0,0.0', '1,234.5'],
    [1234.5, '0', '1235'],
    [1234.5, '0.00', '1234.50'],
    [1234.5, '$0,0', '$1,235'],
    [1234.5, '$0,0.00', '$1,234.50'],
    [-1234.5, '$0,0.00', '-$1,234.50'],
    [1234.5, '$ 0,0', '$ 1,235'],
    [1234.5, '0,0 €', '1,235 €'],
    [1234.5, '€0,0.00', '€1,234.50'],
    [1234.5, '£0,0', '£1,235'],
    [0.042, '0.0%', '4.2%'],
    [0.042, '0%', '4%'],
    [0.1234, '0.00 %', '12.34 %'],
    [1, '0o', '1st'],
    [2, '0o', '2nd'],
    [3, '0o', '3rd'],
    [4, '0o', '4th'],
    [11, '0o', '11th'],
    [12, '0o', '12th'],
    [13, '0o', '13th'],
    [21, '0o', '21st'],
    [22, '0o', '22nd'],
    [101, '0o', '101st'],
    [1.5, '0o', '2nd'],
    [1234, '0,0o', '1,234th'],
    [1234, '0.0a', '1.2k'],
    [1234567, '0.0a', '1.2m'],
    [1234567890, '0.0a', '1.2b'],
    [1234, '0a', '1k'],
    [-1234, '0.0a', '-1.2k'],
    [12345678, '0.0 a', '12.3 m'],
    [12, '0.0a', '12.0'],
    [1234.5, '0,0.[00]', '1,234.5'],
    [1234, '0,0.[00]', '1,234'],
    [1234.567, '0,0.[00]', '1,234.57'],
    [1234.5, '0[.]00', '1234.50'],
    [1234, '0[.]00', '1234'],
    [-5, '(0,0)', '(5)'],
    [5, '(0,0)', '5'],
    [-1234.5, '($0,0.00)', '($1,234.50)'],
    [0.5, '+0.0', '+0.5'],
    [-0.5, '+0.0', '-0.5'],
    [-0.3, '0,0', '0'],
    [1.005, '0.00', '1.01'],
    [0.1 + 0.2, '0,0.[00]', '0.3'],
  ]
  for (const [value, pattern, expected] of cases) {
    t.equal(formatValue(value, 'number', pattern), expected, `${value} with ${pattern}`)
  }
})

t.test('patterns outside the grammar are refused, and the default is used', async (t) => {
  for (const bad of ['garbage', '0,0.[00', '(0,0', '0,0)', '$0,0$', '$0%', '0.0%%', '00,0', '0b', 'MMM d, yyyy', '#,##0', '0,0.0[0]']) {
    t.equal(parseNumberPattern(bad), undefined, `${bad} is not a number pattern`)
    t.equal(formatValue(1234.5, 'number', bad), '1,234.5', `number with ${bad}`)
    t.equal(formatValue(0.042, 'percent', bad), '4.2%', `percent with ${bad}`)
  }
  t.equal(formatValue(1234.5, 'number', ''), '1,234.5', 'an empty pattern is no pattern')
  t.equal(formatValue(1234.5, 'number', ' 0,0 '), '1,235', 'surrounding spaces are ignored')
})

t.test('number and percent defaults', async (t) => {
  t.equal(DEFAULT_FORMATS.number, '0,0.[00]')
  t.equal(DEFAULT_FORMATS.percent, '0.[0]%')
  t.equal(formatValue(1234.567, 'number'), '1,234.57')
  t.equal(formatValue(1234, 'number'), '1,234')
  t.equal(formatValue(-0.5, 'number'), '-0.5')
  t.equal(formatValue(0, 'number'), '0')
  t.equal(formatValue(0.042, 'percent'), '4.2%')
  t.equal(formatValue(0.04, 'percent'), '4%')
  t.equal(formatValue(1, 'percent'), '100%')
  t.equal(formatValue(0.07, 'percent'), '7%')
  t.equal(formatValue(0.042, 'percent', '0,0.00'), '0.04', 'a pattern without % shows the fraction itself')
  t.equal(formatValue(42, 'freetext'), '42', 'a number in a text variable still reads as a number')
})

t.test('numbers that do not print as plain decimals', async (t) => {
  t.equal(formatValue(Number.NaN, 'number'), '')
  t.equal(formatValue(Number.POSITIVE_INFINITY, 'number', '$0,0'), 'Infinity')
  t.equal(formatValue(Number.NEGATIVE_INFINITY, 'number'), '-Infinity')
  t.equal(formatValue(1e21, 'number', '0,0'), '1e+21')
  t.equal(formatValue(1e20, 'number', '0,0'), '100,000,000,000,000,000,000')
})

t.test('date-fns patterns, in UTC', async (t) => {
  const date = day('2024-03-05')
  t.equal(formatValue(date, 'date'), 'Mar 5, 2024', 'default MMM d, yyyy')
  t.equal(formatValue(date, 'date', 'dd/MM/yyyy'), '05/03/2024')
  t.equal(formatValue(date, 'date', 'MM/dd/yyyy'), '03/05/2024')
  t.equal(formatValue(date, 'date', 'yyyy-MM-dd'), '2024-03-05')
  t.equal(formatValue(date, 'date', 'EEEE do MMMM yyyy'), 'Tuesday 5th March 2024')
  t.equal(formatValue(date, 'date', "'Q'Q yyyy"), 'Q1 2024')
  t.equal(formatValue(new Date('2024-03-05T23:30:00Z'), 'date', 'yyyy-MM-dd HH:mm'), '2024-03-05 23:30')
  const early = new Date(0)
  early.setUTCFullYear(99, 0, 5)
  t.equal(formatValue(early, 'date'), 'Jan 5, 0099')
})

t.test('unusable date patterns fall back to the default without noise', async (t) => {
  const date = day('2024-03-05')
  const warnings: unknown[] = []
  const originalWarn = console.warn
  console.warn = (...args: unknown[]) => warnings.push(args)
  try {
    for (const bad of ['garbage', 'DD/MM/YYYY', 'MMM D, yyyy', '', '0,0', '2024', "'only quoted'"]) {
      t.equal(formatValue(date, 'date', bad), 'Mar 5, 2024', `date with ${JSON.stringify(bad)}`)
    }
  } finally {
    console.warn = originalWarn
  }
  t.same(warnings, [], 'date-fns was never asked to warn')
  t.equal(formatValue(new Date('nonsense'), 'date'), '', 'an invalid date shows nothing')
  t.equal(formatValue(date, 'number', '0,0'), 'Mar 5, 2024', 'a number pattern on a date uses the date default')
  t.equal(formatValue(1234, 'date', 'MMM'), '1,234', 'a date pattern on a number uses the number default')
})

t.test('booleans, text, lists and no value', async (t) => {
  t.equal(formatValue(true, 'boolean'), 'Yes')
  t.equal(formatValue(false, 'boolean'), 'No')
  t.equal(formatValue(true, 'boolean', '0,0'), 'Yes')
  t.equal(formatValue('hello', 'freetext'), 'hello')
  t.equal(formatValue('<b>as is</b>', 'select', '0,0'), '<b>as is</b>', 'text is not escaped here; content rendering does that')
  for (const type of DATA_TYPES) t.equal(formatValue(null, type), '', `no value as ${type}`)
  t.equal(formatValue([1, 2000.5, 'a', true, day('2024-03-05')], 'array'), '1, 2,000.5, a, Yes, Mar 5, 2024')
  t.equal(formatValue([1234, 5], 'array', '$0,0'), '$1,234, $5', 'the pattern applies to each item')
  t.equal(formatValue([day('2024-03-05')], 'array', 'dd/MM/yyyy'), '05/03/2024')
  t.equal(formatValue([0.1, 0.25], 'percent'), '10%, 25%')
  t.equal(formatValue([], 'array'), '')
  t.equal(formatValue([['a', 'b'], 'c'], 'array'), 'a, b, c')
})

const anyValue: fc.Arbitrary<Value> = fc.letrec<{ value: Value }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.double(),
    fc.string(),
    fc.boolean(),
    fc.date(),
    fc.array(tie('value'), { maxLength: 3 }),
  ),
})).value

t.test('formatting never throws, whatever the value and the pattern', async () => {
  const patternPieces = fc.constantFrom('0', ',', '.', '[', ']', '(', ')', '$', '%', 'a', 'o', ' ', '+', 'y', 'M', 'd', "'", 'D', 'Y', 'x', 'Q', 'E')
  const pattern = fc.oneof(fc.string(), fc.array(patternPieces, { maxLength: 12 }).map((parts) => parts.join('')))
  fc.assert(
    fc.property(anyValue, fc.constantFrom(...DATA_TYPES), fc.option(pattern, { nil: undefined }), (value, type, displayFormat) => {
      return typeof formatValue(value, type, displayFormat) === 'string'
    }),
    { numRuns: 3000 },
  )
})
