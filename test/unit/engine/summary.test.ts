import t from 'tap'
import { summarize } from '../../../src/engine/summary/index.ts'
import { loan } from '../../fixtures/engine/loan.ts'
import { interview } from '../../fixtures/engine/interview.ts'
import { advice, adviceSet, ask, call, condition, rule, variable } from '../../fixtures/engine/build.ts'

t.test('the summary has questions, advice with its conditions, the rules, variables and formulas, in that order', async (t) => {
  const text = summarize(loan)
  t.match(text, /^# Test set\n\n5 questions, 16 advice items and 4 rules\./)
  const headings = [...text.matchAll(/^## (.*)$/gm)].map((match) => match[1])
  t.same(headings, ['Questions', 'Advice', 'How the rules run', 'Variables', 'Formulas'])
  const rules = [...text.matchAll(/^### (\d\..*)$/gm)].map((match) => match[1])
  t.same(rules, ['1. Questions', '2. Age gate', '3. Income bands', '4. Region rules'])
})

t.test('each question with its input type and options', async (t) => {
  const text = summarize(loan)
  t.match(text, /1\. \*\*How old are you\?\*\* — Number, answers \{\{Age\}\}\n {3}- Asked in: “Questions”/)
  t.match(text, /4\. \*\*Where do you live\?\*\* — Select, answers \{\{Region\}\}\n {3}- Options: “North”, “South”, “East”/)
  t.match(text, /\*\*Are you employed\?\*\* — True\/False/)
  t.match(text, /\*\*What interest rate were you offered\?\*\* — Percent/)
})

t.test('each advice item with the conditions that lead to it, in words', async (t) => {
  const text = summarize(loan)
  t.match(text, /### Senior terms apply\n\nTags: assumption · Rule: “Age gate”\n\n\*\*Given when:\*\* Age is at least 65\./)
  t.match(text, /### Prime borrower\n\nRule: “Income bands”\n\n\*\*Given when:\*\* Income is more than 100,000 and Employed is Yes\./)
  t.match(text, /### Regional scheme[\s\S]*?\*\*Given when:\*\* Income is at least 40,000 and Income is at most 100,000 and \(Region is North or Region is East\)\./)
  t.match(text, /### Rate above 5%: \{\{Rate\}\}[\s\S]*?Rate is more than 5%\./)
  t.match(text, /### Thanks for asking[\s\S]*?\*\*Always given\.\*\*/)
  t.match(text, /### Cannot happen[\s\S]*?\*\*Never given\.\*\* This condition can never be true/)
  t.match(text, /### Never shown[\s\S]*?\*\*Never given\.\*\* This advice comes after a step that always ends its rule/)
})

t.test('advice reached in several ways lists each; conditions above a rule call lead into the called rule', async (t) => {
  const model = adviceSet([
    rule('r1', 'Main', ask('q', 'Age'), condition('c-old', '{{Age}} >= 65', call('k1', 'r2')), condition('c-young', '{{Age}} < 30', call('k2', 'r2'))),
  ], [variable('Age'), variable('Smoker', { dataType: 'boolean' })], {
    externalRules: [rule('r2', 'Smoking', condition('c-smoke', '{{Smoker}}', advice('a-quit', 'Consider quitting')))],
  })
  const text = summarize(model)
  t.match(text, /### Consider quitting\n\nRule: “Smoking”\n\n\*\*Given when any of these holds:\*\*\n\n- Age is at least 65 and Smoker is Yes\n- Age is less than 30 and Smoker is Yes/)
})

t.test('the rule outline quotes expressions as written', async (t) => {
  const text = summarize(loan)
  t.match(text, /- \*\*Ask\*\* “How old are you\?” → \{\{Age\}\}/)
  t.match(text, /- \*\*If\*\* `\{\{Income\}\} > 100000`\n  - \*\*Set\*\* `\{\{Score\}\} \+= 3`\n  - \*\*If\*\* `\{\{Employed\}\}`\n    - \*\*Advice:\*\* Prime borrower/)
  t.match(text, /\*\*Advice:\*\* Senior terms apply _\(assumption\)_/)
  t.match(text, /- \*\*Exit this rule\*\*/)
  t.match(text, /- \{\{Region\}\} \(Select; one of “North”, “South”, “East”\)/)
  t.match(text, /- \[\[Monthly\]\] = `\{\{Income\}\} \/ 12`/)
})

t.test('rule calls name the called rule; markup in names is escaped', async (t) => {
  const text = summarize({ ...interview, name: 'Plan *review* <b>' })
  t.match(text, /^# Plan \\\*review\\\* \\<b\\>/)
  t.match(text, /\*\*Run rule\*\* “Check”/)
  t.match(text, /\{\{Today\}\} \(Date; default “2026-01-15”; constant\)/)
})

t.test('the summary is deterministic', async (t) => {
  t.equal(summarize(loan), summarize(loan))
})
