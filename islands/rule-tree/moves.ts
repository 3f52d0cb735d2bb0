// Where a moved node goes, from the keyboard (Alt+arrows) or a drop, and the tree after the move. A placement is
// what POST /api/rule/{id}/node/move takes: the new parent and the position among its children once the moved
// node has left its old place.
import type { TreeNode } from './props.ts'
import { ancestorsOf, childrenOf, siblingsOf, type Tree } from './tree.ts'

export interface Placement { parentId: number | null; position: number }

export type KeyboardMove = 'up' | 'down' | 'indent' | 'outdent'

export type DropZone = 'before' | 'after' | 'inside'

/** Null when the node cannot go that way (first sibling up, last down, no previous sibling to indent under, a root out). */
export function keyboardPlacement(tree: Tree, id: number, move: KeyboardMove): Placement | null {
  const node = tree.nodes.get(id)
  if (!node) return null
  const siblings = siblingsOf(tree, id)
  const index = siblings.indexOf(id)
  switch (move) {
    case 'up':
      return index > 0 ? { parentId: node.parentId, position: index - 1 } : null
    case 'down':
      return index < siblings.length - 1 ? { parentId: node.parentId, position: index + 1 } : null
    case 'indent': {
      const previous = siblings[index - 1]
      return previous === undefined ? null : { parentId: previous, position: childrenOf(tree, previous).length }
    }
    case 'outdent': {
      if (node.parentId === null) return null
      const parent = tree.nodes.get(node.parentId)!
      return { parentId: parent.parentId, position: siblingsOf(tree, parent.id).indexOf(parent.id) + 1 }
    }
  }
}

/** The drop zone from where the pointer is on the row: its top quarter before, bottom quarter after, else inside. */
export function dropZoneAt(offsetY: number, height: number): DropZone {
  if (offsetY < height / 4) return 'before'
  if (offsetY > (height * 3) / 4) return 'after'
  return 'inside'
}

/** Null for a drop onto the node itself or its own subtree, and for a drop that changes nothing. */
export function dropPlacement(tree: Tree, draggedId: number, targetId: number, zone: DropZone): Placement | null {
  const dragged = tree.nodes.get(draggedId)
  const target = tree.nodes.get(targetId)
  if (!dragged || !target || draggedId === targetId || ancestorsOf(tree, targetId).includes(draggedId)) return null
  const placement: Placement = zone === 'inside'
    ? { parentId: targetId, position: childrenOf(tree, targetId).filter((id) => id !== draggedId).length }
    : {
      parentId: target.parentId,
      position: siblingsOf(tree, targetId).filter((id) => id !== draggedId).indexOf(targetId) + (zone === 'after' ? 1 : 0),
    }
  const unchanged = placement.parentId === dragged.parentId && placement.position === siblingsOf(tree, draggedId).indexOf(draggedId)
  return unchanged ? null : placement
}

/** The nodes after the move, positions renumbered gap-free in the old and the new sibling list (as the server does). */
export function applyMove(tree: Tree, id: number, placement: Placement): Map<number, TreeNode> {
  const nodes = new Map(tree.nodes)
  const node = nodes.get(id)
  if (!node) return nodes
  const renumber = (ids: readonly number[], parentId: number | null) => ids.forEach((sibling, position) => {
    const current = nodes.get(sibling)!
    if (current.position !== position || current.parentId !== parentId) nodes.set(sibling, { ...current, parentId, position })
  })
  const newSiblings = childrenOf(tree, placement.parentId).filter((sibling) => sibling !== id)
  const at = Math.min(placement.position, newSiblings.length)
  if (placement.parentId !== node.parentId) renumber(siblingsOf(tree, id).filter((sibling) => sibling !== id), node.parentId)
  renumber([...newSiblings.slice(0, at), id, ...newSiblings.slice(at)], placement.parentId)
  return nodes
}
