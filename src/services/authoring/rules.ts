// Rules: the ordered topics of an advice set. Create, rename, reorder, delete/recover, copy, promote, and the read
// views over calls, variables, statistics and debugging. Every write is audited; rights come from the advice set.
import type { Db } from '../../db/client.ts'
import { findAdviceSet, insertAdviceSet } from '../../db/queries/advice-sets.ts'
import { visibleCommentCounts } from './comment-counts.ts'
import { copyNodeRows, insertNode, listNodes, listOwnedNodes, lockRuleRow, parentsFirst, type RuleNodeRow } from '../../db/queries/rule-nodes.ts'
import {
  callsFrom, callsTo, findRule, insertRule, listRules, lockAdviceSetRow, renumberRules, updateRule as updateRuleRow,
  type RuleRow, type RuleWithSet,
} from '../../db/queries/rules.ts'
import {
  ENTITY_TYPE_LIST, NODE_TYPES, compileAdviceSet, staticChecks, whyNot,
  type AdviceSetModel, type CompiledAdviceSet, type ContentType, type EngineResult, type NotGiven, type Value,
} from '../../engine/index.ts'
import { buildAdviceSetModel, dictionaryFor, namesOfNode } from './advice-set-model.ts'
import { ENTITY_ADVICE_SET, snapshotOf as adviceSetSnapshot } from '../library/advice-sets.ts'
import { audit } from '../audit/audit.ts'
import type { Actor, Deps } from '../context.ts'
import { assertNoDependents, registerDependentCheck } from './dependents.ts'
import { ForbiddenError, NotFoundError, ValidationError } from '../errors.ts'
import { requireText } from '../validate.ts'
import { assertWritable, canCreate, canReadSet, canWriteOwned } from '../accounts/visibility.ts'
import { runSetWithApis, type PinnedResponse } from '../integrations/api-runtime.ts'
import { apiCallView } from '../integrations/api-calls.ts'

export const ENTITY_RULE = 'rule'
export const ENTITY_RULE_NODE = 'rulenode'

// A rule called from another rule cannot go: the caller would break.
registerDependentCheck(ENTITY_RULE, async (db, id) =>
  (await callsTo(db, [id])).filter((c) => c.ruleId !== id).map((c) => ({
    type: ENTITY_RULE, id: c.ruleId, name: `${c.adviceSetName} › ${c.ruleName}`, uri: `/adviceset/${c.adviceSetId}/rule/${c.ruleId}/show`,
  })))

// A set whose rules other sets call cannot go either.
registerDependentCheck(ENTITY_ADVICE_SET, async (db, id) => {
  const calls = await callsTo(db, (await listRules(db, id)).map((r) => r.id), { outsideSet: id })
  const seen = new Set<number>()
  return calls.filter((c) => !seen.has(c.ruleId) && seen.add(c.ruleId)).map((c) => ({
    type: ENTITY_RULE, id: c.ruleId, name: `${c.adviceSetName} › ${c.ruleName}`, uri: `/adviceset/${c.adviceSetId}/rule/${c.ruleId}/show`,
  }))
})

/** `onlyWhenCalled` is absent in activity rows written before the flag existed. */
export interface RuleSnapshot { id: number; name: string; adviceSetId: number; parentId: number; position: number; onlyWhenCalled?: boolean; deleted: boolean }

export function ruleSnapshot(rule: RuleRow): RuleSnapshot {
  return {
    id: rule.id, name: rule.name, adviceSetId: rule.adviceSetId, parentId: rule.adviceSetId, position: rule.position,
    onlyWhenCalled: rule.onlyWhenCalled, deleted: rule.deletedAt !== null,
  }
}

// Access ------------------------------------------------------------------------------------------------------------

/** A live rule of a live set the actor may read; 404 otherwise. */
export async function readableRule(db: Db, actor: Actor, id: number, opts: { includeDeleted?: boolean } = {}): Promise<RuleWithSet> {
  const rule = await findRule(db, id, opts)
  if (!rule || rule.set.deleted || !canReadSet(actor, rule.set)) throw new NotFoundError('No rule with this id')
  return rule
}

