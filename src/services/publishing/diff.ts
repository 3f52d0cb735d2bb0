// What a version holds and what changed between two versions, by name: rules, nodes and dictionary entries added,
// removed or changed, a changed one with each field before and after. Nodes pair across versions by their key, which
// a node keeps for life (edits, moves, restores); nodes of versions older than keys whose rows were gone pair by id.
import { ENTITY_TYPE_LIST, type AdviceSetModel, type EntityModel, type NodeModel, type RuleModel } from '../../engine/index.ts'
import { canonicalJson, type VersionSnapshot } from './snapshot.ts'

export interface FieldChange { field: string; before: string; after: string }
interface NamedChange { id: string; name: string; rule?: string; fields?: FieldChange[] }
interface ChangeList { added: NamedChange[]; removed: NamedChange[]; changed: NamedChange[] }
interface VersionDiff { rules: ChangeList; nodes: ChangeList; entities: ChangeList; metadata: string[]; identical: boolean }

/** A rule's name by its id, or undefined when the version does not hold it. */
export type RuleNames = (ruleId: string) => string | undefined

const TYPE_LABELS = new Map(ENTITY_TYPE_LIST.map((t) => [t.key as string, t.displayName]))
const LABEL_LENGTH = 80

function clip(words: string, length = LABEL_LENGTH): string {
  return words.length > length ? `${words.slice(0, length - 1)}…` : words
}

/** The rules of a model by id (its own and those of other sets it calls). */
export function ruleNamesOf(model: AdviceSetModel): RuleNames {
  const names = new Map([...(model.externalRules ?? []), ...model.rules].map((r) => [r.id, r.name]))
  return (id) => names.get(id)
}

function calledRuleName(node: NodeModel, ruleName?: RuleNames): string {
  if (node.calledRuleId === undefined) return ''
  return ruleName?.(node.calledRuleId) ?? 'a rule this version does not hold'
}

/** How a node is named on the pages: its type and the words that identify it (a Rule Call: the rule's name). */
export function nodeLabel(node: NodeModel, ruleName?: RuleNames): string {
  const type = TYPE_LABELS.get(node.type) ?? node.type
  const words = node.headline ?? node.question ?? node.expression ?? node.variable ?? calledRuleName(node, ruleName)
  return words ? `${type}: ${clip(words)}` : type
}

interface FlatNode { rule: RuleModel; parent: NodeModel | null; position: number; node: NodeModel }

/** A node's identity across versions. */
function identityOf(node: NodeModel): string {
  return node.key !== undefined ? `key:${node.key}` : `id:${node.id}`
}

function flatten(model: AdviceSetModel): Map<string, FlatNode> {
  const nodes = new Map<string, FlatNode>()
  for (const rule of model.rules) {
    const visit = (list: NodeModel[], parent: NodeModel | null) => list.forEach((node, position) => {
      nodes.set(identityOf(node), { rule, parent, position, node })
      visit(node.children, node)
    })
    visit(rule.nodes, null)
  }
  return nodes
}

/** Where a node stands, in words. */
function placeOf(flat: FlatNode, ruleName: RuleNames): string {
  const at = `position ${flat.position + 1}`
  return flat.parent === null ? `${at} at the top of “${flat.rule.name}”` : `${at} under “${nodeLabel(flat.parent, ruleName)}” in “${flat.rule.name}”`
}

/** Where a node stands, to compare: its rule, its parent and its position among its siblings. */
function placeKey(flat: FlatNode): string {
  return `${flat.rule.id}/${flat.parent === null ? '' : identityOf(flat.parent)}/${flat.position}`
}

/**
 * The node fields a change lists: each with its label, the value compared, and how it reads (`names`: of the node's
 * own version, so a Rule Call shows the called rule's name).
 */
const NODE_FIELDS: Array<{ label: (node: NodeModel) => string; value: (node: NodeModel) => string; show?: (node: NodeModel, names: RuleNames) => string }> = [
  { label: () => 'Type', value: (n) => TYPE_LABELS.get(n.type) ?? n.type },
  { label: (n) => (n.type === 'condition' ? 'Condition' : n.type === 'variableAssignment' ? 'Assignment' : 'Expression'), value: (n) => n.expression ?? '' },
  { label: () => 'Variable', value: (n) => n.variable ?? '' },
  { label: () => 'Question', value: (n) => n.question ?? '' },
  { label: () => 'Headline', value: (n) => n.headline ?? '' },
  { label: () => 'Text', value: (n) => n.text ?? '' },
  { label: () => 'Rule called', value: (n) => n.calledRuleId ?? '', show: calledRuleName },
  { label: () => 'API', value: (n) => n.apiId ?? '' },
  { label: () => 'Tags', value: (n) => (n.tags ?? []).join(', ') },
  { label: () => 'Sources', value: (n) => (n.sources ?? []).map((s) => (s.uri ? `${s.name} (${s.uri})` : s.name)).join(', ') },
]

