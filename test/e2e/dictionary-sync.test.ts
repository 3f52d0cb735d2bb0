// entity-sync in Chromium (SPEC.md §4 "Reserved name change") on a fixture page holding each kind of place the
// contract names: name spans and links, an input, plain-form formula boxes (one modified), an inline-editor field
// and a display box. An `entity:changed` dispatched in one tab reaches the other over the BroadcastChannel.
import t from 'tap'
import type { Page } from 'playwright-core'
import { startServer } from '../helpers/server.ts'
import { chromiumMissing, islandsSettled, launchBrowser } from '../helpers/browser.ts'
import { ENTITY_TYPES } from '../../src/engine/entity-types.ts'

const editorProps = JSON.stringify({ action: '/api/nowhere', method: 'PATCH', fields: [{ name: 'expression', label: 'Expression', value: '{{Income}} > 5', editor: 'textarea' }] })
const attribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')

const FIXTURE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sync fixture</title>
<meta name="csrf-token" content="fixture">
<link rel="stylesheet" href="/static/build/islands.css">
<script type="application/json" id="app-context">{"currentUser":null,"currentRule":null,"currentAdviceSet":null}</script>
<script type="module" src="/static/build/loader.js"></script></head>
<body><main data-page="rule-set-form">
  <p>Name: <span id="name" data-entity-id="7" data-entity-name="Income">Income</span>,
    link: <a id="link" href="/card/variable/7" data-entity-id="7" data-entity-name="Income">Income</a>,
    another: <span id="other" data-entity-id="8" data-entity-name="Other">Other</span></p>
  <input id="input" data-entity-id="7" data-entity-name="Income" value="Income">
  <form id="plain"><textarea name="expression" data-formula-box>{{Income}} * 2</textarea><button type="reset" data-form-reset hidden>Reset</button></form>
  <form id="typed"><textarea name="expression" data-formula-box>{{Income}} * 3</textarea><button type="reset" hidden>Reset</button></form>
  <code id="display" data-formula-box>[[Tax]] + {{Income}}</code>
  <div id="inline" data-formula-box><div data-island="inline-editor" data-props="${attribute(editorProps)}"></div></div>
</main>
<div id="notifications" class="notifications" data-island="notifications" data-props="{&quot;flash&quot;:[]}"></div></body></html>`

t.test('entity-sync', { skip: chromiumMissing }, async (t) => {
  const server = await startServer()
  t.teardown(() => server.close())
  const browser = await launchBrowser(t)
  const context = await browser.newContext()
  t.teardown(() => context.close())
  await context.route(`${server.url}/fixture/**`, (route) => route.fulfill({ contentType: 'text/html', body: FIXTURE }))

  async function open(path: string): Promise<Page> {
    const page = await context.newPage()
    await page.goto(`${server.url}/fixture/${path}`)
    t.equal(await islandsSettled(page), 'mounted')
    return page
  }
  const dispatch = (page: Page, detail: Record<string, unknown>) =>
    page.evaluate((d) => document.dispatchEvent(new CustomEvent('entity:changed', { detail: d })), detail)

  const here = await open('one')
  await here.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { notices: string[] }).notices = seen
    document.addEventListener('app:notify', (event) => seen.push(String((event as CustomEvent<{ text?: string }>).detail.text)))
  })
  const there = await open('two')
  await there.locator('#typed textarea').fill('{{Income}} * 4')
  const text = (page: Page, selector: string) => page.locator(selector).textContent()
  const VARIABLE = ENTITY_TYPES.variable.id

  t.test('a rename in one tab renames every place in both', async (t) => {
    await dispatch(here, { id: 7, reservedName: 'Salary', previousName: 'Income', entityTypeId: VARIABLE, previousEntityTypeId: VARIABLE, typeDisplayName: 'Variable' })
    for (const page of [here, there]) {
      await page.locator('#name', { hasText: 'Salary' }).waitFor()
      t.equal(await text(page, '#link'), 'Salary', 'the link')
      t.equal(await page.locator('#link').getAttribute('data-entity-name'), 'Salary')
      t.equal(await page.locator('#input').inputValue(), 'Salary', 'the input value')
      t.equal(await text(page, '#other'), 'Other', 'another entry is untouched')
      t.equal(await page.locator('#plain textarea').inputValue(), '{{Salary}} * 2', 'the unmodified plain box')
      t.ok(await page.locator('#plain [data-form-reset]').isVisible(), 'its form shows Reset')
      t.equal(await text(page, '#display'), '[[Tax]] + {{Salary}}', 'the display box')
      await page.locator('#inline .inline-editor__text', { hasText: '{{Salary}} > 5' }).waitFor()
      t.ok(await page.locator('#inline').getByRole('button', { name: 'Reset' }).isVisible(), 'the inline editor offers Reset')
    }
    t.equal(await there.locator('#typed textarea').inputValue(), '{{Income}} * 4', 'the modified box keeps what was typed')
    t.notOk(await there.locator('#typed button[type="reset"]').isVisible(), 'and its form shows no Reset')
    t.equal(await here.locator('#typed textarea').inputValue(), '{{Salary}} * 3', 'the same box unmodified in the first tab is refreshed')

    await here.locator('#plain [data-form-reset]').click()
    t.equal(await here.locator('#plain textarea').inputValue(), '{{Income}} * 2', 'Reset brings back the original')
  })

  t.test('a type change switches the brackets and is announced where the item shows', async (t) => {
    await dispatch(there, {
      id: 7, reservedName: 'Salary', previousName: 'Salary', entityTypeId: ENTITY_TYPES.formula.id, previousEntityTypeId: VARIABLE, typeDisplayName: 'Formula',
    })
    for (const page of [here, there]) {
      await page.locator('.notification', { hasText: 'This item was changed to a Formula entity.' }).waitFor()
      t.equal(await text(page, '#display'), '[[Tax]] + [[Salary]]')
    }
    await dispatch(there, { id: 99, reservedName: 'B', previousName: 'A', entityTypeId: ENTITY_TYPES.formula.id, previousEntityTypeId: VARIABLE, typeDisplayName: 'Formula' })
    await dispatch(there, { id: 7, reservedName: 'Salary', previousName: 'Salary', entityTypeId: VARIABLE, previousEntityTypeId: ENTITY_TYPES.formula.id, typeDisplayName: 'Variable' })
    await here.locator('.notification', { hasText: 'This item was changed to a Variable entity.' }).waitFor()
    t.same(await here.evaluate(() => (window as unknown as { notices: string[] }).notices), [
      'This item was changed to a Formula entity.', 'This item was changed to a Variable entity.',
    ], 'an item this page does not show is not announced')
  })
})
