// What the author sees while typing (live checks with positions), the `{{`/`[[` typeahead, and the whole-set
// checks (computed by the server, test/api/authoring/rule-pages.test.ts) arranged by node.
import t from 'tap'
import { checkField, columnOf, knownNames } from '../../../islands/rule-tree/live-checks.ts'
import { insertReference, matchEntries, triggerAt } from '../../../islands/rule-tree/typeahead.ts'
import { issuesByNode } from '../../../islands/rule-tree/set-checks.ts'
import { fieldOfMessage } from '../../../islands/rule-tree/api.ts'
import type { DictionaryEntry } from '../../../islands/rule-tree/props.ts'

const entries: DictionaryEntry[] = [
  { id: 1, name: 'Age', kind: 'variable', dataType: 'number', expression: null },
  { id: 2, name: 'Income', kind: 'variable', dataType: 'number', expression: null },
  { id: 3, name: 'Agency', kind: 'variable', dataType: 'text', expression: null },
  { id: 4, name: 'Ratio', kind: 'formula', dataType: 'number', expression: '{{Income}} / 12' },
  { id: 5, name: 'MonthlyAge', kind: 'variable', dataType: 'number', expression: null },
]
const known = knownNames(entries)
const condition = { kind: 'expression', mode: 'condition' } as const

t.test('a lone = in a condition is an error at its column', async (t) => {
  const [issue] = checkField(condition, '{{Age}} = 5', known)
  t.equal(issue?.code, 'PARSE_ASSIGNMENT_IN_CONDITION')
  t.same(issue?.span, { start: 8, end: 9 })
  t.equal(columnOf(issue!.span!), 9)
})

t.test('the date functions are known to live checks; a wrong arity is named at the call', async (t) => {
  const value = { kind: 'expression', mode: 'value' } as const
  for (const source of ['age({{Age}})', 'age({{Age}}, today())', 'yearsBetween(today(), today())', 'monthsBetween(today(), today())',
    'daysBetween(today(), today())', 'addYears(today(), 1)', 'addMonths(today(), -1)', 'addDays(today(), 30)']) {
    t.same(checkField(value, source, known), [], source)
  }
  const [issue] = checkField(condition, 'yearsBetween(today()) > 3', known)
  t.equal(issue?.code, 'WRONG_ARGUMENT_COUNT')
  t.equal(issue?.message, 'yearsBetween() takes two dates, but was given 1.')
  const [unknown] = checkField(condition, 'ageOf(today()) > 3', known)
  t.match(unknown?.message, /Available: .*age, addYears, addMonths, addDays/)
})

t.test('an expression that ends too early points just past its end', async (t) => {
  const [issue] = checkField(condition, '{{Age}} >', known)
  t.equal(issue?.code, 'PARSE_UNEXPECTED_END')
  t.equal(columnOf(issue!.span!), 10)
})

t.test('unknown variables and formulas are named with their place; known ones and reserved names pass', async (t) => {
  const issues = checkField(condition, '{{Age}} > 1 && {{Agee}} < [[Ratio]] + [[Rate]] && {{Context}} == "x"', known)
  t.same(issues.map((issue) => [issue.code, issue.message, issue.span?.start]), [
    ['UNKNOWN_VARIABLE', '{{Agee}} is not in the dictionary.', 15],
    ['UNKNOWN_FORMULA', '[[Rate]] is not in the dictionary.', 38],
  ])
  t.same(checkField(condition, '{{Age}} > 1', known), [])
})

t.test('assignments check their target; templates their tags; name fields their name', async (t) => {
  t.same(checkField({ kind: 'expression', mode: 'assignment' }, '{{Total}} += {{Income}}', known).map((i) => [i.code, i.span]), [['UNKNOWN_VARIABLE', { start: 2, end: 7 }]])
  t.same(checkField({ kind: 'expression', mode: 'assignment' }, '{{Age}} == 3', known).map((i) => i.code), ['PARSE_EXPECTED_ASSIGNMENT'])
  t.same(checkField({ kind: 'template', multiline: true }, 'At {{Age}}, [[Ratio]] and {{Nope}}', known).map((i) => [i.message, i.span]), [
    ['{{Nope}} is not in the dictionary.', { start: 26, end: 34 }],
  ])
  t.same(checkField({ kind: 'name', names: 'variable' }, '{{Age}}', known), [])
  t.same(checkField({ kind: 'name', names: 'formula' }, 'Age', known).map((i) => i.code), ['UNKNOWN_FORMULA'])
  t.same(checkField({ kind: 'name', names: 'variable' }, 'bad name', known).map((i) => i.code), ['INVALID_NAME'])
  t.same(checkField(condition, '   ', known), [], 'empty values are left to the server')
})

