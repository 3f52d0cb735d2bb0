// Rule nodes: the tree of one rule. Content is validated with the engine's parser on save (a parse error names the
// field and the position); structure changes lock the rule row and renumber siblings gap-free (schema/rules.ts).
import type { Db } from '../../db/client.ts'
import {
  copyNodeRows, findNode, insertNode, listChildren, parentsFirst, listNodes, lockRuleTree, renumberNodes, setNodesDeleted, subtreeIds,
  nextNodeId, nodeUpdate, updateNode as updateNodeRow, type NodeContent, type RuleNodeRow,
} from '../../db/queries/rule-nodes.ts'
import { findRule, type RuleWithSet } from '../../db/queries/rules.ts'
import {
  ENTITY_TYPES, EngineError, NAME_PATTERN, NODE_TYPES, TAG_SLUGS, parseAssignment, parseExpression, printExpression, type NodeType, type ParseMode,
} from '../../engine/index.ts'
import { referencesOf } from './node-references.ts'
import type { NodeSource } from '../../db/schema/index.ts'
import { dictionaryFor, treesOf } from './advice-set-model.ts'
import { audit, auditedChange, type AuditEntry } from '../audit/audit.ts'
import type { Actor, Deps } from '../context.ts'
import { NotFoundError, ValidationError } from '../errors.ts'
import { optionalText, requireText } from '../validate.ts'
import { ENTITY_RULE_NODE, insertPlacedRule, placeAt, readableRule, writableRule } from './rules.ts'
import { canReadSet } from '../accounts/visibility.ts'

/** Tag slugs a node may carry: the advice tags of SPEC §3 and the Needs Work label. */
export const NODE_TAG_SLUGS: readonly string[] = [...Object.values(TAG_SLUGS), 'needs-work']
const TEMPLATE_LIMIT = 20_000

/** A parse error as a 400 naming the field and where in it the problem is. */
export function expressionError(field: string, error: EngineError): ValidationError {
  const at = error.span ? ` (position ${error.span.start})` : ''
  const failure = new ValidationError(field, `${field}: ${error.message}${at}`)
  failure.details = { ...failure.details, code: error.code, ...(error.span ? { position: error.span } : {}) }
  return failure
}

/** Parses an expression the way the engine will, refusing it with the position of the first problem. */
export function checkExpression(field: string, source: string, mode: ParseMode | 'assignment'): void {
  try {
    if (mode === 'assignment') parseAssignment(source)
    else parseExpression(source, { mode })
  } catch (error) {
    if (error instanceof EngineError) throw expressionError(field, error)
    throw error
  }
}

function requireName(field: string, raw: unknown, label: string): string {
  const value = typeof raw === 'string' ? raw.trim().replace(/^\{\{\s*(.*?)\s*\}\}$|^\[\[\s*(.*?)\s*\]\]$/, '$1$2') : ''
  if (!value) throw new ValidationError(field, `${field}: ${label} is required.`)
  if (!NAME_PATTERN.test(value)) throw new ValidationError(field, `${field}: names start with a letter or digit, then contain only letters, digits, _ or ?.`)
  return value
}

export interface NodeInput {
  type?: unknown; expression?: unknown; variable?: unknown; headline?: unknown; text?: unknown; question?: unknown
  calledRuleId?: unknown; apiId?: unknown; tags?: unknown; sources?: unknown
}

/** Two expressions that read the same once parsed (spacing and redundant brackets aside). */
function sameExpression(a: string, b: string): boolean {
  try {
    return printExpression(parseExpression(a, { mode: 'value' })) === printExpression(parseExpression(b, { mode: 'value' }))
  } catch {
    return a.trim() === b.trim()
  }
}

/**
 * A Formula node's own expression: none. The formula it names is defined once, in the dictionary (the node editor
 * edits it there), so an expression sent must be the dictionary's, and is not kept. A node saved before that keeps
 * the expression it has until one is sent (or null, to use the dictionary's); restoring a snapshot puts back its own.
 */
