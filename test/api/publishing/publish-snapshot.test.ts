// Versions hold canonical content: equal content gives an equal hash whatever the key order; the diff names rules,
// nodes and dictionary entries added, removed and changed (a changed one with each field before and after), pairs
// nodes by key (issue 24 defect 4) and names a called rule by its name.
import t from 'tap'
import { canonicalJson, contentHashOf, entitiesInUse, type VersionSnapshot } from '../../../src/services/publishing/snapshot.ts'
import { diffSnapshots, nodeLabel } from '../../../src/services/publishing/diff.ts'
import type { AdviceSetModel } from '../../../src/engine/index.ts'

function snapshot(model: Partial<AdviceSetModel>): VersionSnapshot {
  return { adviceSet: { id: 1, name: 'Set', nameAlt: '', description: '' }, model: { id: '1', name: 'Set', rules: [], entities: [], ...model } }
}

t.test('canonical JSON and the content hash', async (t) => {
  t.equal(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: null } }), '{"a":{"c":null,"d":[2,{"y":2,"z":1}]},"b":1}')
  const one = snapshot({ rules: [{ id: '1', name: 'R', adviceSetId: '1', nodes: [] }] })
  const reordered = { model: { entities: [], rules: [{ nodes: [], adviceSetId: '1', name: 'R', id: '1' }], name: 'Set', id: '1' }, adviceSet: { description: '', nameAlt: '', name: 'Set', id: 1 } }
  t.equal(contentHashOf(reordered as VersionSnapshot), contentHashOf(one), 'key order does not matter')
  t.not(contentHashOf(snapshot({ rules: [{ id: '1', name: 'R2', adviceSetId: '1', nodes: [] }] })), contentHashOf(one), 'content does')
})

t.test('only the dictionary entries the rules use, through formulas too', async (t) => {
  const model: AdviceSetModel = {
    id: '1', name: 'Set',
    rules: [{ id: '1', name: 'R', adviceSetId: '1', nodes: [{ id: '1', type: 'advice', headline: 'Rate [[Rate]]', children: [] }] }],
    entities: [
      { id: '1', name: 'Rate', kind: 'formula', expression: '{{Base}} * 2' },
      { id: '2', name: 'Base', kind: 'variable', dataType: 'number' },
      { id: '3', name: 'Unused', kind: 'variable', dataType: 'number' },
    ],
  }
  t.same(entitiesInUse(model).map((e) => e.name), ['Rate', 'Base'])
})

t.test('the diff against the published version', async (t) => {
  const base = snapshot({
    rules: [
      { id: '1', name: 'Keep', adviceSetId: '1', nodes: [{ id: '10', type: 'advice', headline: 'Same', children: [] }, { id: '11', type: 'advice', headline: 'Old text', children: [] }] },
      { id: '2', name: 'Gone', adviceSetId: '1', nodes: [{ id: '20', type: 'condition', expression: '{{A}} > 1', children: [] }] },
    ],
    entities: [{ id: '1', name: 'A', kind: 'variable', dataType: 'number' }],
  })
  const next = snapshot({
    rules: [
      { id: '1', name: 'Keep', adviceSetId: '1', nodes: [{ id: '10', type: 'advice', headline: 'Same', children: [] }, { id: '11', type: 'advice', headline: 'New text', children: [] }] },
      { id: '3', name: 'New', adviceSetId: '1', nodes: [{ id: '30', type: 'inputRequest', variable: 'A', question: 'How old are you?', children: [] }] },
    ],
    entities: [{ id: '1', name: 'A', kind: 'variable', dataType: 'freetext' }],
  })
  const diff = diffSnapshots(base, next)
  t.same(diff.rules, { added: [{ id: '3', name: 'New' }], removed: [{ id: '2', name: 'Gone' }], changed: [] })
  t.same(diff.nodes.added, [{ id: '30', name: 'Input Request: How old are you?', rule: 'New' }])
  t.same(diff.nodes.removed, [{ id: '20', name: 'Condition: {{A}} > 1', rule: 'Gone' }])
  t.same(diff.nodes.changed, [{ id: '11', name: 'Advice: New text', rule: 'Keep', fields: [{ field: 'Headline', before: 'Old text', after: 'New text' }] }], 'an unchanged node is not listed')
  t.same(diff.entities.changed, [{ id: '1', name: '{{A}}', fields: [{ field: 'dataType', before: 'number', after: 'freetext' }] }])
  t.equal(diff.identical, false)
  t.equal(diffSnapshots(next, next).identical, true)
  t.same(diffSnapshots(null, next).rules.added.map((r) => r.name), ['Keep', 'New'], 'nothing published: everything is new')
  t.equal(nodeLabel({ id: '1', type: 'ruleExit', children: [] }), 'Rule Exit')
})

t.test('issue 24: nodes pair by key, so a node restored as another row is one changed node', async (t) => {
  const tax = { id: '3', name: 'Tax check', adviceSetId: '1', nodes: [{ id: '30', key: 'k-tax', type: 'advice' as const, headline: 'Income tax will apply', text: 'Old', children: [] }] }
  const plan = (callId: string) => ({ id: '2', name: 'Drawdown plan', adviceSetId: '1', nodes: [
    { id: callId, key: 'k-call', type: 'condition' as const, expression: '{{Age}} >= 55', children: [{ id: `${callId}1`, key: 'k-inner', type: 'ruleCall' as const, calledRuleId: '3', children: [] }] },
  ] })
  const base = snapshot({ rules: [plan('20'), tax] })
  const next = snapshot({ rules: [plan('40'), { ...tax, nodes: [{ ...tax.nodes[0]!, text: 'New' }] }] })
  const diff = diffSnapshots(base, next)
  t.same(diff.nodes.added, [], 'nodes whose rows changed but keep their keys are not added…')
  t.same(diff.nodes.removed, [], '…nor removed')
  t.same(diff.nodes.changed, [{ id: '30', name: 'Advice: Income tax will apply', rule: 'Tax check', fields: [{ field: 'Text', before: 'Old', after: 'New' }] }])

  const moved = snapshot({ rules: [{ ...plan('20'), nodes: [{ ...plan('20').nodes[0]!, children: [] }, { ...plan('20').nodes[0]!.children[0]!, calledRuleId: '9' }] }, tax, { id: '9', name: 'Pension check', adviceSetId: '1', nodes: [] }] })
  const [call] = diffSnapshots(base, moved).nodes.changed
  t.same(call, {
    id: '201', name: 'Rule Call: Pension check', rule: 'Drawdown plan', fields: [
      { field: 'Rule called', before: 'Tax check', after: 'Pension check' },
      { field: 'Place', before: 'position 1 under “Condition: {{Age}} >= 55” in “Drawdown plan”', after: 'position 2 at the top of “Drawdown plan”' },
    ],
  }, 'a Rule Call is named by the rule it calls, and so is a change of it')
  t.equal(nodeLabel({ id: '5', type: 'ruleCall', calledRuleId: '3', children: [] }, (id) => (id === '3' ? 'Tax check' : undefined)), 'Rule Call: Tax check')
  t.same(diffSnapshots(base, snapshot({ rules: [plan('20'), { ...tax, onlyWhenCalled: true }] })).rules.changed, [{ id: '3', name: 'Tax check', fields: [{ field: 'Runs', before: 'on its own', after: 'only when called' }] }])
})
