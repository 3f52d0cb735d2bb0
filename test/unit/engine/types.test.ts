import t, { type Test } from 'tap'
import fc from 'fast-check'
import { coerceInput, DATA_TYPES, INPUT_TYPES, isDataType, type DataType } from '../../../src/engine/types/index.ts'
import type { Value } from '../../../src/engine/value.ts'

function accepts(t: Test, type: DataType, raw: unknown, expected: Value, options?: string[]): void {
  const result = coerceInput(type, raw, options === undefined ? undefined : { options })
  t.same(result, { ok: true, value: expected }, `${type} accepts ${JSON.stringify(raw)}`)
}

function rejects(t: Test, type: DataType, raw: unknown, code: string, message: string | RegExp, options?: string[]): void {
  const result = coerceInput(type, raw, options === undefined ? undefined : { options })
  if (result.ok) {
    t.fail(`${type} should reject ${JSON.stringify(raw)} but gave ${JSON.stringify(result.value)}`)
    return
  }
  t.equal(result.code, code, `${type} rejects ${JSON.stringify(raw)} with ${code}`)
  if (typeof message === 'string') t.equal(result.message, message)
  else t.match(result.message, message)
}

const day = (iso: string): Date => new Date(`${iso}T00:00:00.000Z`)

t.test('every type has a label, a placeholder and a description', async (t) => {
  t.same(Object.keys(INPUT_TYPES).sort(), [...DATA_TYPES].sort())
  for (const type of DATA_TYPES) {
    const info = INPUT_TYPES[type]
    t.ok(info.label.length > 0 && info.placeholder.length > 0 && info.description.length > 0, type)
  }
  t.equal(INPUT_TYPES.boolean.label, 'True/False')
  t.ok(isDataType('percent'))
  t.notOk(isDataType('currency'))
  t.notOk(isDataType(3))
})

t.test('blank answers are no value for every type', async (t) => {
  for (const type of DATA_TYPES) {
    for (const blank of [null, undefined, '', '   ']) accepts(t, type, blank, null, ['A'])
  }
})

t.test('number', async (t) => {
  accepts(t, 'number', 42, 42)
  accepts(t, 'number', -3.5, -3.5)
  accepts(t, 'number', '42', 42)
  accepts(t, 'number', ' 3.5 ', 3.5)
  accepts(t, 'number', '1,234.5', 1234.5)
  accepts(t, 'number', '1,234,567', 1234567)
  accepts(t, 'number', '$1,234', 1234)
  accepts(t, 'number', '-$1,234.50', -1234.5)
  accepts(t, 'number', '$-5', -5)
  accepts(t, 'number', '1,234 €', 1234)
  accepts(t, 'number', '£7', 7)
  accepts(t, 'number', '+8', 8)
  accepts(t, 'number', '.5', 0.5)
  accepts(t, 'number', '5.', 5)
  accepts(t, 'number', '2.5e3', 2500)
  accepts(t, 'number', '0.1', 0.1)
  rejects(t, 'number', '12abc', 'INPUT_INVALID_NUMBER', 'Enter a number, like 42 or 3.5 ("abc" is not part of a number).')
  rejects(t, 'number', 'twelve', 'INPUT_INVALID_NUMBER', /"twelve" is not part of a number/)
  rejects(t, 'number', '1,2', 'INPUT_INVALID_NUMBER', /commas only go between groups of three digits/)
  rejects(t, 'number', '1,2345', 'INPUT_INVALID_NUMBER', /commas only go between groups of three digits/)
  rejects(t, 'number', '1.2.3', 'INPUT_INVALID_NUMBER', 'Enter a number, like 42 or 3.5 ("1.2.3" is not a number).')
  rejects(t, 'number', '-$-5', 'INPUT_INVALID_NUMBER', /is not a number/)
  rejects(t, 'number', '$5$', 'INPUT_INVALID_NUMBER', /is not a number/)
  rejects(t, 'number', '$', 'INPUT_INVALID_NUMBER', /is not a number/)
  rejects(t, 'number', '1e', 'INPUT_INVALID_NUMBER', /"1e" is not a number/)
  rejects(t, 'number', '1e999', 'INPUT_INVALID_NUMBER', 'That number is too large.')
  rejects(t, 'number', Number.NaN, 'INPUT_INVALID_NUMBER', 'Enter a number, like 42 or 3.5.')
  rejects(t, 'number', Number.POSITIVE_INFINITY, 'INPUT_INVALID_NUMBER', 'Enter a number, like 42 or 3.5.')
  rejects(t, 'number', true, 'INPUT_INVALID_NUMBER', 'Enter a number, like 42 or 3.5.')
  rejects(t, 'number', [1], 'INPUT_INVALID_NUMBER', 'Enter a number, like 42 or 3.5.')
})

