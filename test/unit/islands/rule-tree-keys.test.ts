// Keys of the rule tree: what a key press means (and that read mode has no editing keys), and how the arrows move
// the active row; the type picker's first-letter jumps.
import t from 'tap'
import { moveFocus, treeCommand, type KeyPress } from '../../../islands/rule-tree/keyboard.ts'
import { nextTypeByLetter } from '../../../islands/rule-tree/fields.ts'
import { NODE_TYPES } from '../../../src/engine/entity-types.ts'

const press = (key: string, mods: Partial<KeyPress> = {}): KeyPress => ({ key, shiftKey: false, altKey: false, ctrlKey: false, metaKey: false, ...mods })

t.test('editing keys: Enter/F2 edit, a adds a child, Shift+A a sibling, Alt+arrows move, c copies, Delete deletes', async (t) => {
  t.same(treeCommand(press('Enter'), false), { kind: 'edit' })
  t.same(treeCommand(press('F2'), false), { kind: 'edit' })
  t.same(treeCommand(press('a'), false), { kind: 'add', as: 'child' })
  t.same(treeCommand(press('A', { shiftKey: true }), false), { kind: 'add', as: 'sibling' })
  t.same(treeCommand(press('ArrowUp', { altKey: true }), false), { kind: 'move', move: 'up' })
  t.same(treeCommand(press('ArrowDown', { altKey: true }), false), { kind: 'move', move: 'down' })
  t.same(treeCommand(press('ArrowRight', { altKey: true }), false), { kind: 'move', move: 'indent' })
  t.same(treeCommand(press('ArrowLeft', { altKey: true }), false), { kind: 'move', move: 'outdent' })
  t.same(treeCommand(press('c'), false), { kind: 'copy' })
  t.same(treeCommand(press('Delete'), false), { kind: 'delete' })
  t.equal(treeCommand(press('c', { ctrlKey: true }), false), null, 'Ctrl+C stays the browser\'s')
})

t.test('read mode keeps navigation, expanding and comments but no editing key', async (t) => {
  for (const key of [press('Enter'), press('a'), press('A', { shiftKey: true }), press('ArrowUp', { altKey: true }), press('c'), press('Delete')]) {
    t.equal(treeCommand(key, true), null, key.key)
  }
  t.same(treeCommand(press('ArrowDown'), true), { kind: 'focus', to: 'next' })
  t.same(treeCommand(press('*'), true), { kind: 'expandAll' })
  t.same(treeCommand(press('m'), true), { kind: 'comments' })
})

t.test('arrows: up/down/home/end move along the rows; right opens or enters, left closes or goes to the parent', async (t) => {
  const rows = [
    { id: 1, level: 1, hasChildren: true, expanded: true },
    { id: 2, level: 2, hasChildren: true, expanded: false },
    { id: 3, level: 2, hasChildren: false, expanded: false },
    { id: 4, level: 1, hasChildren: false, expanded: false },
  ]
  const parentOf = (id: number) => (id === 2 || id === 3 ? 1 : null)
  const go = (active: number | null, key: string) => moveFocus(rows, active, treeCommand(press(key), false)!, parentOf)
  t.same(go(1, 'ArrowDown'), { activeId: 2 })
  t.same(go(4, 'ArrowDown'), { activeId: 4 }, 'stays on the last row')
  t.same(go(1, 'ArrowUp'), { activeId: 1 }, 'stays on the first row')
  t.same(go(3, 'Home'), { activeId: 1 })
  t.same(go(1, 'End'), { activeId: 4 })
  t.same(go(2, 'ArrowRight'), { activeId: 2, expand: 2 }, 'opens a closed row')
  t.same(go(1, 'ArrowRight'), { activeId: 2 }, 'enters an open row')
  t.same(go(3, 'ArrowRight'), { activeId: 3 }, 'a leaf stays')
  t.same(go(1, 'ArrowLeft'), { activeId: 1, collapse: 1 }, 'closes an open row')
  t.same(go(3, 'ArrowLeft'), { activeId: 1 }, 'goes to the parent')
  t.same(go(null, 'ArrowDown'), { activeId: 1 }, 'no active row: the first')
})

t.test('the type picker jumps to the next type starting with a letter, wrapping around', async (t) => {
  const at = (type: string) => NODE_TYPES.indexOf(type as (typeof NODE_TYPES)[number])
  t.equal(nextTypeByLetter(-1, 'c'), at('condition'), 'from the top: the first C')
  t.equal(nextTypeByLetter(at('condition'), 'c'), at('conditionAlways'))
  t.equal(nextTypeByLetter(at('conditionAlways'), 'C'), at('condition'), 'wraps to the first C')
  t.equal(nextTypeByLetter(0, 'v'), at('variableAssignment'))
  t.equal(nextTypeByLetter(0, 'a'), at('advice'))
  t.equal(nextTypeByLetter(at('advice'), 'a'), at('apiCall'))
  t.equal(nextTypeByLetter(0, 'z'), -1)
})
