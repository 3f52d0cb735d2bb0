// The diff of two advice-set@1 documents (issue 28, the command-line tool's `diff`): nothing for equal documents (a
// property over generated ones), set fields, rules and nodes by key (added, removed, renamed, moved, each changed
// field old → new), dictionary entries, scenarios and the rest by name, and the readable lines.
import t from 'tap'
import fc from 'fast-check'
import { diffDocuments, diffLines, valueText } from '../../../src/services/library/portable-diff.ts'
import type { AdviceSetDocument } from '../../../src/services/library/portable-format.ts'
import { documentArbitrary, sampleDocument } from '../../helpers/portable-documents.ts'

const edited = (edit: (doc: AdviceSetDocument) => void) => {
  const doc = sampleDocument()
  edit(doc)
  return doc
}
const linesFor = (edit: (doc: AdviceSetDocument) => void) => diffLines(diffDocuments(sampleDocument(), edited(edit)))

t.test('equal documents: no change', async (t) => {
  t.same(diffDocuments(sampleDocument(), sampleDocument()), [])
  fc.assert(fc.property(documentArbitrary, (doc) => diffDocuments(doc, structuredClone(doc)).length === 0), { numRuns: 200 })
})

t.test('one node’s edited field is exactly one change, old → new', async (t) => {
  const changes = diffDocuments(sampleDocument(), edited((d) => { d.rules[0]!.nodes[1]!.children[0]!.headline = 'Retire now' }))
  t.same(changes, [{ section: 'node', change: 'changed', key: 'retire', subject: 'advice “Retire now” (node retire) in rule “Plan”', field: 'headline', before: 'Retire', after: 'Retire now' }])
  t.same(diffLines(changes), ['node changed: advice “Retire now” (node retire) in rule “Plan”: headline: "Retire" → "Retire now"'])
  t.same(linesFor((d) => { delete d.rules[0]!.nodes[1]!.children[0]!.text }), ['node changed: advice “Retire” (node retire) in rule “Plan”: text: "You may retire." → (none)'], 'a field taken away')
})

t.test('nodes added, removed and moved by key', async (t) => {
  t.same(linesFor((d) => { d.rules[0]!.nodes[1]!.children.push({ key: 'bonds', type: 'advice', headline: 'Bonds', children: [] }) }),
    ['node added: advice “Bonds” (node bonds) in rule “Plan” (rule plan0001, under node old, position 3)'])
  t.same(linesFor((d) => { d.rules[0]!.nodes.splice(2, 1) }), ['node removed: ruleCall “Helper” (node call) in rule “Plan” (rule plan0001, at the top, position 3)'])
  // Swapping two siblings moves one of them; the other keeps its order relative to the rest.
  t.same(linesFor((d) => { d.rules[0]!.nodes[1]!.children.reverse() }),
    ['node moved: advice “Shares” (node shares) in rule “Plan”: rule plan0001, under node old, position 2 → rule plan0001, under node old, position 1'])
  // Adding a node before others shifts their positions but moves none of them.
  t.same(linesFor((d) => { d.rules[0]!.nodes.unshift({ key: 'intro', type: 'advice', headline: 'Hello', children: [] }) }).length, 1, 'only the added node')
  t.same(linesFor((d) => { d.rules[1]!.nodes.push(d.rules[0]!.nodes[1]!.children.pop()!) }),
    ['node moved: advice “Shares” (node shares) in rule “Helper”: rule plan0001, under node old, position 2 → rule helper01, at the top, position 2'], 'into another rule')
})

t.test('rules added, removed, renamed, moved, changed', async (t) => {
  t.same(linesFor((d) => { d.rules[1]!.name = 'Helpers' }), ['rule renamed: “Helpers” (rule helper01): name: "Helper" → "Helpers"'])
  t.same(linesFor((d) => { d.rules.reverse() }), ['rule moved: “Helper” (rule helper01): position 2 → 1'])
  t.same(linesFor((d) => { d.rules[1]!.onlyWhenCalled = false }), ['rule changed: “Helper” (rule helper01): onlyWhenCalled: true → false'])
  const removed = linesFor((d) => { d.rules.pop() })
  t.same(removed, ['rule removed: “Helper” (rule helper01)', 'node removed: advice “A tip” (node tip) in rule “Helper” (rule helper01, at the top, position 1)'], 'its nodes with it')
  t.same(linesFor((d) => { d.rules.push({ key: 'new1', name: 'New', onlyWhenCalled: false, nodes: [] }) }), ['rule added: “New” (rule new1)'])
})

t.test('set fields, dictionary entries, scenarios and the rest', async (t) => {
  t.same(linesFor((d) => { d.adviceSet.name = 'Acme pensions 2'; d.adviceSet.tags = [] }), [
    'set changed: name: "Acme pensions" → "Acme pensions 2"',
    'set changed: tags: ["retirement"] → []',
  ])
  t.same(linesFor((d) => { d.version = { number: 2, publishedAt: null, contentHash: 'abc' } }), ['set changed: version: null → {"number":2,"publishedAt":null,"contentHash":"abc"}'])
  t.same(linesFor((d) => {
    d.dictionary[1]!.options.push('medium')
    d.dictionary.splice(2, 1)
    d.dictionary.push({ ...d.dictionary[0]!, name: 'Income' })
  }), [
    'dictionary removed: “Score” (variable, number)',
    'dictionary changed: “Risk” (variable, select): options: ["low","high"] → ["low","high","medium"]',
    'dictionary added: “Income” (variable, number)',
  ])
  t.same(linesFor((d) => { d.scenarios[0]!.expected.advice = ['retire']; d.scenarios[0]!.inputs = { Age: 71 } }), [
    'scenario changed: “Retired at 70”: inputs: {"Age":70} → {"Age":71}',
    'scenario changed: “Retired at 70”: expected.advice: ["retire","shares","tip"] → ["retire"]',
  ])
  t.same(linesFor((d) => { d.keywordMaps.push({ name: 'Help', phrases: ['retire'], scenario: null }) }), ['keyword map added: “Help”'])
})

t.test('long values are cut in the lines, kept whole in the changes', async (t) => {
  const long = 'x'.repeat(500)
  const [change] = diffDocuments(sampleDocument(), edited((d) => { d.rules[0]!.nodes[1]!.children[0]!.text = long }))
  t.equal(change!.after, long)
  t.equal(valueText(long).length, 200)
  t.ok(valueText(long).endsWith('…'))
})
