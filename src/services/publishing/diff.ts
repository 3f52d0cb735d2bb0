// What a version holds and what changed between two versions, by name: rules, nodes and dictionary entries added,
// removed or changed. Node ids are stable while a node is edited, so they pair nodes across versions of one set.
import { ENTITY_TYPE_LIST, type AdviceSetModel, type NodeModel } from '../../engine/index.ts'
import { canonicalJson, type VersionSnapshot } from './snapshot.ts'

interface NamedChange { id: string; name: string; rule?: string }
interface ChangeList { added: NamedChange[]; removed: NamedChange[]; changed: NamedChange[] }
interface VersionDiff { rules: ChangeList; nodes: ChangeList; entities: ChangeList; metadata: string[]; identical: boolean }

const TYPE_LABELS = new Map(ENTITY_TYPE_LIST.map((t) => [t.key as string, t.displayName]))

/** How a node is named on the pages: its type and the words that identify it. */
export function nodeLabel(node: NodeModel): string {
  const type = TYPE_LABELS.get(node.type) ?? node.type
  const words = node.headline ?? node.question ?? node.expression ?? node.variable ?? (node.calledRuleId ? `rule ${node.calledRuleId}` : '')
  return words ? `${type}: ${words.length > 80 ? `${words.slice(0, 79)}…` : words}` : type
}

interface FlatNode { rule: string; parentId: string | null; position: number; node: NodeModel }

function flatten(model: AdviceSetModel): Map<string, FlatNode> {
  const nodes = new Map<string, FlatNode>()
  for (const rule of model.rules) {
    const visit = (list: NodeModel[], parentId: string | null) => list.forEach((node, position) => {
      nodes.set(node.id, { rule: rule.name, parentId, position, node })
      visit(node.children, node.id)
    })
    visit(rule.nodes, null)
  }
  return nodes
}

/** A node's own content and place, without its children (a changed child is its own change). */
function nodeFingerprint(flat: FlatNode): string {
  const { children: _children, ...content } = flat.node
  return canonicalJson({ content, parentId: flat.parentId, position: flat.position })
}

function compare<T>(before: Map<string, T>, after: Map<string, T>, name: (item: T) => NamedChange, same: (a: T, b: T) => boolean): ChangeList {
  const list: ChangeList = { added: [], removed: [], changed: [] }
  for (const [id, item] of after) {
    const old = before.get(id)
    if (old === undefined) list.added.push(name(item))
    else if (!same(old, item)) list.changed.push(name(item))
  }
  for (const [id, item] of before) if (!after.has(id)) list.removed.push(name(item))
  return list
}

/** Changes from `base` (null: nothing published, so everything is new) to `next`. */
export function diffSnapshots(base: VersionSnapshot | null, next: VersionSnapshot): VersionDiff {
  const empty: AdviceSetModel = { id: next.model.id, name: next.model.name, rules: [], entities: [] }
  const from = base?.model ?? empty
  const rulesOf = (m: AdviceSetModel) => new Map(m.rules.map((r, position) => [r.id, { rule: r, position }]))
  const rules = compare(rulesOf(from), rulesOf(next.model), ({ rule }) => ({ id: rule.id, name: rule.name }),
    (a, b) => a.rule.name === b.rule.name && a.position === b.position)
  const nodes = compare(flatten(from), flatten(next.model), (f) => ({ id: f.node.id, name: nodeLabel(f.node), rule: f.rule }),
    (a, b) => nodeFingerprint(a) === nodeFingerprint(b))
  const entitiesOf = (m: AdviceSetModel) => new Map(m.entities.map((e) => [`${e.kind}:${e.name}`, e]))
  const entities = compare(entitiesOf(from), entitiesOf(next.model), (e) => ({ id: e.id, name: e.kind === 'formula' ? `[[${e.name}]]` : `{{${e.name}}}` }),
    (a, b) => canonicalJson({ ...a, id: '' }) === canonicalJson({ ...b, id: '' }))
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
