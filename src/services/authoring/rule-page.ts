// Read models of the rule pages: the rule-tree island's props (the rules contract's RuleTreeProps), the
// server-rendered tree the island replaces, the header's facts, the pick-dialog lists and the advice set's rule list.
import { listAdviceSetRows } from '../../db/queries/advice-sets.ts'
import { listNodes, type RuleNodeRow } from '../../db/queries/rule-nodes.ts'
import { nodeSupplements } from '../../db/queries/supplements.ts'
import { callsFrom, findRule, listRules, listVisibleRules, type RuleWithSet } from '../../db/queries/rules.ts'
import { ENTITY_TYPES, TAG_LABEL_NEEDS_WORK, staticChecks, type AdviceSetModel, type NodeType } from '../../engine/index.ts'
import { buildAdviceSetModel, dictionaryFor } from './advice-set-model.ts'
import type { Actor, Deps } from '../context.ts'
import { kindOf } from './entities.ts'
import { NotFoundError } from '../errors.ts'
import { readableRule, ruleStats, rulesCallingRule, statsOfRule } from './rules.ts'
import { canCollaborateOnSet, canCreate, canWriteOwned, setVisibility } from '../accounts/visibility.ts'
import { visibleCommentCounts } from './comment-counts.ts'
import { apiChoicesForSet } from '../integrations/external-apis.ts'
import { MAX_NODE_SUPPLEMENTS } from '../files/links.ts'
import { supplementHref } from '../files/supplements.ts'
import { MAX_UPLOAD_BYTES } from '../files/uploads.ts'
import { ruleTableShape } from './decision-table-import.ts'

export interface TreeNodeProps {
  id: number; parentId: number | null; position: number; type: NodeType
  expression: string | null; variable: string | null; headline: string | null; text: string | null
  question: string | null; calledRuleId: number | null; apiId: string | null; tags: string[]; commentCount: number
}

/** A node as the island's props carry it: fields without a value are left out (the island reads them as empty). */
export type CompactNodeProps = Pick<TreeNodeProps, 'id' | 'type' | 'position'> & Partial<TreeNodeProps>

/**
 * The island's props. The whole set's model is not among them: the set's static checks are computed on the server
 * (GET /api/rule/{id}/checks), so a large rule's page carries its own nodes once and nothing else of the set.
 */
export interface RuleTreeProps {
  mode: 'edit' | 'read'
  /** The set's own team opens the nodes' comments; another team's reader of a public or starter set does not. */
  comments: boolean
  rule: { id: number; name: string; adviceSetId: number }
  /** `ownerId`: whose dictionary the set reads, so entries made in another tab can join the `{{` suggestions. */
  adviceSet: { id: number; name: string; ownerId: string }
  nodes: CompactNodeProps[]
  rules: Array<{ id: number; name: string; adviceSetId: number; adviceSetName: string }>
  /** Formulas with their expression: a Formula node shows and edits its dictionary formula's. */
  entities: Array<{ id: number; name: string; kind: 'variable' | 'formula'; dataType: string | null; expression: string | null }>
  activeNodeId: number | null
  /** The set owner's external APIs, for API Call nodes (their names, the editor's picker, the mapped variables' types). */
  apis: Array<{ id: string; name: string; variables: string[]; dataTypes: Record<string, string> }>
  sourceCounts: Record<number, number>
  maxSourcesPerNode: number
  maxUploadBytes: number
}

/** One node of the server-rendered tree (views/rule/_tree.eta). */
export interface TreeNodeView {
  id: number
  type: NodeType
  typeName: string
  active: boolean
  expression: string | null
  /** A Formula node without an expression of its own: its dictionary formula's (the one definition). */
  dictionaryExpression: string | null
  variable: { name: string; entityId: number | null } | null
  headline: string | null
  text: string | null
  question: string | null
  calledRule: { name: string; href: string } | null
  apiId: string | null
  /** The external API's name, when it is one of the set owner's. */
  apiName: string | null
  tags: string[]
  commentCount: number
  /** Its linked supplements, by name, with their pages. */
  sources: Array<{ name: string; href: string }>
  children: TreeNodeView[]
}

/** Rules of other sets the selector lists at most; the dialog says when there are more. */
export const SELECTOR_LIMIT = 300
/** Advice sets the copy dialog offers at most. */
export const COPY_TARGET_LIMIT = 200