async function formulaNodeExpression(db: Db, set: { id: number; ownerId: string }, name: string, sent: unknown, kept: string | null, restoring: boolean): Promise<string | null> {
  if (sent === undefined) return kept
  if (sent === null || (typeof sent === 'string' && sent.trim() === '')) return null
  if (typeof sent !== 'string') throw new ValidationError('expression', 'expression: must be text.')
  checkExpression('expression', sent, 'value')
  if (restoring) return sent.trim()
  const formula = (await dictionaryFor(db, set)).find((e) => e.entityTypeId === ENTITY_TYPES.formula.id && e.reservedName === name)
  if (!formula) {
    throw new ValidationError('expression', `expression: [[${name}]] is not in the dictionary. Create it there with this expression (POST /api/entity); the Formula node then names it.`)
  }
  if (!sameExpression(formula.expression ?? '', sent)) {
    throw new ValidationError('expression', `expression: [[${name}]] is defined in the dictionary as ${formula.expression ?? 'nothing yet'}; change it there (PATCH /api/entity/${formula.id}). A Formula node has no expression of its own.`)
  }
  return null
}

/**
 * The stored content of a node of `type` in a rule of `set`, from the input merged over what it had; every field the
 * type uses is checked. `restoring`: the input is a snapshot the node had (from the activity log).
 */
async function nodeContent(db: Db, actor: Actor, set: { id: number; ownerId: string }, input: NodeInput, current?: NodeContent, restoring = false): Promise<NodeContent> {
  const type = (input.type ?? current?.type) as NodeType
  if (!(NODE_TYPES as readonly string[]).includes(type)) throw new ValidationError('type', `type: must be one of ${NODE_TYPES.join(', ')}.`)
  const pick = <K extends keyof NodeInput>(key: K): unknown => (input[key] !== undefined ? input[key] : current?.type === type ? current?.[key as keyof NodeContent] : undefined)
  const template = (key: 'headline' | 'text' | 'question') => {
    const raw = pick(key)
    return raw === undefined || raw === null ? null : optionalText(key, raw, key, TEMPLATE_LIMIT, 'multiline')
  }
  const content: NodeContent = {
    type, expression: null, variable: null, headline: null, text: null, question: null, calledRuleId: null, apiId: null,
    tags: parseTags(pick('tags')), sources: parseSources(pick('sources')),
  }
  const expression = () => {
    const raw = pick('expression')
    if (typeof raw !== 'string' || raw.trim() === '') throw new ValidationError('expression', 'expression: is required for this node type.')
    return raw.trim()
  }
  switch (type) {
    case 'condition':
      content.expression = expression()
      checkExpression('expression', content.expression, 'condition')
      break
    case 'variableAssignment':
      content.expression = expression()
      checkExpression('expression', content.expression, 'assignment')
      break
    case 'formula':
      content.variable = requireName('variable', pick('variable'), 'The formula name')
      content.expression = await formulaNodeExpression(db, set, content.variable, input.expression, current?.type === 'formula' ? current.expression : null, restoring)
      break
    case 'inputRequest':
      content.variable = requireName('variable', pick('variable'), 'The variable asked for')
      content.question = template('question')
      break
    case 'advice':
      content.headline = template('headline')
      content.text = template('text')
      break
    case 'ruleCall': {
      const raw = pick('calledRuleId')
      const id = typeof raw === 'number' ? raw : Number(raw)
      if (!Number.isSafeInteger(id) || id < 1) throw new ValidationError('calledRuleId', 'calledRuleId: choose the rule to call.')
      const called = await findRule(db, id)
      if (!called || called.set.deleted || !canReadSet(actor, called.set)) throw new ValidationError('calledRuleId', 'calledRuleId: no rule with this id.')
      content.calledRuleId = id
      break
    }
    case 'apiCall': {
      const raw = pick('apiId')
      if (typeof raw !== 'string' || raw.trim() === '') throw new ValidationError('apiId', 'apiId: choose the external API to call.')
      content.apiId = raw.trim()
      content.variable = requireName('variable', pick('variable'), 'The variable that receives the answer')
      break
    }
    case 'conditionAlways':
    case 'ruleExit':
      break
  }
  return content
}

function parseTags(raw: unknown): string[] {
  if (raw === undefined || raw === null) return []
  if (!Array.isArray(raw) || raw.some((t) => typeof t !== 'string' || !NODE_TAG_SLUGS.includes(t))) {
    throw new ValidationError('tags', `tags: each must be one of ${NODE_TAG_SLUGS.join(', ')}.`)
  }
  return [...new Set(raw as string[])]
}