t.test('typeahead: {{ lists variables and [[ formulas, filtered by what follows, prefix matches first', async (t) => {
  t.same(triggerAt('{{Ag', 4), { kind: 'variable', start: 0, query: 'Ag' })
  t.same(triggerAt('x > [[', 6), { kind: 'formula', start: 4, query: '' })
  t.equal(triggerAt('{{Age}} > 3', 11), null, 'a closed reference is not a trigger')
  t.same(triggerAt('{{Age', 2), { kind: 'variable', start: 0, query: '' }, 'right after the brackets everything matches')
  t.equal(triggerAt('{{Age > 3', 9), null, 'an operator ends the reference')
  t.same(matchEntries(entries, { kind: 'variable', start: 0, query: 'age' }).map((e) => e.name), ['Age', 'Agency', 'MonthlyAge'])
  t.same(matchEntries(entries, { kind: 'formula', start: 0, query: '' }).map((e) => e.name), ['Ratio'])
  t.same(matchEntries(entries, { kind: 'variable', start: 0, query: 'zz' }), [])
})

t.test('inserting a reference replaces what was typed, and closing brackets already there', async (t) => {
  const trigger = triggerAt('{{Ag > 3', 4)!
  t.same(insertReference('{{Ag > 3', 4, trigger, 'Age'), { text: '{{Age}} > 3', caret: 7 })
  const closed = triggerAt('x + {{In}}', 8)!
  t.same(insertReference('x + {{In}}', 8, closed, 'Income'), { text: 'x + {{Income}}', caret: 14 })
  const formula = triggerAt('[[', 2)!
  t.same(insertReference('[[', 2, formula, 'Ratio'), { text: '[[Ratio]]', caret: 9 })
})

t.test('issues by node put errors before warnings and skip dictionary issues', async (t) => {
  const byNode = issuesByNode([
    { nodeId: '5', ruleId: '7', code: 'W', severity: 'warning', message: 'w' },
    { nodeId: '5', ruleId: '7', code: 'E', severity: 'error', message: 'e' },
    { nodeId: '3', ruleId: null, code: 'UNUSED_VARIABLE', severity: 'warning', message: 'u' },
  ], 7)
  t.same([...byNode.keys()], [5])
  t.same(byNode.get(5)!.map((issue) => issue.code), ['E', 'W'])
})

t.test('a server validation message names its field', async (t) => {
  t.equal(fieldOfMessage('expression: Use == to compare (position 8)'), 'expression')
  t.equal(fieldOfMessage('sources.2: needs id and name.'), 'sources')
  t.equal(fieldOfMessage('This node is not deleted.'), null)
})

t.test('a name the dictionary lacks says what to create, and whether the node reads it', async (t) => {
  t.same(checkField(condition, '{{Income}} > 1 && {{Debts}} > [[Ratio2]]', known).map((i) => i.missing), [
    { kind: 'variable', name: 'Debts', read: true },
    { kind: 'formula', name: 'Ratio2', read: true },
  ])
  t.same(checkField({ kind: 'expression', mode: 'assignment' }, '{{Total}} = 1', known)[0]?.missing, { kind: 'variable', name: 'Total', read: false }, 'a target is set, not read')
  t.same(checkField({ kind: 'name', names: 'variable' }, 'Market_Rate', known)[0]?.missing, { kind: 'variable', name: 'Market_Rate', read: false })
  t.same(checkField({ kind: 'name', names: 'formula' }, '[[Share]]', known)[0]?.missing, { kind: 'formula', name: 'Share', read: false })
  t.same(checkField({ kind: 'template', multiline: false }, 'Hi {{Name}}', known)[0]?.missing, { kind: 'variable', name: 'Name', read: true })
})
