import t from 'tap'
import { nodeSummary } from '../../../src/engine/node-summary.ts'

const names = (id: string) => (id === '7' ? 'Pension check' : undefined)

t.test('one line per node type', async (t) => {
  t.equal(nodeSummary({ type: 'condition', expression: '{{Age}} >= 65' }, names), '{{Age}} >= 65')
  t.equal(nodeSummary({ type: 'conditionAlways' }, names), 'Always')
  t.equal(nodeSummary({ type: 'inputRequest', variable: 'Age', question: 'How old are you?' }, names), '{{Age}} — How old are you?')
  t.equal(nodeSummary({ type: 'inputRequest', variable: null, question: 'Unnamed?' }, names), 'Unnamed?')
  t.equal(nodeSummary({ type: 'formula', variable: 'Rate', expression: '2 * 3' }, names), '[[Rate]] = 2 * 3')
  t.equal(nodeSummary({ type: 'advice', headline: '', text: 'Body only' }, names), 'Body only')
  t.equal(nodeSummary({ type: 'ruleCall', calledRuleId: 7 }, names), 'Pension check', 'numeric and string ids name the same rule')
  t.equal(nodeSummary({ type: 'ruleCall', calledRuleId: '8' }, names), 'Rule 8')
  t.equal(nodeSummary({ type: 'ruleCall', calledRuleId: null }, names), '')
  t.equal(nodeSummary({ type: 'ruleExit' }, names), 'Exit this rule')
  t.equal(nodeSummary({ type: 'apiCall', apiId: 'rates', variable: 'Rate' }, names), 'rates → {{Rate}}')
  t.equal(nodeSummary({ type: 'apiCall', apiId: '7', variable: 'Rate' }, names, (id) => (id === '7' ? 'Exchange rates' : undefined)), 'Exchange rates → {{Rate}}', 'an API is named when its name is known')
})
