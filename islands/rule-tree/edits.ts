// Adding and removing nodes in the island's copy of the tree, renumbering siblings gap-free as the server does,
// and where a new node goes when the author adds a child or a sibling.
import type { Placement } from './moves.ts'
import type { TreeNode } from './props.ts'
import { childrenOf, siblingsOf, subtreeIds, type Tree } from './tree.ts'

function renumber(nodes: Map<number, TreeNode>, ids: readonly number[]): void {
  ids.forEach((id, position) => {
    const node = nodes.get(id)!
    if (node.position !== position) nodes.set(id, { ...node, position })
  })
}

/** A new child goes last under its parent; a new sibling right after the node; with no node, last among the roots. */
export function placementForNew(tree: Tree, anchorId: number | null, as: 'child' | 'sibling'): Placement {
  if (anchorId === null || !tree.nodes.has(anchorId)) return { parentId: null, position: childrenOf(tree, null).length }
  if (as === 'child') return { parentId: anchorId, position: childrenOf(tree, anchorId).length }
  return { parentId: tree.nodes.get(anchorId)!.parentId, position: siblingsOf(tree, anchorId).indexOf(anchorId) + 1 }
}

export function insertNode(tree: Tree, node: TreeNode, placement: Placement): Map<number, TreeNode> {
  const nodes = new Map(tree.nodes)
  const siblings = childrenOf(tree, placement.parentId).filter((id) => id !== node.id)
  const at = Math.min(placement.position, siblings.length)
  nodes.set(node.id, { ...node, parentId: placement.parentId, position: at })
  renumber(nodes, [...siblings.slice(0, at), node.id, ...siblings.slice(at)])
  return nodes
}

/** Removes the node and its subtree. */
export function removeSubtree(tree: Tree, id: number): Map<number, TreeNode> {
  const nodes = new Map(tree.nodes)
  if (!nodes.has(id)) return nodes
  for (const gone of subtreeIds(tree, id)) nodes.delete(gone)
  renumber(nodes, siblingsOf(tree, id).filter((sibling) => sibling !== id))
  return nodes
}

/** Swaps a saved node in for the unsaved one it was made from, at the same place. */
export function replaceNode(tree: Tree, oldId: number, node: TreeNode): Map<number, TreeNode> {
  const nodes = new Map<number, TreeNode>()
  for (const [id, current] of tree.nodes) {
    if (id === oldId) nodes.set(node.id, node)
    else nodes.set(id, current.parentId === oldId ? { ...current, parentId: node.id } : current)
  }
  return nodes
}
