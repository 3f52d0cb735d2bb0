// From stored rows to the engine's authoring model (engine/model.ts): what debug, static checks and the list
// routes run the engine on; and the names a node or formula uses (set-copy.ts walks them too).
import type { Db } from '../../db/client.ts'
import { findAdviceSet, type AdviceSetRow } from '../../db/queries/advice-sets.ts'
import { findEntityByName, insertEntity, listEntities, type EntityRow } from '../../db/queries/entities.ts'
import { copyNodeRows, listNodes, parentsFirst, type RuleNodeRow } from '../../db/queries/rule-nodes.ts'
import { findRulesByIds, insertRule, listRules, type RuleRow } from '../../db/queries/rules.ts'
import { nodeSupplements, type SupplementRow } from '../../db/queries/supplements.ts'
import {
  ENTITY_TYPES, isDataType, parseAssignment, parseExpression, references, templateTags,
  type AdviceSetModel, type EntityModel, type Expr, type NodeModel, type NodeType, type RuleModel,
} from '../../engine/index.ts'
import { audit } from '../audit/audit.ts'
import { PROVIDER_OWNER_ID, type Actor } from '../context.ts'
import { NotFoundError } from '../errors.ts'
import { canReadOwned } from '../accounts/visibility.ts'
import { withLinkedSources } from '../files/sources.ts'

/** Rule calls reach at most this many sets away; deeper chains are reported by the engine as unknown rules. */
const MAX_CALL_HOPS = 16

/** `linked`: the supplements linked to the node, which follow its own sources (services/files/sources.ts). */
export function nodeModelOf(row: RuleNodeRow, children: NodeModel[], linked?: SupplementRow[]): NodeModel {
  const node: NodeModel = { id: String(row.id), key: row.key, type: row.type as NodeType, children }
  if (row.expression !== null) node.expression = row.expression
  if (row.variable !== null) node.variable = row.variable
  if (row.headline !== null) node.headline = row.headline
  if (row.text !== null) node.text = row.text
  if (row.question !== null) node.question = row.question
  if (row.calledRuleId !== null) node.calledRuleId = String(row.calledRuleId)
  if (row.apiId !== null) node.apiId = row.apiId
  if (row.tags.length > 0) node.tags = row.tags
  const sources = withLinkedSources(row.sources, linked)
  if (sources.length > 0) node.sources = sources
  return node
}

/** Live rows (siblings in order) to one tree per rule; nodes under a missing parent are left out. */
export function treesOf(rows: RuleNodeRow[], linked: Map<number, SupplementRow[]> = new Map()): Map<number, NodeModel[]> {
  const children = new Map<number, RuleNodeRow[]>()
  const roots = new Map<number, RuleNodeRow[]>()
  for (const row of rows) {
    const bucket = row.parentId === null ? roots : children
    const key = row.parentId ?? row.ruleId
    const list = bucket.get(key)
    if (list) list.push(row)
    else bucket.set(key, [row])
  }
  const build = (row: RuleNodeRow): NodeModel => nodeModelOf(row, (children.get(row.id) ?? []).map(build), linked.get(row.id))
  const trees = new Map<number, NodeModel[]>()
  for (const [ruleId, list] of roots) trees.set(ruleId, list.map(build))
  return trees
}

export function entityModelOf(row: EntityRow): EntityModel {
  const entity: EntityModel = {
    id: String(row.id), name: row.reservedName, kind: row.entityTypeId === ENTITY_TYPES.formula.id ? 'formula' : 'variable',
  }
  if (isDataType(row.dataType)) entity.dataType = row.dataType
  if (row.validOptions.length > 0) entity.options = row.validOptions
  if (row.isClosedSet) entity.isClosedSet = true
  if (row.displayFormat) entity.displayFormat = row.displayFormat
  if (row.defaultValue !== null && row.defaultValue !== undefined) entity.defaultValue = row.defaultValue
  if (row.expression) entity.expression = row.expression
  if (row.isConstant) entity.isConstant = true
  if (row.description) entity.description = row.description
  return entity
}

