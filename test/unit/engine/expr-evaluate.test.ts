import t from 'tap'
import { engineErrorOf } from '../../helpers/engine.ts'
import { EngineError } from '../../../src/engine/errors.ts'
import { compileExpression, parseExpression, type Scope } from '../../../src/engine/expr/index.ts'
import type { Value } from '../../../src/engine/value.ts'

const NOW = new Date(Date.UTC(2025, 0, 15, 22, 30))
const day = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d))

function scopeOf(values: Record<string, Value>, reads: string[] = []): Scope {
  return {
    lookup(kind, name) {
      reads.push(`${kind}:${name}`)
      return name in values ? values[name]! : null
    },
    now: NOW,
  }
}

const VARS: Record<string, Value> = {
  Age: 20,
  Income: 40_000,
  Name: 'Ann',
  Zip: '12345',
  Start: day(2024, 5, 1),
  Tags: ['vip', 'new'],
  Yes: true,
  No: false,
  Blank: null,
  Empty: '',
}

const run = (source: string, values: Record<string, Value> = VARS): Value => compileExpression(parseExpression(source))(scopeOf(values))

function runError(source: string, values: Record<string, Value> = VARS): EngineError {
  const compiled = compileExpression(parseExpression(source))
  return engineErrorOf(() => compiled(scopeOf(values)), source)
}

t.test('arithmetic and precedence', async (t) => {
  t.equal(run('1 + 2 * 3'), 7)
  t.equal(run('(1 + 2) * 3'), 9)
  t.equal(run('10 - 4 - 3'), 3)
  t.equal(run('24 / 4 / 2'), 3)
  t.equal(run('2 ^ 3 ^ 2'), 512)
  t.equal(run('-2 ^ 2'), -4)
  t.equal(run('(-2) ^ 2'), 4)
  t.equal(run('2 ^ -1'), 0.5)
  t.equal(run('- {{Age}}'), -20)
  t.equal(run('{{Age}} * 2 + 1'), 41)
  t.equal(run('7 / 2'), 3.5)
  t.equal(run('0.1 + 0.2 == 0.3'), false, 'numbers are binary floating point, as in any calculator program')
})

t.test('text joining with +', async (t) => {
  t.equal(run('"Hello " + {{Name}}'), 'Hello Ann')
  t.equal(run('{{Name}} + " is " + {{Age}}'), 'Ann is 20')
  t.equal(run('1 + "a"'), '1a')
  t.equal(run('"a" + true'), 'atrue')
  t.equal(run('"from " + {{Start}}'), 'from 2024-05-01')
  t.equal(run('"x" + {{Blank}}'), 'x', 'no value joins as nothing')
  t.equal(run('"tags: " + {{Tags}}'), 'tags: vip, new')
})

t.test('dates in arithmetic', async (t) => {
  t.same(run('{{Start}} + 30'), day(2024, 5, 31))
  t.same(run('30 + {{Start}}'), day(2024, 5, 31))
  t.same(run('{{Start}} - 1'), day(2024, 4, 30))
  t.equal(run('#2024-06-01# - {{Start}}'), 31)
  t.equal(run('{{Start}} - #2024-06-01#'), -31)
})

t.test('comparisons', async (t) => {
  t.equal(run('{{Age}} >= 18'), true)
  t.equal(run('{{Age}} > 20'), false)
  t.equal(run('{{Age}} <= 20'), true)
  t.equal(run('{{Age}} < 20'), false)
  t.equal(run('18 < {{Age}}'), true, 'constant on the left')
  t.equal(run('{{Age}} < {{Income}}'), true, 'two references')
  t.equal(run('"apple" < "banana"'), true)
  t.equal(run('"Zebra" < "apple"'), true, 'text orders by character code')
  t.equal(run('{{Start}} < #2024-05-02#'), true)
  t.equal(run('{{Start}} >= #2024-05-01#'), true)
  t.equal(run('{{Age}} == 20'), true)
  t.equal(run('{{Age}} != 20'), false)
  t.equal(run('{{Age}} <> 21'), true)
  t.equal(run('{{Name}} == "Ann"'), true)
  t.equal(run('{{Name}} == "ann"'), false, 'text equality is exact')
  t.equal(run('{{Start}} == #2024-05-01#'), true, 'dates compare by moment')
  t.equal(run('{{Tags}} == ["vip", "new"]'), true, 'lists compare item by item')
  t.equal(run('{{Tags}} == ["new", "vip"]'), false)
  t.equal(run('20 == "20"'), false, 'different kinds are never equal')
  t.equal(run('20 != "20"'), true)
  t.equal(run('{{Yes}} == true'), true)
})

