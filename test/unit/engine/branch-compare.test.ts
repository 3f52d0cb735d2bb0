// compareBranches: paths added, removed and changed between two sources of one advice set; paths matched by node
// id, then by content; "changed" judged on the path itself.
import t from 'tap'
import { compareBranches, compileAdviceSet, generateBranches } from '../../../src/engine/index.ts'
import type { AdviceSetModel, NodeModel } from '../../../src/engine/model.ts'
import { loan } from '../../fixtures/engine/loan.ts'
import { drawdown } from '../../fixtures/engine/drawdown.ts'
import { advice, condition } from '../../fixtures/engine/build.ts'

const NOW = new Date('2026-01-15T00:00:00Z')

function source(model: AdviceSetModel) {
  return { compiled: compileAdviceSet(model), report: generateBranches(model, { now: NOW }) }
}

/** A copy of the model with `edit` applied to every node (return a replacement or the node). */
function edited(model: AdviceSetModel, edit: (node: NodeModel) => NodeModel | null): AdviceSetModel {
  const walk = (nodes: NodeModel[]): NodeModel[] => nodes.flatMap((node) => {
    const replaced = edit({ ...node, children: walk(node.children) })
    return replaced ? [replaced] : []
  })
  return { ...model, rules: model.rules.map((rule) => ({ ...rule, nodes: walk(rule.nodes) })) }
}

const leaves = (changes: Array<{ base: { path: string[] } | null; next: { path: string[] } | null }>) =>
  changes.map((change) => (change.next ?? change.base)!.path.at(-1)).sort()

t.test('the same set compared with itself has no changes', async (t) => {
  const result = compareBranches(source(loan), source(loan), { now: NOW })
  t.same([result.added, result.removed, result.changed], [[], [], []])
  t.equal(result.unchanged, generateBranches(loan, { now: NOW }).branches.length + generateBranches(loan, { now: NOW }).unreachable.length)
})

t.test('an edited advice text under date-derived ages is a changed outcome, with the text before and after', async (t) => {
  // Issue 24 defect 3: the paths under the 55–75 condition were unreachable, so v2's new text showed as no change.
  const next = edited(drawdown, (node) => (node.id === 'a-taxed' ? { ...node, text: 'Income tax will apply at your marginal rate.' } : node))
  const result = compareBranches(source(drawdown), source(next), { now: NOW })
  const throughCall = result.changed.find((change) => change.next?.path.join('>') === 'c-mid>k-tax>c-taxed>a-taxed')
  t.ok(throughCall, 'the path through the called rule is changed')
  t.same(throughCall?.changedAdvice, [{ nodeId: 'a-taxed', before: { headline: 'Income tax will apply', text: '' }, after: { headline: 'Income tax will apply', text: 'Income tax will apply at your marginal rate.' } }])
  t.equal(throughCall?.reason, 'The text of the advice on this path changed.')
  t.same([result.added, result.removed], [[], []])
})

t.test('an edited condition on a formula is found by trying answers on each side of its boundaries', async (t) => {
  // 55–75 becomes 55–70: the branches' own answers (age 55) are on the path on both sides; age 75 shows the edit.
  const next = edited(drawdown, (node) => (node.id === 'c-mid' ? { ...node, expression: '[[Client_Age]] >= 55 && [[Client_Age]] <= 70' } : node))
  const result = compareBranches(source(drawdown), source(next), { now: NOW })
  t.same(leaves(result.changed), ['a-monthly', 'a-rate-high', 'a-taxed', 'a-untaxed'], 'every path under the edited condition')
  for (const change of result.changed) {
    const born = new Date(`${String(change.inputs?.Birth_Date)}T00:00:00Z`)
    const age = NOW.getUTCFullYear() - born.getUTCFullYear() - (NOW < new Date(Date.UTC(NOW.getUTCFullYear(), born.getUTCMonth(), born.getUTCDate())) ? 1 : 0)
    t.ok(age > 70 && age <= 75, `shown by an age between the two bounds (${age})`)
    t.match(change.reason, /reach this path before the change but not after/)
  }
})