t.test('a long bad answer is shortened in the message', async (t) => {
  const result = coerceInput('number', `1${'x'.repeat(500)}`)
  t.equal(result.ok, false)
  if (!result.ok) t.ok(result.message.length < 120, result.message)
})

t.test('number text round-trips every finite double', async () => {
  fc.assert(
    fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
      const result = coerceInput('number', String(n))
      return result.ok && Object.is(result.value, n === 0 ? 0 : n) === true
    }),
  )
})

t.test('plain decimals (the fast path) read as the general parse reads them', async () => {
  const plain = fc.tuple(fc.boolean(), fc.stringMatching(/^\d{1,15}$/), fc.option(fc.stringMatching(/^\d{1,15}$/)))
    .map(([negative, whole, fraction]) => `${negative ? '-' : ''}${whole}${fraction === null ? '' : `.${fraction}`}`)
  fc.assert(
    fc.property(plain, (text) => {
      // The space keeps the second answer off the fast path.
      const fast = coerceInput('number', text)
      const general = coerceInput('number', ` ${text}`)
      return fast.ok && general.ok && Object.is(fast.value, general.value)
    }),
  )
})

t.test('percent: the user types 4.2, the value is 0.042', async (t) => {
  accepts(t, 'percent', '4.2', 0.042)
  accepts(t, 'percent', 4.2, 0.042)
  accepts(t, 'percent', '4.2%', 0.042)
  accepts(t, 'percent', ' 4.2 % ', 0.042)
  accepts(t, 'percent', '1.1', 0.011)
  accepts(t, 'percent', 7, 0.07)
  accepts(t, 'percent', '100', 1)
  accepts(t, 'percent', '-0.5', -0.005)
  accepts(t, 'percent', '1,250', 12.5)
  accepts(t, 'percent', 1e-7, 1e-9)
  rejects(t, 'percent', 'abc%', 'INPUT_INVALID_PERCENT', 'Enter a percentage as a number, like 4.2 for 4.2% ("abc" is not part of a number).')
  rejects(t, 'percent', '4.2%%', 'INPUT_INVALID_PERCENT', /"%" is not part of a number/)
  rejects(t, 'percent', false, 'INPUT_INVALID_PERCENT', 'Enter a percentage as a number, like 4.2 for 4.2%.')
})

t.test('percent scaling is exact to the decimal typed', async () => {
  fc.assert(
    fc.property(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.integer({ min: 0, max: 4 }), (units, places) => {
      const typed = (units / 10 ** places).toFixed(places)
      const result = coerceInput('percent', typed)
      return result.ok && result.value === Number(`${typed}e-2`)
    }),
  )
})

