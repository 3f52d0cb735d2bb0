// A version's rule trees written back over the working draft's, keeping node identity. Each node of the version is
// paired by its key with the node row that holds it in the set (live, or deleted since: it comes back), or by its id
// when the version is older than keys and its row was not found then. A paired row is updated in place, so its id,
// its comments, its scenarios' expectations and its history stay; a node the draft lacks is inserted with the
// version's key; the draft's live nodes the version lacks are soft-deleted (one timestamp: they come back together).
import type { Db } from '../../db/client.ts'
import { insertNodes, listSetNodesEver, setNodesDeleted, updateNode, type NodeContent, type NodeInsert, type RuleNodeRow } from '../../db/queries/rule-nodes.ts'
import { listLinkedSupplementsOf } from '../../db/queries/supplements.ts'
import type { NodeModel, RuleModel } from '../../engine/index.ts'
import { relinkSupplements } from '../files/links.ts'
import { splitSources } from '../files/sources.ts'
import type { Actor } from '../context.ts'

export interface TreeTarget {
  adviceSetId: number
  ownerId: string
  /** The set's rule id for each rule id of the version. */
  ruleIds: ReadonlyMap<string, number>
  /** Rules whose live nodes the version's trees replace: the draft's live rules and the version's. */
  replacedRuleIds: ReadonlySet<number>
  ruleNames: ReadonlyMap<number, string>
  deletedAt: Date
}

interface Placement { ruleId: number; parentId: number | null; position: number }

/** Of two rows holding one key, the one to bring back: a live one, else the latest deleted. */
function preferred(a: RuleNodeRow, b: RuleNodeRow): RuleNodeRow {
  if ((a.deletedAt === null) !== (b.deletedAt === null)) return a.deletedAt === null ? a : b
  return (a.deletedAt?.getTime() ?? 0) >= (b.deletedAt?.getTime() ?? 0) ? a : b
}

/** The row of the set that holds each node of the version, when one does. */
function pairNodes(rules: readonly RuleModel[], rows: RuleNodeRow[]): Map<NodeModel, RuleNodeRow> {
  const byKey = new Map<string, RuleNodeRow>()
  for (const row of rows) {
    const known = byKey.get(row.key)
    byKey.set(row.key, known ? preferred(known, row) : row)
  }
  const byId = new Map(rows.map((row) => [String(row.id), row]))
  const pairs = new Map<NodeModel, RuleNodeRow>()
  const taken = new Set<number>()
  const visit = (node: NodeModel) => {
    const row = node.key !== undefined ? byKey.get(node.key) : byId.get(node.id)
    if (row && !taken.has(row.id)) {
      taken.add(row.id)
      pairs.set(node, row)
    }
    node.children.forEach(visit)
  }
  rules.forEach((rule) => rule.nodes.forEach(visit))
  return pairs
}

function contentOf(node: NodeModel, target: TreeTarget): { content: NodeContent; supplementIds: number[] } {
  // Linked supplements come back as links (the model joins them again), the node's own sources into its row.
  const { own, supplementIds } = splitSources(node.sources ?? [])
  const calledRuleId = node.calledRuleId === undefined ? null : target.ruleIds.get(node.calledRuleId) ?? Number(node.calledRuleId)
  return {
    content: {
      type: node.type, expression: node.expression ?? null, variable: node.variable ?? null, headline: node.headline ?? null, text: node.text ?? null,
      question: node.question ?? null, calledRuleId, apiId: node.apiId ?? null, tags: node.tags ?? [], sources: own,
    },
    supplementIds,
  }
}

function sameContent(row: RuleNodeRow, content: NodeContent): boolean {
  return (Object.keys(content) as Array<keyof NodeContent>).every((field) => JSON.stringify(row[field]) === JSON.stringify(content[field]))
}

function samePlace(row: RuleNodeRow, place: Placement): boolean {
  return row.ruleId === place.ruleId && row.parentId === place.parentId && row.position === place.position
}