export async function writableRule(db: Db, actor: Actor, id: number, opts: { includeDeleted?: boolean } = {}): Promise<RuleWithSet> {
  const rule = await readableRule(db, actor, id, opts)
  assertWritable(actor, rule.set, 'rule')
  return rule
}

/** A live advice set the actor may change (what creating a rule in it needs); 404 or 403 otherwise. */
export async function writableSetFor(db: Db, actor: Actor, adviceSetId: number) {
  const set = await findAdviceSet(db, adviceSetId)
  if (!set) throw new NotFoundError('No advice set with this id')
  assertWritable(actor, set)
  return set
}

function parsePosition(raw: unknown, field = 'position'): number | undefined {
  if (raw === undefined || raw === null) return undefined
  if (typeof raw !== 'number' || !Number.isSafeInteger(raw) || raw < 0) throw new ValidationError(field, `${field}: must be a whole number of 0 or more.`)
  return raw
}

/** `list` with `id` taken out and put back at `index` (clamped to the list). */
export function placeAt(list: number[], id: number, index: number | undefined): number[] {
  const rest = list.filter((x) => x !== id)
  const at = index === undefined ? rest.length : Math.min(index, rest.length)
  return [...rest.slice(0, at), id, ...rest.slice(at)]
}

// Reading -------------------------------------------------------------------------------------------------------------

/** The rule with its tree as the engine reads it, the static-check issues of its nodes and per-node comment counts. */
export async function getRule(deps: Deps, actor: Actor, id: number) {
  const rule = await readableRule(deps.db, actor, id)
  const model = await buildAdviceSetModel(deps.db, rule.adviceSetId, { reader: actor })
  const issues = checksOfRule(model, id)
  const commentCounts = await visibleCommentCounts(deps.db, actor, rule)
  return { ...rule, canWrite: canWriteOwned(actor, rule.set.ownerId), nodes: model.rules.find((r) => r.id === String(id))?.nodes ?? [], issues, commentCounts }
}

export async function listSetRules(deps: Deps, actor: Actor, adviceSetId: number): Promise<RuleRow[]> {
  const set = await findAdviceSet(deps.db, adviceSetId)
  if (!set || !canReadSet(actor, set)) throw new NotFoundError('No advice set with this id')
  return listRules(deps.db, adviceSetId)
}

/** Rules (of sets the actor can read) whose Rule Call nodes call this rule. */
export async function rulesCallingRule(deps: Deps, actor: Actor, id: number) {
  await readableRule(deps.db, actor, id)
  return (await callsTo(deps.db, [id])).filter((c) => canReadSet(actor, { ownerId: c.ownerId, isPublic: false, isStarter: false }))
}

export async function rulesCalledByRule(deps: Deps, actor: Actor, id: number) {
  await readableRule(deps.db, actor, id)
  return callsFrom(deps.db, id)
}

/** SPEC §7 rule variables: every variable and formula the rule uses, with its dictionary entry when there is one. */
export async function ruleVariables(deps: Deps, actor: Actor, id: number) {
  const rule = await readableRule(deps.db, actor, id)
  const nodes = await listNodes(deps.db, [id])
  const dictionary = new Map((await dictionaryFor(deps.db, rule.set, actor)).map((e) => [e.reservedName.toLowerCase(), e]))
  const uses = new Map<string, { name: string; kind: 'variable' | 'formula'; nodeIds: number[]; sets: boolean }>()
  for (const node of nodes) {
    const names = namesOfNode(node)
    const add = (name: string, kind: 'variable' | 'formula', sets: boolean) => {
      const key = `${kind}:${name}`
      const use = uses.get(key) ?? { name, kind, nodeIds: [], sets: false }
      if (!use.nodeIds.includes(node.id)) use.nodeIds.push(node.id)
      use.sets ||= sets
      uses.set(key, use)
    }
    names.variables.forEach((n) => add(n, 'variable', false))
    names.sets.forEach((n) => add(n, 'variable', true))
    names.formulas.forEach((n) => add(n, 'formula', false))
  }
  return [...uses.values()].sort((a, b) => a.name.localeCompare(b.name)).map((use) => {
    const entry = dictionary.get(use.name.toLowerCase())
    return { ...use, entityId: entry?.id ?? null, dataType: entry?.dataType ?? null, known: entry !== undefined }
  })
}

