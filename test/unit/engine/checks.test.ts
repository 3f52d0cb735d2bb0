import t from 'tap'
import { staticChecks } from '../../../src/engine/checks/index.ts'
import type { CheckIssue } from '../../../src/engine/checks/index.ts'
import type { AdviceSetModel } from '../../../src/engine/model.ts'
import { advice, adviceSet, always, api, ask, assign, call, condition, exit, formula, formulaNode, rule, variable } from '../../fixtures/engine/build.ts'
import { largeCheckedSet } from '../../fixtures/engine/large-checked-set.ts'

const codes = (issues: CheckIssue[], code: string) => issues.filter((issue) => issue.code === code)
const at = (issues: CheckIssue[], code: string) => codes(issues, code).map((issue) => issue.nodeId)

function checks(model: AdviceSetModel) {
  return staticChecks(model)
}

t.test('a clean advice set has no issues', async (t) => {
  const model = adviceSet(
    [rule('r', 'R', ask('q', 'Age'), condition('c', '{{Age}} >= 18', advice('a', 'Adult at {{Age}}')))],
    [variable('Age')],
  )
  t.same(checks(model), [])
})

t.test('parse errors carry the node, rule and position', async (t) => {
  const model = adviceSet([rule('r', 'R', ask('q', 'Age'), condition('c', '{{Age}} = 18'))], [variable('Age')])
  const issues = checks(model)
  t.equal(issues.length, 1)
  const [issue] = issues
  t.equal(issue!.nodeId, 'c')
  t.equal(issue!.ruleId, 'r')
  t.equal(issue!.severity, 'error')
  t.same(issue!.span, { start: 8, end: 9 })
})

t.test('MISSING_FIELD, UNKNOWN_RULE and CONSTANT_ASSIGNMENT come from compiling', async (t) => {
  const model = adviceSet(
    [rule('r', 'R', { id: 'empty', type: 'condition', children: [] }, call('call', 'ghost'), assign('s', '{{Pi}} = 3'))],
    [variable('Pi', { isConstant: true, defaultValue: 3 })],
  )
  const issues = checks(model)
  t.same(at(issues, 'MISSING_FIELD'), ['empty'])
  t.same(at(issues, 'UNKNOWN_RULE'), ['call'])
  t.same(at(issues, 'CONSTANT_ASSIGNMENT'), ['s'])
})

t.test('UNKNOWN_VARIABLE and UNKNOWN_FORMULA in expressions, targets, templates and formulas', async (t) => {
  const model = adviceSet(
    [
      rule(
        'r',
        'R',
        ask('q', 'Nobody'),
        condition('c', '{{Age}} > [[Missing]]', advice('a', 'Hi {{Ghost}} [[Phantom]]')),
        assign('s', '{{Stray}} = 1'),
      ),
    ],
    [variable('Age', { defaultValue: 1 }), formula('Uses', '{{Unlisted}} + [[Nope]]')],
  )
  const issues = checks(model)
  t.same(
    codes(issues, 'UNKNOWN_VARIABLE').map((issue) => [issue.nodeId, issue.message]),
    [
      ['q', '{{Nobody}} is not in the dictionary.'],
      ['a', '{{Ghost}} is not in the dictionary.'],
      ['s', '{{Stray}} is not in the dictionary.'],
      ['f-Uses', 'The formula [[Uses]] reads {{Unlisted}}, which is not in the dictionary.'],
    ],
  )
  t.same(at(issues, 'UNKNOWN_FORMULA'), ['c', 'a', 'f-Uses'])
  t.same(codes(issues, 'UNKNOWN_FORMULA')[0]!.span, { start: 10, end: 21 })
})

