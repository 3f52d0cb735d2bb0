// Keys of the focused tree row (WAI-ARIA tree pattern plus the editing keys). The command says what to do; the
// component does it, so the key map is tested on its own.
import type { KeyboardMove } from './moves.ts'

export type TreeCommand =
  | { kind: 'focus'; to: 'previous' | 'next' | 'first' | 'last' }
  | { kind: 'right' }
  | { kind: 'left' }
  | { kind: 'expandAll' }
  | { kind: 'edit' }
  | { kind: 'add'; as: 'child' | 'sibling' }
  | { kind: 'move'; move: KeyboardMove }
  | { kind: 'copy' }
  | { kind: 'delete' }
  | { kind: 'comments' }
  | { kind: 'sources' }

export interface KeyPress { key: string; shiftKey: boolean; altKey: boolean; ctrlKey: boolean; metaKey: boolean }

const ALT_MOVES: Record<string, KeyboardMove> = { ArrowUp: 'up', ArrowDown: 'down', ArrowRight: 'indent', ArrowLeft: 'outdent' }

/** Editing commands are left out in read mode. */
export function treeCommand(press: KeyPress, readOnly: boolean): TreeCommand | null {
  if (press.ctrlKey || press.metaKey) return null
  const edit = (command: TreeCommand): TreeCommand | null => (readOnly ? null : command)
  if (press.altKey) {
    const move = ALT_MOVES[press.key]
    return move ? edit({ kind: 'move', move }) : null
  }
  switch (press.key) {
    case 'ArrowUp': return { kind: 'focus', to: 'previous' }
    case 'ArrowDown': return { kind: 'focus', to: 'next' }
    case 'Home': return { kind: 'focus', to: 'first' }
    case 'End': return { kind: 'focus', to: 'last' }
    case 'ArrowRight': return { kind: 'right' }
    case 'ArrowLeft': return { kind: 'left' }
    case '*': return { kind: 'expandAll' }
    case 'm': return { kind: 'comments' }
    case 's': return { kind: 'sources' }
    case 'Enter':
    case 'F2': return edit({ kind: 'edit' })
    case 'a': return edit({ kind: 'add', as: 'child' })
    case 'A': return edit({ kind: 'add', as: press.shiftKey ? 'sibling' : 'child' })
    case 'c': return edit({ kind: 'copy' })
    case 'Delete': return edit({ kind: 'delete' })
    default: return null
  }
}

export interface FocusResult {
  activeId: number | null
  expand?: number
  collapse?: number
}

interface RowLike { id: number; level: number; hasChildren: boolean; expanded: boolean }

/** Arrow keys on the visible rows: Right opens a closed row or goes to its first child, Left closes or goes to the parent. */
export function moveFocus(rows: readonly RowLike[], activeId: number | null, command: TreeCommand, parentOf: (id: number) => number | null): FocusResult {
  const index = rows.findIndex((row) => row.id === activeId)
  const row = rows[index]
  const at = (i: number) => rows[Math.max(0, Math.min(rows.length - 1, i))]?.id ?? null
  if (!row) return { activeId: at(0) }
  switch (command.kind) {
    case 'focus':
      if (command.to === 'first') return { activeId: at(0) }
      if (command.to === 'last') return { activeId: at(rows.length - 1) }
      return { activeId: at(index + (command.to === 'next' ? 1 : -1)) }
    case 'right':
      if (!row.hasChildren) return { activeId: row.id }
      return row.expanded ? { activeId: at(index + 1) } : { activeId: row.id, expand: row.id }
    case 'left':
      if (row.expanded) return { activeId: row.id, collapse: row.id }
      return { activeId: parentOf(row.id) ?? row.id }
    default:
      return { activeId: row.id }
  }
}