export async function ruleStats(deps: Deps, actor: Actor, id: number) {
  const rule = await readableRule(deps.db, actor, id)
  return statsOfRule(await listNodes(deps.db, [id]), await buildAdviceSetModel(deps.db, rule.adviceSetId, { reader: actor }), id)
}

/**
 * The whole set's static checks that concern this rule's nodes, or the rule itself (RULE_RUNS_TWICE, reported at a
 * call in another rule): what the rule page paints on its tree, loaded after the page and again after each change (so
 * a page never carries the whole set's model).
 */
export async function ruleCheckIssues(deps: Deps, actor: Actor, id: number) {
  const rule = await readableRule(deps.db, actor, id)
  return checksOfRule(await buildAdviceSetModel(deps.db, rule.adviceSetId, { reader: actor }), id)
}

/**
 * The one source of a rule's static problems: the whole set's checks on this rule's nodes, and those about this rule
 * found elsewhere (it runs twice: called where it also runs on its own). The tree paints the first, the page notes the
 * second, the header counts both; checking the rule alone would warn about answers an earlier rule asks for.
 */
function checksOfRule(model: AdviceSetModel, id: number) {
  const ruleId = String(id)
  return staticChecks(model).filter((issue) => issue.ruleId === ruleId || issue.aboutRuleId === ruleId)
}

/** A rule's size and shape, and the counts of its static problems (`model`: its whole set's model). */
export function statsOfRule(nodes: Array<Pick<RuleNodeRow, 'id' | 'parentId' | 'type'>>, model: AdviceSetModel, id: number) {
  const byType: Record<string, number> = {}
  const depthOf = new Map<number, number>()
  let depth = 0
  for (const node of nodes) {
    byType[node.type] = (byType[node.type] ?? 0) + 1
    const d = node.parentId === null ? 1 : (depthOf.get(node.parentId) ?? 0) + 1
    depthOf.set(node.id, d)
    depth = Math.max(depth, d)
  }
  const issues = checksOfRule(model, id)
  return {
    nodes: nodes.length, byType, depth,
    errors: issues.filter((i) => i.severity === 'error').length,
    warnings: issues.filter((i) => i.severity === 'warning').length,
    unreachable: issues.filter((i) => i.code === 'UNREACHABLE').length,
  }
}

export interface DebugInput {
  adviceSetId?: number; ruleId?: number; inputs?: Record<string, unknown>; contentType?: ContentType; now?: string
  /** Advice nodes to find nearest answers for, besides the first NEAREST_LIMIT not given. */
  nearestFor?: string[]
}

/**
 * How many advice nodes not given get nearest answers in one debug run, in tree order (each is a search: 25 ms for a
 * node of the 5,000-node benchmark set); the others are found when asked for (nearestFor).
 */
export const NEAREST_LIMIT = 20

/** Runs the rule (or the whole set) as stored, with the trace on, plus the static checks the debug page shows. */
export async function debugRun(deps: Deps, actor: Actor, input: DebugInput) {
  let adviceSetId = input.adviceSetId
  if (input.ruleId !== undefined) {
    const rule = await readableRule(deps.db, actor, input.ruleId)
    if (adviceSetId !== undefined && adviceSetId !== rule.adviceSetId) throw new ValidationError('adviceSetId', 'adviceSetId: the rule is not in this advice set.')
    adviceSetId = rule.adviceSetId
  }
  if (adviceSetId === undefined) throw new ValidationError('ruleId', 'ruleId or adviceSetId is required.')
  const set = await findAdviceSet(deps.db, adviceSetId)
  if (!set || !canReadSet(actor, set)) throw new NotFoundError('No advice set with this id')
  const now = runMoment(input.now)
  const model = await buildAdviceSetModel(deps.db, adviceSetId, input.ruleId === undefined ? { reader: actor } : { onlyRuleId: input.ruleId, reader: actor })
  return tracedRun(deps, set.ownerId, model, compileAdviceSet(model), {
    inputs: input.inputs ?? {}, ...(input.contentType ? { contentType: input.contentType } : {}), ...(now ? { now } : {}),
    whyNot: { nearestFor: input.nearestFor ?? [] },
  })
}