/**
 * The dictionary a set sees: its owner's entries (general or for this set), then the provider's not shadowed by name.
 * A `reader` of another owner (a public set's visitor) sees only the entries the set names: the rest of the owner's
 * dictionary is its own team's (DESIGN "Owners, roles and visibility").
 */
export async function dictionaryFor(db: Db, set: { id: number; ownerId: string }, reader?: Actor): Promise<EntityRow[]> {
  const rows = await listEntities(db, { ownerIds: [...new Set([set.ownerId, PROVIDER_OWNER_ID])], adviceSetId: set.id })
  const own = new Set(rows.filter((r) => r.ownerId === set.ownerId).map((r) => r.reservedName.toLowerCase()))
  const seen = rows.filter((r) => r.ownerId === set.ownerId || !own.has(r.reservedName.toLowerCase()))
  if (!reader || canReadOwned(reader, set.ownerId)) return seen
  const rules = await listRules(db, set.id)
  return entriesNamedIn(seen, JSON.stringify(await listNodes(db, rules.map((r) => r.id))))
}

/** The entries a text names (as a whole word, in any case), and those named by the formulas among them, transitively. */
function entriesNamedIn(rows: EntityRow[], content: string): EntityRow[] {
  const words = new Set<string>()
  const addWords = (text: string) => { for (const w of text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []) words.add(w) }
  addWords(content)
  const kept = new Set<EntityRow>()
  for (let grew = true; grew;) {
    grew = false
    for (const row of rows) {
      if (kept.has(row) || !words.has(row.reservedName.toLowerCase())) continue
      kept.add(row)
      if (row.expression) addWords(row.expression)
      grew = true
    }
  }
  return rows.filter((r) => kept.has(r))
}

function ruleModels(rules: RuleRow[], trees: Map<number, NodeModel[]>): RuleModel[] {
  // The flag is left out when false, so a set without such rules snapshots as it did before the flag existed.
  return rules.map((r) => ({ id: String(r.id), key: r.key, name: r.name, adviceSetId: String(r.adviceSetId), ...(r.onlyWhenCalled ? { onlyWhenCalled: true } : {}), nodes: trees.get(r.id) ?? [] }))
}

function calledIds(models: RuleModel[]): number[] {
  const ids: number[] = []
  const visit = (nodes: NodeModel[]) => nodes.forEach((n) => { if (n.calledRuleId) ids.push(Number(n.calledRuleId)); visit(n.children) })
  models.forEach((m) => visit(m.nodes))
  return ids
}

/** The live trees of some rules as the engine runs them: the nodes with the supplements linked to them as sources. */
/** One rule's nodes and their linked supplements, already read by the caller (the rule page), so not read again. */
export interface LoadedRule { ruleId: number; rows: RuleNodeRow[]; linked: Map<number, SupplementRow[]> }

async function treesOfRules(db: Db, ruleIds: number[], loaded?: LoadedRule): Promise<Map<number, NodeModel[]>> {
  const reuse = loaded !== undefined && ruleIds.includes(loaded.ruleId)
  const toRead = reuse ? ruleIds.filter((id) => id !== loaded.ruleId) : ruleIds
  // One after the other: `db` may be a transaction (a version's snapshot), which runs one query at a time.
  const rows = toRead.length > 0 ? await listNodes(db, toRead) : []
  const linked = toRead.length > 0 ? await nodeSupplements(db, toRead) : new Map<number, SupplementRow[]>()
  if (reuse) {
    rows.push(...loaded.rows)
    for (const [nodeId, list] of loaded.linked) linked.set(nodeId, list)
  }
  return treesOf(rows, linked)
}

/**
 * The set as the engine compiles it: live rules in order, their trees, the dictionary, and the rules of other sets
 * that its Rule Calls reach (transitively). `onlyRuleId` keeps one rule in `rules` (see focusOnRule), which is how a
 * single rule is debugged.
 */
