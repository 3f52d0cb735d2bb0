// Issue 4 acceptance in the browser: create a set at /adviceset/new, rename it inline on its page, find it in
// /library and /library/classic, bulk-tag three sets, delete one through /confirm-delete, see it in /activity,
// restore it, see it back in the library.
import t from 'tap'
import type { Page } from 'playwright-core'
import { startServer } from '../helpers/server.ts'
import { createOwner } from '../helpers/factories.ts'
import { createAdviceSet } from '../helpers/advice-sets.ts'
import { tags } from '../../src/db/schema/index.ts'
import { axeViolationsInMain, chromiumMissing, islandsSettled, launchBrowser, newQuietContext, signInByApi } from '../helpers/browser.ts'

t.test('library journey', { skip: chromiumMissing }, async (t) => {
  const server = await startServer()
  t.teardown(() => server.close())
  const browser = await launchBrowser(t)
  const ownerId = await createOwner(server.db, { name: 'Journey Advisers' })
  const author = await server.createUser({ ownerId, role: 'author', name: 'Jo Author' })
  await createAdviceSet(server.db, { ownerId, name: 'Budget basics' })
  await createAdviceSet(server.db, { ownerId, name: 'Savings basics' })
  await createAdviceSet(server.db, { ownerId, name: 'Left alone' })

  const context = await newQuietContext(browser)
  t.teardown(() => context.close())
  const page = await context.newPage()
  await signInByApi(page, server.url, author)

  async function open(path: string): Promise<void> {
    await page.goto(`${server.url}${path}`)
    t.equal(await islandsSettled(page), 'mounted', `${path} mounted`)
  }
  async function settled(p: Page): Promise<void> {
    t.equal(await islandsSettled(p), 'mounted', `${new URL(p.url()).pathname} mounted`)
  }
  const alert = (text: string) => page.locator('.flash-alert', { hasText: text })

  // Create
  await open('/adviceset/new')
  await page.getByLabel('Name', { exact: true }).fill('Pension basics')
  await page.getByLabel('Description').fill('What to know before you retire.')
  await page.getByRole('button', { name: 'Create advice set' }).click()
  await page.waitForURL(/\/adviceset\/\d+\/show$/)
  await settled(page)
  const pensionId = Number(/\/adviceset\/(\d+)\/show$/.exec(page.url())![1])
  await alert('Advice set “Pension basics” created.').waitFor()
  t.equal(await page.locator('main').getAttribute('data-page'), 'rule-set-show')
  t.ok(await page.getByText('This advice set has no rules yet.').isVisible(), 'the rules area has its empty state')

  // Rename inline on its page
  const editor = page.locator('[data-island="inline-editor"]')
  t.equal(await editor.getAttribute('data-island-state'), 'mounted', 'the name editor mounted')
  await page.getByRole('button', { name: 'Name Pension basics' }).click()
  const saved = page.waitForResponse((r) => r.url() === `${server.url}/api/adviceset/${pensionId}` && r.request().method() === 'PATCH')
  await editor.locator('input').fill('Pension essentials')
  await page.keyboard.press('Enter')
  t.equal((await saved).status(), 200, 'the rename was saved')
  await page.locator('.notification', { hasText: 'Saved.' }).first().waitFor()
  await page.reload()
  await settled(page)
  t.equal(await editor.locator('[data-name="name"] .inline-editor__text').textContent(), 'Pension essentials', 'the new name survives a reload')

  // Find it in the library, both views
  await open('/library')
  const cards = page.locator('.set-cards')
  t.equal(await cards.getByRole('link', { name: 'Pension essentials' }).count(), 1, 'a card in /library')
  t.equal(await cards.getByRole('link', { name: 'Pension basics' }).count(), 0, 'under its new name only')
  t.equal(await page.locator('.recent-list').getByRole('link', { name: 'Pension essentials' }).count(), 1, 'and among the recently opened')
  await open('/library/classic')
  t.equal(await page.getByRole('row').filter({ has: page.getByRole('link', { name: 'Pension essentials' }) }).count(), 1, 'a row in /library/classic')

  // Bulk-tag three sets
  await open('/library/bulkeditor')
  for (const name of ['Pension essentials', 'Budget basics', 'Savings basics']) await page.getByLabel(`Select ${name}`).check()
  await page.getByLabel('Add tag').selectOption({ label: 'Example' })
  await page.getByRole('button', { name: 'Review changes' }).click()
  await settled(page)
  t.ok(await page.getByText('Add the tag “Example”').isVisible(), 'one confirmation names the change')
  t.equal(await page.locator('.bulk-sets li').count(), 3, 'and the three sets')
  await page.getByRole('button', { name: 'Apply to 3 advice sets' }).click()
  await page.waitForURL(`${server.url}/library/bulkeditor`)
  await settled(page)
  await alert('3 advice sets changed.').waitFor()
  for (const name of ['Pension essentials', 'Budget basics', 'Savings basics']) {
    t.equal(await page.getByRole('row').filter({ hasText: name }).getByRole('cell', { name: 'Example', exact: true }).count(), 1, `${name} is tagged`)
  }
  t.equal(await page.getByRole('row').filter({ hasText: 'Left alone' }).getByRole('cell', { name: 'Example', exact: true }).count(), 0, 'the unselected set is not')

  // Delete one through /confirm-delete
  await open('/library')
  await cards.getByRole('link', { name: 'Budget basics' }).click()
  await settled(page)
  await page.getByRole('link', { name: 'Delete' }).click()
  await page.waitForURL(/\/adviceset\/\d+\/confirm-delete$/)
  await settled(page)
  t.equal(await page.locator('main').getAttribute('data-page'), 'rule-set-delete')
  await page.getByRole('button', { name: 'Delete' }).click()
  await page.waitForURL(/\/library\?deleted=\d+$/)
  await settled(page)
  await alert('Advice set “Budget basics” deleted.').waitFor()
  t.equal(await page.getByRole('link', { name: 'Budget basics' }).count(), 0, 'gone from the library (and its recent list)')

  // See it in /activity and restore it
  await page.getByRole('link', { name: 'Restore it from Activity' }).click()
  await page.waitForURL(`${server.url}/activity`)
  await settled(page)
  const deletion = page.locator('.activity-item').filter({ hasText: 'deleted the Advice Set “Budget basics”' })
  t.equal(await deletion.count(), 1, 'the delete is in the activity log')
  t.ok(await deletion.locator('.diff').getByRole('row', { name: /Deleted/ }).isVisible(), 'with what changed')
  await deletion.getByRole('button', { name: /^Restore/ }).click()
  await page.waitForURL(/\/activity\?days=1$/)
  await settled(page)
  await alert('Restored the advice set as it was before that change.').waitFor()
  if (process.env.SCREENSHOT_DIR) await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/activity.png`, fullPage: true })

  // Restoring a creation would delete: it asks first, naming what goes, and Cancel leaves it be
  const creation = page.locator('.activity-item').filter({ has: page.locator('[data-action="create"]') }).first()
  await creation.getByRole('button', { name: /^Restore/ }).click()
  await page.getByRole('heading', { name: 'Restore to before it was created?' }).waitFor()
  t.match(await page.locator('main').textContent(), /restoring deletes the /, 'the question names what goes')
  if (process.env.SCREENSHOT_DIR) await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/activity-confirm-restore.png`, fullPage: true })
  t.same(await axeViolationsInMain(page), [], 'the question has no axe violations')
  await page.getByRole('link', { name: 'Cancel' }).click()
  await page.waitForURL(/\/activity\?days=1$/)
  await settled(page)

  // Back in the library, tag and all
  await open('/library')
  const card = page.locator('.set-card').filter({ has: page.getByRole('link', { name: 'Budget basics' }) })
  t.equal(await card.count(), 1, 'the restored set is back in the library')
  t.equal(await card.locator('.tag').textContent(), 'Example', 'with its tag')

  // An owner with more tags than a select shows finds one by typing part of its name
  await server.db.insert(tags).values(Array.from({ length: 55 }, (_, i) => ({ ownerId, slug: `topic-${i + 10}`, label: `Topic ${i + 10}` })))
  await open(`/adviceset/${pensionId}/show`)
  const picker = page.getByRole('combobox', { name: 'Tag to add' })
  await picker.fill('opic 4')
  const suggestions = page.getByRole('listbox', { name: 'Tags' }).getByRole('option')
  await suggestions.first().waitFor()
  t.same(await suggestions.allTextContents(), ['Topic 40', 'Topic 41', 'Topic 42', 'Topic 43', 'Topic 44', 'Topic 45', 'Topic 46', 'Topic 47', 'Topic 48', 'Topic 49'],
    'the tags whose name holds the text, by name')
  if (process.env.SCREENSHOT_DIR) await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/set-tag-picker.png`, fullPage: true })
  await picker.press('ArrowDown')
  await picker.press('ArrowDown')
  t.equal(await page.getByRole('option', { name: 'Topic 41' }).getAttribute('aria-selected'), 'true', 'the arrows move through them')
  await picker.press('Enter')
  t.equal(await picker.inputValue(), 'Topic 41', 'Enter chooses one')
  t.equal(await page.getByRole('listbox', { name: 'Tags' }).isHidden(), true, 'and closes the list')
  await page.getByRole('button', { name: 'Add tag' }).click()
  await page.waitForURL(`${server.url}/adviceset/${pensionId}/show`)
  await settled(page)
  await alert('Tag added.').waitFor()
  t.equal(await page.getByRole('list', { name: 'Tags' }).getByText('Topic 41').count(), 1, 'the set has the tag')
  await page.getByRole('combobox', { name: 'Tag to add' }).fill('Topic 99')
  await page.getByText('No tag’s name contains “Topic 99”.').waitFor()
  await page.getByRole('button', { name: 'Add tag' }).click()
  await page.getByText('No tag is named “Topic 99”. Admins make tags on the Tags page.').waitFor()
  await settled(page)
  t.equal(await page.getByRole('combobox', { name: 'Tag to add' }).inputValue(), 'Topic 99', 'a refused name stays in the field')

  // The library's filter takes a tag's name the same way
  await open('/library')
  const filterTag = page.getByRole('combobox', { name: 'Tag' })
  await filterTag.fill('topic 41')
  await page.getByRole('option', { name: 'Topic 41' }).click()
  t.equal(await filterTag.inputValue(), 'Topic 41', 'a click chooses a suggestion')
  await page.getByRole('button', { name: 'Apply filters' }).click()
  await page.waitForURL(/[?&]tagName=Topic\+41/)
  await settled(page)
  t.same(await page.locator('.set-card__name').allTextContents(), ['Pension essentials'], 'only the set with the tag')
  if (process.env.SCREENSHOT_DIR) await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/library-tag-filter.png`, fullPage: true })

  // And the bulk editor's changes
  await open('/library/bulkeditor')
  await page.getByLabel('Select Savings basics').check()
  await page.getByRole('combobox', { name: 'Add tag' }).fill('opic 42')
  await page.getByRole('option', { name: 'Topic 42' }).click()
  if (process.env.SCREENSHOT_DIR) await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/bulk-tag-picker.png`, fullPage: true })
  await page.getByRole('button', { name: 'Review changes' }).click()
  await settled(page)
  t.ok(await page.getByText('Add the tag “Topic 42”').isVisible(), 'the confirmation names the tag picked by name')

  // Every page of the journey passes axe
  for (const path of ['/library', '/library/classic', '/library/bulkeditor', '/explore', '/adviceset/new', `/adviceset/${pensionId}/show`,
    `/adviceset/${pensionId}/edit`, `/adviceset/${pensionId}/confirm-delete`, '/activity']) {
    await open(path)
    t.same(await axeViolationsInMain(page), [], `${path} has no axe violations`)
  }
})