function parseSources(raw: unknown): NodeSource[] {
  if (raw === undefined || raw === null) return []
  if (!Array.isArray(raw)) throw new ValidationError('sources', 'sources: must be a list.')
  return raw.map((s, i) => {
    const source = s as Partial<NodeSource>
    if (typeof source?.id !== 'string' || typeof source.name !== 'string') throw new ValidationError('sources', `sources.${i}: needs id and name.`)
    return { id: source.id, name: source.name, ...(typeof source.uri === 'string' ? { uri: source.uri } : {}) }
  })
}

/** What the activity log keeps of a node; `parentId` is what deletedUnder looks for. */
/** What an activity entry records of a node. */
type SnapshotNode = Pick<RuleNodeRow, 'id' | 'ruleId' | 'parentId' | 'position' | 'type' | 'expression' | 'variable' | 'headline' | 'text' | 'question' | 'calledRuleId' | 'apiId' | 'tags' | 'sources' | 'deletedAt'>

export function nodeSnapshot(node: SnapshotNode, extra: Record<string, unknown> = {}) {
  return {
    id: node.id, name: nodeLabel(node), ruleId: node.ruleId, parentId: node.parentId, position: node.position, type: node.type,
    expression: node.expression, variable: node.variable, headline: node.headline, text: node.text, question: node.question,
    calledRuleId: node.calledRuleId, apiId: node.apiId, tags: node.tags, sources: node.sources, deleted: node.deletedAt !== null, ...extra,
  }
}

function nodeLabel(node: SnapshotNode): string {
  return (node.headline || node.expression || node.question || node.variable || node.type).slice(0, 120)
}

async function nodeOfRule(db: Db, ruleId: number, nodeId: number, opts: { includeDeleted?: boolean } = {}): Promise<RuleNodeRow> {
  const node = await findNode(db, nodeId, opts)
  if (!node || node.ruleId !== ruleId) throw new NotFoundError('No rule node with this id in this rule')
  return node
}

/** A live parent in this rule, or null for the roots. */
async function parentIn(db: Db, ruleId: number, raw: unknown): Promise<number | null> {
  const id = requestedParentId(raw)
  await checkParentIn(db, ruleId, id)
  return id
}

/** The parent asked for, as an id (null: the roots); not yet checked against the rule. */
function requestedParentId(raw: unknown): number | null {
  if (raw === undefined || raw === null) return null
  const id = typeof raw === 'number' ? raw : Number(raw)
  if (!Number.isSafeInteger(id) || id < 1) throw new ValidationError('parentId', 'parentId: Invalid item id format.')
  return id
}

async function checkParentIn(db: Db, ruleId: number, parentId: number | null): Promise<void> {
  if (parentId === null) return
  const parent = await findNode(db, parentId)
  if (!parent || parent.ruleId !== ruleId) throw new ValidationError('parentId', 'parentId: no node with this id in this rule.')
}

/**
 * The rule, checked for writing, and its node, read together (one round trip, not two). The rule's refusal comes
 * first, as it would if they were read in turn: a reader of another team's rule learns nothing of its nodes.
 */
async function writableRuleWithNode(db: Db, actor: Actor, ruleId: number, nodeId: number): Promise<{ rule: RuleWithSet; node: RuleNodeRow }> {
  const [rule, node] = await Promise.allSettled([writableRule(db, actor, ruleId), nodeOfRule(db, ruleId, nodeId)])
  if (rule.status === 'rejected') throw rule.reason
  if (node.status === 'rejected') throw node.reason
  return { rule: rule.value, node: node.value }
}

/** Whether live siblings, as read in order, already hold the positions 0..n-1 that renumbering would give them. */
function numberedInOrder(siblings: RuleNodeRow[]): boolean {
  return siblings.every((node, index) => node.position === index)
}

function positionOf(raw: unknown): number | undefined {
  if (raw === undefined || raw === null) return undefined
  if (typeof raw !== 'number' || !Number.isSafeInteger(raw) || raw < 0) throw new ValidationError('position', 'position: must be a whole number of 0 or more.')
  return raw
}

// Reading -------------------------------------------------------------------------------------------------------------

