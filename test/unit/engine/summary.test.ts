import t from 'tap'
import { summarize } from '../../../src/engine/summary/index.ts'
import { loan } from '../../fixtures/engine/loan.ts'
import { interview } from '../../fixtures/engine/interview.ts'

t.test('the summary outlines rules in order with nested logic', async (t) => {
  const text = summarize(loan)
  t.match(text, /^# Test set\n\n4 rules run in order\.\n/)
  const headings = [...text.matchAll(/^## (.*)$/gm)].map((match) => match[1])
  t.same(headings, ['1. Questions', '2. Age gate', '3. Income bands', '4. Region rules', 'Variables', 'Formulas'])
  t.match(text, /- \*\*Ask\*\* “How old are you\?” → \{\{Age\}\}/)
  t.match(text, /- \*\*If\*\* `\{\{Income\}\} > 100000`\n  - \*\*Set\*\* `\{\{Score\}\} \+= 3`\n  - \*\*If\*\* `\{\{Employed\}\}`\n    - \*\*Advice:\*\* Prime borrower/)
  t.match(text, /\*\*Advice:\*\* Senior terms apply _\(assumption\)_/)
  t.match(text, /- \*\*Exit this rule\*\*/)
  t.match(text, /- \{\{Region\}\} \(select; one of “North”, “South”, “East”\)/)
  t.match(text, /- \[\[Monthly\]\] = `\{\{Income\}\} \/ 12`/)
})

t.test('rule calls name the called rule; markup in names is escaped', async (t) => {
  const text = summarize({ ...interview, name: 'Plan *review* <b>' })
  t.match(text, /^# Plan \\\*review\\\* \\<b\\>/)
  t.match(text, /\*\*Run rule\*\* “Check”/)
  t.match(text, /\{\{Today\}\} \(date; default “2026-01-15”; constant\)/)
})

t.test('the summary is deterministic', async (t) => {
  t.equal(summarize(loan), summarize(loan))
})