t.test('boolean', async (t) => {
  for (const yes of [true, 'true', 'TRUE', 'yes', 'Yes', 'y', '1', 1, 'on', ' On ']) accepts(t, 'boolean', yes, true)
  for (const no of [false, 'false', 'no', 'NO', 'n', '0', 0, 'off']) accepts(t, 'boolean', no, false)
  rejects(t, 'boolean', 'maybe', 'INPUT_INVALID_BOOLEAN', 'Answer yes or no (true/false, 1/0 and on/off work too); "maybe" is neither.')
  rejects(t, 'boolean', 2, 'INPUT_INVALID_BOOLEAN', /"2" is neither/)
  rejects(t, 'boolean', ['yes'], 'INPUT_INVALID_BOOLEAN', 'Answer yes or no (true/false, 1/0 and on/off work too).')
})

t.test('date', async (t) => {
  accepts(t, 'date', '2024-03-31', day('2024-03-31'))
  accepts(t, 'date', ' 2024-02-29 ', day('2024-02-29'))
  accepts(t, 'date', '2000-02-29', day('2000-02-29'))
  const earlyYear = new Date(0)
  earlyYear.setUTCFullYear(99, 0, 5)
  accepts(t, 'date', '0099-01-05', earlyYear)
  accepts(t, 'date', '2024-03-31T10:20:30.456Z', new Date('2024-03-31T10:20:30.456Z'))
  accepts(t, 'date', '2024-03-31T10:00:00+02:00', new Date('2024-03-31T08:00:00Z'))
  accepts(t, 'date', '2024-03-31T10:00-0130', new Date('2024-03-31T11:30:00Z'))
  accepts(t, 'date', '2024-03-31 10:00', new Date('2024-03-31T10:00:00Z'))
  const instant = new Date('2024-01-02T03:04:05Z')
  accepts(t, 'date', instant, instant)
  const roundTripped = JSON.parse(JSON.stringify({ d: day('2024-03-31') })) as { d: string }
  accepts(t, 'date', roundTripped.d, day('2024-03-31'))

  rejects(t, 'date', '2023-02-29', 'INPUT_IMPOSSIBLE_DATE', '2023-02-29 is not a real date: February 2023 has 28 days.')
  rejects(t, 'date', '2023-02-30', 'INPUT_IMPOSSIBLE_DATE', '2023-02-30 is not a real date: February 2023 has 28 days.')
  rejects(t, 'date', '1900-02-29', 'INPUT_IMPOSSIBLE_DATE', /February 1900 has 28 days/)
  rejects(t, 'date', '2024-04-31', 'INPUT_IMPOSSIBLE_DATE', '2024-04-31 is not a real date: April 2024 has 30 days.')
  rejects(t, 'date', '2024-13-01', 'INPUT_IMPOSSIBLE_DATE', '2024-13-01 is not a real date: months go from 01 to 12.')
  rejects(t, 'date', '2024-00-10', 'INPUT_IMPOSSIBLE_DATE', /months go from 01 to 12/)
  rejects(t, 'date', '2024-01-00', 'INPUT_IMPOSSIBLE_DATE', /January 2024 has 31 days/)
  rejects(t, 'date', '0000-01-01', 'INPUT_IMPOSSIBLE_DATE', /there is no year 0/)
  rejects(t, 'date', '2024-03-31T24:00:00Z', 'INPUT_IMPOSSIBLE_DATE', /time of day that does not exist/)
  rejects(t, 'date', '31/03/2024', 'INPUT_INVALID_DATE', 'Enter a date as year-month-day, like 2024-03-31 ("31/03/2024" is not in that form).')
  rejects(t, 'date', '2024-3-31', 'INPUT_INVALID_DATE', /is not in that form/)
  rejects(t, 'date', 'tomorrow', 'INPUT_INVALID_DATE', /"tomorrow" is not in that form/)
  rejects(t, 'date', new Date('nonsense'), 'INPUT_INVALID_DATE', 'Enter a date as year-month-day, like 2024-03-31.')
  rejects(t, 'date', 1711843200000, 'INPUT_INVALID_DATE', 'Enter a date as year-month-day, like 2024-03-31.')
})