/** `roots`: the rule's top-level nodes; `tree`: the whole tree as the engine reads it; a node id: that node's children. */
export async function listNodesWhich(deps: Deps, actor: Actor, ruleId: number, which: string) {
  await readableRule(deps.db, actor, ruleId)
  if (which === 'roots') return listChildren(deps.db, ruleId, null)
  if (which === 'tree') return treesOf(await listNodes(deps.db, [ruleId])).get(ruleId) ?? []
  throw new ValidationError('which', 'which: roots, tree, or a node id.')
}

export async function getNode(deps: Deps, actor: Actor, ruleId: number, nodeId: number) {
  await readableRule(deps.db, actor, ruleId)
  const node = await nodeOfRule(deps.db, ruleId, nodeId)
  return { ...node, children: await listChildren(deps.db, ruleId, nodeId) }
}

// Writing -------------------------------------------------------------------------------------------------------------

export async function createNode(deps: Deps, actor: Actor, ruleId: number, input: NodeInput & { parentId?: unknown; position?: unknown }): Promise<RuleNodeRow> {
  const rule = await writableRule(deps.db, actor, ruleId)
  const content = await nodeContent(deps.db, actor, rule.set, input)
  const position = positionOf(input.position)
  return deps.db.transaction((tx) => insertPlacedNode(tx, actor, rule, content, input.parentId, position))
}

/** Inserts a node under `rawParentId` (null: a root) at `position` (default last), audited; the caller holds a transaction. */
async function insertPlacedNode(tx: Db, actor: Actor, rule: RuleWithSet, content: NodeContent, rawParentId: unknown, position: number | undefined): Promise<RuleNodeRow> {
  const parentId = requestedParentId(rawParentId)
  // The lock and the reads are sent together: a connection runs its statements in order, so the reads still happen
  // under the lock, and the transaction (which every other writer of the embedded database waits for) is shorter.
  const [, , siblingRows, id] = await Promise.all([
    lockRuleTree(tx, rule.id), checkParentIn(tx, rule.id, parentId), listChildren(tx, rule.id, parentId), nextNodeId(tx),
  ])
  const siblings = siblingRows.map((n) => n.id)
  const row = { ...content, id, ruleId: rule.id, parentId, position: siblings.length, createdBy: actor.userId }
  const order = placeAt(siblings, id, position)
  // Added last after siblings numbered 0..n-1, the node already has its place: what is inserted is what the audit
  // records, and the two are sent together.
  if (order.at(-1) === id && numberedInOrder(siblingRows)) {
    const [node] = await Promise.all([insertNode(tx, { ...row, ...referencesOf(row) }), audit(tx, actor, createdEntry(rule, { ...row, deletedAt: null }))])
    return node
  }
  await insertNode(tx, { ...row, ...referencesOf(row) })
  await renumberNodes(tx, order)
  const placed = (await findNode(tx, id))!
  await audit(tx, actor, createdEntry(rule, placed))
  return placed
}

function createdEntry(rule: RuleWithSet, node: SnapshotNode): AuditEntry {
  return { ownerId: rule.set.ownerId, action: 'create', entityType: ENTITY_RULE_NODE, entityId: node.id, after: nodeSnapshot(node) }
}

/** A node to create with the nodes to create under it, in order. */
export interface NodeTreeInput extends NodeInput { children?: NodeTreeInput[] }

/**
 * New nodes as the last roots of a rule, with their subtrees: each checked as createNode checks it and inserted and
 * audited as createNode does (one activity row per node, each indexed for search), parents before children. The
 * caller holds a transaction. Returns the nodes made, in tree order.
 */
export async function insertNodeTree(tx: Db, actor: Actor, rule: { id: number; set: { id: number; ownerId: string } }, roots: NodeTreeInput[]): Promise<RuleNodeRow[]> {
  await lockRuleTree(tx, rule.id)
  const made: RuleNodeRow[] = []
  const add = async (specs: NodeTreeInput[], parentId: number | null, first: number) => {
    for (const [index, spec] of specs.entries()) {
      const { children, ...input } = spec
      const content = await nodeContent(tx, actor, rule.set, input)
      const node = await insertNode(tx, { ...content, ruleId: rule.id, parentId, position: first + index, createdBy: actor.userId })
      await audit(tx, actor, { ownerId: rule.set.ownerId, action: 'create', entityType: ENTITY_RULE_NODE, entityId: node.id, after: nodeSnapshot(node) })
      made.push(node)
      await add(children ?? [], node.id, 0)
    }
  }
  await add(roots, null, (await listChildren(tx, rule.id, null)).length)
  return made
}

