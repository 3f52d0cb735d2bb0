// The tree as the island reads it: flat nodes indexed by parent, and the rows on screen (a depth-first walk of
// the expanded part). Pure, so each step is tested without a browser and rebuilt cheaply on every change.
import type { NodeModel } from '../../src/engine/model.ts'
import type { TreeNode } from './props.ts'

export interface Tree {
  nodes: ReadonlyMap<number, TreeNode>
  /** Child ids in sibling order per parent id; the roots under null. */
  children: ReadonlyMap<number | null, readonly number[]>
}

export interface Row {
  id: number
  /** 1 for roots, as aria-level counts. */
  level: number
  posInSet: number
  setSize: number
  hasChildren: boolean
  expanded: boolean
}

const NO_CHILDREN: readonly number[] = []

/** Nodes under a parent that is not in the tree (or in a parent cycle) are left out, as the server's tree leaves them out. */
export function buildTree(nodes: Iterable<TreeNode>): Tree {
  const byId = new Map<number, TreeNode>()
  for (const node of nodes) byId.set(node.id, node)
  const lists = new Map<number | null, TreeNode[]>()
  for (const node of byId.values()) {
    if (node.parentId !== null && !byId.has(node.parentId)) continue
    const list = lists.get(node.parentId)
    if (list) list.push(node)
    else lists.set(node.parentId, [node])
  }
  const children = new Map<number | null, readonly number[]>()
  for (const [key, list] of lists) children.set(key, list.sort((a, b) => a.position - b.position || a.id - b.id).map((node) => node.id))
  const reachable = new Map<number, TreeNode>()
  const stack = [...(children.get(null) ?? NO_CHILDREN)]
  while (stack.length > 0) {
    const id = stack.pop()!
    reachable.set(id, byId.get(id)!)
    stack.push(...(children.get(id) ?? NO_CHILDREN))
  }
  for (const key of children.keys()) if (key !== null && !reachable.has(key)) children.delete(key)
  return { nodes: reachable, children }
}

export function childrenOf(tree: Tree, parentId: number | null): readonly number[] {
  return tree.children.get(parentId) ?? NO_CHILDREN
}

export function siblingsOf(tree: Tree, id: number): readonly number[] {
  return childrenOf(tree, tree.nodes.get(id)?.parentId ?? null)
}

/** The rows on screen: every root, and the children of every expanded row, depth first. */
export function visibleRows(tree: Tree, expanded: ReadonlySet<number>): Row[] {
  const rows: Row[] = []
  const walk = (ids: readonly number[], level: number): void => {
    ids.forEach((id, index) => {
      const kids = childrenOf(tree, id)
      const open = kids.length > 0 && expanded.has(id)
      rows.push({ id, level, posInSet: index + 1, setSize: ids.length, hasChildren: kids.length > 0, expanded: open })
      if (open) walk(kids, level + 1)
    })
  }
  walk(childrenOf(tree, null), 1)
  return rows
}

/** Parent first, up to the root. */
export function ancestorsOf(tree: Tree, id: number): number[] {
  const found: number[] = []
  let parent = tree.nodes.get(id)?.parentId ?? null
  while (parent !== null && tree.nodes.has(parent)) {
    found.push(parent)
    parent = tree.nodes.get(parent)!.parentId
  }
  return found
}

/** The node and everything under it. */
export function subtreeIds(tree: Tree, id: number): number[] {
  const ids: number[] = []
  const stack = [id]
  while (stack.length > 0) {
    const next = stack.pop()!
    ids.push(next)
    stack.push(...childrenOf(tree, next))
  }
  return ids
}

/** Ids of every node that has children: what Expand all opens. */
export function parentIds(tree: Tree): Set<number> {
  const ids = new Set<number>()
  for (const [key, list] of tree.children) if (key !== null && list.length > 0) ids.add(key)
  return ids
}

/** GET /api/rule/{id}/node/tree answers nested engine nodes; the island keeps them flat with their comment counts. */
export function nodesFromModels(models: readonly NodeModel[], commentCounts: ReadonlyMap<number, number>): TreeNode[] {
  const nodes: TreeNode[] = []
  const walk = (list: readonly NodeModel[], parentId: number | null): void => {
    list.forEach((model, position) => {
      const id = Number(model.id)
      nodes.push({
        id, parentId, position, type: model.type,
        expression: model.expression ?? null, variable: model.variable ?? null, headline: model.headline ?? null,
        text: model.text ?? null, question: model.question ?? null,
        calledRuleId: model.calledRuleId === undefined ? null : Number(model.calledRuleId),
        apiId: model.apiId ?? null, tags: model.tags ?? [], commentCount: commentCounts.get(id) ?? 0,
      })
      walk(model.children, id)
    })
  }
  walk(models, null)
  return nodes
}

/** The rule's nodes as the engine reads them (string ids, nested), leaving out unsaved ones. */
export function nodeModelsOf(tree: Tree): NodeModel[] {
  const build = (id: number): NodeModel => {
    const node = tree.nodes.get(id)!
    const model: NodeModel = { id: String(id), type: node.type, children: childrenOf(tree, id).filter((child) => child > 0).map(build) }
    if (node.expression !== null) model.expression = node.expression
    if (node.variable !== null) model.variable = node.variable
    if (node.headline !== null) model.headline = node.headline
    if (node.text !== null) model.text = node.text
    if (node.question !== null) model.question = node.question
    if (node.calledRuleId !== null) model.calledRuleId = String(node.calledRuleId)
    if (node.apiId !== null) model.apiId = node.apiId
    if (node.tags.length > 0) model.tags = node.tags
    return model
  }
  return childrenOf(tree, null).filter((id) => id > 0).map(build)
}