export async function buildAdviceSetModel(db: Db, adviceSetId: number, opts: { onlyRuleId?: number; reader?: Actor; loaded?: LoadedRule } = {}): Promise<AdviceSetModel> {
  const set = await findAdviceSet(db, adviceSetId)
  if (!set) throw new NotFoundError('No advice set with this id')
  const setRules = await listRules(db, adviceSetId)
  const main = ruleModels(setRules, await treesOfRules(db, setRules.map((r) => r.id), opts.loaded))
  const known = new Set(main.map((r) => r.id))
  const external: RuleModel[] = []
  let frontier = calledIds(main).filter((id) => !known.has(String(id)))
  for (let hop = 0; hop < MAX_CALL_HOPS && frontier.length > 0; hop++) {
    const found = await findRulesByIds(db, [...new Set(frontier)])
    const models = ruleModels(found, await treesOfRules(db, found.map((r) => r.id)))
    models.forEach((m) => known.add(m.id))
    external.push(...models)
    frontier = calledIds(models).filter((id) => !known.has(String(id)))
  }
  const dictionary = await dictionaryFor(db, set)
  // A reader of another owner gets only the entries the set (and the rules it calls) names; see dictionaryFor.
  const entities = (opts.reader && !canReadOwned(opts.reader, set.ownerId) ? entriesNamedIn(dictionary, JSON.stringify([main, external])) : dictionary).map(entityModelOf)
  const model: AdviceSetModel = { id: String(set.id), name: set.nameAlt || set.name, rules: main, entities, ...(external.length > 0 ? { externalRules: external } : {}) }
  return opts.onlyRuleId === undefined ? model : focusOnRule(model, opts.onlyRuleId)
}

/**
 * The whole set's model with one rule left to run; the set's other rules stay callable as external rules. The rule
 * runs even when it runs only when called: debugging it alone is calling it.
 */
export function focusOnRule(model: AdviceSetModel, ruleId: number): AdviceSetModel {
  const id = String(ruleId)
  const external = [...model.rules.filter((r) => r.id !== id), ...(model.externalRules ?? [])]
  const { externalRules: _all, ...rest } = model
  const focused = model.rules.filter((r) => r.id === id).map(({ onlyWhenCalled: _called, ...rule }) => rule)
  return { ...rest, rules: focused, ...(external.length > 0 ? { externalRules: external } : {}) }
}

/** Names a node reads or sets: expression references, template tags and its own variable. */
export function namesOfNode(node: Pick<RuleNodeRow, 'type' | 'expression' | 'variable' | 'headline' | 'text' | 'question'>): { variables: string[]; formulas: string[]; sets: string[] } {
  const variables = new Set<string>()
  const formulas = new Set<string>()
  const sets = new Set<string>()
  const fromExpr = (expr: Expr) => {
    const refs = references(expr)
    refs.variables.forEach((n) => variables.add(n))
    refs.bare.forEach((n) => variables.add(n))
    refs.formulas.forEach((n) => formulas.add(n))
  }
  if (node.expression) {
    try {
      if (node.type === 'variableAssignment') {
        const assignment = parseAssignment(node.expression)
        sets.add(assignment.target)
        fromExpr(assignment.value)
      } else fromExpr(parseExpression(node.expression, { mode: node.type === 'condition' ? 'condition' : 'value' }))
    } catch {
      // Unparsable expressions are reported by the static checks; they name nothing reliably.
    }
  }
  for (const text of [node.headline, node.text, node.question]) {
    for (const tag of templateTags(text ?? '')) (tag.kind === 'variable' ? variables : formulas).add(tag.name)
  }
  if (node.variable) (node.type === 'formula' ? formulas : node.type === 'inputRequest' || node.type === 'apiCall' ? sets : variables).add(node.variable)
  return { variables: [...variables], formulas: [...formulas], sets: [...sets] }
}

/** Names a formula expression reads (unparsable: none). */
export function namesOfExpression(source: string): string[] {
  try {
    const refs = references(parseExpression(source))
    return [...refs.variables, ...refs.formulas, ...refs.bare]
  } catch {
    return []
  }
}