t.test('no value (null)', async (t) => {
  t.equal(run('{{Blank}} + 1'), null)
  t.equal(run('{{Blank}} - 1'), null)
  t.equal(run('{{Blank}} * 2'), null)
  t.equal(run('{{Blank}} / 2'), null)
  t.equal(run('{{Blank}} ^ 2'), null)
  t.equal(run('-{{Blank}}'), null)
  t.equal(run('{{Blank}} == {{Missing}}'), true, 'no value equals no value')
  t.equal(run('{{Blank}} == 0'), false)
  t.equal(run('{{Blank}} != 0'), true)
  t.equal(run('{{Blank}} < 5'), false, 'ordering with no value is false')
  t.equal(run('{{Blank}} >= 5'), false)
  t.equal(run('5 > {{Blank}}'), false)
  t.equal(run('{{Blank}} && true'), false, 'no value counts as false in logic')
  t.equal(run('{{Blank}} || true'), true)
  t.equal(run('!{{Blank}}'), true)
  t.equal(run('if({{Blank}}, 1, 2)'), 2)
  t.equal(run('{{Blank}}.includes("a")'), false)
  t.equal(run('{{Blank}}.match(/a/)'), false)
})

t.test('logic short-circuits and needs true/false', async (t) => {
  t.equal(run('true && false'), false)
  t.equal(run('true || false'), true)
  t.equal(run('not true'), false)
  t.equal(run('{{Yes}} and not {{No}}'), true)
  const reads: string[] = []
  compileExpression(parseExpression('{{No}} && {{Other}}'))(scopeOf(VARS, reads))
  t.same(reads, ['variable:No'], '&& stops at the first false')
  reads.length = 0
  compileExpression(parseExpression('{{Yes}} || {{Other}}'))(scopeOf(VARS, reads))
  t.same(reads, ['variable:Yes'], '|| stops at the first true')
  reads.length = 0
  compileExpression(parseExpression('if({{Yes}}, {{A}}, {{B}})'))(scopeOf(VARS, reads))
  t.same(reads, ['variable:Yes', 'variable:A'], 'if() evaluates only the branch it takes')
})

t.test('.match and .includes', async (t) => {
  t.equal(run('{{Zip}}.match(/^\\d{5}$/)'), true)
  t.equal(run('{{Zip}}.match("^\\\\d{4}$")'), false)
  t.equal(run('{{Name}}.match(/^a/i)'), true, 'flags apply')
  t.equal(run('{{Name}}.match(/^a/)'), false)
  t.equal(run('{{Age}}.match(/^2/)'), true, 'numbers are matched as written')
  t.equal(run('{{Name}}.match({{P}})', { ...VARS, P: 'n+$' }), true, 'a pattern from a variable')
  t.equal(run('{{Name}}.match({{P}})', { ...VARS, P: 'x' }), false)
  t.equal(run('{{Name}}.includes("nn")'), true)
  t.equal(run('{{Name}}.includes("x")'), false)
  t.equal(run('{{Tags}}.includes("vip")'), true)
  t.equal(run('{{Tags}}.includes("VIP")'), false)
  t.equal(run('[1, 2, 3].includes({{Two}})', { Two: 2 }), true)
  t.equal(run('[#2024-05-01#].includes({{Start}})'), true)
})

