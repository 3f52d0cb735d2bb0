// What changed between two `advice-set@1` documents (issue 28, the command-line tool's `diff`): the set's fields,
// rules by key (added, removed, renamed, moved, changed), nodes by key (added, removed, moved, each changed field
// with its old and new value), dictionary entries by name, and scenarios, keyword maps, external APIs and supplements
// by their names and keys. Pure: two documents in, a list of changes and its readable lines out.
import type { AdviceSetDocument, PortableNode, PortableRule } from './portable-format.ts'

export type DiffSection = 'set' | 'rule' | 'node' | 'dictionary' | 'scenario' | 'keywordMap' | 'externalApi' | 'supplement'
export type DiffChange = 'added' | 'removed' | 'renamed' | 'moved' | 'changed'

export interface PortableChange {
  section: DiffSection
  change: DiffChange
  /** The rule's or node's key, the entry's or scenario's name, the supplement's key; the field's name for `set`. */
  key: string
  /** How a reader recognises it: `“Plan” (rule 9f2c…)`, `advice “Retire” (node 3a1b…) in rule “Plan”`. */
  subject: string
  /** For `changed`: the field (`headline`, `expected.advice`); for `moved`: `position`. */
  field?: string
  before?: unknown
  after?: unknown
}

const NODE_FIELDS = ['type', 'expression', 'variable', 'headline', 'text', 'question', 'calledRule', 'api', 'tags', 'sources', 'supplements', 'comments'] as const

/** Values compare as their JSON text: documents are plain JSON, written in a fixed key order. */
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

function short(text: string, max = 40): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}

/** Indices (into `sequence`) of one longest increasing subsequence: what kept its relative order. */
function longestIncreasing(sequence: number[]): Set<number> {
  const tails: number[] = []
  const previous = new Array<number>(sequence.length).fill(-1)
  for (let i = 0; i < sequence.length; i++) {
    let lo = 0
    let hi = tails.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (sequence[tails[mid]!]! < sequence[i]!) lo = mid + 1
      else hi = mid
    }
    if (lo > 0) previous[i] = tails[lo - 1]!
    tails[lo] = i
  }
  const kept = new Set<number>()
  for (let i = tails.length ? tails[tails.length - 1]! : -1; i >= 0; i = previous[i]!) kept.add(i)
  return kept
}

/**
 * Of the keys both lists hold, those whose place among the others changed: the fewest that explain the new order
 * (the rest kept their relative order). Keys only one list has do not move the others.
 */
function reordered(before: string[], after: string[]): Set<string> {
  const inAfter = new Set(after)
  const position = new Map(before.filter((k) => inAfter.has(k)).map((k, i) => [k, i]))
  const common = after.filter((k) => position.has(k))
  const kept = longestIncreasing(common.map((k) => position.get(k)!))
  return new Set(common.filter((_, i) => !kept.has(i)))
}

interface PlacedNode { node: PortableNode; rule: PortableRule; parent: string | null; index: number }

function nodesOf(doc: AdviceSetDocument): Map<string, PlacedNode> {
  const out = new Map<string, PlacedNode>()
  const walk = (nodes: PortableNode[], rule: PortableRule, parent: string | null) => {
    nodes.forEach((node, index) => {
      out.set(node.key, { node, rule, parent, index })
      walk(node.children, rule, node.key)
    })
  }
  for (const rule of doc.rules) walk(rule.nodes, rule, null)
  return out
}

function nodeLabel(node: PortableNode): string {
  const words = node.headline ?? node.question ?? node.expression ?? node.variable ?? node.calledRule?.name ?? node.calledRule?.rule ?? node.api
  return words ? `${node.type} “${short(words)}”` : node.type
}

const ruleLabel = (rule: { key: string; name: string }) => `“${rule.name}” (rule ${rule.key})`
const nodeSubject = (placed: PlacedNode) => `${nodeLabel(placed.node)} (node ${placed.node.key}) in rule “${placed.rule.name}”`
const placeOf = (placed: PlacedNode) => ({ rule: placed.rule.key, parent: placed.parent, index: placed.index })

