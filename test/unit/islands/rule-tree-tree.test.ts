// The rule tree's pure parts: flat nodes to a tree, the rows on screen, moves by key and by drop, adding and
// removing nodes, and the server's nested tree back to flat nodes.
import t from 'tap'
import { parseRuleTreeProps, type TreeNode } from '../../../islands/rule-tree/props.ts'
import { ancestorsOf, buildTree, nodeModelsOf, nodesFromModels, parentIds, subtreeIds, visibleRows, type Tree } from '../../../islands/rule-tree/tree.ts'
import { applyMove, dropPlacement, dropZoneAt, keyboardPlacement } from '../../../islands/rule-tree/moves.ts'
import { insertNode, placementForNew, removeSubtree, replaceNode } from '../../../islands/rule-tree/edits.ts'

const node = (id: number, parentId: number | null, position: number, over: Partial<TreeNode> = {}): TreeNode => ({
  id, parentId, position, type: 'advice', expression: null, variable: null, headline: `Node ${id}`, text: null, question: null,
  calledRuleId: null, apiId: null, tags: [], commentCount: 0, ...over,
})

// 1 ─ 2 ─ 4
//   └ 3
// 5
// 6 ─ 7
const sample = (): Tree => buildTree([node(6, null, 2), node(3, 1, 1), node(1, null, 0), node(2, 1, 0), node(4, 2, 0), node(5, null, 1), node(7, 6, 0)])

/** Parent and children per node, as a readable outline. */
function outline(tree: Tree): string {
  const lines: string[] = []
  const walk = (parent: number | null, depth: number) => (tree.children.get(parent) ?? []).forEach((id) => {
    lines.push(`${'  '.repeat(depth)}${id}@${tree.nodes.get(id)!.position}`)
    walk(id, depth + 1)
  })
  walk(null, 0)
  return lines.join('\n')
}

t.test('flat nodes in any order become siblings ordered by position', async (t) => {
  const tree = sample()
  t.same(tree.children.get(null), [1, 5, 6])
  t.same(tree.children.get(1), [2, 3])
  t.same(ancestorsOf(tree, 4), [2, 1])
  t.same(subtreeIds(tree, 1).sort(), [1, 2, 3, 4])
  t.same([...parentIds(tree)].sort(), [1, 2, 6])
})

t.test('nodes under a missing parent or in a parent cycle are left out', async (t) => {
  const tree = buildTree([node(1, null, 0), node(2, 99, 0), node(3, 4, 0), node(4, 3, 0)])
  t.same([...tree.nodes.keys()], [1])
})

t.test('visible rows walk expanded nodes depth first with their ARIA level and place among siblings', async (t) => {
  const tree = sample()
  t.same(visibleRows(tree, new Set()).map((row) => row.id), [1, 5, 6], 'collapsed: roots only')
  const rows = visibleRows(tree, new Set([1, 2]))
  t.same(rows.map((row) => [row.id, row.level, row.posInSet, row.setSize]), [[1, 1, 1, 3], [2, 2, 1, 2], [4, 3, 1, 1], [3, 2, 2, 2], [5, 1, 2, 3], [6, 1, 3, 3]])
  t.same(rows.filter((row) => row.hasChildren).map((row) => [row.id, row.expanded]), [[1, true], [2, true], [6, false]])
})

t.test('keyboard moves: Alt+Up/Down reorder, Alt+Right goes under the previous sibling, Alt+Left outdents', async (t) => {
  const tree = sample()
  t.same(keyboardPlacement(tree, 3, 'up'), { parentId: 1, position: 0 })
  t.equal(keyboardPlacement(tree, 2, 'up'), null, 'the first sibling cannot go up')
  t.same(keyboardPlacement(tree, 5, 'down'), { parentId: null, position: 2 })
  t.equal(keyboardPlacement(tree, 6, 'down'), null, 'the last sibling cannot go down')
  t.same(keyboardPlacement(tree, 3, 'indent'), { parentId: 2, position: 1 }, 'last child of the previous sibling')
  t.equal(keyboardPlacement(tree, 1, 'indent'), null, 'no previous sibling')
  t.same(keyboardPlacement(tree, 4, 'outdent'), { parentId: 1, position: 1 }, 'right after its old parent')
  t.equal(keyboardPlacement(tree, 5, 'outdent'), null, 'roots cannot outdent')
})

t.test('applying a move renumbers the old and new sibling lists gap-free', async (t) => {
  const tree = sample()
  const moved = buildTree(applyMove(tree, 2, { parentId: 6, position: 0 }).values())
  t.equal(outline(moved), ['1@0', '  3@0', '5@1', '6@2', '  2@0', '    4@0', '  7@1'].join('\n'))
  const reordered = buildTree(applyMove(tree, 6, { parentId: null, position: 0 }).values())
  t.same(reordered.children.get(null), [6, 1, 5])
})