/** The rule when it is a live rule of this advice set that the actor may read; 404 otherwise (also for a set mismatch). */
export async function ruleOfSet(deps: Deps, actor: Actor, adviceSetId: number, ruleId: number): Promise<RuleWithSet> {
  const rule = await readableRule(deps.db, actor, ruleId)
  if (rule.adviceSetId !== adviceSetId) throw new NotFoundError('No rule with this id in this advice set')
  return rule
}

function tagLabel(slug: string): string {
  if (slug === 'needs-work') return TAG_LABEL_NEEDS_WORK
  const words = slug.replace(/-/g, ' ')
  return words.charAt(0).toUpperCase() + words.slice(1)
}

function nodeProps(row: RuleNodeRow, commentCounts: Record<number, number>): TreeNodeProps {
  return {
    id: row.id, parentId: row.parentId, position: row.position, type: row.type as NodeType,
    expression: row.expression, variable: row.variable, headline: row.headline, text: row.text, question: row.question,
    calledRuleId: row.calledRuleId, apiId: row.apiId, tags: row.tags, commentCount: commentCounts[row.id] ?? 0,
  }
}

function compactNode(node: TreeNodeProps): CompactNodeProps {
  const compact: CompactNodeProps = { id: node.id, type: node.type, position: node.position }
  if (node.parentId !== null) compact.parentId = node.parentId
  if (node.expression !== null) compact.expression = node.expression
  if (node.variable !== null) compact.variable = node.variable
  if (node.headline !== null) compact.headline = node.headline
  if (node.text !== null) compact.text = node.text
  if (node.question !== null) compact.question = node.question
  if (node.calledRuleId !== null) compact.calledRuleId = node.calledRuleId
  if (node.apiId !== null) compact.apiId = node.apiId
  if (node.tags.length > 0) compact.tags = node.tags
  if (node.commentCount > 0) compact.commentCount = node.commentCount
  return compact
}

interface TreeContext {
  activeNodeId: number | null
  sources: Map<number, Array<{ name: string; href: string }>>
  calledRules: Map<number, { name: string; href: string }>
  entityIds: Map<string, number>
  formulaExpressions: Map<string, string | null>
  apiNames: Map<string, string>
}

/** Flat rows (siblings in order) to nested views; rows under a missing parent are left out, as the engine does. */
function treeViews(nodes: TreeNodeProps[], context: TreeContext): TreeNodeView[] {
  const children = new Map<number | null, TreeNodeProps[]>()
  for (const node of nodes) {
    const siblings = children.get(node.parentId)
    if (siblings) siblings.push(node)
    else children.set(node.parentId, [node])
  }
  const view = (node: TreeNodeProps): TreeNodeView => ({
    id: node.id,
    type: node.type,
    typeName: ENTITY_TYPES[node.type]?.displayName ?? node.type,
    active: node.id === context.activeNodeId,
    expression: node.expression,
    dictionaryExpression: node.type === 'formula' && !node.expression && node.variable !== null ? context.formulaExpressions.get(node.variable) ?? null : null,
    variable: node.variable === null ? null : { name: node.variable, entityId: context.entityIds.get(node.variable.toLowerCase()) ?? null },
    headline: node.headline,
    text: node.text,
    question: node.question,
    calledRule: node.calledRuleId === null ? null : context.calledRules.get(node.calledRuleId) ?? { name: `Rule #${node.calledRuleId} (not available)`, href: '' },
    apiId: node.apiId,
    apiName: node.apiId === null ? null : context.apiNames.get(node.apiId) ?? null,
    tags: node.tags.map(tagLabel),
    commentCount: node.commentCount,
    sources: context.sources.get(node.id) ?? [],
    children: (children.get(node.id) ?? []).sort((a, b) => a.position - b.position).map(view),
  })
  return (children.get(null) ?? []).sort((a, b) => a.position - b.position).map(view)
}

export function ruleHref(adviceSetId: number, ruleId: number): string {
  return `/adviceset/${adviceSetId}/rule/${ruleId}/show`
}

/**
 * What the rule page's tree needs: the island's props and the same tree nested for the fallback. `activeNodeId`
 * must be a live node of the rule (404 otherwise).
 */
