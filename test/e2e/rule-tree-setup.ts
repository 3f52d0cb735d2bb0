// Shared by the rule-tree browser tests and scripts/bench/rule-tree.ts: an author with an advice set, a dictionary
// and rules, a signed-in browser context, and the rule's show page (or part/{nodeId}) open in a page of it.
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { createAdviceSet } from '../helpers/advice-sets.ts'
import { islandsSettled, newQuietContext, signInByApi } from '../helpers/browser.ts'
import { buildRule, createFormula, createVariable, type NodeSpec } from '../helpers/rules.ts'
import type { TestServer } from '../helpers/server.ts'
import type { TestUser } from '../helpers/factories.ts'

/**
 * The tree's active item once it also holds the focus: the tree marks a row active as it renders it and focuses it in
 * an effect after, so a key pressed in between goes elsewhere. Tests wait for it before pressing keys.
 */
export const FOCUSED_ACTIVE_ITEM = '[role="treeitem"][aria-current="true"]:focus'

export interface Author {
  user: TestUser
  /** Dictionary ids by name. */
  entities: Record<string, number>
}

export interface RuleFixture extends Author {
  setId: number
  ruleId: number
}

/** An author whose dictionary holds the variables Age, Income and Band and the formula Ratio. */
export async function seedAuthor(server: TestServer): Promise<Author> {
  const user = await server.createUser({ role: 'author' })
  const entries = [
    await createVariable(server.db, user.ownerId, 'Age'),
    await createVariable(server.db, user.ownerId, 'Income'),
    await createVariable(server.db, user.ownerId, 'Band', { dataType: 'text' }),
    await createFormula(server.db, user.ownerId, 'Ratio', '{{Income}} / 12'),
  ]
  return { user, entities: Object.fromEntries(entries.map((entry) => [entry.reservedName, entry.id])) }
}

/** A new advice set of the author holding one rule built from `nodes`. */
export async function seedRule(server: TestServer, author: Author, nodes: NodeSpec[] = []): Promise<RuleFixture> {
  const set = await createAdviceSet(server.db, { ownerId: author.user.ownerId, name: 'Pensions' })
  const { rule } = await buildRule(server.db, set.id, 'Eligibility', nodes)
  return { ...author, setId: set.id, ruleId: rule.id }
}

/** A browser context signed in as `user` (sign-in is rate-limited per address, so contexts are shared by pages). */
export async function signedInContext(browser: Browser, server: TestServer, user: TestUser): Promise<BrowserContext> {
  const context = await newQuietContext(browser)
  const page = await context.newPage()
  await signInByApi(page, server.url, user)
  await page.close()
  return context
}

/** A new page of the context with the rule's page open and its islands mounted. */
export async function openRuleTree(context: BrowserContext, server: TestServer, fixture: RuleFixture, opts: { activeNodeId?: number } = {}): Promise<Page> {
  const page = await context.newPage()
  await showRuleTree(page, server, fixture, opts)
  return page
}

/** (Re)loads the rule's page (part/{nodeId} with `activeNodeId`) and waits for its islands. */
export async function showRuleTree(page: Page, server: TestServer, fixture: RuleFixture, opts: { activeNodeId?: number } = {}): Promise<void> {
  const rule = `${server.url}/adviceset/${fixture.setId}/rule/${fixture.ruleId}`
  await page.goto(opts.activeNodeId === undefined ? `${rule}/show` : `${rule}/part/${opts.activeNodeId}`)
  const state = await islandsSettled(page)
  if (state !== 'mounted') throw new Error(`The rule page's islands did not mount: ${state}`)
}

/**
 * `count` nodes (a multiple of 100): roots that are conditions, each with 9 conditions under it holding 10 leaves
 * (assignments and advice), so expanding all opens three levels.
 */
export function largeRule(count: number): NodeSpec[] {
  const leaves = (block: number, branch: number): NodeSpec[] => Array.from({ length: 10 }, (_, leaf) => leaf % 2 === 0
    ? { type: 'variableAssignment', expression: `{{Income}} = ${block * 100 + branch * 10 + leaf}` }
    : { type: 'advice', headline: `Plan ${block}.${branch}.${leaf} for {{Age}}`, text: `At {{Age}} with [[Ratio]] a month, plan ${leaf} fits.` })
  return Array.from({ length: count / 100 }, (_, block) => ({
    type: 'condition',
    expression: `{{Age}} >= ${18 + block}`,
    children: Array.from({ length: 9 }, (_, branch) => ({ type: 'condition', expression: `{{Income}} > ${branch * 1000}`, children: leaves(block, branch) })),
  }))
}