/** The moment a debug run is as of: undefined for now; a bad date is refused naming `now`. */
export function runMoment(raw: string | undefined): Date | undefined {
  const now = raw === undefined ? undefined : new Date(raw)
  if (now && Number.isNaN(now.getTime())) throw new ValidationError('now', 'now: must be a date and time.')
  return now
}

/**
 * A run with the trace on (its API Call nodes answered through the set owner's external APIs, each call's request and
 * response put on its trace entries as `api`), the formulas' values as it ended, plus the static checks the debug
 * views show, of a model already built and compiled.
 */
export async function tracedRun(deps: Deps, ownerId: string, model: AdviceSetModel, compiled: CompiledAdviceSet, input: {
  inputs: Record<string, unknown>; contentType?: ContentType; now?: Date; pinned?: ReadonlyMap<string, PinnedResponse>
  /**
   * Also say why each advice node not given was not (notGiven), with nearest answers for these and the first few;
   * `only`: about these nodes alone.
   */
  whyNot?: WhyNotAsked
}) {
  // Explained, so each advice item and the focus carry the conditions that led to them (the debugger shows them).
  const options = { trace: true, explain: true, contentType: input.contentType ?? 'text', ...(input.now ? { now: input.now } : {}) }
  const { result, exchanges } = await runSetWithApis(deps, { ownerId, compiled, inputs: input.inputs, options, ...(input.pinned ? { pinned: input.pinned } : {}) })
  const apiCalls = exchanges.map(apiCallView)
  const byNode = new Map(apiCalls.map((call) => [call.nodeId, call]))
  for (const entry of result.trace ?? []) {
    const call = entry.type === 'apiCall' ? byNode.get(entry.nodeId) : undefined
    if (call) Object.assign(entry, { api: call })
  }
  const issues = staticChecks(model, compiled)
  const notGiven = input.whyNot ? notGivenOf(compiled, input.inputs, result, input.whyNot, input.now) : undefined
  return { result, formulas: result.formulas, issues, unreachable: issues.filter((i) => i.code === 'UNREACHABLE').map((i) => i.nodeId), apiCalls, ...(notGiven ? { notGiven } : {}) }
}

/**
 * Why each advice node not given was not (engine why-not.ts). The nearest answers' runs get the values this run's API
 * Calls fetched, so a search does not call the partner's services for every answer it tries.
 */
interface WhyNotAsked { nearestFor: readonly string[]; nearestLimit?: number; only?: readonly string[] }

function notGivenOf(compiled: CompiledAdviceSet, inputs: Record<string, unknown>, result: EngineResult, asked: WhyNotAsked, now: Date | undefined): NotGiven[] {
  const fetched = new Map<string, Value>()
  for (const entry of result.trace ?? []) if (entry.type === 'apiCall') fetched.set(entry.nodeId, entry.value)
  return whyNot(compiled, inputs, result, {
    nearestLimit: asked.nearestLimit ?? NEAREST_LIMIT, nearestFor: new Set(asked.nearestFor), ...(asked.only ? { only: new Set(asked.only) } : {}), apiPort: (_apiId, request) => fetched.get(request.nodeId) ?? null, ...(now ? { now } : {}),
  })
}

// Writing -------------------------------------------------------------------------------------------------------------

function parseFlag(raw: unknown, field: string): boolean | undefined {
  if (raw === undefined) return undefined
  if (typeof raw !== 'boolean') throw new ValidationError(field, `${field}: true or false.`)
  return raw
}

