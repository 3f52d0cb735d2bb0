import t from 'tap'
import { ALREADY_VIEWING, chooseSelection } from '../../../islands/search-box/selection.ts'
import type { RulePage } from '../../../islands/search-box/selection.ts'

const hit = { uri: '/adviceset/3/rule/5/show#node-7', nodeId: '7', ruleId: '5' }

function rulePage(currentRuleId: string | null, nodes: Record<string, 'shown' | 'active'>): RulePage {
  return { currentRuleId, nodeState: (id) => nodes[id] ?? 'absent' }
}

t.test('the notice text is the SPEC text', async (t) => {
  t.equal(ALREADY_VIEWING, "You're already viewing the search result you selected.")
})

t.test('a result in the current rule scrolls to its node', async (t) => {
  t.same(chooseSelection(hit, 'self', rulePage('5', { 7: 'shown' })), { kind: 'scroll', nodeId: '7' })
})

t.test('a result whose node is already the active one says so', async (t) => {
  t.same(chooseSelection(hit, 'self', rulePage('5', { 7: 'active' })), { kind: 'already-viewing' })
})

t.test('everything else opens the uri', async (t) => {
  const open = { kind: 'open', uri: hit.uri, target: 'self' }
  t.same(chooseSelection(hit, 'self', rulePage(null, { 7: 'shown' })), open, 'not on a rule page')
  t.same(chooseSelection(hit, 'self', rulePage('6', { 7: 'shown' })), open, 'another rule')
  t.same(chooseSelection(hit, 'self', rulePage('5', {})), open, 'the node is not in the tree on the page')
  t.same(chooseSelection({ ...hit, nodeId: null }, 'self', rulePage('5', { 7: 'shown' })), open, 'the rule itself')
  t.same(chooseSelection(hit, 'tab', rulePage('5', { 7: 'active' })), { kind: 'open', uri: hit.uri, target: 'tab' },
    'a new tab or window always opens the uri')
  t.same(chooseSelection(hit, 'window', rulePage('5', { 7: 'shown' })), { kind: 'open', uri: hit.uri, target: 'window' })
})