t.test('standard library', async (t) => {
  t.equal(run('round(2.5)'), 3)
  t.equal(run('round(-2.5)'), -3, 'halves round away from zero')
  t.equal(run('round(1.005, 2)'), 1.01)
  t.equal(run('round(1234.5678, -2)'), 1200)
  t.equal(run('round({{Blank}})'), null)
  t.equal(run('floor(2.7)'), 2)
  t.equal(run('floor(-2.1)'), -3)
  t.equal(run('ceil(2.1)'), 3)
  t.equal(run('abs(-4)'), 4)
  t.equal(run('min(3, 1, 2)'), 1)
  t.equal(run('max(3, 1, 2)'), 3)
  t.equal(run('max([1, 9], 3)'), 9, 'lists are opened')
  t.equal(run('min({{Blank}}, 4)'), 4, 'no value is skipped')
  t.equal(run('min({{Blank}})'), null)
  t.same(run('max(#2024-01-01#, {{Start}})'), day(2024, 5, 1), 'dates too')
  t.equal(run('sum(1, [2, 3], {{Blank}})'), 6)
  t.equal(run('if({{Age}} >= 18, "adult", "minor")'), 'adult')
  t.same(run('today()'), day(2025, 1, 15), 'the calendar day (UTC) of scope.now')
  t.equal(run('year({{Start}})'), 2024)
  t.equal(run('month({{Start}})'), 5)
  t.equal(run('day({{Start}})'), 1)
  t.equal(run('year({{Blank}})'), null)
  t.equal(run('daysBetween({{Start}}, today())'), 259)
  t.equal(run('daysBetween(today(), {{Start}})'), -259)
  t.same(run('date("2024-02-29")'), day(2024, 2, 29))
  t.same(run('date(" 2024-02-29 ")'), day(2024, 2, 29))
  t.same(run('date(2024, 2, 29)'), day(2024, 2, 29))
  t.same(run('date({{Start}})'), day(2024, 5, 1))
  t.equal(run('date("")'), null)
  t.equal(run('isBlank({{Blank}})'), true)
  t.equal(run('isBlank({{Empty}})'), true)
  t.equal(run('isBlank("  ")'), true)
  t.equal(run('isBlank([])'), true)
  t.equal(run('isBlank(0)'), false)
  t.equal(run('isSet({{Name}})'), true)
  t.equal(run('isSet({{Blank}})'), false)
  t.equal(run('len({{Name}})'), 3)
  t.equal(run('len({{Tags}})'), 2)
  t.equal(run('len({{Blank}})'), 0)
  t.equal(run('count(["a", "", {{Blank}}, "b"])'), 2, 'count skips blank items')
  t.equal(run('concat({{Name}}, "-", 7, {{Blank}})'), 'Ann-7')
  t.equal(run('lower("AbC")'), 'abc')
  t.equal(run('upper("AbC")'), 'ABC')
  t.equal(run('number(" 4.5 ")'), 4.5)
  t.equal(run('number("-1e3")'), -1000)
  t.equal(run('number(true)'), 1)
  t.equal(run('number("")'), null)
  t.equal(run('text(4.5)'), '4.5')
  t.equal(run('text({{Start}})'), '2024-05-01')
  t.equal(run('text({{Blank}})'), '')
  t.equal(run('text(false)'), 'false')
})