/** A new rule, last in the set or at `position`; `onlyWhenCalled` (default false): see RuleModel. */
export async function createRule(deps: Deps, actor: Actor, input: { adviceSetId: number; name: unknown; position?: unknown; onlyWhenCalled?: unknown }): Promise<RuleRow> {
  const set = await writableSetFor(deps.db, actor, input.adviceSetId)
  const name = requireText('name', input.name, 'Name', 200)
  const position = parsePosition(input.position)
  const onlyWhenCalled = parseFlag(input.onlyWhenCalled, 'onlyWhenCalled') ?? false
  return deps.db.transaction((tx) => insertPlacedRule(tx, actor, set, { name, position, onlyWhenCalled }))
}

/** Inserts a rule at `position` (default last) among the set's live rules, audited; the caller holds a transaction. */
export async function insertPlacedRule(tx: Db, actor: Actor, set: { id: number; ownerId: string }, input: { name: string; position?: number; onlyWhenCalled: boolean }): Promise<RuleRow> {
  await lockAdviceSetRow(tx, set.id)
  const siblings = await listRules(tx, set.id)
  const rule = await insertRule(tx, { adviceSetId: set.id, name: input.name, position: siblings.length, onlyWhenCalled: input.onlyWhenCalled, createdBy: actor.userId })
  await renumberRules(tx, placeAt(siblings.map((r) => r.id), rule.id, input.position))
  const placed = (await findRule(tx, rule.id))!
  await audit(tx, actor, { ownerId: set.ownerId, action: 'create', entityType: ENTITY_RULE, entityId: rule.id, after: ruleSnapshot(placed) })
  return placed
}

export async function updateRule(deps: Deps, actor: Actor, id: number, input: { name?: unknown; position?: unknown; onlyWhenCalled?: unknown }): Promise<RuleRow> {
  const rule = await writableRule(deps.db, actor, id)
  const name = input.name === undefined ? undefined : requireText('name', input.name, 'Name', 200)
  const position = parsePosition(input.position)
  const onlyWhenCalled = parseFlag(input.onlyWhenCalled, 'onlyWhenCalled')
  if (name === undefined && position === undefined && onlyWhenCalled === undefined) {
    throw new ValidationError('name', 'Nothing to change: send name, position or onlyWhenCalled.')
  }
  return deps.db.transaction(async (tx) => {
    await lockAdviceSetRow(tx, rule.adviceSetId)
    const current = (await findRule(tx, id))!
    if (name !== undefined && name !== current.name) await updateRuleRow(tx, id, { name, updatedBy: actor.userId })
    if (onlyWhenCalled !== undefined && onlyWhenCalled !== current.onlyWhenCalled) await updateRuleRow(tx, id, { onlyWhenCalled, updatedBy: actor.userId })
    if (position !== undefined) await renumberRules(tx, placeAt((await listRules(tx, rule.adviceSetId)).map((r) => r.id), id, position))
    const after = (await findRule(tx, id))!
    if (after.name !== current.name || after.position !== current.position || after.onlyWhenCalled !== current.onlyWhenCalled) {
      await audit(tx, actor, { ownerId: rule.set.ownerId, action: 'update', entityType: ENTITY_RULE, entityId: id, before: ruleSnapshot(current), after: ruleSnapshot(after) })
    }
    return after
  })
}

export async function deleteRule(deps: Deps, actor: Actor, id: number): Promise<void> {
  const rule = await writableRule(deps.db, actor, id)
  await assertNoDependents(deps.db, ENTITY_RULE, id, `“${rule.name}”`)
  await deps.db.transaction(async (tx) => {
    await lockAdviceSetRow(tx, rule.adviceSetId)
    const deleted = await updateRuleRow(tx, id, { deletedAt: new Date(), updatedBy: actor.userId })
    await renumberRules(tx, (await listRules(tx, rule.adviceSetId)).map((r) => r.id))
    await audit(tx, actor, { ownerId: rule.set.ownerId, action: 'delete', entityType: ENTITY_RULE, entityId: id, before: ruleSnapshot(rule), after: ruleSnapshot(deleted) })
  })
}