t.test('drop zones: top quarter before, bottom quarter after, the middle inside', async (t) => {
  t.equal(dropZoneAt(2, 32), 'before')
  t.equal(dropZoneAt(16, 32), 'inside')
  t.equal(dropZoneAt(30, 32), 'after')
})

t.test('a drop gives the placement the move route takes, and refuses drops into the own subtree', async (t) => {
  const tree = sample()
  t.same(dropPlacement(tree, 5, 2, 'inside'), { parentId: 2, position: 1 }, 'last child of the target')
  t.same(dropPlacement(tree, 5, 1, 'before'), { parentId: null, position: 0 })
  t.same(dropPlacement(tree, 1, 6, 'after'), { parentId: null, position: 2 }, 'positions count without the moved node')
  t.same(dropPlacement(tree, 7, 3, 'after'), { parentId: 1, position: 2 })
  t.equal(dropPlacement(tree, 1, 4, 'inside'), null, 'not under its own descendant')
  t.equal(dropPlacement(tree, 1, 1, 'inside'), null, 'not onto itself')
  t.equal(dropPlacement(tree, 5, 1, 'after'), null, 'right after its previous sibling changes nothing')
  t.equal(dropPlacement(tree, 4, 2, 'inside'), null, 'already the last child there')
})

t.test('new nodes go last under the anchor (child) or right after it (sibling), or last among the roots', async (t) => {
  const tree = sample()
  t.same(placementForNew(tree, 1, 'child'), { parentId: 1, position: 2 })
  t.same(placementForNew(tree, 2, 'sibling'), { parentId: 1, position: 1 })
  t.same(placementForNew(tree, null, 'child'), { parentId: null, position: 3 })
  const added = buildTree(insertNode(tree, node(-1, null, 0), { parentId: 1, position: 1 }).values())
  t.same(added.children.get(1), [2, -1, 3])
  t.same([2, -1, 3].map((id) => added.nodes.get(id)!.position), [0, 1, 2])
  const saved = buildTree(replaceNode(added, -1, node(42, 1, 1)).values())
  t.same(saved.children.get(1), [2, 42, 3], 'the saved node takes the unsaved one\'s place')
  const removed = buildTree(removeSubtree(tree, 2).values())
  t.equal(outline(removed), ['1@0', '  3@0', '5@1', '6@2', '  7@0'].join('\n'), 'the subtree goes and the siblings close up')
})

t.test('the server\'s nested tree becomes flat nodes keeping comment counts, and back to engine nodes without unsaved ones', async (t) => {
  const models = [
    { id: '1', type: 'condition' as const, expression: '{{Age}} > 5', children: [{ id: '2', type: 'advice' as const, headline: 'Hi', tags: ['example'], children: [] }] },
    { id: '3', type: 'ruleCall' as const, calledRuleId: '9', children: [] },
  ]
  const nodes = nodesFromModels(models, new Map([[2, 4]]))
  t.same(nodes.map((n) => [n.id, n.parentId, n.position, n.commentCount]), [[1, null, 0, 0], [2, 1, 0, 4], [3, null, 1, 0]])
  t.equal(nodes[2]!.calledRuleId, 9)
  const tree = buildTree([...nodes, node(-1, 1, 1)])
  t.same(nodeModelsOf(tree), models, 'the same engine nodes, the unsaved one left out')
})

t.test('props: nodes and dictionary are checked, optional parts get safe defaults, a bad node type is refused', async (t) => {
  const props = parseRuleTreeProps({
    mode: 'edit', rule: { id: 7, name: 'Eligibility', adviceSetId: 3 }, adviceSet: { id: 3, name: 'Pensions', ownerId: 'o1' },
    nodes: [{ id: 1, parentId: null, position: 0, type: 'condition', expression: '{{Age}} > 1', tags: ['example', 5], commentCount: 2 }],
    rules: [{ id: 8, name: 'Other', adviceSetId: 3, adviceSetName: 'Pensions' }],
    entities: [{ id: 4, name: 'Age', kind: 'variable', dataType: 'number' }],
    activeNodeId: 1,
  })
  t.same(props.nodes[0], { ...node(1, null, 0, { type: 'condition', expression: '{{Age}} > 1', headline: null, tags: ['example'], commentCount: 2 }) })
  t.equal(props.activeNodeId, 1)
  t.equal(parseRuleTreeProps({ ...props, mode: 'anything', activeNodeId: 'x' }).mode, 'read', 'anything but edit reads')
  t.equal(props.comments, false, 'comments are offered only when the page says so (the set\'s own team)')
  t.equal(parseRuleTreeProps({ ...props, comments: true }).comments, true)
  t.equal(parseRuleTreeProps({ ...props, comments: 'yes' }).comments, false)
  t.throws(() => parseRuleTreeProps({ ...props, nodes: [{ id: 1, type: 'paragraph' }] }), { name: 'InvalidPropsError' })
  t.throws(() => parseRuleTreeProps({ ...props, rule: null }), { name: 'InvalidPropsError' })
})