/**
 * SPEC §7 new-call: a Rule Call node to `calledRuleId`, or to a new rule of this set named `newRuleName`. A rule made
 * for a call runs only when called (a rule that also ran on its own would give its advice twice).
 */
export async function createCallNode(deps: Deps, actor: Actor, ruleId: number, input: { calledRuleId?: unknown; newRuleName?: unknown; parentId?: unknown; position?: unknown }) {
  if (input.newRuleName === undefined) return createNode(deps, actor, ruleId, { type: 'ruleCall', calledRuleId: input.calledRuleId, parentId: input.parentId, position: input.position })
  if (input.calledRuleId !== undefined) throw new ValidationError('newRuleName', 'newRuleName: send either calledRuleId or newRuleName, not both.')
  const rule = await writableRule(deps.db, actor, ruleId)
  const name = requireText('newRuleName', input.newRuleName, 'The new rule’s name', 200)
  const position = positionOf(input.position)
  return deps.db.transaction(async (tx) => {
    const called = await insertPlacedRule(tx, actor, rule.set, { name, onlyWhenCalled: true })
    const content = await nodeContent(tx, actor, rule.set, { type: 'ruleCall', calledRuleId: called.id })
    return insertPlacedNode(tx, actor, rule, content, input.parentId, position)
  })
}

export async function updateNodeContent(deps: Deps, actor: Actor, ruleId: number, nodeId: number, input: NodeInput): Promise<RuleNodeRow> {
  const { rule, node } = await writableRuleWithNode(deps.db, actor, ruleId, nodeId)
  const content = await nodeContent(deps.db, actor, rule.set, input, node)
  const changed = (Object.keys(content) as Array<keyof NodeContent>).some((k) => JSON.stringify(content[k]) !== JSON.stringify(node[k]))
  if (!changed) return node
  // The node after the update is known before it is made, so the update and its audit are one statement.
  const updated: RuleNodeRow = { ...node, ...content, updatedBy: actor.userId, updatedAt: new Date() }
  await auditedChange(deps.db, actor, { ownerId: rule.set.ownerId, action: 'update', entityType: ENTITY_RULE_NODE, entityId: nodeId, before: nodeSnapshot(node), after: nodeSnapshot(updated) },
    nodeUpdate(deps.db, nodeId, { ...content, updatedBy: actor.userId, ...referencesOf(updated) }, updated.updatedAt))
  return updated
}

/** Re-parents and/or reorders a node within its rule. */
export async function moveNode(deps: Deps, actor: Actor, ruleId: number, input: { nodeId: unknown; parentId?: unknown; position?: unknown }): Promise<RuleNodeRow> {
  const rule = await writableRule(deps.db, actor, ruleId)
  const nodeId = typeof input.nodeId === 'number' ? input.nodeId : Number(input.nodeId)
  if (!Number.isSafeInteger(nodeId) || nodeId < 1) throw new ValidationError('nodeId', 'nodeId: Invalid item id format.')
  const position = positionOf(input.position)
  return deps.db.transaction(async (tx) => {
    await lockRuleTree(tx, ruleId)
    const node = await nodeOfRule(tx, ruleId, nodeId)
    // No parentId: stay under the same parent; null: move to the roots.
    const parentId = input.parentId === undefined ? node.parentId : await parentIn(tx, ruleId, input.parentId)
    if (parentId !== null && (await subtreeIds(tx, nodeId, { deletedAt: null })).includes(parentId)) {
      throw new ValidationError('parentId', 'parentId: a node cannot move under itself or its own descendants.')
    }
    if (parentId !== node.parentId) {
      const newSiblings = (await listChildren(tx, ruleId, parentId)).map((n) => n.id)
      await updateNodeRow(tx, nodeId, { parentId, position: newSiblings.length, updatedBy: actor.userId })
      await renumberNodes(tx, (await listChildren(tx, ruleId, node.parentId)).map((n) => n.id))
      await renumberNodes(tx, placeAt(newSiblings, nodeId, position))
    } else {
      await renumberNodes(tx, placeAt((await listChildren(tx, ruleId, parentId)).map((n) => n.id), nodeId, position))
    }
    const moved = (await findNode(tx, nodeId))!
    if (moved.parentId !== node.parentId || moved.position !== node.position) {
      await audit(tx, actor, { ownerId: rule.set.ownerId, action: 'update', entityType: ENTITY_RULE_NODE, entityId: nodeId, before: nodeSnapshot(node), after: nodeSnapshot(moved) })
    }
    return moved
  })
}