/** Brings a deleted rule back where it was (or last, if the set is shorter now). */
export async function recoverRule(deps: Deps, actor: Actor, id: number): Promise<RuleRow> {
  const rule = await writableRule(deps.db, actor, id, { includeDeleted: true })
  if (!rule.deletedAt) throw new ValidationError('id', 'This rule is not deleted.')
  return deps.db.transaction(async (tx) => {
    await lockAdviceSetRow(tx, rule.adviceSetId)
    const siblings = (await listRules(tx, rule.adviceSetId)).map((r) => r.id)
    await updateRuleRow(tx, id, { deletedAt: null, position: siblings.length, updatedBy: actor.userId })
    await renumberRules(tx, placeAt(siblings, id, rule.position))
    const recovered = (await findRule(tx, id))!
    await audit(tx, actor, { ownerId: rule.set.ownerId, action: 'restore', entityType: ENTITY_RULE, entityId: id, before: ruleSnapshot(rule), after: ruleSnapshot(recovered) })
    return recovered
  })
}

/** Copies one rule with its tree, last in the target set (default: its own set). */
export async function copyRule(deps: Deps, actor: Actor, input: { id: number; adviceSetId?: number; name?: unknown }): Promise<RuleRow> {
  if (!canCreate(actor)) throw new ForbiddenError('Viewers cannot copy rules. Ask an admin of your team to make you an author.')
  const source = await readableRule(deps.db, actor, input.id)
  const target = await writableSetFor(deps.db, actor, input.adviceSetId ?? source.adviceSetId)
  const name = input.name === undefined || input.name === '' ? (target.id === source.adviceSetId ? `Copy of ${source.name}` : source.name).slice(0, 200) : requireText('name', input.name, 'Name', 200)
  const rows = parentsFirst(await listNodes(deps.db, [source.id]))
  return deps.db.transaction(async (tx) => {
    await lockAdviceSetRow(tx, target.id)
    const siblings = await listRules(tx, target.id)
    const copy = await insertRule(tx, { adviceSetId: target.id, name, position: siblings.length, onlyWhenCalled: source.onlyWhenCalled, createdBy: actor.userId })
    const ids = await copyNodeRows(tx, rows, copy.id, { createdBy: actor.userId })
    await audit(tx, actor, { ownerId: target.ownerId, action: 'create', entityType: ENTITY_RULE, entityId: copy.id, after: { ...ruleSnapshot(copy), copiedFrom: source.id, nodes: ids.size } })
    return copy
  })
}

/**
 * SPEC §4 promote: the rule moves (same id, with its tree) into a new advice set of the same owner; in its old place a
 * new rule of the same name holds one Rule Call to it, so the old set behaves as before. The moved rule runs only when
 * called: the new set holds it to be called, and a rule both called and running on its own gives its advice twice.
 */
export async function promoteRule(deps: Deps, actor: Actor, input: { id: number; name?: unknown }) {
  const rule = await writableRule(deps.db, actor, input.id)
  const name = input.name === undefined || input.name === '' ? rule.name : requireText('name', input.name, 'Name', 200)
  return deps.db.transaction(async (tx) => {
    await lockAdviceSetRow(tx, rule.adviceSetId)
    const set = await insertAdviceSet(tx, {
      ownerId: rule.set.ownerId, name, nameAlt: '', description: '', categoryId: null, isPublic: false, isStarter: false, createdBy: actor.userId,
    })
    await audit(tx, actor, { ownerId: set.ownerId, action: 'create', entityType: ENTITY_ADVICE_SET, entityId: set.id, after: { ...adviceSetSnapshot(set, []), promotedRuleId: rule.id } })
    await lockRuleRow(tx, rule.id)
    const moved = await updateRuleRow(tx, rule.id, { adviceSetId: set.id, position: 0, onlyWhenCalled: true, updatedBy: actor.userId })
    await audit(tx, actor, { ownerId: set.ownerId, action: 'update', entityType: ENTITY_RULE, entityId: rule.id, before: ruleSnapshot(rule), after: ruleSnapshot(moved) })
    const stub = await insertRule(tx, { adviceSetId: rule.adviceSetId, name: rule.name, position: rule.position, createdBy: actor.userId })
    const call = await insertNode(tx, {
      ruleId: stub.id, parentId: null, position: 0, type: 'ruleCall', calledRuleId: rule.id, expression: null, variable: null, headline: null,
      text: null, question: null, apiId: null, tags: [], sources: [], createdBy: actor.userId,
    })
    await audit(tx, actor, { ownerId: rule.set.ownerId, action: 'create', entityType: ENTITY_RULE, entityId: stub.id, after: { ...ruleSnapshot(stub), callNodeId: call.id } })
    return { adviceSet: set, rule: moved, callingRule: stub, callNodeId: call.id }
  })
}

