// The date functions of the expression language (issue 24 defect 5): age, yearsBetween, monthsBetween, daysBetween,
// addYears, addMonths, addDays — at leap days and month ends, with the sign rule, no value in → no value out, and
// properties that tie counting to moving (a date moved n months on is n whole months later).
import t from 'tap'
import fc from 'fast-check'
import { engineErrorOf } from '../../helpers/engine.ts'
import { compileExpression, parseExpression, type Scope } from '../../../src/engine/expr/index.ts'
import type { Value } from '../../../src/engine/value.ts'

const day = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d))
/** A run at 22:30 on 2025-03-01: today() is 2025-03-01 (the run's day), not the moment. */
const NOW = new Date(Date.UTC(2025, 2, 1, 22, 30))

function scope(values: Record<string, Value>, now = NOW): Scope {
  return { lookup: (_kind, name) => (name in values ? values[name]! : null), now }
}
const run = (source: string, values: Record<string, Value> = {}, now = NOW): Value => compileExpression(parseExpression(source))(scope(values, now))
const failure = (source: string, values: Record<string, Value> = {}) => {
  const compiled = compileExpression(parseExpression(source))
  return engineErrorOf(() => compiled(scope(values)), source)
}

t.test('age: whole completed years as of the run\'s today, or as of a given date', async (t) => {
  t.equal(run('age({{Born}})', { Born: day(1960, 3, 1) }), 65, 'birthday today: the year is completed')
  t.equal(run('age({{Born}})', { Born: day(1960, 3, 2) }), 64, 'birthday tomorrow: not yet')
  t.equal(run('age({{Born}}, date("2000-01-01"))', { Born: day(1960, 3, 2) }), 39)
  t.equal(run('age({{Born}})', { Born: day(2025, 3, 1) }), 0)
  t.equal(run('age({{Born}})', { Born: day(2030, 3, 1) }), -5, 'a date after asOf gives a negative age')
  // Feb 29 birthdays: in a non-leap year the year completes on Feb 28 (addYears moves Feb 29 to Feb 28).
  t.equal(run('age({{Born}}, date("2025-02-28"))', { Born: day(2000, 2, 29) }), 25)
  t.equal(run('age({{Born}}, date("2025-02-27"))', { Born: day(2000, 2, 29) }), 24)
  t.equal(run('age({{Born}}, date("2024-02-28"))', { Born: day(2000, 2, 29) }), 23, 'in a leap year not before Feb 29')
  t.equal(run('age({{Born}}, date("2024-02-29"))', { Born: day(2000, 2, 29) }), 24)
  t.equal(run('age({{Born}})', { Born: day(2021, 2, 28) }, new Date(Date.UTC(2025, 1, 28, 0, 0))), 4)
  t.equal(run('age({{Born}})', { Born: null }), null, 'no date, no age')
  t.equal(run('age({{Born}}, {{AsOf}})', { Born: day(2000, 1, 1), AsOf: null }), null)
  t.match(failure('age(1960)'), { code: 'TYPE_MISMATCH', message: /age\(\) needs a date/ })
  t.match(engineErrorOf(() => parseExpression('age()'), 'age()'), { code: 'WRONG_ARGUMENT_COUNT', message: /age\(\) takes a date and optionally the date to count to/ })
})

