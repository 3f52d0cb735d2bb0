// Pointer moves: HTML5 drag and drop on the tree element (one set of handlers for every row). The row under the
// pointer shows where the node would go (before, inside, after); a drop that the tree cannot take shows nothing.
import { useCallback, useRef, useState } from 'react'
import type { DragEvent } from 'react'
import { dropPlacement, dropZoneAt, type DropZone, type Placement } from './moves.ts'
import type { Tree } from './tree.ts'

export interface DropTarget { id: number; zone: DropZone }

type DragHandlers = {
  onDragStart(event: DragEvent<HTMLElement>): void
  onDragOver(event: DragEvent<HTMLElement>): void
  onDrop(event: DragEvent<HTMLElement>): void
  onDragEnd(): void
}

const rowOf = (event: DragEvent<HTMLElement>) => (event.target instanceof Element ? event.target.closest<HTMLElement>('[data-node-id]') : null)

/** The row under the pointer and the part of it (before, inside, after) the pointer is in. */
function targetAt(event: DragEvent<HTMLElement>): DropTarget | null {
  const row = rowOf(event)
  if (!row) return null
  const box = (row.querySelector('.rule-tree__line') ?? row).getBoundingClientRect()
  return { id: Number(row.dataset.nodeId), zone: dropZoneAt(event.clientY - box.top, box.height) }
}

/** `currentTree` reads the tree at the time of the event; `enabled` is false in read mode and while editing. */
export function useDragMove(currentTree: () => Tree, onMove: (id: number, placement: Placement) => void, enabled: boolean): { drop: DropTarget | null; handlers: DragHandlers | Record<string, never> } {
  const [drop, setDrop] = useState<DropTarget | null>(null)
  const dragged = useRef<number | null>(null)
  const dropRef = useRef(drop)
  dropRef.current = drop

  const show = useCallback((next: DropTarget | null) => {
    const current = dropRef.current
    if (current?.id === next?.id && current?.zone === next?.zone) return
    setDrop(next)
  }, [])

  if (!enabled) return { drop: null, handlers: {} }
  return {
    drop,
    handlers: {
      onDragStart(event) {
        const row = rowOf(event)
        if (!row) return
        dragged.current = Number(row.dataset.nodeId)
        event.dataTransfer.effectAllowed = 'move'
        event.dataTransfer.setData('text/plain', row.dataset.nodeId ?? '')
      },
      onDragOver(event) {
        const target = targetAt(event)
        if (dragged.current === null || !target) return
        if (!dropPlacement(currentTree(), dragged.current, target.id, target.zone)) {
          show(null)
          return
        }
        event.preventDefault()
        event.dataTransfer.dropEffect = 'move'
        show(target)
      },
      onDrop(event) {
        event.preventDefault()
        const from = dragged.current
        // Where the pointer is now: the last dragover's target reaches dropRef only once React has rendered it, and a
        // drop that follows its dragover closely (a quick gesture, a busy machine) came before that and was lost. A
        // drop only fires where that dragover accepted it, so the pointer is over a row.
        const target = targetAt(event)
        dragged.current = null
        show(null)
        if (from === null || !target) return
        const placement = dropPlacement(currentTree(), from, target.id, target.zone)
        if (placement) onMove(from, placement)
      },
      onDragEnd() {
        dragged.current = null
        show(null)
      },
    },
  }
}