// Advice set views over its rules (SPEC §7 adviceset list-* family) ------------------------------------------------

async function readableSet(db: Db, actor: Actor, adviceSetId: number) {
  const set = await findAdviceSet(db, adviceSetId)
  if (!set || !canReadSet(actor, set)) throw new NotFoundError('No advice set with this id')
  return set
}

/** list-{entityType}: the set's rules, its dictionary entries of a kind, or its nodes of one node type. */
export async function listSetItems(deps: Deps, actor: Actor, adviceSetId: number, entityType: string) {
  const set = await readableSet(deps.db, actor, adviceSetId)
  const type = ENTITY_TYPE_LIST.find((t) => t.key.toLowerCase() === entityType.toLowerCase() || t.name.toLowerCase() === entityType.toLowerCase())
  if (type?.key === 'rule') return listRules(deps.db, set.id)
  if (type?.key === 'variable' || type?.key === 'formula') return (await dictionaryFor(deps.db, set, actor)).filter((e) => e.entityTypeId === type.id)
  if (type && (NODE_TYPES as readonly string[]).includes(type.key)) return listOwnedNodes(deps.db, { adviceSetId: set.id, type: type.key })
  throw new ValidationError('entityType', `entityType: one of rule, variable, formula, ${NODE_TYPES.join(', ')}.`)
}

/** list-advice/logic: every advice node with the conditions on the way to it, outermost first. */
export async function listAdviceLogic(deps: Deps, actor: Actor, adviceSetId: number) {
  const set = await readableSet(deps.db, actor, adviceSetId)
  const rules = await listRules(deps.db, set.id)
  const names = new Map(rules.map((r) => [r.id, r.name]))
  const nodes = await listNodes(deps.db, rules.map((r) => r.id))
  const byId = new Map(nodes.map((n) => [n.id, n]))
  const order = new Map(rules.map((r, i) => [r.id, i]))
  return parentsFirst(nodes).sort((a, b) => order.get(a.ruleId)! - order.get(b.ruleId)!).filter((n) => n.type === 'advice').map((node) => {
    const logic: Array<{ nodeId: number; type: string; expression: string | null }> = []
    for (let parent = node.parentId === null ? undefined : byId.get(node.parentId); parent; parent = parent.parentId === null ? undefined : byId.get(parent.parentId)) {
      if (parent.type === 'condition' || parent.type === 'conditionAlways') logic.unshift({ nodeId: parent.id, type: parent.type, expression: parent.expression })
    }
    return { nodeId: node.id, ruleId: node.ruleId, ruleName: names.get(node.ruleId), headline: node.headline, text: node.text, tags: node.tags, logic }
  })
}

async function setChecks(db: Db, adviceSetId: number, reader: Actor) {
  const model = await buildAdviceSetModel(db, adviceSetId, { reader })
  return { model, issues: staticChecks(model) }
}

/** unreachable: nodes the static checks prove never run. */
export async function listUnreachable(deps: Deps, actor: Actor, adviceSetId: number) {
  await readableSet(deps.db, actor, adviceSetId)
  return (await setChecks(deps.db, adviceSetId, actor)).issues.filter((i) => i.code === 'UNREACHABLE')
}

/** logic-cache: the set as the engine reads it plus its static checks, for the editor's live validation. */
export async function logicCache(deps: Deps, actor: Actor, adviceSetId: number) {
  await readableSet(deps.db, actor, adviceSetId)
  return setChecks(deps.db, adviceSetId, actor)
}

