// What the acceptance journeys (mortgage, drawdown) share: screenshots to SCREENSHOT_DIR when it is set, text as a
// person reads it, and the rule tree's landmarks on one page.
import { mkdirSync } from 'node:fs'
import type { Test } from 'tap'
import type { Page } from 'playwright-core'
import { islandsSettled } from '../helpers/browser.ts'
import { FOCUSED_ACTIVE_ITEM } from './rule-tree-setup.ts'

const shotDir = process.env.SCREENSHOT_DIR
if (shotDir) mkdirSync(shotDir, { recursive: true })

export async function shot(page: Page, name: string): Promise<void> {
  if (shotDir) await page.screenshot({ path: `${shotDir}/${name}.png`, fullPage: true })
}

export const squeeze = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim()

/** The page's islands settled, as an assertion named by the page's path. */
export function settledCheck(page: Page) {
  return async (t: Test) => t.equal(await islandsSettled(page), 'mounted', `${new URL(page.url()).pathname} mounted its islands`)
}

/** The rule tree's items, the active one once it holds the focus (waited for before keys), and the POST that saves a new node. */
export function ruleTreeOf(page: Page) {
  const tree = page.getByRole('tree')
  return {
    tree,
    item: (text: string) => tree.getByRole('treeitem').filter({ has: page.locator('.rule-tree__summary', { hasText: text }) }),
    activeItem: tree.locator(FOCUSED_ACTIVE_ITEM),
    nodeSaved: () => page.waitForResponse((r) => /\/api\/rule\/\d+\/node$/.test(r.url()) && r.request().method() === 'POST'),
  }
}