t.test('editing one condition reports exactly the paths through it as changed', async (t) => {
  const next = edited(loan, (node) => (node.id === 'c-senior' ? { ...node, expression: '{{Age}} >= 70' } : node))
  const result = compareBranches(source(loan), source(next), { now: NOW })
  t.same(leaves(result.changed), ['a-senior'], 'only the path under the edited condition')
  t.same([result.added, result.removed], [[], []])
  const change = result.changed[0]!
  t.same(change.inputs?.Age, 65, 'answers that show it: 65 reaches the path before, not after')
  t.match(change.reason, /reach this path before the change but not after/)
  t.ok(change.baseOutcome!.advice.includes('a-senior'), 'the outcome on the base side has the advice')
  t.notOk(change.nextOutcome!.advice.includes('a-senior'), 'the outcome on the next side does not')
})

t.test('an edit that only matters for answers neither side picked is still found, by trying the boundaries', async (t) => {
  const next = edited(loan, (node) => (node.id === 'c-high-employed' ? { ...node, expression: '{{Employed}} && {{Age}} < 50' } : node))
  const result = compareBranches(source(loan), source(next), { now: NOW })
  t.same(leaves(result.changed), ['a-prime'])
  const change = result.changed[0]!
  t.ok((change.inputs!.Age as number) >= 50, `answers with Age ${String(change.inputs!.Age)} show it`)
  t.ok(change.baseOutcome!.advice.includes('a-prime') && !change.nextOutcome!.advice.includes('a-prime'))
})

t.test('a condition that ends a rule earlier changes the paths after it too', async (t) => {
  const next = edited(loan, (node) => (node.id === 'c-minor' ? { ...node, expression: '{{Age}} < 21' } : node))
  const result = compareBranches(source(loan), source(next), { now: NOW })
  t.ok(leaves(result.changed).includes('a-adult'), 'answers of 18 now stop at the exit before "Standard terms"')
  t.notOk(leaves(result.changed).some((leaf) => leaf?.startsWith('q-')), 'the question paths are untouched')
})

t.test('changed advice text on a path is a changed outcome; added and removed paths carry their answers', async (t) => {
  const next = edited(loan, (node) => {
    if (node.id === 'a-prime') return { ...node, headline: 'Prime borrower (reviewed)' }
    if (node.id === 'c-zero') return null
    if (node.id === 'k-always') return { ...node, children: [...node.children, condition('c-new', '{{Age}} > 90', advice('a-new', 'Centenarian soon'))] }
    return node
  })
  const result = compareBranches(source(loan), source(next), { now: NOW })
  t.same(leaves(result.changed), ['a-prime'])
  t.match(result.changed[0]!.reason, /text of the advice on this path changed/)
  t.same(result.changed[0]!.changedAdvice?.map((edit) => [edit.before.headline, edit.after.headline]), [['Prime borrower', 'Prime borrower (reviewed)']])
  t.same(leaves(result.added), ['a-new'])
  t.ok((result.added[0]!.inputs!.Age as number) > 90, 'the new path comes with answers that reach it')
  t.notOk(result.added[0]!.baseOutcome!.advice.includes('a-new'))
  t.ok(result.added[0]!.nextOutcome!.advice.includes('a-new'))
  t.same(leaves(result.removed), ['a-zero'])
  t.equal(result.removed[0]!.inputs!.Income, 0)
})

t.test('after a restore (new node ids, same content) paths are matched by content', async (t) => {
  const renumbered = edited(loan, (node) => ({ ...node, id: `new-${node.id}` }))
  const result = compareBranches(source(loan), source(renumbered), { now: NOW })
  t.same([result.added, result.removed, result.changed], [[], [], []])
})

t.test('a path that becomes unreachable is changed, with the answers that reached it', async (t) => {
  const next = edited(loan, (node) => (node.id === 'c-south' ? { ...node, expression: '{{Region}} == "South" && {{Region}} == "North"' } : node))
  const result = compareBranches(source(loan), source(next), { now: NOW })
  t.same(leaves(result.changed), ['a-south'])
  t.equal(result.changed[0]!.inputs!.Region, 'South')
  t.ok('unreachable' in result.changed[0]!.next!, 'the next side says why it cannot be reached')
})
