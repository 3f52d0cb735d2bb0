// Shared by the rule-tree browser tests and scripts/bench/rule-tree.ts: an author with an advice set, a dictionary
// and a rule, and a page holding the rule-tree island with the props the rule pages render (rules contract),
// served from inside the browser with the session's real CSRF token so the island calls the real /api routes.
import type { Browser, Page } from 'playwright-core'
import { listNodes } from '../../src/db/queries/rule-nodes.ts'
import { listRules } from '../../src/db/queries/rules.ts'
import { buildAdviceSetModel, dictionaryFor } from '../../src/services/advice-set-model.ts'
import { findAdviceSet } from '../../src/db/queries/advice-sets.ts'
import { ENTITY_TYPES } from '../../src/engine/entity-types.ts'
import { countCommentsByRule } from '../../src/db/queries/comments.ts'
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

/** RuleTreeProps as the rule pages build them (rules contract), read from the database now. */
export async function ruleTreeProps(server: TestServer, fixture: RuleFixture, opts: { mode?: 'edit' | 'read'; activeNodeId?: number } = {}) {
  const set = (await findAdviceSet(server.db, fixture.setId))!
  const rules = await listRules(server.db, set.id)
  const rule = rules.find((candidate) => candidate.id === fixture.ruleId)!
  const nodes = await listNodes(server.db, [rule.id])
  const counts = await countCommentsByRule(server.db, rule.id)
  return {
    mode: opts.mode ?? 'edit',
    rule: { id: rule.id, name: rule.name, adviceSetId: set.id },
    adviceSet: { id: set.id, name: set.name },
    nodes: nodes.map((node) => ({
      id: node.id, parentId: node.parentId, position: node.position, type: node.type, expression: node.expression, variable: node.variable,
      headline: node.headline, text: node.text, question: node.question, calledRuleId: node.calledRuleId, apiId: node.apiId, tags: node.tags,
      commentCount: counts[node.id] ?? 0,
    })),
    rules: rules.map((candidate) => ({ id: candidate.id, name: candidate.name, adviceSetId: set.id, adviceSetName: set.name })),
    entities: (await dictionaryFor(server.db, set)).map((entity) => ({
      id: entity.id, name: entity.reservedName, kind: entity.entityTypeId === ENTITY_TYPES.formula.id ? 'formula' : 'variable', dataType: entity.dataType,
    })),
    model: await buildAdviceSetModel(server.db, set.id),
    activeNodeId: opts.activeNodeId ?? null,
  }
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')
}

/** A signed-in page of the author with the rule-tree island mounted on a rule-show page. */
export async function openRuleTree(browser: Browser, server: TestServer, fixture: RuleFixture, opts: { mode?: 'edit' | 'read'; activeNodeId?: number } = {}): Promise<Page> {
  const context = await newQuietContext(browser)
  const page = await context.newPage()
  page.once('close', () => void context.close())
  await signInByApi(page, server.url, fixture.user)
  await showRuleTree(page, server, fixture, opts)
  return page
}

/** (Re)loads the fixture rule page with props read from the database now, like a reload of the real page. */
export async function showRuleTree(page: Page, server: TestServer, fixture: RuleFixture, opts: { mode?: 'edit' | 'read'; activeNodeId?: number } = {}): Promise<void> {
  const home = await (await page.request.get(`${server.url}/library`)).text()
  const csrf = /<meta name="csrf-token" content="([^"]+)"/.exec(home)?.[1]
  if (!csrf) throw new Error('No CSRF token on /library')
  const props = await ruleTreeProps(server, fixture, opts)
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Rule</title>
<meta name="csrf-token" content="${csrf}">
<link rel="stylesheet" href="/static/build/islands.css">
<script type="application/json" id="app-context">{"currentUser":null,"currentRule":{"id":${fixture.ruleId}},"currentAdviceSet":{"id":${fixture.setId}}}</script>
<script type="module" src="/static/build/loader.js"></script></head>
<body><main data-page="rule-show"><h1>Rule</h1>
<div data-island="rule-tree" data-props="${escapeAttribute(JSON.stringify(props))}"></div></main>
<div data-island="notifications" data-props='{"flash":[]}'></div></body></html>`
  const url = `${server.url}/e2e/rule/${fixture.ruleId}`
  await page.unrouteAll()
  await page.route(url, (route) => route.fulfill({ contentType: 'text/html', body: html }))
  await page.goto(url)
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