function nodeChanges(before: FlatNode, after: FlatNode, names: { before: RuleNames; after: RuleNames }): FieldChange[] {
  const fields: FieldChange[] = []
  for (const field of NODE_FIELDS) {
    if (field.value(before.node) === field.value(after.node)) continue
    const show = field.show ?? field.value
    fields.push({ field: field.label(after.node), before: show(before.node, names.before), after: show(after.node, names.after) })
  }
  if (placeKey(before) !== placeKey(after)) fields.push({ field: 'Place', before: placeOf(before, names.before), after: placeOf(after, names.after) })
  return fields
}

function compare<T>(before: Map<string, T>, after: Map<string, T>, name: (item: T, side: 'before' | 'after') => NamedChange, changes: (a: T, b: T) => FieldChange[]): ChangeList {
  const list: ChangeList = { added: [], removed: [], changed: [] }
  for (const [id, item] of after) {
    const old = before.get(id)
    if (old === undefined) list.added.push(name(item, 'after'))
    else {
      const fields = changes(old, item)
      if (fields.length > 0) list.changed.push({ ...name(item, 'after'), fields })
    }
  }
  for (const [id, item] of before) if (!after.has(id)) list.removed.push(name(item, 'before'))
  return list
}

function ruleChanges(before: { rule: RuleModel; position: number }, after: { rule: RuleModel; position: number }): FieldChange[] {
  const runs = (rule: RuleModel) => (rule.onlyWhenCalled === true ? 'only when called' : 'on its own')
  return [
    { field: 'Name', before: before.rule.name, after: after.rule.name },
    { field: 'Position', before: String(before.position + 1), after: String(after.position + 1) },
    { field: 'Runs', before: runs(before.rule), after: runs(after.rule) },
  ].filter((f) => f.before !== f.after)
}

function entityChanges(before: EntityModel, after: EntityModel): FieldChange[] {
  const { id: _before, ...was } = before
  const { id: _after, ...is } = after
  const keys = [...new Set([...Object.keys(was), ...Object.keys(is)])].sort() as Array<keyof typeof was>
  const read = (value: unknown) => (value === undefined ? '' : typeof value === 'string' ? value : canonicalJson(value))
  return keys.map((key) => ({ field: key, before: read(was[key]), after: read(is[key]) })).filter((f) => f.before !== f.after)
}

/** Changes from `base` (null: nothing published, so everything is new) to `next`. */
export function diffSnapshots(base: VersionSnapshot | null, next: VersionSnapshot): VersionDiff {
  const empty: AdviceSetModel = { id: next.model.id, name: next.model.name, rules: [], entities: [] }
  const from = base?.model ?? empty
  const names = { before: ruleNamesOf(from), after: ruleNamesOf(next.model) }
  const rulesOf = (m: AdviceSetModel) => new Map(m.rules.map((r, position) => [r.id, { rule: r, position }]))
  const rules = compare(rulesOf(from), rulesOf(next.model), ({ rule }) => ({ id: rule.id, name: rule.name }), ruleChanges)
  const nodes = compare(flatten(from), flatten(next.model), (f, side) => ({ id: f.node.id, name: nodeLabel(f.node, names[side]), rule: f.rule.name }),
    (a, b) => nodeChanges(a, b, names))
  const entitiesOf = (m: AdviceSetModel) => new Map(m.entities.map((e) => [`${e.kind}:${e.name}`, e]))
  const entities = compare(entitiesOf(from), entitiesOf(next.model), (e) => ({ id: e.id, name: e.kind === 'formula' ? `[[${e.name}]]` : `{{${e.name}}}` }), entityChanges)
  const metadata = base === null ? [] : (['name', 'nameAlt', 'description'] as const).filter((k) => base.adviceSet[k] !== next.adviceSet[k])
  const identical = [rules, nodes, entities].every((l) => l.added.length + l.removed.length + l.changed.length === 0) && metadata.length === 0
  return { rules, nodes, entities, metadata, identical }
}

/** What a version holds, for its page and the catalog. */
export function contentSummary(snapshot: VersionSnapshot) {
  const count = (list: NodeModel[]): number => list.reduce((n, node) => n + 1 + count(node.children), 0)
  return {
    adviceSet: snapshot.adviceSet,
    rules: snapshot.model.rules.map((r) => ({ id: r.id, name: r.name, nodes: count(r.nodes) })),
    nodes: snapshot.model.rules.reduce((n, r) => n + count(r.nodes), 0),
    entities: snapshot.model.entities.map((e) => ({ name: e.name, kind: e.kind, dataType: e.dataType ?? null })),
    calledRulesOfOtherSets: (snapshot.model.externalRules ?? []).filter((r) => r.adviceSetId !== String(snapshot.adviceSet.id)).map((r) => ({ id: r.id, name: r.name, adviceSetId: r.adviceSetId })),
  }
}