/** Field-by-field changes of two objects of one kind (the keys of both, in the order they are written). */
function fieldChanges(before: Record<string, unknown>, after: Record<string, unknown>, skip: string[], prefix = ''): Array<{ field: string; before: unknown; after: unknown }> {
  const out: Array<{ field: string; before: unknown; after: unknown }> = []
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => !skip.includes(k))
  for (const key of keys) {
    const a = before[key]
    const b = after[key]
    if (same(a, b)) continue
    const nested = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v)
    // One level down for objects whose parts read on their own (a scenario's `expected`).
    if (prefix === '' && nested(a) && nested(b) && key === 'expected') out.push(...fieldChanges(a as Record<string, unknown>, b as Record<string, unknown>, [], `${key}.`))
    else out.push({ field: `${prefix}${key}`, before: a, after: b })
  }
  return out
}

/** Changes of a list of named things (dictionary entries, scenarios…): added, removed, and each changed field. */
function namedChanges<T extends Record<string, unknown>>(
  section: DiffSection, before: T[], after: T[], keyOf: (item: T) => string, label: (item: T) => string,
): PortableChange[] {
  const out: PortableChange[] = []
  const a = new Map(before.map((item) => [keyOf(item), item]))
  const b = new Map(after.map((item) => [keyOf(item), item]))
  for (const [key, item] of a) if (!b.has(key)) out.push({ section, change: 'removed', key, subject: label(item) })
  for (const [key, item] of b) {
    const old = a.get(key)
    if (!old) out.push({ section, change: 'added', key, subject: label(item) })
    else for (const c of fieldChanges(old, item, [])) out.push({ section, change: 'changed', key, subject: label(item), ...c })
  }
  return out
}

/** Every change from `before` to `after`, in reading order: set, rules, nodes, dictionary, scenarios, the rest. */
export function diffDocuments(before: AdviceSetDocument, after: AdviceSetDocument): PortableChange[] {
  const out: PortableChange[] = []

  for (const c of fieldChanges(before.adviceSet, after.adviceSet, [])) out.push({ section: 'set', change: 'changed', key: c.field, subject: 'advice set', ...c })
  if (!same(before.version, after.version)) out.push({ section: 'set', change: 'changed', key: 'version', subject: 'advice set', field: 'version', before: before.version, after: after.version })

  // Rules by key.
  const rulesA = new Map(before.rules.map((r) => [r.key, r]))
  const rulesB = new Map(after.rules.map((r) => [r.key, r]))
  const movedRules = reordered(before.rules.map((r) => r.key), after.rules.map((r) => r.key))
  for (const rule of before.rules) if (!rulesB.has(rule.key)) out.push({ section: 'rule', change: 'removed', key: rule.key, subject: ruleLabel(rule) })
  after.rules.forEach((rule, index) => {
    const old = rulesA.get(rule.key)
    if (!old) {
      out.push({ section: 'rule', change: 'added', key: rule.key, subject: ruleLabel(rule), after: { position: index + 1 } })
      return
    }
    if (old.name !== rule.name) out.push({ section: 'rule', change: 'renamed', key: rule.key, subject: ruleLabel(rule), field: 'name', before: old.name, after: rule.name })
    if (movedRules.has(rule.key)) {
      out.push({ section: 'rule', change: 'moved', key: rule.key, subject: ruleLabel(rule), field: 'position', before: before.rules.indexOf(old) + 1, after: index + 1 })
    }
    for (const c of fieldChanges(old, rule, ['key', 'name', 'nodes'])) out.push({ section: 'rule', change: 'changed', key: rule.key, subject: ruleLabel(rule), ...c })
  })

  // Nodes by key, wherever they are in the set.
  const nodesA = nodesOf(before)
  const nodesB = nodesOf(after)
  const siblingsA = new Map<string, string[]>()
  const siblingsB = new Map<string, string[]>()
  const group = (placed: PlacedNode) => `${placed.rule.key}\u0000${placed.parent ?? ''}`
  for (const [map, nodes] of [[siblingsA, nodesA], [siblingsB, nodesB]] as const) {
    for (const [key, placed] of nodes) {
      const list = map.get(group(placed)) ?? []
      list.push(key)
      map.set(group(placed), list)
    }
  }
  const movedAmongSiblings = new Set<string>()
  for (const [g, keys] of siblingsB) for (const key of reordered(siblingsA.get(g) ?? [], keys)) movedAmongSiblings.add(key)
  for (const [key, placed] of nodesA) if (!nodesB.has(key)) out.push({ section: 'node', change: 'removed', key, subject: nodeSubject(placed), before: placeOf(placed) })
  for (const [key, placed] of nodesB) {
    const old = nodesA.get(key)
    if (!old) {
      out.push({ section: 'node', change: 'added', key, subject: nodeSubject(placed), after: placeOf(placed) })
      continue
    }
    if (group(old) !== group(placed) || movedAmongSiblings.has(key)) {
      out.push({ section: 'node', change: 'moved', key, subject: nodeSubject(placed), field: 'position', before: placeOf(old), after: placeOf(placed) })
    }
    for (const field of NODE_FIELDS) {
      if (!same(old.node[field], placed.node[field])) out.push({ section: 'node', change: 'changed', key, subject: nodeSubject(placed), field, before: old.node[field], after: placed.node[field] })
    }
  }

  out.push(...namedChanges('dictionary', before.dictionary, after.dictionary, (e) => e.name, (e) => `“${e.name}” (${e.kind}${e.dataType ? `, ${e.dataType}` : ''})`))
  out.push(...namedChanges('scenario', before.scenarios, after.scenarios, (s) => s.name, (s) => `“${s.name}”`))
  out.push(...namedChanges('keywordMap', before.keywordMaps, after.keywordMaps, (m) => m.name, (m) => `“${m.name}”`))
  out.push(...namedChanges('externalApi', before.externalApis, after.externalApis, (a) => a.name, (a) => `“${a.name}”`))
  out.push(...namedChanges('supplement', before.supplements, after.supplements, (s) => s.key, (s) => `“${s.name}” (supplement ${s.key})`))
  return out
}