export async function ruleTreeModel(deps: Deps, actor: Actor, rule: RuleWithSet, activeNodeId: number | null = null) {
  const [rows, commentCounts, linked, setRules, called, dictionary, apiChoices] = await Promise.all([
    listNodes(deps.db, [rule.id]),
    visibleCommentCounts(deps.db, actor, rule),
    nodeSupplements(deps.db, [rule.id]),
    listRules(deps.db, rule.adviceSetId),
    callsFrom(deps.db, rule.id),
    dictionaryFor(deps.db, rule.set, actor),
    apiChoicesForSet(deps, actor, rule.set),
  ])
  // The set's model (for the header's check counts) reuses this rule's nodes: a large rule is read once, not twice.
  const model = await buildAdviceSetModel(deps.db, rule.adviceSetId, { reader: actor, loaded: { ruleId: rule.id, rows, linked } })
  if (activeNodeId !== null && !rows.some((r) => r.id === activeNodeId)) throw new NotFoundError('No node with this id in this rule')
  const nodes = rows.map((row) => nodeProps(row, commentCounts))
  const callable = new Map<number, RuleTreeProps['rules'][number]>()
  for (const r of setRules) if (r.id !== rule.id) callable.set(r.id, { id: r.id, name: r.name, adviceSetId: r.adviceSetId, adviceSetName: rule.set.name })
  for (const c of called) callable.set(c.ruleId, { id: c.ruleId, name: c.ruleName, adviceSetId: c.adviceSetId, adviceSetName: c.adviceSetName })
  const props: RuleTreeProps = {
    mode: canWriteOwned(actor, rule.set.ownerId) ? 'edit' : 'read',
    comments: canCollaborateOnSet(actor, rule.set),
    rule: { id: rule.id, name: rule.name, adviceSetId: rule.adviceSetId },
    adviceSet: { id: rule.set.id, name: rule.set.name, ownerId: rule.set.ownerId },
    nodes: nodes.map(compactNode),
    rules: [...callable.values()],
    entities: dictionary.map((e) => ({ id: e.id, name: e.reservedName, kind: kindOf(e), dataType: e.dataType, expression: kindOf(e) === 'formula' ? e.expression : null })),
    activeNodeId,
    apis: apiChoices.map((api) => ({
      id: String(api.id), name: api.name, variables: api.variables, dataTypes: Object.fromEntries(api.mapped.map((m) => [m.variable, m.dataType])),
    })),
    sourceCounts: Object.fromEntries([...linked].map(([nodeId, list]) => [nodeId, list.length])),
    maxSourcesPerNode: MAX_NODE_SUPPLEMENTS,
    maxUploadBytes: MAX_UPLOAD_BYTES,
  }
  const sources = new Map([...linked].map(([nodeId, list]) => [nodeId, list.map((s) => ({ name: s.name, href: supplementHref(s) }))]))
  const calledRules = new Map(called.map((c) => [c.ruleId, { name: c.adviceSetId === rule.adviceSetId ? c.ruleName : `${c.adviceSetName} › ${c.ruleName}`, href: ruleHref(c.adviceSetId, c.ruleId) }]))
  const entityIds = new Map(dictionary.map((e) => [e.reservedName.toLowerCase(), e.id]))
  const formulaExpressions = new Map(props.entities.filter((e) => e.kind === 'formula').map((e) => [e.name, e.expression]))
  const apiNames = new Map(props.apis.map((api) => [api.id, api.name]))
  return { props, tree: treeViews(nodes, { activeNodeId, sources, calledRules, entityIds, formulaExpressions, apiNames }), loaded: { rows, model } }
}

/**
 * The header's facts: statistics, who calls the rule, and where it may be copied to. `loaded`: the rule's nodes and
 * its set's model when the page has them already (ruleTreeModel), so they are not read again.
 */