t.test('runtime errors have codes, readable messages and spans', async (t) => {
  const cases: Array<[string, string, { start: number; end: number }, RegExp]> = [
    ['1 / 0', 'DIVISION_BY_ZERO', { start: 0, end: 5 }, /divide by zero/],
    ['{{Age}} / ({{Age}} - 20)', 'DIVISION_BY_ZERO', { start: 0, end: 24 }, /divide by zero/],
    ['{{Age}} >= "18"', 'TYPE_MISMATCH', { start: 0, end: 15 }, />= \(at least\) with a number and text/],
    ['{{Name}} < 3', 'TYPE_MISMATCH', { start: 0, end: 12 }, /with text and a number/],
    ['true > false', 'TYPE_MISMATCH', { start: 0, end: 12 }, /true\/false and true\/false/],
    ['{{Age}} - "1"', 'TYPE_MISMATCH', { start: 0, end: 13 }, /- \(subtract\) with a number and text/],
    ['{{Name}} * 2', 'TYPE_MISMATCH', { start: 0, end: 12 }, /\* \(multiply\)/],
    ['{{Start}} + {{Start}}', 'TYPE_MISMATCH', { start: 0, end: 21 }, /a date and a date/],
    ['{{Tags}} + 1', 'TYPE_MISMATCH', { start: 0, end: 12 }, /a list and a number/],
    ['-{{Name}}', 'TYPE_MISMATCH', { start: 0, end: 9 }, /needs a number, but got text/],
    ['{{Age}} && true', 'TYPE_MISMATCH', { start: 0, end: 15 }, /&& \(and\) needs true\/false, but got a number/],
    ['false || "x"', 'TYPE_MISMATCH', { start: 0, end: 12 }, /\|\| \(or\)/],
    ['!{{Age}}', 'TYPE_MISMATCH', { start: 0, end: 8 }, /! \(not\)/],
    ['if(1, 2, 3)', 'TYPE_MISMATCH', { start: 0, end: 11 }, /if needs true\/false/],
    ['{{Yes}}.includes("a")', 'TYPE_MISMATCH', { start: 0, end: 21 }, /\.includes/],
    ['{{Name}}.includes(1)', 'TYPE_MISMATCH', { start: 0, end: 20 }, /\.includes/],
    ['{{Tags}}.match(/a/)', 'TYPE_MISMATCH', { start: 0, end: 19 }, /needs text, but got a list/],
    ['{{Name}}.match({{Age}})', 'TYPE_MISMATCH', { start: 15, end: 22 }, /pattern written as text/],
    ['{{Name}}.match({{P}})', 'INVALID_PATTERN', { start: 15, end: 20 }, /not valid/],
    ['{{Long}}.match(/a/)', 'MATCH_SUBJECT_TOO_LONG', { start: 0, end: 19 }, /10000 characters/],
    ['10 ^ 400', 'NUMBER_OUT_OF_RANGE', { start: 0, end: 8 }, /too large/],
    ['(-8) ^ 0.5', 'NUMBER_OUT_OF_RANGE', { start: 0, end: 10 }, /not a real number/],
    ['{{Huge}} * {{Huge}}', 'NUMBER_OUT_OF_RANGE', { start: 0, end: 19 }, /too large/],
    ['{{Huge}} + {{Huge}}', 'NUMBER_OUT_OF_RANGE', { start: 0, end: 19 }, /too large/],
    ['round("1")', 'TYPE_MISMATCH', { start: 0, end: 10 }, /round\(\) needs a number, but got text/],
    ['round(1.5, 0.5)', 'INVALID_ARGUMENT', { start: 0, end: 15 }, /whole number of decimals/],
    ['floor("x")', 'TYPE_MISMATCH', { start: 0, end: 10 }, /floor\(\) needs a number/],
    ['max(1, "a")', 'TYPE_MISMATCH', { start: 0, end: 11 }, /only numbers/],
    ['sum(1, true)', 'TYPE_MISMATCH', { start: 0, end: 12 }, /only numbers/],
    ['year("2024-01-01")', 'TYPE_MISMATCH', { start: 0, end: 18 }, /year\(\) needs a date, but got text/],
    ['daysBetween(1, 2)', 'TYPE_MISMATCH', { start: 0, end: 17 }, /needs a date/],
    ['date("01/05/2024")', 'INVALID_DATE', { start: 0, end: 18 }, /YYYY-MM-DD/],
    ['date(2023, 2, 29)', 'INVALID_DATE', { start: 0, end: 17 }, /no date with year 2023, month 2 and day 29/],
    ['date(true)', 'TYPE_MISMATCH', { start: 0, end: 10 }, /date\(\) needs text/],
    ['number("12abc")', 'INVALID_NUMBER', { start: 0, end: 15 }, /"12abc" is not a number/],
    ['number([1])', 'TYPE_MISMATCH', { start: 0, end: 11 }, /number\(\) needs text or true\/false/],
    ['len(5)', 'TYPE_MISMATCH', { start: 0, end: 6 }, /len\(\) needs text or a list/],
    ['count("abc")', 'TYPE_MISMATCH', { start: 0, end: 12 }, /count\(\) needs a list/],
    ['lower(1)', 'TYPE_MISMATCH', { start: 0, end: 8 }, /lower\(\) needs text/],
  ]
  const values = { ...VARS, P: '(', Long: 'a'.repeat(10_001), Huge: 1e308 }
  for (const [source, code, span, message] of cases) {
    const error = runError(source, values)
    t.equal(error.code, code, `${source} -> ${code}`)
    t.same(error.span, span, `${source} span`)
    t.match(error.message, message, `${source} message`)
  }
})