t.test('READ_BEFORE_SET: read on some path before a question or assignment sets it', async (t) => {
  const model = adviceSet(
    [
      rule('r1', 'R1', condition('c0', '{{Age}} > 1', ask('q-income', 'Income')), condition('c1', '{{Income}} > 5', advice('a', 'x'))),
      rule('r2', 'R2', ask('q-age2', 'Age2'), condition('c2', '{{Age2}} > 1', advice('b', 'y'))),
      rule('r3', 'R3', always('k', assign('s', '{{Seen}} = 1')), condition('c3', '{{Seen}} == 1 && [[Half]] > 1', advice('c', 'z'))),
    ],
    [variable('Age'), variable('Income'), variable('Age2'), variable('Seen'), formula('Half', '{{Income}} / 2')],
  )
  const issues = codes(checks(model), 'READ_BEFORE_SET')
  t.same(
    issues.map((issue) => [issue.nodeId, issue.message.match(/\{\{(\w+)\}\}/)![1]]),
    [
      ['c0', 'Age'],
      ['c1', 'Income'],
      ['c3', 'Income'],
    ],
    'Income is asked only when Age > 1 (and [[Half]] reads it); Age2 and Seen are always set first',
  )
  t.equal(issues[0]!.severity, 'warning')
})

t.test('READ_BEFORE_SET follows rule calls and exits', async (t) => {
  const model = adviceSet(
    [
      rule('r1', 'R1', call('call', 'setter'), condition('c1', '{{A}} > 1', advice('a', 'x'))),
      rule('r2', 'R2', condition('c2', '{{A}} > 2', exit('x')), ask('q', 'B')),
      rule('r3', 'R3', condition('c3', '{{B}} > 1', advice('b', 'y'))),
    ],
    [variable('A'), variable('B')],
    { externalRules: [rule('setter', 'Setter', ask('qa', 'A'))] },
  )
  t.same(at(checks(model), 'READ_BEFORE_SET'), ['c3'], 'B is not asked when rule 2 exits early')
})

t.test('UNREACHABLE: after an unconditional exit, contradictory comparisons, contradicting parents', async (t) => {
  const model = adviceSet(
    [
      rule(
        'r',
        'R',
        ask('q', 'A'),
        ask('q-flag', 'Flag'),
        condition('self', '{{A}} > 5 && {{A}} < 3', advice('a1', 'never')),
        condition('parent', '{{A}} > 10', condition('child', '{{A}} <= 10', advice('a2', 'never')), condition('fine', '{{A}} < 20', advice('a3', 'ok'))),
        condition('bool', '{{Flag}} && !{{Flag}}', advice('a4', 'never')),
        condition('literal', '1 > 2', advice('a5', 'never')),
        condition('open', '{{A}} > 5 && {{A}} < 6', advice('a6', 'fine: 5.5')),
        condition('point', '{{A}} >= 5 && {{A}} <= 5 && {{A}} != 5', advice('a7', 'never')),
        always('k', exit('x')),
        advice('after', 'never'),
        advice('after2', 'never'),
      ),
    ],
    [variable('A'), variable('Flag', { dataType: 'boolean' })],
  )
  const issues = codes(checks(model), 'UNREACHABLE')
  t.same(issues.map((issue) => issue.nodeId), ['self', 'child', 'bool', 'literal', 'point', 'after', 'after2'])
  t.match(issues[0]!.message, /\{\{A\}\} > 5 and \{\{A\}\} < 3 cannot all hold/)
  t.match(issues[1]!.message, /under the conditions above it/)
  t.match(issues[5]!.message, /always exits/)
})

t.test('UNREACHABLE does not trust comparisons on variables that change during the run', async (t) => {
  const model = adviceSet(
    [
      rule(
        'r',
        'R',
        ask('q', 'A'),
        condition('parent', '{{A}} > 10', assign('s', '{{A}} = 1'), condition('child', '{{A}} < 10', advice('a', 'reachable'))),
        api('call', 'svc', 'B', condition('b', '{{B}} > 1 && {{B}} < 0', advice('b1', 'never'))),
      ),
    ],
    [variable('A'), variable('B')],
  )
  t.same(at(checks(model), 'UNREACHABLE'), ['b'], 'its own condition still contradicts itself')
})