t.test('yearsBetween: whole years, negative when the second date is earlier', async (t) => {
  t.equal(run('yearsBetween(date("2020-06-15"), date("2025-06-15"))'), 5)
  t.equal(run('yearsBetween(date("2020-06-15"), date("2025-06-14"))'), 4)
  t.equal(run('yearsBetween(date("2025-06-15"), date("2020-06-15"))'), -5)
  t.equal(run('yearsBetween(date("2025-06-14"), date("2020-06-15"))'), -4, 'the same count with a minus sign')
  t.equal(run('yearsBetween(date("2025-06-15"), date("2025-01-01"))'), 0, 'less than a year back is 0 (never -0)')
  t.ok(Object.is(run('yearsBetween(date("2025-06-15"), date("2025-01-01"))'), 0))
  t.equal(run('yearsBetween(date("2024-02-29"), date("2025-02-28"))'), 1, 'Feb 29 → Feb 28 of the next year is a year')
  t.equal(run('yearsBetween(date("2024-02-29"), date("2028-02-28"))'), 3, 'but not in a leap year, which has Feb 29')
  t.equal(run('yearsBetween(date("2024-02-29"), date("2028-02-29"))'), 4)
  t.equal(run('yearsBetween(date("2023-12-31"), date("2024-12-31"))'), 1)
  t.equal(run('yearsBetween(date("2024-06-15T23:00Z"), date("2025-06-15T01:00Z"))'), 1, 'counted between calendar days')
  t.equal(run('yearsBetween({{A}}, date("2025-01-01"))', { A: null }), null)
  t.match(failure('yearsBetween("2020-01-01", today())'), { code: 'TYPE_MISMATCH', message: /yearsBetween\(\) needs a date/ })
})

t.test('monthsBetween: whole months, end of month counts as the clamped day', async (t) => {
  t.equal(run('monthsBetween(date("2025-01-15"), date("2025-03-15"))'), 2)
  t.equal(run('monthsBetween(date("2025-01-15"), date("2025-03-14"))'), 1)
  t.equal(run('monthsBetween(date("2025-01-31"), date("2025-02-28"))'), 1, 'Jan 31 + 1 month is Feb 28')
  t.equal(run('monthsBetween(date("2025-01-31"), date("2025-02-27"))'), 0)
  t.equal(run('monthsBetween(date("2024-01-31"), date("2024-02-28"))'), 0, 'in a leap year Jan 31 + 1 month is Feb 29')
  t.equal(run('monthsBetween(date("2024-01-31"), date("2024-02-29"))'), 1)
  t.equal(run('monthsBetween(date("2025-01-31"), date("2025-03-30"))'), 1, 'Jan 31 + 2 months is Mar 31')
  t.equal(run('monthsBetween(date("2025-01-31"), date("2025-03-31"))'), 2)
  t.equal(run('monthsBetween(date("2024-02-29"), date("2024-03-29"))'), 1)
  t.equal(run('monthsBetween(date("2025-03-15"), date("2025-01-15"))'), -2)
  t.equal(run('monthsBetween(date("2025-03-14"), date("2025-01-15"))'), -1, 'the same count with a minus sign')
  t.equal(run('monthsBetween(date("2024-12-31"), date("2025-01-01"))'), 0)
  t.equal(run('monthsBetween(date("2024-12-01"), date("2025-01-01"))'), 1, 'across a year end')
})

t.test('daysBetween: whole calendar days, leap days counted', async (t) => {
  t.equal(run('daysBetween(date("2024-02-28"), date("2024-03-01"))'), 2, 'a leap year has Feb 29')
  t.equal(run('daysBetween(date("2025-02-28"), date("2025-03-01"))'), 1)
  t.equal(run('daysBetween(date("2025-01-31"), date("2025-02-01"))'), 1)
  t.equal(run('daysBetween(date("2025-03-01"), date("2025-02-28"))'), -1)
  t.equal(run('daysBetween(date("2024-01-01"), date("2025-01-01"))'), 366)
  t.equal(run('daysBetween(date("2025-03-01T23:59Z"), date("2025-03-02T00:01Z"))'), 1, 'calendar days, not 24-hour spans')
})

