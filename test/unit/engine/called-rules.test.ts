// Issue 24 defect 1: a called rule that also ran on its own gave its advice twice, and gave it when the call never
// ran. A rule may run only when called; one run never emits an advice node twice; the static checks name a rule that
// runs on its own and is called too.
import t from 'tap'
import { compileAdviceSet, evaluate, generateBranches, staticChecks } from '../../../src/engine/index.ts'
import type { AdviceSetModel, RuleModel } from '../../../src/engine/model.ts'
import { advice, adviceSet, assign, call, condition, rule, variable } from '../../fixtures/engine/build.ts'

const NOW = new Date('2026-01-15T00:00:00Z')
const run = (model: AdviceSetModel, inputs: Record<string, unknown> = {}) => evaluate(compileAdviceSet(model), inputs, { now: NOW, render: false })
const ids = (items: ReadonlyArray<{ nodeId: string }>) => items.map((item) => item.nodeId)
const calledOnly = (r: RuleModel): RuleModel => ({ ...r, onlyWhenCalled: true })

/** The issue's set: Drawdown plan calls Tax check for ages 55 to 75. */
function drawdown(taxCheck: (r: RuleModel) => RuleModel = (r) => r): AdviceSetModel {
  return adviceSet([
    rule('plan', 'Drawdown plan', condition('band', '{{Age}} >= 55 && {{Age}} <= 75', call('calls-tax', 'tax'))),
    taxCheck(rule('tax', 'Tax check', advice('tax-advice', 'Income tax will apply'))),
  ], [variable('Age')])
}

t.test('a rule that runs only when called runs where it is called, and nowhere else', async (t) => {
  const model = drawdown(calledOnly)
  t.same(ids(run(model, { Age: 64 }).advice), ['tax-advice'], 'inside the band: once, through the call')
  t.same(ids(run(model, { Age: 46 }).advice), [], 'outside it: the call never runs, so neither does the rule')
})

t.test('one run never emits the same advice node twice', async (t) => {
  t.same(ids(run(drawdown(), { Age: 64 }).advice), ['tax-advice'], 'a rule that runs on its own and is called gives its advice once')
  t.same(ids(run(drawdown(), { Age: 46 }).advice), ['tax-advice'], 'a set published before the flag keeps running the rule on its own')
  const twice = adviceSet([
    rule('main', 'Main', call('first', 'helper'), call('second', 'helper'), advice('after', 'After')),
  ], [variable('Count')], { externalRules: [rule('helper', 'Helper', assign('count', '{{Count}} += 1'), advice('once', 'Counted'))] })
  const result = run(twice, { Count: 0 })
  t.same(ids(result.advice), ['once', 'after'], 'a rule called twice gives its advice once')
  t.equal(result.variables.Count?.value, 2, 'its other nodes still run each time')
})

t.test('the static checks name a rule that runs on its own and is also called', async (t) => {
  const issues = staticChecks(drawdown()).filter((i) => i.code === 'RULE_RUNS_TWICE')
  t.same(issues, [{
    nodeId: 'calls-tax', ruleId: 'plan', aboutRuleId: 'tax', code: 'RULE_RUNS_TWICE', severity: 'warning',
    message: "Tax check runs on its own and is also called by Drawdown plan: its advice can appear twice. Mark it 'runs only when called'.",
  }], 'reported once, at the call, about the called rule')
  t.same(staticChecks(drawdown(calledOnly)).filter((i) => i.code === 'RULE_RUNS_TWICE'), [], 'not once it runs only when called')

  const many = adviceSet([
    rule('a', 'Alpha', call('a-calls', 'shared')),
    rule('b', 'Beta', call('b-calls', 'shared'), call('b-again', 'shared')),
    rule('c', 'Gamma', call('c-calls', 'shared')),
    rule('shared', 'Shared', advice('s', 'Shared advice')),
  ], [])
  const [issue, ...more] = staticChecks(many).filter((i) => i.code === 'RULE_RUNS_TWICE')
  t.same(more, [], 'one issue per rule, however many calls')
  t.equal(issue?.message, "Shared runs on its own and is also called by Alpha, Beta and Gamma: its advice can appear twice. Mark it 'runs only when called'.")

  const focused = adviceSet([rule('tax', 'Tax check', advice('tax-advice', 'Income tax will apply'))], [variable('Age')], {
    externalRules: [rule('plan', 'Drawdown plan', call('calls-tax', 'tax'))],
  })
  t.same(staticChecks(focused).filter((i) => i.code === 'RULE_RUNS_TWICE'), [], 'a caller the run never reaches does not count')
})

t.test('generated branches go into a rule that runs only when called through its calls only', async (t) => {
  const report = generateBranches(drawdown(calledOnly), { now: NOW })
  t.same(report.unreachable, [], 'no path of the called rule is reported unreachable on its own')
  t.ok(report.branches.some((b) => b.outcome?.advice.includes('tax-advice')), 'the call reaches its advice')
})