t.test('UNREACHABLE when a closed-set variable is compared with a value that is not an option', async (t) => {
  const model = adviceSet(
    [rule('r', 'R', ask('q', 'Colour'), condition('c', '{{Colour}} == "Green"', advice('a', 'never')), condition('ok', '{{Colour}} == "Red"', advice('b', 'fine')))],
    [variable('Colour', { dataType: 'select', options: ['Red', 'Blue'] })],
  )
  const issues = codes(checks(model), 'UNREACHABLE')
  t.same(issues.map((issue) => issue.nodeId), ['c'])
  t.match(issues[0]!.message, /\{\{Colour\}\} == "Green" is never true: it is not one of the options of \{\{Colour\}\}/)
})

t.test('RULE_CALL_CYCLE on each call that closes a circle', async (t) => {
  const model = adviceSet(
    [rule('a', 'Alpha', call('ab', 'b')), rule('b', 'Beta', call('bc', 'c')), rule('c', 'Gamma', call('ca', 'a')), rule('d', 'Delta', call('da', 'a'))],
    [],
  )
  const issues = codes(checks(model), 'RULE_CALL_CYCLE')
  t.same(issues.map((issue) => issue.nodeId), ['ab', 'bc', 'ca'])
  t.equal(issues[0]!.message, 'Rule calls go round in a circle: "Alpha" → "Beta" → "Gamma" → "Alpha".')
})

t.test('FORMULA_CYCLE on formulas that depend on themselves', async (t) => {
  const model = adviceSet(
    [rule('r', 'R', condition('c', '[[A]] > 1 && [[Ok]] > 1', advice('x', 'x')))],
    [formula('A', '[[B]] + 1'), formula('B', '[[A]] * 2'), formula('Ok', '2')],
  )
  t.same(at(checks(model), 'FORMULA_CYCLE'), ['f-A', 'f-B'])
})

t.test('UNUSED_VARIABLE and UNUSED_FORMULA for dictionary entries nothing uses', async (t) => {
  const model = adviceSet(
    [rule('r', 'R', ask('q', 'Asked'), formulaNode('fn', 'Redefined', '1'), advice('a', '[[Shown]]'))],
    [
      variable('Asked'),
      variable('Idle'),
      variable('System', { isSystem: true }),
      formula('Shown', '{{ReadByFormula}}'),
      variable('ReadByFormula', { defaultValue: 1 }),
      formula('Redefined', '2'),
      formula('Dormant', '3'),
    ],
  )
  const issues = checks(model)
  t.same(at(issues, 'UNUSED_VARIABLE'), ['v-Idle'])
  t.same(at(issues, 'UNUSED_FORMULA'), ['f-Redefined', 'f-Dormant'])
  t.ok(issues.filter((issue) => issue.code.startsWith('UNUSED')).every((issue) => issue.severity === 'warning'))
})

t.test('INVALID_DEFAULT and EMPTY_FORMULA on dictionary entries', async (t) => {
  const model = adviceSet(
    [rule('r', 'R', condition('c', '{{N}} > 1 && [[Blank]] > 1', advice('a', 'x')))],
    [variable('N', { defaultValue: 'lots' }), formula('Blank', '  ')],
  )
  const issues = checks(model)
  t.same(at(issues, 'INVALID_DEFAULT'), ['v-N'])
  t.same(at(issues, 'EMPTY_FORMULA'), ['f-Blank'])
})

t.test('a 2,000-node set is checked (its timing is npm run bench:checks)', async (t) => {
  const model = largeCheckedSet()
  const nodes = model.rules.reduce((sum, r) => sum + count(r.nodes), 0)
  t.equal(nodes, 2000)
  t.same(staticChecks(model).filter((issue) => issue.severity === 'error'), [], 'no errors in the generated set')
})

function count(nodes: Array<{ children: unknown[] }>): number {
  return nodes.reduce((sum, node) => sum + 1 + count(node.children as Array<{ children: unknown[] }>), 0)
}