t.test('every real calendar day is accepted and lands on UTC midnight', async () => {
  fc.assert(
    fc.property(fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true }), (d) => {
      const iso = d.toISOString().slice(0, 10)
      const result = coerceInput('date', iso)
      return result.ok && result.value instanceof Date && result.value.toISOString().slice(0, 10) === iso && result.value.getTime() % 86_400_000 === 0
    }),
  )
})

t.test('freetext', async (t) => {
  accepts(t, 'freetext', 'Hello, world', 'Hello, world')
  accepts(t, 'freetext', '  padded  ', '  padded  ')
  accepts(t, 'freetext', 12.5, '12.5')
  accepts(t, 'freetext', true, 'true')
  accepts(t, 'freetext', day('2024-03-31'), '2024-03-31')
  rejects(t, 'freetext', ['a'], 'INPUT_INVALID_TEXT', 'Enter text (a single answer, not a list).')
  rejects(t, 'freetext', { a: 1 }, 'INPUT_INVALID_TEXT', /Enter text/)
  rejects(t, 'freetext', Number.NaN, 'INPUT_INVALID_TEXT', /Enter text/)
})

t.test('array', async (t) => {
  accepts(t, 'array', ['a', 1, true], ['a', 1, true])
  accepts(t, 'array', [], [])
  accepts(t, 'array', 'apples, pears,plums', ['apples', 'pears', 'plums'])
  accepts(t, 'array', 'a,, b ,', ['a', 'b'])
  accepts(t, 'array', 'single', ['single'])
  accepts(t, 'array', '["x, y", 2]', ['x, y', 2])
  accepts(t, 'array', 5, [5])
  accepts(t, 'array', [day('2024-03-31')], [day('2024-03-31')])
  rejects(t, 'array', [{ a: 1 }], 'INPUT_INVALID_LIST', /each item is text, a number or yes\/no/)
  rejects(t, 'array', [['nested']], 'INPUT_INVALID_LIST', /separated by commas/)
  rejects(t, 'array', '[1, 2', 'INPUT_INVALID_LIST', /separated by commas/)
  rejects(t, 'array', '[{"a":1}]', 'INPUT_INVALID_LIST', /separated by commas/)
  rejects(t, 'array', { length: 1 }, 'INPUT_INVALID_LIST', /separated by commas/)
})

t.test('array with options is a multiple choice answered with the canonical options', async (t) => {
  const options = ['Red', 'Green', 'Blue']
  accepts(t, 'array', 'red, BLUE', ['Red', 'Blue'], options)
  accepts(t, 'array', ['green'], ['Green'], options)
  rejects(t, 'array', 'red, purple', 'INPUT_NOT_AN_OPTION', '"purple" is not one of the choices: Red, Green, Blue.', options)
})

t.test('select and radio', async (t) => {
  const options = ['Yes', 'No', 'Not sure']
  for (const type of ['select', 'radio'] as const) {
    accepts(t, type, 'Yes', 'Yes', options)
    accepts(t, type, ' not SURE ', 'Not sure', options)
    rejects(t, type, 'Maybe', 'INPUT_NOT_AN_OPTION', '"Maybe" is not one of the choices: Yes, No, Not sure.', options)
    rejects(t, type, ['Yes'], 'INPUT_NOT_AN_OPTION', 'Choose one of: Yes, No, Not sure.', options)
    rejects(t, type, 'Yes', 'INPUT_NO_OPTIONS', 'This question has no options to choose from yet.')
    rejects(t, type, 'Yes', 'INPUT_NO_OPTIONS', /no options/, [])
  }
  accepts(t, 'select', 3, '3', ['1', '2', '3'])
  accepts(t, 'select', true, 'True', ['True', 'False'])
  const many = Array.from({ length: 15 }, (_, i) => `Option ${i + 1}`)
  rejects(t, 'select', 'x', 'INPUT_NOT_AN_OPTION', /Option 10, …\.$/, many)
  accepts(t, 'select', 'cafe\u0301', 'Café', ['Café'])
})