t.test('addMonths and addYears clamp to the end of the month', async (t) => {
  t.same(run('addMonths(date("2025-01-31"), 1)'), day(2025, 2, 28))
  t.same(run('addMonths(date("2024-01-31"), 1)'), day(2024, 2, 29), 'a leap year has Feb 29')
  t.same(run('addMonths(date("2025-03-31"), -1)'), day(2025, 2, 28))
  t.same(run('addMonths(date("2025-01-31"), 3)'), day(2025, 4, 30))
  t.same(run('addMonths(date("2025-05-31"), -12)'), day(2024, 5, 31))
  t.same(run('addMonths(date("2024-11-30"), 3)'), day(2025, 2, 28), 'across a year end')
  t.same(run('addMonths(date("2025-01-15"), -25)'), day(2022, 12, 15))
  t.same(run('addMonths(date("2025-01-15T10:30Z"), 1)'), new Date(Date.UTC(2025, 1, 15, 10, 30)), 'the time of day is kept')
  t.same(run('addYears(date("2024-02-29"), 1)'), day(2025, 2, 28), 'Feb 29 in a non-leap year is Feb 28')
  t.same(run('addYears(date("2024-02-29"), 4)'), day(2028, 2, 29))
  t.same(run('addYears(date("2024-02-29"), -1)'), day(2023, 2, 28))
  t.same(run('addYears(date("2025-12-31"), 10)'), day(2035, 12, 31))
  t.equal(run('addYears({{D}}, 1)', { D: null }), null)
  t.equal(run('addMonths(date("2025-01-01"), {{N}})', { N: null }), null)
  t.match(failure('addMonths(date("2025-01-01"), 1.5)'), { code: 'INVALID_ARGUMENT', message: 'addMonths() needs a whole number of months, but got 1.5.' })
  t.match(failure('addYears(date("2025-01-01"), 1000000)'), { code: 'INVALID_DATE', message: /beyond the calendar/ })
  t.match(failure('addYears(2025, 1)'), { code: 'TYPE_MISMATCH', message: /addYears\(\) needs a date/ })
})

t.test('addDays moves whole days across month ends and leap days', async (t) => {
  t.same(run('addDays(date("2024-02-28"), 1)'), day(2024, 2, 29))
  t.same(run('addDays(date("2025-02-28"), 1)'), day(2025, 3, 1))
  t.same(run('addDays(date("2025-03-01"), -1)'), day(2025, 2, 28))
  t.same(run('addDays(date("2024-12-31"), 1)'), day(2025, 1, 1))
  t.same(run('addDays(today(), 30)'), day(2025, 3, 31), 'from the run\'s today')
  t.match(failure('addDays(date("2025-01-01"), 0.5)'), { code: 'INVALID_ARGUMENT', message: 'addDays() needs a whole number of days, but got 0.5.' })
  t.match(failure('addDays(date("2025-01-01"), "1")'), { code: 'TYPE_MISMATCH', message: /addDays\(\) needs a number/ })
})

const dates = fc.integer({ min: Date.UTC(1900, 0, 1) / 86_400_000, max: Date.UTC(2100, 11, 31) / 86_400_000 }).map((d) => new Date(d * 86_400_000))

t.test('properties: counting undoes moving, the sign rule, age is yearsBetween to today', async (t) => {
  fc.assert(fc.property(dates, fc.integer({ min: 0, max: 600 }), (a, n) => {
    const values = { A: a, N: n }
    return run('monthsBetween({{A}}, addMonths({{A}}, {{N}}))', values) === n
      && run('yearsBetween({{A}}, addYears({{A}}, {{N}}))', values) === n
      && run('daysBetween({{A}}, addDays({{A}}, {{N}}))', values) === n
      && run('age({{A}}, addYears({{A}}, {{N}}))', values) === n
  }), { numRuns: 500 })
  fc.assert(fc.property(dates, dates, (a, b) => {
    const values = { A: a, B: b }
    const years = run('yearsBetween({{A}}, {{B}})', values) as number
    const months = run('monthsBetween({{A}}, {{B}})', values) as number
    return years === -(run('yearsBetween({{B}}, {{A}})', values) as number) + 0
      && months === -(run('monthsBetween({{B}}, {{A}})', values) as number) + 0
      && Math.abs(years) === Math.floor(Math.abs(months) / 12)
      && run('age({{A}})', values, b) === run('yearsBetween({{A}}, {{B}})', values)
  }), { numRuns: 500 })
  t.pass('1,000 random dates')
})
