// Shared by the rule-tree browser tests and scripts/bench/rule-tree.ts: an author with an advice set, a dictionary
// and a rule, and the rule's show page (or part/{nodeId}) open in a signed-in browser page.
import type { Browser, Page } from 'playwright-core'
import { createAdviceSet } from '../helpers/advice-sets.ts'
import { islandsSettled, newQuietContext, signInByApi } from '../helpers/browser.ts'
import { buildRule, createFormula, createVariable, type NodeSpec } from '../helpers/rules.ts'
import type { TestServer } from '../helpers/server.ts'
import type { TestUser } from '../helpers/factories.ts'

export interface RuleFixture {
  user: TestUser
  setId: number
  ruleId: number
  /** Dictionary ids by name. */
  entities: Record<string, number>
}

/** An author's set with Age, Income and Band in the dictionary, the formula Ratio, and a rule built from `nodes`. */
export async function seedRule(server: TestServer, nodes: NodeSpec[] = []): Promise<RuleFixture> {
  const user = await server.createUser({ role: 'author' })
  const set = await createAdviceSet(server.db, { ownerId: user.ownerId, name: 'Pensions' })
  const entries = [
    await createVariable(server.db, user.ownerId, 'Age'),
    await createVariable(server.db, user.ownerId, 'Income'),
    await createVariable(server.db, user.ownerId, 'Band', { dataType: 'text' }),
    await createFormula(server.db, user.ownerId, 'Ratio', '{{Income}} / 12'),
  ]
  const { rule } = await buildRule(server.db, set.id, 'Eligibility', nodes)
  return { user, setId: set.id, ruleId: rule.id, entities: Object.fromEntries(entries.map((entry) => [entry.reservedName, entry.id])) }
}

export interface ShowOptions {
  /** Opens part/{nodeId} instead of show. */
  activeNodeId?: number
  /** Signs in as this user instead of the rule's author. */
  as?: TestUser
}

/** A signed-in page with the rule's page open and its islands mounted; closing the page closes its context. */
export async function openRuleTree(browser: Browser, server: TestServer, fixture: RuleFixture, opts: ShowOptions = {}): Promise<Page> {
  const context = await newQuietContext(browser)
  const page = await context.newPage()
  page.once('close', () => void context.close())
  await signInByApi(page, server.url, opts.as ?? fixture.user)
  await showRuleTree(page, server, fixture, opts)
  return page
}

/** (Re)loads the rule's page and waits for its islands. */
export async function showRuleTree(page: Page, server: TestServer, fixture: RuleFixture, opts: ShowOptions = {}): Promise<void> {
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
