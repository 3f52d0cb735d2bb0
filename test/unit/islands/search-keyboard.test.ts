import t from 'tap'
import { isSlashShortcut, isTypingTarget, keyAction, nextActiveIndex, openTarget } from '../../../islands/search-box/keyboard.ts'
import type { KeyPress, PanelState } from '../../../islands/search-box/keyboard.ts'

const press = (key: string, mods: Partial<KeyPress> = {}): KeyPress =>
  ({ key, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...mods })
const state = (over: Partial<PanelState> = {}): PanelState => ({ open: true, query: 'mort', activeIndex: -1, resultCount: 3, ...over })

t.test('Escape closes an open panel, then clears the text, then does nothing', async (t) => {
  t.same(keyAction(press('Escape'), state()), { kind: 'close' })
  t.same(keyAction(press('Escape'), state({ open: false })), { kind: 'clear' })
  t.equal(keyAction(press('Escape'), state({ open: false, query: '' })), undefined)
})

t.test('Tab closes an open panel and is otherwise left alone', async (t) => {
  t.same(keyAction(press('Tab'), state()), { kind: 'close' })
  t.same(keyAction(press('Tab', { shiftKey: true }), state()), { kind: 'close' })
  t.equal(keyAction(press('Tab'), state({ open: false })), undefined)
})

t.test('arrows move through results when there is text', async (t) => {
  t.same(keyAction(press('ArrowDown'), state()), { kind: 'move', by: 1 })
  t.same(keyAction(press('ArrowUp'), state()), { kind: 'move', by: -1 })
  t.same(keyAction(press('ArrowDown'), state({ open: false })), { kind: 'move', by: 1 }, 'a closed panel reopens')
  t.equal(keyAction(press('ArrowDown'), state({ query: '' })), undefined)
  t.equal(keyAction(press('ArrowDown', { altKey: true }), state()), undefined)
})

t.test('Enter selects the active result in this tab, a new tab or a new window', async (t) => {
  const active = state({ activeIndex: 1 })
  t.same(keyAction(press('Enter'), active), { kind: 'select', target: 'self' })
  t.same(keyAction(press('Enter', { ctrlKey: true }), active), { kind: 'select', target: 'tab' })
  t.same(keyAction(press('Enter', { metaKey: true }), active), { kind: 'select', target: 'tab' })
  t.same(keyAction(press('Enter', { shiftKey: true }), active), { kind: 'select', target: 'window' })
  t.same(keyAction(press('Enter'), state()), { kind: 'submit' }, 'no active result: the form goes to the screener')
  t.same(keyAction(press('Enter'), state({ open: false, activeIndex: 1 })), { kind: 'submit' }, 'a closed panel selects nothing')
  t.equal(keyAction(press('Enter'), state({ query: '  ' })), undefined, 'blank text submits nothing')
  t.equal(keyAction(press('Enter', { isComposing: true }), active), undefined, 'an IME composition keeps its Enter')
})

t.test('openTarget: ctrl or meta wins over shift', async (t) => {
  t.equal(openTarget({ ctrlKey: true, metaKey: false, shiftKey: true }), 'tab')
  t.equal(openTarget({ ctrlKey: false, metaKey: false, shiftKey: false }), 'self')
})

t.test('nextActiveIndex cycles through the results and back to the input (-1)', async (t) => {
  t.equal(nextActiveIndex(-1, 1, 3), 0)
  t.equal(nextActiveIndex(0, 1, 3), 1)
  t.equal(nextActiveIndex(2, 1, 3), -1)
  t.equal(nextActiveIndex(-1, -1, 3), 2)
  t.equal(nextActiveIndex(0, -1, 3), -1)
  t.equal(nextActiveIndex(-1, 1, 0), -1, 'no results: nothing to move to')
})

t.test('`/` focuses the search box unless typing elsewhere', async (t) => {
  t.ok(isSlashShortcut(press('/')))
  t.notOk(isSlashShortcut(press('/', { ctrlKey: true })))
  t.notOk(isSlashShortcut(press('?', { shiftKey: true })))
  t.ok(isTypingTarget({ tagName: 'INPUT', type: 'text' }))
  t.ok(isTypingTarget({ tagName: 'INPUT' }), 'an input without a type is a text input')
  t.ok(isTypingTarget({ tagName: 'TEXTAREA' }))
  t.ok(isTypingTarget({ tagName: 'SELECT' }))
  t.ok(isTypingTarget({ tagName: 'DIV', isContentEditable: true }))
  t.notOk(isTypingTarget({ tagName: 'INPUT', type: 'checkbox' }))
  t.notOk(isTypingTarget({ tagName: 'BUTTON' }))
  t.notOk(isTypingTarget(null))
})
