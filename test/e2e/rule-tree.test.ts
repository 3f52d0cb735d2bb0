// The rule-tree island in Chromium (issue 5 acceptance): building a rule with the keyboard alone, a typo shown at
// its position before saving, dragging a node to a new parent, the keyboard moves, delete with undo, copy,
// comments, read mode, renames and search selections from outside, and a 2,000-node rule expanded fully.
// The pages are the real rule pages (show, part/{nodeId}) of a test server.
import t, { type Test } from 'tap'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { BrowserContext, Page } from 'playwright-core'
import { listNodes } from '../../src/db/queries/rule-nodes.ts'
import { createAdviceSet } from '../helpers/advice-sets.ts'
import { buildRule } from '../helpers/rules.ts'
import { startServer } from '../helpers/server.ts'
import { createExternalApiDefinition } from '../helpers/external-apis.ts'
import { chromiumMissing, launchBrowser } from '../helpers/browser.ts'
import { FOCUSED_ACTIVE_ITEM, largeRule, openRuleTree, seedAuthor, seedRule, showRuleTree, signedInContext, type RuleFixture } from './rule-tree-setup.ts'

// The whole file (a 2,000-node rule among its tests) runs past tap's 120 s default on a busy 2-core machine.
t.setTimeout(400_000)

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

interface ApiNode { id: string; type: string; calledRuleId?: string; expression?: string; variable?: string; question?: string; headline?: string; text?: string; children: ApiNode[] }