t.test('errors of the scope pass through unchanged', async (t) => {
  const scope: Scope = {
    lookup(_kind, name) {
      throw new EngineError('UNSET_VARIABLE', `${name} has no value yet.`)
    },
    now: NOW,
  }
  t.throws(() => compileExpression(parseExpression('{{Age}} > 3'))(scope), { code: 'UNSET_VARIABLE' })
})

t.test('constant parts are computed once, and failing ones still fail at evaluation', async (t) => {
  const compiled = compileExpression(parseExpression('1 / 0 > 1'))
  t.throws(() => compiled(scopeOf({})), { code: 'DIVISION_BY_ZERO' }, 'compiling did not throw; evaluating does')
  const reads: string[] = []
  t.equal(compileExpression(parseExpression('(2 + 3) * {{Age}}'))(scopeOf(VARS, reads)), 100)
  t.same(reads, ['variable:Age'])
  const later = new Date(Date.UTC(2030, 0, 1))
  const todayYear = compileExpression(parseExpression('year(today())'))
  t.equal(todayYear({ lookup: () => null, now: later }), 2030, 'today() is never folded')
  t.equal(todayYear({ lookup: () => null, now: NOW }), 2025)
})

t.test('a regex literal is compiled once, not per evaluation', async (t) => {
  const compiled = compileExpression(parseExpression('{{Zip}}.match(/^\\d+$/)'))
  const original = globalThis.RegExp
  let constructed = 0
  globalThis.RegExp = new Proxy(original, {
    construct(target, args) {
      constructed++
      return Reflect.construct(target, args)
    },
  })
  try {
    for (let i = 0; i < 100; i++) compiled(scopeOf({ Zip: String(i) }))
  } finally {
    globalThis.RegExp = original
  }
  t.equal(constructed, 0)
})

t.test('a caller can bind references once instead of looking them up on every evaluation', async (t) => {
  const slots: Value[] = [20, 40_000]
  const bound: string[] = []
  const compiled = compileExpression(parseExpression('{{Age}} >= 18 && {{Income}} < 50000'), {
    bindReference(kind, name) {
      bound.push(`${kind}:${name}`)
      const slot = name === 'Age' ? 0 : 1
      return () => slots[slot]!
    },
  })
  t.same(bound, ['variable:Age', 'variable:Income'], 'each reference is bound at compile time')
  const scope = scopeOf({})
  t.equal(compiled(scope), true)
  slots[1] = 60_000
  t.equal(compiled(scope), false)
  t.same(bound.length, 2, 'evaluation binds nothing more')
})

t.test('moving a date beyond the calendar is an error, not an invalid date', async (t) => {
  const error = runError('{{Start}} + 1e12')
  t.equal(error.code, 'INVALID_DATE')
  t.same(error.span, { start: 0, end: 16 })
})