export async function ruleHeaderModel(deps: Deps, actor: Actor, rule: RuleWithSet, loaded?: { rows: RuleNodeRow[]; model: AdviceSetModel }) {
  const [stats, callers, copyTargets] = await Promise.all([
    loaded ? statsOfRule(loaded.rows, loaded.model, rule.id) : ruleStats(deps, actor, rule.id),
    rulesCallingRule(deps, actor, rule.id),
    copyTargetSets(deps, actor),
  ])
  const seen = new Set<number>()
  return {
    stats,
    runsTwice: loaded ? runsTwiceWarnings(loaded.model, rule.id) : [],
    /** The tree has a decision table's shape: the header offers "Export as table" (GET /api/rule/{id}/table.xlsx). */
    exportsAsTable: loaded ? ruleTableShape(loaded.model, rule.id).ok : false,
    calledBy: callers.filter((c) => c.ruleId !== rule.id && !seen.has(c.ruleId) && seen.add(c.ruleId))
      .map((c) => ({ id: c.ruleId, name: c.ruleName, adviceSetName: c.adviceSetName, href: ruleHref(c.adviceSetId, c.ruleId) })),
    copyTargets,
  }
}

/** What the static checks say when this rule runs on its own and is called too: shown beside the run-mode button. */
function runsTwiceWarnings(model: AdviceSetModel, ruleId: number): string[] {
  return staticChecks(model).filter((issue) => issue.code === 'RULE_RUNS_TWICE' && issue.aboutRuleId === String(ruleId)).map((issue) => issue.message)
}

/** Advice sets of the actor's owner that a rule may be copied into (none for viewers). */
export async function copyTargetSets(deps: Deps, actor: Actor): Promise<Array<{ id: number; name: string }>> {
  if (!canCreate(actor)) return []
  const rows = await listAdviceSetRows(deps.db, { visibility: setVisibility(actor), ownerId: actor.ownerId, sort: 'name', offset: 0, limit: COPY_TARGET_LIMIT })
  return rows.map((s) => ({ id: s.id, name: s.name }))
}

export interface CallableRuleGroup { adviceSetId: number; adviceSetName: string; own: boolean; rules: Array<{ id: number; name: string }> }

/**
 * Rules a Rule Call in this set may name, grouped by set: this set's first (all of them), then the readable other sets'
 * by set name, at most SELECTOR_LIMIT of those, optionally only those whose rule or set name contains `text`.
 */
export async function callableRules(deps: Deps, actor: Actor, set: { id: number; name: string }, text = ''): Promise<{ groups: CallableRuleGroup[]; more: boolean }> {
  const adviceSetId = set.id
  const own = (await listRules(deps.db, adviceSetId)).filter((r) => !text || r.name.toLowerCase().includes(text.toLowerCase()))
  const others = await listVisibleRules(deps.db, { visibility: setVisibility(actor), exceptSetId: adviceSetId, text, limit: SELECTOR_LIMIT + 1 })
  const groups: CallableRuleGroup[] = []
  if (own.length > 0) groups.push({ adviceSetId, adviceSetName: set.name, own: true, rules: own.map((r) => ({ id: r.id, name: r.name })) })
  for (const row of others.slice(0, SELECTOR_LIMIT)) {
    const last = groups.at(-1)
    if (last && last.adviceSetId === row.adviceSetId) last.rules.push({ id: row.id, name: row.name })
    else groups.push({ adviceSetId: row.adviceSetId, adviceSetName: row.adviceSetName, own: false, rules: [{ id: row.id, name: row.name }] })
  }
  return { groups, more: others.length > SELECTOR_LIMIT }
}

/** Live nodes of a rule: what its delete takes away. */
export async function countRuleNodes(deps: Deps, ruleId: number): Promise<number> {
  return (await listNodes(deps.db, [ruleId])).length
}

/** The advice set page's Rules section: its live rules in run order. */
export async function setRuleList(deps: Deps, adviceSetId: number) {
  return (await listRules(deps.db, adviceSetId)).map((r) => ({ id: r.id, name: r.name, position: r.position, href: ruleHref(adviceSetId, r.id) }))
}

/** A rule of this set deleted by a writer, for the advice set page's Undo; null when there is nothing to undo. */
export async function deletedRuleOf(deps: Deps, actor: Actor, adviceSetId: number, ruleId: number): Promise<{ id: number; name: string } | null> {
  const rule = await findRule(deps.db, ruleId, { includeDeleted: true })
  if (!rule || rule.deletedAt === null || rule.adviceSetId !== adviceSetId || !canWriteOwned(actor, rule.set.ownerId)) return null
  return { id: rule.id, name: rule.name }
}