const SECTION_WORDS: Record<DiffSection, string> = {
  set: 'set', rule: 'rule', node: 'node', dictionary: 'dictionary', scenario: 'scenario', keywordMap: 'keyword map', externalApi: 'external API', supplement: 'supplement',
}

/** A value as one line: JSON, cut at `max` characters; `(none)` for a field that is not there. */
export function valueText(value: unknown, max = 200): string {
  if (value === undefined) return '(none)'
  const text = JSON.stringify(value)
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}

/** Where a node sits, for a reader: `rule 9f2c…, at the top, position 2` or `rule 9f2c…, under 3a1b…, position 1`. */
function placeText(place: unknown): string {
  const p = place as { rule: string; parent: string | null; index: number }
  return `rule ${p.rule}, ${p.parent === null ? 'at the top' : `under node ${p.parent}`}, position ${p.index + 1}`
}

/** One line per change: `node changed: advice “Retire” (node 3a1b…) in rule “Plan”: headline: "Retire" → "Retire now"`. */
export function diffLines(changes: PortableChange[]): string[] {
  return changes.map((c) => {
    const head = `${SECTION_WORDS[c.section]} ${c.change}: `
    if (c.section === 'set') return `${head}${c.field}: ${valueText(c.before)} → ${valueText(c.after)}`
    if (c.section === 'node' && (c.change === 'added' || c.change === 'removed')) return `${head}${c.subject} (${placeText(c.change === 'added' ? c.after : c.before)})`
    if (c.section === 'node' && c.change === 'moved') return `${head}${c.subject}: ${placeText(c.before)} → ${placeText(c.after)}`
    if (c.change === 'added' || c.change === 'removed') return `${head}${c.subject}`
    if (c.change === 'moved') return `${head}${c.subject}: position ${valueText(c.before)} → ${valueText(c.after)}`
    return `${head}${c.subject}: ${c.field}: ${valueText(c.before)} → ${valueText(c.after)}`
  })
}