t.test('rule tree', { skip: chromiumMissing, timeout: 300_000 }, async (t) => {
  const server = await startServer()
  t.teardown(() => server.close())
  const browser = await launchBrowser(t)

  const tree = (page: Page) => page.getByRole('tree')
  const item = (page: Page, text: string) => tree(page).getByRole('treeitem').filter({ has: page.locator('.rule-tree__summary', { hasText: text }) })
  const activeItem = (page: Page) => tree(page).locator('[role="treeitem"][aria-current="true"]')
  const activeIs = (page: Page, text: string) => item(page, text).and(tree(page).locator(FOCUSED_ACTIVE_ITEM)).waitFor()
  const saved = (page: Page, method: string) => page.waitForResponse((response) => response.url().includes('/api/rule/') && response.request().method() === method)

  async function apiTree(page: Page, ruleId: number): Promise<ApiNode[]> {
    const response = await page.request.get(`${server.url}/api/rule/${ruleId}/node/tree`, { headers: { accept: 'application/json' } })
    return ((await response.json()) as { data: ApiNode[] }).data
  }

  const shape = (nodes: ApiNode[]): unknown[] => nodes.map((node) => [node.type, node.expression ?? node.variable ?? node.headline ?? null, ...(node.children.length ? [shape(node.children)] : [])])

  const author = await seedAuthor(server)
  const context = await signedInContext(browser, server, author.user)
  t.teardown(() => context.close())
  const seed = (nodes: Parameters<typeof seedRule>[2] = []) => seedRule(server, author, nodes)

  async function open(t: Test, fixture: RuleFixture, opts: { activeNodeId?: number; in?: BrowserContext } = {}): Promise<Page> {
    const page = await openRuleTree(opts.in ?? context, server, fixture, opts)
    t.teardown(() => page.close())
    return page
  }

  t.test('a rule built with the keyboard alone: question, condition, assignment and two advice nodes', async (t) => {
    const fixture = await seed()
    const page = await open(t, fixture)
    const keys = page.keyboard

    await page.getByRole('button', { name: 'Add node' }).focus()
    await keys.press('Enter')
    await keys.press('i')
    await keys.press('Enter')
    await keys.type('Age')
    await keys.press('Tab')
    await keys.type('How old are you?')
    let answer = saved(page, 'POST')
    await keys.press('Enter')
    await answer
    await t.resolves(activeIs(page, 'How old are you?'), 'the new node is the active one')

    await keys.press('Shift+A')
    await keys.press('c')
    await keys.press('Enter')
    await keys.type('{{Ag')
    await page.getByRole('option', { name: 'Age' }).waitFor()
    await keys.press('Enter')
    await keys.type(' >= 65')
    t.equal(await page.locator('.rule-tree__editor input').inputValue(), '{{Age}} >= 65', 'the typeahead wrote the reference')
    answer = saved(page, 'POST')
    await keys.press('Enter')
    await answer
    // The next keys go to the active node: typed before the tree has made the saved node active and focused it,
    // they are lost.
    await activeIs(page, '{{Age}} >= 65')

    await keys.press('a')
    await keys.press('v')
    await keys.press('Enter')
    await keys.type('{{Income}} = 100')
    answer = saved(page, 'POST')
    await keys.press('Enter')
    await answer
    await activeIs(page, '{{Income}} = 100')

    await keys.press('Shift+A')
    await keys.press('a')
    await keys.press('Enter')
    await keys.type('Retire soon')
    await keys.press('Tab')
    await keys.type('At {{Age}} you can retire.')
    answer = saved(page, 'POST')
    await keys.press('Enter')
    await answer
    await activeIs(page, 'Retire soon')

    await keys.press('Shift+A')
    await keys.press('a')
    await keys.press('Enter')
    await keys.type('Check your pension')
    answer = saved(page, 'POST')
    await keys.press('Enter')
    await answer

    const expected = [
      ['inputRequest', 'Age'],
      ['condition', '{{Age}} >= 65', [['variableAssignment', '{{Income}} = 100'], ['advice', 'Retire soon'], ['advice', 'Check your pension']]],
    ]
    t.same(shape(await apiTree(page, fixture.ruleId)), expected, 'the rows are stored in that shape')

    await showRuleTree(page, server, fixture)
    t.same(await tree(page).locator('[role="treeitem"]').evaluateAll((items) => items.map((node) => [node.getAttribute('aria-level'), node.querySelector('.rule-tree__summary')?.textContent])), [
      ['1', '{{Age}} — How old are you?'], ['1', '{{Age}} >= 65'], ['2', '{{Income}} = 100'], ['2', 'Retire soon'], ['2', 'Check your pension'],
    ], 'and shown after a reload')
  })

  t.test('a Rule Call picks the rule to call with the keyboard', async (t) => {
    const fixture = await seed([{ type: 'advice', headline: 'First' }])
    const { rule: other } = await buildRule(server.db, fixture.setId, 'Pension age')
    const elsewhere = await createAdviceSet(server.db, { ownerId: author.user.ownerId, name: 'Shared rules' })
    const { rule: shared } = await buildRule(server.db, elsewhere.id, 'State pension')
    const page = await open(t, fixture)
    await item(page, 'First').focus()
    await page.keyboard.press('Shift+A')
    await page.keyboard.press('r')
    await page.keyboard.press('Enter')
    const select = page.locator('.rule-tree__editor select')
    await select.locator('option', { hasText: 'State pension' }).waitFor({ state: 'attached' })
    const options = await select.locator('option').evaluateAll((list) => list.map((option) => [(option as HTMLOptionElement).value, option.textContent]))
    t.same(options.slice(0, 2), [['', 'Choose a rule…'], [String(other.id), 'Pension age (Pensions)']], 'the set\'s other rules first')
    t.ok(options.some(([value, text]) => value === String(shared.id) && text === 'State pension (Shared rules)'), 'then those of other sets, from the selector')
    t.notOk(options.some(([value]) => value === String(fixture.ruleId)), 'never the rule itself')
    await page.keyboard.press('ArrowDown')
    t.equal(await select.inputValue(), String(other.id))
    const answer = saved(page, 'POST')
    await page.keyboard.press('Enter')
    await answer
    await item(page, 'Pension age').waitFor()
    const stored = await apiTree(page, fixture.ruleId)
    t.same([stored[1]!.type, stored[1]!.calledRuleId], ['ruleCall', String(other.id)])
  })

  t.test('the tree passes axe, idle, while editing with the typeahead open and while choosing a type', async (t) => {
    const fixture = await seed([{ type: 'condition', expression: '{{Age}} > 60', children: [{ type: 'advice', headline: 'Retire {{Nope}}' }] }])
    const page = await open(t, fixture)
    const violations = async () => {
      await page.evaluate(AXE_SOURCE)
      return page.evaluate(async () => {
        const axe = (window as unknown as { axe: { run(context: unknown): Promise<{ violations: Array<{ id: string; nodes: Array<{ target: string[] }> }> }> } }).axe
        return (await axe.run({ include: [['.rule-tree']] })).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
      })
    }
    await tree(page).and(page.locator('[data-checks="done"]')).waitFor()
    t.same(await violations(), [], 'idle, with issues on a node')
    await item(page, '{{Age}} > 60').focus()
    await page.keyboard.press('Enter')
    await page.keyboard.press('End')
    await page.keyboard.type(' && {{')
    await page.getByRole('option', { name: 'Income' }).waitFor()
    t.same(await violations(), [], 'editing')
    await page.keyboard.press('Escape')
    await page.keyboard.press('Escape')
    await page.keyboard.press('a')
    await page.getByRole('listbox', { name: 'Add a child node of type' }).waitFor()
    t.same(await violations(), [], 'choosing a type')
  })

  t.test('a typo in a condition shows the error at its position before anything is saved', async (t) => {
    const fixture = await seed([{ type: 'condition', expression: '{{Age}} > 60' }])
    const page = await open(t, fixture)
    const writes: string[] = []
    page.on('request', (request) => { if (request.method() !== 'GET') writes.push(request.url()) })
    await item(page, '{{Age}} > 60').focus()
    await page.keyboard.press('F2')
    const input = page.locator('.rule-tree__editor input')
    await input.fill('{{Age}} = 5')
    const issue = page.locator('.rule-tree__field-issues .rule-tree__issue')
    t.match(await issue.textContent(), /Use == to compare/)
    t.equal(await issue.locator('.rule-tree__issue-at').textContent(), ' at column 9')
    t.equal(await issue.locator('.rule-tree__source').getAttribute('data-column'), '9')
    t.equal(await issue.locator('.rule-tree__source-mark').textContent(), '=', 'the = is marked')
    t.equal(await input.getAttribute('aria-invalid'), 'true')

    await input.fill('{{Age}} >')
    t.equal(await issue.locator('.rule-tree__issue-at').textContent(), ' at column 10', 'an early end is marked just past the text')
    await input.press('Enter')
    t.ok(await page.locator('.rule-tree__editor').isVisible(), 'Enter does not save an expression the engine cannot read')

    await input.fill('{{Age}} > {{Agee}}')
    t.equal(await issue.textContent(), '{{Agee}} is not in the dictionary. at column 11 Create variable Agee{{Age}} > {{Agee}}', 'unknown names are named with their place')
    t.equal(await issue.getByRole('button', { name: 'Create variable Agee' }).count(), 1, 'and offered for creation in place')
    await input.press('Escape')
    t.equal(await page.locator('.rule-tree__editor').count(), 0, 'Escape cancels')
    t.same(writes, [], 'nothing was sent')
    t.same(shape(await apiTree(page, fixture.ruleId)), [['condition', '{{Age}} > 60']])
  })

  t.test('a refusal of the server is shown in the field it names, and the node stays in edit mode', async (t) => {
    const fixture = await seed([{ type: 'advice', headline: 'First' }])
    const page = await open(t, fixture)
    await item(page, 'First').focus()
    await page.keyboard.press('Shift+A')
    await page.keyboard.press('i')
    await page.keyboard.press('Enter')
    await page.keyboard.press('Tab')
    await page.keyboard.type('How old are you?')
    const refused = saved(page, 'POST')
    await page.keyboard.press('Enter')
    t.equal((await refused).status(), 400)
    const field = page.locator('.rule-tree__field[data-field="variable"]')
    t.equal(await field.locator('.rule-tree__server-error').textContent(), 'variable: The variable asked for is required.')
    t.equal(await field.locator('input').getAttribute('aria-invalid'), 'true')
    await page.getByRole('button', { name: 'Add node' }).click()
    await page.keyboard.press('a')
    await page.keyboard.press('Enter')
    t.equal(await tree(page).locator('.rule-tree__node--new').count(), 1, 'a second new node replaces the first unsaved one')
    await page.keyboard.press('Escape')
    t.equal(await tree(page).locator('.rule-tree__node--new').count(), 0)
    await item(page, 'First').focus()
    await page.keyboard.press('Shift+A')
    await page.keyboard.press('i')
    await page.keyboard.press('Enter')
    await page.keyboard.press('Tab')
    await page.keyboard.type('How old are you?')
    await field.locator('input').fill('Age')
    const accepted = saved(page, 'POST')
    await field.locator('input').press('Enter')
    t.equal((await accepted).status(), 201, 'saved once the field is filled in')
    await item(page, 'How old are you?').waitFor()
  })

  t.test('a node dragged onto another becomes its child and stays there after a reload', async (t) => {
    const fixture = await seed([
      { type: 'condition', expression: '{{Age}} > 60', children: [{ type: 'advice', headline: 'Old enough' }] },
      { type: 'advice', headline: 'Everyone' },
    ])
    const page = await open(t, fixture)
    const target = item(page, '{{Age}} > 60').locator('.rule-tree__line')
    const box = (await target.boundingBox())!
    const moved = saved(page, 'POST')
    await item(page, 'Everyone').locator('.rule-tree__line').dragTo(target, { targetPosition: { x: 60, y: box.height / 2 } })
    t.same(((await (await moved).request().postDataJSON()) as { parentId: number }).parentId !== null, true, 'the move names a parent')
    t.same(shape(await apiTree(page, fixture.ruleId)), [['condition', '{{Age}} > 60', [['advice', 'Old enough'], ['advice', 'Everyone']]]])
    await showRuleTree(page, server, fixture)
    t.equal(await item(page, 'Everyone').getAttribute('aria-level'), '2', 'under the condition after a reload')
  })

  t.test('Alt+arrows move the node: indent under the previous sibling, outdent, reorder', async (t) => {
    const fixture = await seed([{ type: 'condition', expression: '{{Age}} > 1' }, { type: 'advice', headline: 'Second' }, { type: 'advice', headline: 'Third' }])
    const page = await open(t, fixture)
    await item(page, 'Third').focus()
    let moved = saved(page, 'POST')
    await page.keyboard.press('Alt+ArrowUp')
    await moved
    t.same(shape(await apiTree(page, fixture.ruleId)), [['condition', '{{Age}} > 1'], ['advice', 'Third'], ['advice', 'Second']])
    moved = saved(page, 'POST')
    await page.keyboard.press('Alt+ArrowRight')
    await moved
    t.same(shape(await apiTree(page, fixture.ruleId)), [['condition', '{{Age}} > 1', [['advice', 'Third']]], ['advice', 'Second']])
    t.equal(await activeItem(page).getAttribute('aria-level'), '2', 'the moved node stays active')
    moved = saved(page, 'POST')
    await page.keyboard.press('Alt+ArrowLeft')
    await moved
    t.same(shape(await apiTree(page, fixture.ruleId)), [['condition', '{{Age}} > 1'], ['advice', 'Third'], ['advice', 'Second']])
  })

  t.test('delete asks first and can be undone; copy duplicates the node after it', async (t) => {
    const fixture = await seed([{ type: 'condition', expression: '{{Age}} > 1', children: [{ type: 'advice', headline: 'Inner' }] }, { type: 'advice', headline: 'Last' }])
    const page = await open(t, fixture)
    await item(page, '{{Age}} > 1').focus()
    await page.keyboard.press('Delete')
    const dialog = page.getByRole('alertdialog')
    t.match(await dialog.textContent(), /Delete the Condition “\{\{Age\}\} > 1” and the 1 node under it\?/)
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    t.equal(await item(page, '{{Age}} > 1').count(), 1, 'No keeps it')

    await item(page, '{{Age}} > 1').focus()
    await page.keyboard.press('Delete')
    const deleted = saved(page, 'DELETE')
    await dialog.getByRole('button', { name: 'Delete' }).click()
    await deleted
    await item(page, '{{Age}} > 1').waitFor({ state: 'detached' })
    t.same(shape(await apiTree(page, fixture.ruleId)), [['advice', 'Last']])
    const recovered = saved(page, 'POST')
    await page.getByRole('button', { name: 'Undo' }).click()
    await recovered
    await item(page, 'Inner').waitFor()
    t.same(shape(await apiTree(page, fixture.ruleId)), [['condition', '{{Age}} > 1', [['advice', 'Inner']]], ['advice', 'Last']], 'Undo brings the subtree back')

    await item(page, 'Last').focus()
    const copied = saved(page, 'POST')
    await page.keyboard.press('c')
    await copied
    await item(page, 'Last').nth(1).waitFor()
    t.same(shape(await apiTree(page, fixture.ruleId)), [['condition', '{{Age}} > 1', [['advice', 'Inner']]], ['advice', 'Last'], ['advice', 'Last']])
  })

  t.test('comments: the panel lists and adds them, the badge counts them; their author edits and deletes them', async (t) => {
    const rates = await createExternalApiDefinition(server.db, '', { ownerId: author.user.ownerId, name: 'Rates', urlTemplate: 'https://rates.example/' })
    const fixture = await seed([{ type: 'advice', headline: 'Talk about me' }, { type: 'apiCall', apiId: String(rates.id), variable: 'Income' }])
    const page = await open(t, fixture)
    await item(page, 'Talk about me').focus()
    await page.keyboard.press('m')
    const panel = page.locator('.rule-tree__comments')
    await panel.getByText('No comments yet.').waitFor()
    t.ok(await panel.getByLabel('Add a comment').evaluate((el) => el === document.activeElement), 'M puts the focus in the textarea')
    await page.keyboard.type('Check the wording')
    await panel.getByRole('button', { name: 'Add comment' }).click()
    await panel.getByText('Check the wording').waitFor()
    t.equal(await item(page, 'Talk about me').locator('.rule-tree__comment-count').textContent(), '1')
    t.match(await panel.locator('time').textContent(), /^[A-Z][a-z]{2} \d{1,2}, \d{4} \d\d:\d\d$/, 'the time as the app writes dates')

    await panel.getByRole('button', { name: /^Edit the comment/ }).click()
    await panel.getByLabel('Edit your comment').fill('Check the wording twice')
    await panel.getByRole('button', { name: 'Save' }).click()
    await panel.getByText('Check the wording twice').waitFor()
    if (process.env.SCREENSHOT_DIR) await panel.screenshot({ path: `${process.env.SCREENSHOT_DIR}/comments-panel.png` })
    await panel.getByRole('button', { name: /^Delete the comment/ }).click()
    await panel.getByText('Comment deleted.').waitFor()
    await panel.getByText('No comments yet.').waitFor()
    t.equal(await item(page, 'Talk about me').locator('.rule-tree__comment-count').count(), 0, 'the badge goes with it')
    await panel.getByRole('button', { name: 'Undo' }).click()
    await panel.getByText('Check the wording twice').waitFor()
    t.equal(await item(page, 'Talk about me').locator('.rule-tree__comment-count').textContent(), '1', 'Undo brings it back')

    await page.keyboard.press('Escape')
    t.equal(await panel.count(), 0, 'Escape closes the panel')
    await item(page, 'Talk about me').locator('.rule-tree__comment-count').click()
    await t.resolves(panel.getByText('Check the wording twice').waitFor(), 'clicking the badge opens them again')
    await page.keyboard.press('Escape')

    await item(page, 'Rates').focus()
    await page.keyboard.press('m')
    t.equal(await panel.getByRole('heading').textContent(), 'Comments on API Call “Rates → {{Income}}”', 'an API Call is named by its API')
  })

  t.test('whole-set checks show on their nodes; renames and search selections from outside reach the tree', async (t) => {
    // Its own author: the rename below changes the dictionary the other tests use.
    const renamer = await seedAuthor(server)
    const renamerContext = await signedInContext(browser, server, renamer.user)
    t.teardown(() => renamerContext.close())
    const fixture = await seedRule(server, renamer, [
      { type: 'ruleExit' },
      { type: 'advice', headline: 'Never shown to {{Age}}' },
    ])
    const page = await open(t, fixture, { in: renamerContext })
    await item(page, 'Never shown').locator('[data-code="UNREACHABLE"]').waitFor()
    t.pass('the node after a Rule Exit says it never runs')

    const status = await page.evaluate(async (id) => {
      const csrf = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')!.content
      const response = await fetch(`/api/entity/${id}`, {
        method: 'PATCH', headers: { 'content-type': 'application/json', 'x-csrf-token': csrf, accept: 'application/json' }, body: JSON.stringify({ reservedName: 'Years' }),
      })
      document.dispatchEvent(new CustomEvent('entity:changed', { detail: { id, reservedName: 'Years', previousName: 'Age', entityTypeId: 12, previousEntityTypeId: 12, typeDisplayName: 'Variable' } }))
      return response.status
    }, fixture.entities.Age!)
    t.equal(status, 200, 'renamed through the API')
    await item(page, 'Never shown to {{Years}}').waitFor()
    t.pass('the tree re-read its nodes with the new name')
    await tree(page).and(page.locator('[data-checks="done"]')).waitFor()
    t.same(await item(page, 'Never shown').locator('.rule-tree__issue').evaluateAll((issues) => issues.map((issue) => issue.getAttribute('data-code'))), ['UNREACHABLE'],
      'the checks know the new name: no unknown variable')

    await page.locator('[data-node-id]').first().evaluate((node) => node.dispatchEvent(new CustomEvent('search:select-node', { bubbles: true, detail: { nodeId: node.getAttribute('data-node-id') } })))
    t.equal(await activeItem(page).getAttribute('data-node-type'), 'ruleExit', 'a search selection makes the node active')
  })

  t.test('read mode (a viewer): the tree navigates and expands but offers no editing', async (t) => {
    const fixture = await seed([{ type: 'condition', expression: '{{Age}} > 1', children: [{ type: 'advice', headline: 'Inner' }] }])
    const viewer = await signedInContext(browser, server, await server.createUser({ role: 'viewer', ownerId: fixture.user.ownerId }))
    t.teardown(() => viewer.close())
    const page = await open(t, fixture, { in: viewer })
    t.equal(await page.getByRole('button', { name: 'Add node' }).count(), 0)
    t.equal(await page.locator('.rule-tree__actions').count(), 0)
    await item(page, '{{Age}} > 1').focus()
    await page.keyboard.press('Enter')
    await page.keyboard.press('a')
    t.equal(await page.locator('.rule-tree__editor, .rule-tree__picker').count(), 0, 'no editor, no type picker')
    await page.keyboard.press('ArrowLeft')
    t.equal(await item(page, '{{Age}} > 1').getAttribute('aria-expanded'), 'false', 'Left collapses')
    t.equal(await item(page, 'Inner').count(), 0)
    await page.keyboard.press('ArrowRight')
    await item(page, 'Inner').waitFor()
    await item(page, '{{Age}} > 1').locator('.rule-tree__toggle').click()
    await item(page, 'Inner').waitFor({ state: 'detached' })
    t.equal(await item(page, '{{Age}} > 1').getAttribute('aria-expanded'), 'false', 'the toggle collapses')
    await item(page, '{{Age}} > 1').locator('.rule-tree__toggle').click()
    await item(page, 'Inner').waitFor()
    t.equal(await item(page, '{{Age}} > 1').getAttribute('draggable'), 'false')
    await item(page, 'Inner').focus()
    await page.getByRole('button', { name: 'Collapse all' }).click()
    t.same(await tree(page).locator('[role="treeitem"][tabindex="0"]').evaluateAll((items) => items.map((node) => node.getAttribute('data-node-type'))), ['condition'],
      'with the active node hidden, the first row takes its place in the tab order')
  })

  t.test('another team reading a starter set: no comment badges, and M opens no comments (issue 22)', async (t) => {
    const set = await createAdviceSet(server.db, { ownerId: author.user.ownerId, name: 'Starter pensions', isStarter: true })
    const { rule, nodes } = await buildRule(server.db, set.id, 'Starter rule', [{ type: 'condition', expression: '{{Age}} > 1', children: [{ type: 'advice', headline: 'Discussed' }] }])
    const fixture = { ...author, setId: set.id, ruleId: rule.id }
    const teamPage = await open(t, fixture)
    const added = await teamPage.evaluate(async (nodeId) => {
      const csrf = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')!.content
      const response = await fetch(`/api/comment/${nodeId}`, {
        method: 'POST', headers: { 'content-type': 'application/json', 'x-csrf-token': csrf, accept: 'application/json' }, body: JSON.stringify({ body: 'Team only' }),
      })
      return response.status
    }, nodes[0]!.id)
    t.equal(added, 201, 'the set\'s author comments')
    const reader = await signedInContext(browser, server, await server.createUser({ role: 'author' }))
    t.teardown(() => reader.close())
    const page = await open(t, fixture, { in: reader })
    if (process.env.SCREENSHOT_DIR) await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/rule-tree-starter-reader.png`, fullPage: true })
    t.equal(await item(page, '{{Age}} > 1').locator('.rule-tree__comment-count').count(), 0, 'no badge counts the team\'s comments')
    await item(page, '{{Age}} > 1').focus()
    await page.keyboard.press('m')
    await page.keyboard.press('ArrowLeft')
    await item(page, 'Discussed').waitFor({ state: 'detached' })
    t.equal(await page.locator('.rule-tree__comments').count(), 0, 'M opened no comments panel (the key after it was handled)')
    await showRuleTree(teamPage, server, fixture)
    t.equal(await item(teamPage, '{{Age}} > 1').locator('.rule-tree__comment-count').textContent(), '1', 'the set\'s own team sees its badge')
  })

  t.test('part/{nodeId}: the node is active, with the way to it open, and scrolled to', async (t) => {
    const big = await seed(largeRule(400))
    const rows = await listNodes(server.db, [big.ruleId])
    const parentOf = new Map(rows.map((row) => [row.id, row.parentId]))
    const deep = rows.find((row) => row.parentId !== null && parentOf.get(row.parentId) !== null && row.position === 7)!
    const page = await open(t, big, { activeNodeId: deep.id })
    t.equal(await activeItem(page).getAttribute('data-node-id'), String(deep.id))
    t.equal(await activeItem(page).getAttribute('aria-level'), '3', 'a big tree opens the way to it')

    // 300 nodes open fully, so the last ones come in a later batch of rows, far below the fold.
    const open300 = await seed(largeRule(300))
    const last = (await listNodes(server.db, [open300.ruleId])).at(-1)!
    const later = await open(t, open300, { activeNodeId: last.id })
    await activeItem(later).waitFor()
    await t.resolves(later.waitForFunction(() => {
      const node = document.querySelector('[role="treeitem"][aria-current="true"]')!.getBoundingClientRect()
      return node.top >= 0 && node.bottom <= window.innerHeight
    }, undefined, { timeout: 5000 }), 'scrolled into view once rendered')
  })

  t.test('a 2,000-node rule renders and expands fully', async (t) => {
    const fixture = await seed(largeRule(2000))
    const page = await open(t, fixture)
    t.equal(await tree(page).locator('[role="treeitem"]').count(), 20, 'a big tree opens with its roots')
    await page.getByRole('button', { name: 'Expand all' }).click()
    await tree(page).and(page.locator('[aria-busy="false"]')).waitFor()
    t.equal(await tree(page).locator('[role="treeitem"][data-node-id]').count(), 2000, 'every node is rendered')
    t.equal(await tree(page).locator('[role="treeitem"][aria-expanded="false"]').count(), 0, 'and open')
  })
})