/** list-calling-advice-sets: other sets (that the actor can read) whose rules call rules of this one. */
export async function listCallingAdviceSets(deps: Deps, actor: Actor, adviceSetId: number) {
  const set = await readableSet(deps.db, actor, adviceSetId)
  const calls = await callsTo(deps.db, (await listRules(deps.db, set.id)).map((r) => r.id), { outsideSet: set.id })
  const sets = new Map<number, { id: number; name: string; ownerId: string; rules: Array<{ id: number; name: string }> }>()
  for (const call of calls) {
    const entry = sets.get(call.adviceSetId) ?? { id: call.adviceSetId, name: call.adviceSetName, ownerId: call.ownerId, rules: [] }
    if (!entry.rules.some((r) => r.id === call.ruleId)) entry.rules.push({ id: call.ruleId, name: call.ruleName })
    sets.set(call.adviceSetId, entry)
  }
  return [...sets.values()].filter((s) => canReadSet(actor, { ownerId: s.ownerId, isPublic: false, isStarter: false }))
}

/** list/todoAdvice: nodes tagged Needs Work. */
export async function listTodoAdvice(deps: Deps, actor: Actor, adviceSetId: number) {
  const set = await readableSet(deps.db, actor, adviceSetId)
  return listOwnedNodes(deps.db, { adviceSetId: set.id, tag: 'needs-work' })
}

// Restoring from the activity log ------------------------------------------------------------------------------------

/**
 * Puts a rule back as a snapshot describes it (name, place, advice set, deleted or not); null (undoing its creation)
 * deletes it, refused with 221 while other rules call it. Recorded as one `restore` row.
 */
export async function restoreRuleSnapshot(deps: Deps, actor: Actor, id: number, target: RuleSnapshot | null): Promise<RuleRow> {
  const rule = await writableRule(deps.db, actor, id, { includeDeleted: true })
  const deleteIt = target === null || target.deleted
  if (deleteIt && rule.deletedAt) throw new ValidationError('id', 'This rule is already deleted.')
  if (deleteIt) await assertNoDependents(deps.db, ENTITY_RULE, id, `“${rule.name}”`)
  const setId = target?.adviceSetId ?? rule.adviceSetId
  if (setId !== rule.adviceSetId) {
    const set = await writableSetFor(deps.db, actor, setId)
    if (set.ownerId !== rule.set.ownerId) throw new ValidationError('adviceSetId', 'adviceSetId: that advice set now belongs to another owner.')
  }
  return deps.db.transaction(async (tx) => {
    for (const lock of [...new Set([rule.adviceSetId, setId])].sort((a, b) => a - b)) await lockAdviceSetRow(tx, lock)
    const current = (await findRule(tx, id, { includeDeleted: true }))!
    if (deleteIt) {
      await updateRuleRow(tx, id, { deletedAt: new Date(), updatedBy: actor.userId })
      await renumberRules(tx, (await listRules(tx, current.adviceSetId)).map((r) => r.id))
    } else {
      const siblings = (await listRules(tx, setId)).map((r) => r.id).filter((r) => r !== id)
      // A rule coming back or changing set is parked after its new siblings first: live positions stay unique.
      const parked = current.deletedAt !== null || current.adviceSetId !== setId
      await updateRuleRow(tx, id, {
        name: target!.name, ...(target!.onlyWhenCalled === undefined ? {} : { onlyWhenCalled: target!.onlyWhenCalled }),
        ...(parked ? { adviceSetId: setId, position: siblings.length, deletedAt: null } : {}), updatedBy: actor.userId,
      })
      if (current.adviceSetId !== setId && !current.deletedAt) await renumberRules(tx, (await listRules(tx, current.adviceSetId)).map((r) => r.id))
      await renumberRules(tx, placeAt(siblings, id, target!.position))
    }
    const restored = (await findRule(tx, id, { includeDeleted: true }))!
    await audit(tx, actor, { ownerId: rule.set.ownerId, action: 'restore', entityType: ENTITY_RULE, entityId: id, before: ruleSnapshot(current), after: ruleSnapshot(restored) })
    return restored
  })
}