/** Deletes the node with everything under it (one timestamp, so recover brings back exactly this). */
export async function deleteNode(deps: Deps, actor: Actor, ruleId: number, nodeId: number): Promise<{ deleted: number }> {
  const rule = await writableRule(deps.db, actor, ruleId)
  return deps.db.transaction(async (tx) => {
    // Sent together, read under the lock (statements run in order): see insertPlacedNode.
    const [, node, ids] = await Promise.all([lockRuleTree(tx, ruleId), nodeOfRule(tx, ruleId, nodeId), subtreeIds(tx, nodeId, { deletedAt: null })])
    const deletedAt = new Date()
    // The audit records what is known now (the node, its subtree, the time): it goes with the delete.
    const [, siblings] = await Promise.all([
      setNodesDeleted(tx, ids, deletedAt, actor.userId),
      listChildren(tx, ruleId, node.parentId),
      audit(tx, actor, { ownerId: rule.set.ownerId, action: 'delete', entityType: ENTITY_RULE_NODE, entityId: nodeId, before: nodeSnapshot(node), after: nodeSnapshot({ ...node, deletedAt }, { subtree: ids.length }) }),
    ])
    if (!numberedInOrder(siblings)) await renumberNodes(tx, siblings.map((n) => n.id))
    return { deleted: ids.length }
  })
}

export async function recoverNode(deps: Deps, actor: Actor, ruleId: number, nodeId: number): Promise<RuleNodeRow> {
  const rule = await writableRule(deps.db, actor, ruleId)
  return deps.db.transaction(async (tx) => {
    await lockRuleTree(tx, ruleId)
    const node = await nodeOfRule(tx, ruleId, nodeId, { includeDeleted: true })
    if (!node.deletedAt) throw new ValidationError('nodeId', 'This node is not deleted.')
    if (node.parentId !== null && !(await findNode(tx, node.parentId))) throw new ValidationError('nodeId', 'Its parent is deleted: recover the parent first.')
    const ids = await subtreeIds(tx, nodeId, { deletedAt: node.deletedAt })
    const siblings = (await listChildren(tx, ruleId, node.parentId)).map((n) => n.id)
    await updateNodeRow(tx, nodeId, { position: siblings.length, updatedBy: actor.userId })
    await setNodesDeleted(tx, ids, null, actor.userId)
    await renumberNodes(tx, placeAt(siblings, nodeId, node.position))
    const recovered = (await findNode(tx, nodeId))!
    await audit(tx, actor, { ownerId: rule.set.ownerId, action: 'restore', entityType: ENTITY_RULE_NODE, entityId: nodeId, before: nodeSnapshot(node), after: nodeSnapshot(recovered, { subtree: ids.length }) })
    return recovered
  })
}

/** Copies the node and its subtree; by default right after the original, or under `parentId` at `position`. */
export async function copyNode(deps: Deps, actor: Actor, ruleId: number, nodeId: number, input: { parentId?: unknown; position?: unknown }): Promise<RuleNodeRow> {
  const rule = await writableRule(deps.db, actor, ruleId)
  const position = positionOf(input.position)
  return deps.db.transaction(async (tx) => {
    await lockRuleTree(tx, ruleId)
    const node = await nodeOfRule(tx, ruleId, nodeId)
    const parentId = input.parentId === undefined ? node.parentId : await parentIn(tx, ruleId, input.parentId)
    const inSubtree = new Set(await subtreeIds(tx, nodeId, { deletedAt: null }))
    if (parentId !== null && inSubtree.has(parentId)) throw new ValidationError('parentId', 'parentId: a copy cannot go inside the node it copies.')
    const rows = parentsFirst((await listNodes(tx, [ruleId])).filter((n) => inSubtree.has(n.id)))
    const siblings = (await listChildren(tx, ruleId, parentId)).map((n) => n.id)
    const root = { ...rows[0]!, position: siblings.length }
    const ids = await copyNodeRows(tx, [root, ...rows.slice(1)], ruleId, { createdBy: actor.userId, rootParent: parentId, rootIds: new Set([nodeId]) })
    const copyId = ids.get(nodeId)!
    const at = position ?? (input.parentId === undefined ? siblings.indexOf(nodeId) + 1 : undefined)
    await renumberNodes(tx, placeAt(siblings, copyId, at))
    const copy = (await findNode(tx, copyId))!
    await audit(tx, actor, { ownerId: rule.set.ownerId, action: 'create', entityType: ENTITY_RULE_NODE, entityId: copyId, after: nodeSnapshot(copy, { copiedFrom: nodeId, subtree: ids.size }) })
    return copy
  })
}

