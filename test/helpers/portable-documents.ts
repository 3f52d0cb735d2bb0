// advice-set@1 documents for unit tests (issue 28): a small hand-written one, and a fast-check arbitrary of documents
// made with the format's types (every node type, unicode text, nested trees, integer-like record keys).
import fc from 'fast-check'
import { NODE_TYPES } from '../../src/engine/entity-types.ts'
import { FORMAT_NAME, type AdviceSetDocument, type PortableNode, type PortableRule } from '../../src/services/library/portable-format.ts'

/** Retirement advice: one rule (ask, condition with advice), a called rule, three entries, one scenario. */
export function sampleDocument(): AdviceSetDocument {
  return {
    format: FORMAT_NAME,
    adviceSet: { name: 'Acme pensions', nameAlt: '', description: 'Pension advice.', category: 'Pensions', isPublic: false, tags: ['retirement'], supplements: [] },
    version: null,
    dictionary: [
      { name: 'Age', kind: 'variable', dataType: 'number', options: [], isClosedSet: false, displayFormat: null, defaultValue: null, expression: null, isConstant: false, personal: false, description: '', scope: 'owner' },
      { name: 'Risk', kind: 'variable', dataType: 'select', options: ['low', 'high'], isClosedSet: true, displayFormat: null, defaultValue: 'low', expression: null, isConstant: false, personal: false, description: '', scope: 'owner' },
      { name: 'Score', kind: 'variable', dataType: 'number', options: [], isClosedSet: false, displayFormat: null, defaultValue: null, expression: null, isConstant: false, personal: false, description: '', scope: 'set' },
    ],
    rules: [
      {
        key: 'plan0001', name: 'Plan', onlyWhenCalled: false, nodes: [
          { key: 'ask-age', type: 'inputRequest', variable: 'Age', question: 'How old are you?', children: [] },
          { key: 'old', type: 'condition', expression: '{{Age}} >= 65', children: [
            { key: 'retire', type: 'advice', headline: 'Retire', text: 'You may retire.', children: [] },
            { key: 'shares', type: 'advice', headline: 'Shares', children: [] },
          ] },
          { key: 'call', type: 'ruleCall', calledRule: { rule: 'helper01', name: 'Helper' }, children: [] },
        ],
      },
      { key: 'helper01', name: 'Helper', onlyWhenCalled: true, nodes: [{ key: 'tip', type: 'advice', headline: 'A tip', children: [] }] },
    ],
    scenarios: [
      { name: 'Retired at 70', description: '', inputs: { Age: 70 }, runAsOf: null, expected: { advice: ['retire', 'shares', 'tip'], focus: 'complete', variables: {} }, pinnedResponses: {} },
    ],
    keywordMaps: [],
    externalApis: [],
    supplements: [],
  }
}

const key = fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/)
/** Unicode text: emoji, combining marks, right-to-left letters, quotes and backslashes, line breaks. */
const text = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.constantFrom('Ünïcödé', 'שלום', '👩‍💻 plan', 'a "quoted" \\ line\nbreak', 'e\u0301', '\u2028'),
)
const name = text.map((s) => s.trim() || 'x')
/** JSON values as a document holds them in inputs and defaults: integer-like keys included (they sort first in JS). */
// Without the keys every reader refuses (portable-json.ts): fast-check's JSON values may hold a "__proto__" key.
const json = fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)).filter((text) => !/"(__proto__|constructor|prototype)":/.test(text))
  .map((text) => JSON.parse(text) as unknown)
const record = fc.dictionary(fc.oneof(name, fc.constantFrom('1', '10', '2', '0')), json, { maxKeys: 4 })

/** A node with up to three children a level, at most four levels deep. */
function nodeArbitrary(depth = 0): fc.Arbitrary<Omit<PortableNode, 'key'>> {
  return fc.record({
    type: fc.constantFrom(...NODE_TYPES),
    expression: fc.option(text, { nil: undefined }),
    headline: fc.option(text, { nil: undefined }),
    tags: fc.option(fc.array(fc.string({ maxLength: 8 }), { maxLength: 2 }), { nil: undefined }),
    children: depth >= 3 ? fc.constant([]) : fc.array(nodeArbitrary(depth + 1), { maxLength: 3 }),
  }, { requiredKeys: ['type', 'children'] }) as fc.Arbitrary<Omit<PortableNode, 'key'>>
}

/** Gives every node of `rules` a unique key, in tree order, as the exporter writes them. */
function keyed(rules: Array<{ name: string; onlyWhenCalled: boolean; nodes: Array<Omit<PortableNode, 'key'>> }>): PortableRule[] {
  let n = 0
  const nodeOf = (node: Omit<PortableNode, 'key'>): PortableNode => {
    const out: Record<string, unknown> = { key: `n${n++}` }
    for (const [k, v] of Object.entries(node)) if (v !== undefined && k !== 'children') out[k] = v
    out.children = node.children.map(nodeOf)
    return out as unknown as PortableNode
  }
  return rules.map((rule, i) => ({ key: `r${i}`, name: rule.name, onlyWhenCalled: rule.onlyWhenCalled, nodes: rule.nodes.map(nodeOf) }))
}

export const documentArbitrary: fc.Arbitrary<AdviceSetDocument> = fc.record({
  setName: name,
  description: text,
  tags: fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }),
  version: fc.option(fc.record({ number: fc.integer({ min: 1, max: 99 }), publishedAt: fc.constant('2026-01-02T03:04:05.000Z'), contentHash: fc.stringMatching(/^[0-9a-f]{8}$/) }), { nil: null }),
  entries: fc.uniqueArray(fc.record({ name, defaultValue: json, options: fc.array(text, { maxLength: 3 }) }), { selector: (e) => e.name, maxLength: 4 }),
  rules: fc.array(fc.record({ name, onlyWhenCalled: fc.boolean(), nodes: fc.array(nodeArbitrary(), { maxLength: 4 }) }), { maxLength: 4 }),
  scenarios: fc.uniqueArray(fc.record({ name, inputs: record, variables: record }), { selector: (s) => s.name, maxLength: 3 }),
}).map((g): AdviceSetDocument => ({
  format: FORMAT_NAME,
  adviceSet: { name: g.setName, nameAlt: '', description: g.description, category: null, isPublic: false, tags: g.tags, supplements: [] },
  version: g.version,
  dictionary: g.entries.map((e) => ({
    name: e.name, kind: 'variable', dataType: 'freetext', options: e.options, isClosedSet: false, displayFormat: null, defaultValue: e.defaultValue,
    expression: null, isConstant: false, personal: false, description: '', scope: 'set',
  })),
  rules: keyed(g.rules),
  scenarios: g.scenarios.map((s) => ({ name: s.name, description: '', inputs: s.inputs, runAsOf: null, expected: { advice: [], focus: 'complete', variables: s.variables }, pinnedResponses: {} })),
  keywordMaps: [],
  externalApis: [],
  supplements: [],
}))

export { key as keyArbitrary }