/** Writes the version's trees (its rules already placed in `target.ruleIds`); returns how many nodes they hold. */
export async function restoreTrees(tx: Db, actor: Actor, rules: readonly RuleModel[], target: TreeTarget): Promise<number> {
  const rows = await listSetNodesEver(tx, target.adviceSetId)
  const pairs = pairNodes(rules, rows)
  const kept = new Set([...pairs.values()].map((row) => row.id))
  const extra = rows.filter((row) => row.deletedAt === null && !kept.has(row.id) && target.replacedRuleIds.has(row.ruleId))
  await setNodesDeleted(tx, extra.map((row) => row.id), target.deletedAt, actor.userId)

  // Live rows that will move are parked first at a place no live sibling holds (-id), so that no final place is
  // still held by a row that has yet to move (live places are unique, schema/rules.ts).
  const moving: RuleNodeRow[] = []
  const findMoving = (nodes: NodeModel[], ruleId: number, parent: RuleNodeRow | null | undefined) => nodes.forEach((node, position) => {
    const row = pairs.get(node)
    // A parent that is new (undefined) has no id yet: its children move for sure.
    if (row && row.deletedAt === null && (parent === undefined || !samePlace(row, { ruleId, parentId: parent?.id ?? null, position }))) moving.push(row)
    findMoving(node.children, ruleId, row)
  })
  for (const rule of rules) findMoving(rule.nodes, target.ruleIds.get(rule.id)!, null)
  for (const row of moving) await updateNode(tx, row.id, { position: -row.id, updatedBy: actor.userId })
  const parked = new Set(moving.map((row) => row.id))

  // Rows are written a level at a time: the level's new nodes in one insert, its paired rows updated when they
  // changed. No final place is held by another row by then (the moving ones were parked above), so the order is free.
  const ids = new Map<NodeModel, number>()
  let level: Array<{ node: NodeModel; ruleId: number; parent: NodeModel | null; position: number }> = []
  for (const rule of rules) rule.nodes.forEach((node, position) => level.push({ node, ruleId: target.ruleIds.get(rule.id)!, parent: null, position }))
  while (level.length > 0) {
    const inserts: NodeModel[] = []
    const rowsToInsert: NodeInsert[] = []
    for (const { node, ruleId, parent, position } of level) {
      const { content } = contentOf(node, target)
      const place = { ruleId, parentId: parent === null ? null : ids.get(parent)!, position }
      const row = pairs.get(node)
      if (!row) {
        inserts.push(node)
        rowsToInsert.push({ ...content, ...place, ...(node.key !== undefined ? { key: node.key } : {}), createdBy: actor.userId })
        continue
      }
      ids.set(node, row.id)
      if (row.deletedAt !== null || parked.has(row.id) || !samePlace(row, place) || !sameContent(row, content)) {
        await updateNode(tx, row.id, { ...content, ...place, deletedAt: null, updatedBy: actor.userId })
      }
    }
    const inserted = await insertNodes(tx, rowsToInsert)
    inserts.forEach((node, i) => ids.set(node, inserted[i]!))
    level = level.flatMap(({ node, ruleId }) => node.children.map((child, position) => ({ node: child, ruleId, parent: node, position })))
  }

  // Then the links to supplements, node by node in tree order as before; a new node has none yet.
  const linked = await listLinkedSupplementsOf(tx, 'ruleNode', [...pairs.values()].map((row) => row.id))
  let count = 0
  const relink = async (nodes: NodeModel[], ruleId: number) => {
    for (const node of nodes) {
      const { supplementIds } = contentOf(node, target)
      const id = ids.get(node)!
      const linkedNow = pairs.has(node) ? linked.get(id) ?? [] : []
      if (supplementIds.length > 0 || linkedNow.length > 0) {
        const label = `${node.headline || node.text || node.type} in ${target.ruleNames.get(ruleId) ?? `rule ${ruleId}`}`.slice(0, 120)
        await relinkSupplements(tx, actor, { id, ownerId: target.ownerId, label }, supplementIds, linkedNow)
      }
      count += 1
      await relink(node.children, ruleId)
    }
  }
  for (const rule of rules) await relink(rule.nodes, target.ruleIds.get(rule.id)!)
  return count
}