// Restoring from the activity log ------------------------------------------------------------------------------------

export type NodeSnapshot = ReturnType<typeof nodeSnapshot>

/**
 * Puts a node back as a snapshot describes it: its content (checked again, so a call to a rule deleted since is
 * refused with the field named), its place, and deleted or not. A deleted node comes back with the subtree its delete
 * took away; null (undoing its creation) deletes it with its subtree. Recorded as one `restore` row.
 */
export async function restoreNodeSnapshot(deps: Deps, actor: Actor, nodeId: number, target: NodeSnapshot | null): Promise<RuleNodeRow> {
  const node = await findNode(deps.db, nodeId, { includeDeleted: true })
  if (!node) throw new NotFoundError('No rule node with this id')
  const rule = await writableRule(deps.db, actor, node.ruleId, { includeDeleted: true })
  if (rule.deletedAt) throw new ValidationError('ruleId', 'Its rule is deleted: recover the rule first.')
  const deleteIt = target === null || target.deleted
  if (deleteIt && node.deletedAt) throw new ValidationError('id', 'This node is already deleted.')
  const content = deleteIt ? undefined : await nodeContent(deps.db, actor, rule.set, target!, undefined, true)
  return deps.db.transaction(async (tx) => {
    await lockRuleTree(tx, node.ruleId)
    const current = (await findNode(tx, nodeId, { includeDeleted: true }))!
    let subtree: number
    if (deleteIt) {
      const ids = await subtreeIds(tx, nodeId, { deletedAt: null })
      await setNodesDeleted(tx, ids, new Date(), actor.userId)
      await renumberNodes(tx, (await listChildren(tx, node.ruleId, current.parentId)).map((n) => n.id))
      subtree = ids.length
    } else {
      const parentId = target!.parentId
      if (parentId !== null && !(await findNode(tx, parentId))) throw new ValidationError('parentId', 'parentId: its parent is deleted: recover the parent first.')
      const ids = current.deletedAt ? await subtreeIds(tx, nodeId, { deletedAt: current.deletedAt }) : await subtreeIds(tx, nodeId, { deletedAt: null })
      if (parentId !== null && ids.includes(parentId)) throw new ValidationError('parentId', 'parentId: a node cannot move under itself or its own descendants.')
      const siblings = (await listChildren(tx, node.ruleId, parentId)).map((n) => n.id).filter((n) => n !== nodeId)
      // A node coming back or changing parent is parked after its new siblings first: live positions stay unique.
      const parked = current.deletedAt !== null || current.parentId !== parentId
      await updateNodeRow(tx, nodeId, { ...content!, ...(parked ? { parentId, position: siblings.length } : {}), updatedBy: actor.userId })
      if (current.deletedAt) await setNodesDeleted(tx, ids, null, actor.userId)
      else if (current.parentId !== parentId) await renumberNodes(tx, (await listChildren(tx, node.ruleId, current.parentId)).map((n) => n.id))
      await renumberNodes(tx, placeAt(siblings, nodeId, target!.position))
      subtree = ids.length
    }
    const restored = (await findNode(tx, nodeId, { includeDeleted: true }))!
    await audit(tx, actor, { ownerId: rule.set.ownerId, action: 'restore', entityType: ENTITY_RULE_NODE, entityId: nodeId, before: nodeSnapshot(current), after: nodeSnapshot(restored, { subtree }) })
    return restored
  })
}
