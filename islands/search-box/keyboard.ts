// What a key press in the search input means (SPEC.md §2 "Keyboard"), decided without touching the DOM.

export type KeyAction =
  | { kind: 'close' }
  | { kind: 'clear' }
  | { kind: 'move', by: 1 | -1 }
  | { kind: 'select', target: OpenTarget }
  | { kind: 'submit' }

/** Where a chosen result opens: this tab, a new tab (ctrl/meta+Enter) or a new window (shift+Enter). */
export type OpenTarget = 'self' | 'tab' | 'window'

export interface KeyPress {
  key: string
  ctrlKey: boolean
  metaKey: boolean
  shiftKey: boolean
  altKey: boolean
  isComposing?: boolean
}

export interface PanelState {
  open: boolean
  query: string
  activeIndex: number
  resultCount: number
}

export function openTarget(press: Pick<KeyPress, 'ctrlKey' | 'metaKey' | 'shiftKey'>): OpenTarget {
  if (press.ctrlKey || press.metaKey) return 'tab'
  return press.shiftKey ? 'window' : 'self'
}

export function keyAction(press: KeyPress, state: PanelState): KeyAction | undefined {
  if (press.isComposing) return undefined
  switch (press.key) {
    case 'Escape':
      if (state.open) return { kind: 'close' }
      return state.query === '' ? undefined : { kind: 'clear' }
    case 'Tab':
      return state.open ? { kind: 'close' } : undefined
    case 'ArrowDown':
    case 'ArrowUp':
      if (press.altKey || state.query === '') return undefined
      return { kind: 'move', by: press.key === 'ArrowDown' ? 1 : -1 }
    case 'Enter':
      if (state.open && state.activeIndex >= 0 && state.activeIndex < state.resultCount) {
        return { kind: 'select', target: openTarget(press) }
      }
      return state.query.trim() === '' ? undefined : { kind: 'submit' }
    default:
      return undefined
  }
}

/**
 * The next active result: moving down from the last result (or up from the first) goes back to the input
 * (-1), as in a combobox; from the input, down goes to the first result and up to the last.
 */
export function nextActiveIndex(current: number, by: 1 | -1, count: number): number {
  if (count === 0) return -1
  const positions = count + 1
  const next = (current + 1 + by + positions) % positions
  return next - 1
}

/** `/` focuses the search box unless the user is typing somewhere else. */
export function isTypingTarget(target: { tagName?: string, isContentEditable?: boolean, type?: string } | null): boolean {
  if (!target) return false
  if (target.isContentEditable) return true
  const tag = (target.tagName ?? '').toLowerCase()
  if (tag === 'textarea' || tag === 'select') return true
  if (tag !== 'input') return false
  const NON_TEXT_INPUTS = ['button', 'checkbox', 'radio', 'submit', 'reset', 'image', 'file', 'color', 'range']
  return !NON_TEXT_INPUTS.includes((target.type ?? 'text').toLowerCase())
}

export function isSlashShortcut(press: KeyPress): boolean {
  return press.key === '/' && !press.ctrlKey && !press.metaKey && !press.altKey
}
