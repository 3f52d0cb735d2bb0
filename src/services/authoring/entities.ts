// The dictionary: variables {{Name}} and formulas [[Name]]. CRUD with the SPEC §5 name rule, where-used lists, the
// 221 for a variable in use, and the SPEC §4 reserved-name change: a rename (or a switch between variable and
// formula) rewrites every stored expression and text that refers to it, in one transaction, each change audited.
import type { Db } from '../../db/client.ts'
import { findAdviceSet } from '../../db/queries/advice-sets.ts'
import { findEntity, findEntityByName, findEntitySeenBy, insertEntity, listEntities, ownersWithName, updateEntity as updateEntityRow, type EntityFields, type EntityRow } from '../../db/queries/entities.ts'
import { updateNodeTexts, type NodeTextChange, type OwnedNode, type RuleNodeRow } from '../../db/queries/rule-nodes.ts'
import { eachReferringNode, referencesOf } from './node-references.ts'
import type { ReferenceScope } from '../../db/queries/node-references.ts'
import {
  ENTITY_TYPES, ENTITY_TYPE_LIST, EngineError, NAME_PATTERN, RESERVED_VARIABLE_NAMES, coerceInput, isDataType, parseAssignment, parseExpression,
  parseTemplate, references, templateTags, type Expr, type ParseMode,
} from '../../engine/index.ts'
import { dictionaryFor } from './advice-set-model.ts'
import { audit, auditMany, markSetsUpdated } from '../audit/audit.ts'
import { PROVIDER_OWNER_ID, isProviderAdmin, type Actor, type Deps } from '../context.ts'
import { assertNoDependents, DEPENDENTS_LISTED, registerDependentCheck } from './dependents.ts'
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../errors.ts'
import { ENTITY_RULE_NODE } from './rules.ts'
import { checkExpression, nodeSnapshot } from './rule-nodes.ts'
import { optionalText } from '../validate.ts'
import { assertCanChange, canCreate, canReadSet, canWriteOwned } from '../accounts/visibility.ts'

export const ENTITY_DICTIONARY = 'entity'
const DICTIONARY_TYPE_IDS = [ENTITY_TYPES.variable.id, ENTITY_TYPES.formula.id]
const TYPEAHEAD_LIMIT = 15
const SEARCH_LIMIT = 50

type Kind = 'variable' | 'formula'
interface NameRef { name: string; kind: Kind }

export type { EntityRow }

export function kindOf(entity: Pick<EntityRow, 'entityTypeId'>): Kind {
  return entity.entityTypeId === ENTITY_TYPES.formula.id ? 'formula' : 'variable'
}

function snapshot(e: EntityRow, extra: Record<string, unknown> = {}) {
  return {
    id: e.id, name: e.reservedName, ownerId: e.ownerId, adviceSetId: e.adviceSetId, parentId: e.adviceSetId, entityTypeId: e.entityTypeId,
    reservedName: e.reservedName, dataType: e.dataType, validOptions: e.validOptions, isClosedSet: e.isClosedSet, displayFormat: e.displayFormat,
    defaultValue: e.defaultValue, expression: e.expression, isConstant: e.isConstant, personal: e.personal, description: e.description, deleted: e.deletedAt !== null, ...extra,
  }
}

// A variable or formula that rules or other formulas use cannot be deleted.
registerDependentCheck(ENTITY_DICTIONARY, async (db, id) => {
  const entity = await findEntity(db, id)
  if (!entity) return []
  // One more than a refusal lists, so that it can say there are more (a variable of a big team: 500,000 uses).
  const uses = await findUses(db, entity, { limit: DEPENDENTS_LISTED + 1 })
  return uses.map((u) => ({ type: u.type, id: u.id, name: u.name, ...(u.uri ? { uri: u.uri } : {}) }))
})

// Access ------------------------------------------------------------------------------------------------------------

function canRead(actor: Actor, e: EntityRow): boolean {
  return isProviderAdmin(actor) || e.ownerId === actor.ownerId || e.ownerId === PROVIDER_OWNER_ID
}

/** Own and provider entries, and entries kept for an advice set the actor may read (a public set's, say). */
async function readableEntity(db: Db, actor: Actor, id: number, opts: { includeDeleted?: boolean } = {}): Promise<EntityRow> {
  const entity = await findEntity(db, id, opts)
  if (entity && canRead(actor, entity)) return entity
  const set = entity?.adviceSetId != null ? await findAdviceSet(db, entity.adviceSetId) : undefined
  if (!entity || !set || !canReadSet(actor, set)) throw new NotFoundError('No dictionary entry with this id')
  return entity
}

async function writableEntity(db: Db, actor: Actor, id: number): Promise<EntityRow> {
  const entity = await readableEntity(db, actor, id)
  assertCanChange(actor, entity.ownerId, 'dictionary entry')
  return entity
}

function readableOwners(actor: Actor): string[] {
  return [...new Set([actor.ownerId, PROVIDER_OWNER_ID])]
}

// Validation ----------------------------------------------------------------------------------------------------------

/** SPEC §5: starts with a letter or digit, then letters, digits, _ or ?; the reserved system names are taken. */
export function requireEntityName(raw: unknown, field = 'reservedName'): string {
  const name = typeof raw === 'string' ? raw.trim() : ''
  if (!name) throw new ValidationError(field, `${field}: a name is required.`)
  if (name.length > 100) throw new ValidationError(field, `${field}: at most 100 characters.`)
  if (!NAME_PATTERN.test(name)) throw new ValidationError(field, `${field}: names start with a letter or digit, then contain only letters, digits, _ or ?.`)
  if (RESERVED_VARIABLE_NAMES.has(name)) throw new ValidationError(field, `${field}: ${name} is a reserved system name.`)
  return name
}

export interface EntityInput {
  entityTypeId?: unknown; reservedName?: unknown; dataType?: unknown; validOptions?: unknown; isClosedSet?: unknown; displayFormat?: unknown
  defaultValue?: unknown; expression?: unknown; isConstant?: unknown; personal?: unknown; description?: unknown; adviceSetId?: unknown
}

async function parseEntityInput(db: Db, actor: Actor, ownerId: string, input: EntityInput, current?: EntityRow): Promise<Partial<EntityFields>> {
  const out: Partial<EntityFields> = {}
  if (input.entityTypeId !== undefined) {
    if (!DICTIONARY_TYPE_IDS.includes(input.entityTypeId as number)) throw new ValidationError('entityTypeId', `entityTypeId: ${ENTITY_TYPES.variable.id} (Variable) or ${ENTITY_TYPES.formula.id} (Formula).`)
    out.entityTypeId = input.entityTypeId as number
  }
  if (input.reservedName !== undefined) out.reservedName = requireEntityName(input.reservedName)
  if (input.dataType !== undefined) {
    if (input.dataType !== null && !isDataType(input.dataType)) throw new ValidationError('dataType', 'dataType: array, date, freetext, number, percent, boolean, select or radio.')
    out.dataType = input.dataType as string | null
  }
  if (input.validOptions !== undefined) {
    if (!Array.isArray(input.validOptions) || input.validOptions.some((o) => typeof o !== 'string')) throw new ValidationError('validOptions', 'validOptions: a list of texts.')
    out.validOptions = input.validOptions as string[]
  }
  for (const flag of ['isClosedSet', 'isConstant', 'personal'] as const) {
    if (input[flag] === undefined) continue
    if (typeof input[flag] !== 'boolean') throw new ValidationError(flag, `${flag}: true or false.`)
    out[flag] = input[flag]
  }
  if (input.displayFormat !== undefined) out.displayFormat = input.displayFormat === null ? null : optionalText('displayFormat', input.displayFormat, 'displayFormat', 100) || null
  if (input.description !== undefined) out.description = optionalText('description', input.description, 'description', 5000, 'multiline')
  if (input.defaultValue !== undefined) out.defaultValue = input.defaultValue
  if (input.expression !== undefined) {
    const expression = input.expression === null ? null : optionalText('expression', input.expression, 'expression', 10_000, 'multiline') || null
    if (expression !== null) checkExpression('expression', expression, 'value')
    out.expression = expression
  }
  if (input.adviceSetId !== undefined) {
    if (input.adviceSetId === null) out.adviceSetId = null
    else {
      const id = Number(input.adviceSetId)
      const set = Number.isSafeInteger(id) ? await findAdviceSet(db, id) : undefined
      if (!set || set.ownerId !== ownerId || !canReadSet(actor, set)) throw new ValidationError('adviceSetId', 'adviceSetId: no advice set of this owner with this id.')
      out.adviceSetId = id
    }
  }
  const typeId = out.entityTypeId ?? current?.entityTypeId
  const expression = out.expression !== undefined ? out.expression : current?.expression
  if (typeId === ENTITY_TYPES.formula.id && !expression) throw new ValidationError('expression', 'expression: a formula needs the expression that computes it.')
  // A formula's value is computed from other variables, never given by a person: only those variables can be personal.
  if (typeId === ENTITY_TYPES.formula.id && (out.personal ?? current?.personal) === true) {
    throw new ValidationError('personal', 'personal: a formula cannot be personal data; mark the variables it reads as personal instead.')
  }
  // The default is read like an answer when nobody set the variable, so it must be one the data type accepts.
  const dataType = out.dataType !== undefined ? out.dataType : current?.dataType
  const defaultValue = out.defaultValue !== undefined ? out.defaultValue : current?.defaultValue
  if (isDataType(dataType) && defaultValue !== null && defaultValue !== undefined) {
    const coerced = coerceInput(dataType, defaultValue, { options: out.validOptions ?? current?.validOptions ?? [] })
    if (!coerced.ok) throw new ValidationError('defaultValue', `defaultValue: ${coerced.message}`)
  }
  return out
}

/**
 * An owner-wide name must be free in the whole owner (every set of it would see the entry); a name of one set only
 * among the owner-wide entries and that set's own. So a set sees each name once, and copies of a set may each hold
 * their own entries under the same names.
 */
async function assertNameFree(db: Db, ownerId: string, name: string, adviceSetId: number | null, exceptId?: number): Promise<void> {
  const taken = adviceSetId === null ? await findEntityByName(db, ownerId, name, exceptId) : await findEntitySeenBy(db, ownerId, name, adviceSetId, exceptId)
  if (taken) throw new ConflictError('reservedName', `reservedName: ${name} is already in the dictionary.`)
}

// Finding and rewriting references ------------------------------------------------------------------------------------

function parseModeOf(type: string): ParseMode | 'assignment' {
  return type === 'variableAssignment' ? 'assignment' : type === 'condition' ? 'condition' : 'value'
}

/** Spans of the references to `from` in an expression, each with its replacement text. */
function referenceEdits(expr: Expr, from: NameRef, to: NameRef): Array<{ start: number; end: number; text: string }> {
  const edits: Array<{ start: number; end: number; text: string }> = []
  const tag = to.kind === 'formula' ? `[[${to.name}]]` : `{{${to.name}}}`
  const visit = (node: Expr): void => {
    switch (node.type) {
      case 'ref':
        if (node.name !== from.name) return
        if (node.kind === 'bare') edits.push({ ...node.span, text: to.name })
        else if (node.kind === from.kind) edits.push({ ...node.span, text: tag })
        return
      case 'unary': return visit(node.operand)
      case 'binary': visit(node.left); return visit(node.right)
      case 'array': return node.items.forEach(visit)
      case 'call': return node.args.forEach(visit)
      case 'method': visit(node.target); return node.args.forEach(visit)
      default: return
    }
  }
  visit(expr)
  return edits
}

function splice(source: string, edits: Array<{ start: number; end: number; text: string }>): string {
  let out = source
  for (const edit of [...edits].sort((a, b) => b.start - a.start)) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end)
  return out
}

/** The template with {{from}} (or [[from]]) tags renamed; other text untouched. */
export function rewriteTemplate(text: string, from: NameRef, to: NameRef): string {
  return parseTemplate(text).map((part) => {
    if (part.kind === 'text') return part.text
    if (part.kind !== from.kind || part.name !== from.name) return part.raw
    return to.kind === 'formula' ? `[[${to.name}]]` : `{{${to.name}}}`
  }).join('')
}

/** The expression with every reference to `from` renamed (bare names stay bare); unparsable ones get tag renames only. */
export function rewriteExpression(source: string, mode: ParseMode | 'assignment', from: NameRef, to: NameRef): string {
  try {
    if (mode !== 'assignment') return splice(source, referenceEdits(parseExpression(source, { mode }), from, to))
    const assignment = parseAssignment(source)
    const edits = referenceEdits(assignment.value, from, to)
    const target = /^(\s*)(\{\{\s*([^}]*?)\s*\}\}|[^\s=+-]+)/.exec(source)
    if (target && assignment.target === from.name && from.kind === 'variable') {
      const braced = target[2]!.startsWith('{{')
      edits.push({ start: target[1]!.length, end: target[0].length, text: braced ? `{{${to.name}}}` : to.name })
    }
    return splice(source, edits)
  } catch (error) {
    if (!(error instanceof EngineError)) throw error
    return rewriteTemplate(source, from, to)
  }
}

/** A node's fields after renaming `from` to `to`; only the fields that change. */
function rewriteNode(node: RuleNodeRow, from: NameRef, to: NameRef): NodeTextChange {
  const changes: NodeTextChange = {}
  if (node.expression) {
    const next = rewriteExpression(node.expression, parseModeOf(node.type), from, to)
    if (next !== node.expression) changes.expression = next
  }
  for (const key of ['headline', 'text', 'question'] as const) {
    const value = node[key]
    if (!value) continue
    const next = rewriteTemplate(value, from, to)
    if (next !== value) changes[key] = next
  }
  const variableIsThisKind = node.type === 'formula' ? from.kind === 'formula' : from.kind === 'variable'
  if (node.variable === from.name && variableIsThisKind) changes.variable = to.name
  return changes
}

/** The fields of a node that refer to `ref`: those a rename would change. */
function mentions(node: RuleNodeRow, ref: NameRef): string[] {
  return Object.keys(rewriteNode(node, ref, { ...ref, name: `${ref.name}\u0000` }))
}

/**
 * Where an entry could be used: nodes of its owner's sets and its owner's formulas (for an entry of one set: that set's
 * nodes, and the formulas it sees). A provider entry is used by every owner except those with their own entry of that
 * name (theirs shadows it, so their references are not to this one). Readers find the nodes in it that refer to the
 * entry (its kind and name, or its name written bare) by the names kept beside each node, not by reading every node.
 */
async function usesScope(db: Db, entity: EntityRow): Promise<{ nodes: ReferenceScope; formulas: () => Promise<EntityRow[]> }> {
  const shadowing = entity.ownerId === PROVIDER_OWNER_ID ? new Set((await ownersWithName(db, entity.reservedName)).filter((o) => o !== PROVIDER_OWNER_ID)) : undefined
  const ownerIds = shadowing ? undefined : [entity.ownerId]
  const inSet = entity.adviceSetId !== null ? { adviceSetId: entity.adviceSetId } : {}
  return {
    nodes: { ...(ownerIds ? { ownerIds } : { exceptOwnerIds: [...shadowing!] }), ...inSet },
    formulas: async () => (await listEntities(db, { ...(ownerIds ? { ownerIds } : {}), entityTypeIds: [ENTITY_TYPES.formula.id], ...inSet }))
      .filter((f) => f.id !== entity.id && !shadowing?.has(f.ownerId)).sort((a, b) => a.id - b.id),
  }
}

const referenceKeys = (ref: NameRef) => [`${ref.kind}:${ref.name}`, `bare:${ref.name}`] as const

export interface EntityUse { type: 'rulenode' | 'entity'; id: number; name: string; uri?: string; fields: string[]; ruleId?: number; adviceSetId?: number }

/** The last use a page showed: the next page starts after it (nodes come first, in id order, then formulas). */
export interface UseCursor { type: EntityUse['type']; id: number }

/**
 * The entry's uses, nodes in id order and then formulas, up to `limit` of them and past `after`; with `reader` only the
 * uses in advice sets and dictionaries that reader may see: a provider entry is used across owners, and one owner must
 * not learn another's private set or rule names.
 */
export async function findUses(db: Db, entity: EntityRow, { reader, limit = Infinity, after }: { reader?: Actor; limit?: number; after?: UseCursor } = {}): Promise<EntityUse[]> {
  const ref: NameRef = { name: entity.reservedName, kind: kindOf(entity) }
  const scope = await usesScope(db, entity)
  const uses: EntityUse[] = []
  if (after?.type !== 'entity') {
    await eachReferringNode(db, referenceKeys(ref), scope.nodes, (node) => {
      if (reader && !canReadSet(reader, node)) return true
      const fields = mentions(node, ref)
      if (fields.length > 0) {
        uses.push({
          type: 'rulenode', id: node.id, name: `${node.adviceSetName} › ${node.ruleName}`, fields, ruleId: node.ruleId, adviceSetId: node.adviceSetId,
          uri: `/adviceset/${node.adviceSetId}/rule/${node.ruleId}/part/${node.id}`,
        })
      }
      return uses.length < limit
    }, { ...(Number.isFinite(limit) ? { expected: limit } : {}), afterId: after?.id ?? 0 })
  }
  if (uses.length >= limit) return uses
  const readable = (formula: EntityRow) => !reader || isProviderAdmin(reader) || readableOwners(reader).includes(formula.ownerId)
  for (const formula of await scope.formulas()) {
    if ((after?.type === 'entity' && formula.id <= after.id) || !readable(formula)) continue
    if (formula.expression && rewriteExpression(formula.expression, 'value', ref, { ...ref, name: `${ref.name}\u0000` }) !== formula.expression) {
      if (uses.push({ type: 'entity', id: formula.id, name: `[[${formula.reservedName}]]`, fields: ['expression'] }) >= limit) break
    }
  }
  return uses
}

/** How many nodes a rename reads and rewrites at a time: its memory, and a statement each for their changes and audits. */
export const REWRITE_BATCH = 1_000

/**
 * Renames (and/or switches the kind of) every reference in the entry's scope; one activity row per rewritten object.
 * The nodes go a batch at a time in id order, each batch's changes and activity rows a statement each: a name 50,000
 * nodes used took 73 s and 800 MB one node at a time.
 */
async function rewriteReferences(tx: Db, actor: Actor, entity: EntityRow, from: NameRef, to: NameRef): Promise<{ nodes: number[]; entities: number[] }> {
  const scope = await usesScope(tx, entity)
  const done = { nodes: [] as number[], entities: [] as number[] }
  const sets = new Set<number>()
  for (let afterId = 0; ;) {
    const batch: OwnedNode[] = []
    await eachReferringNode(tx, referenceKeys(from), scope.nodes, (node) => batch.push(node) < REWRITE_BATCH, { expected: REWRITE_BATCH, afterId })
    const changes = batch.map((node) => ({ node, fields: rewriteNode(node, from, to) })).filter((c) => Object.keys(c.fields).length > 0)
    const changed = new Set(await updateNodeTexts(tx, changes.map((c) => ({ id: c.node.id, fields: c.fields, refs: referencesOf({ ...c.node, ...c.fields }) })), actor.userId, new Date()))
    const rewritten = changes.filter((c) => changed.has(c.node.id))
    await auditMany(tx, actor, ENTITY_RULE_NODE, rewritten.map(({ node, fields }) => ({
      ownerId: node.ownerId, action: 'update' as const, entityId: node.id,
      before: nodeSnapshot(node), after: nodeSnapshot({ ...node, ...fields }, { renamed: { from: from.name, to: to.name } }),
    })))
    for (const { node } of rewritten) sets.add(node.adviceSetId)
    done.nodes.push(...rewritten.map((c) => c.node.id))
    if (batch.length < REWRITE_BATCH) break
    afterId = batch.at(-1)!.id
  }
  for (const formula of await scope.formulas()) {
    if (!formula.expression) continue
    const next = rewriteExpression(formula.expression, 'value', from, to)
    if (next === formula.expression) continue
    const updated = await updateEntityRow(tx, formula.id, { expression: next, updatedBy: actor.userId })
    await audit(tx, actor, { ownerId: formula.ownerId, action: 'update', entityType: ENTITY_DICTIONARY, entityId: formula.id, before: snapshot(formula), after: snapshot(updated) })
    done.entities.push(formula.id)
  }
  await markSetsUpdated(tx, actor, sets)
  return done
}

// Reading -------------------------------------------------------------------------------------------------------------

export async function getEntity(deps: Deps, actor: Actor, id: number) {
  const entity = await readableEntity(deps.db, actor, id)
  return { ...entity, kind: kindOf(entity), entityType: ENTITY_TYPE_LIST.find((t) => t.id === entity.entityTypeId), canWrite: canWriteOwned(actor, entity.ownerId) }
}

/** A page of the entry's uses that the actor may see (`GET /api/entity/:id/list-uses`); `next` is where the next starts. */
export async function listUses(deps: Deps, actor: Actor, id: number, page: { after?: UseCursor; limit: number }): Promise<{ uses: EntityUse[]; next: UseCursor | null }> {
  const uses = await findUses(deps.db, await readableEntity(deps.db, actor, id), { reader: actor, limit: page.limit + 1, ...(page.after ? { after: page.after } : {}) })
  const shown = uses.slice(0, page.limit)
  return { uses: shown, next: uses.length > page.limit ? { type: shown.at(-1)!.type, id: shown.at(-1)!.id } : null }
}

async function visibleEntries(db: Db, actor: Actor, opts: { adviceSetId?: number; kind?: Kind; text?: string; prefix?: string; limit: number }) {
  let ownerIds = readableOwners(actor)
  if (opts.adviceSetId !== undefined) {
    const set = await findAdviceSet(db, opts.adviceSetId)
    if (!set || !canReadSet(actor, set)) throw new NotFoundError('No advice set with this id')
    const dictionary = await dictionaryFor(db, set, actor)
    return dictionary.filter((e) => (opts.kind === undefined || kindOf(e) === opts.kind)
      && (!opts.prefix || e.reservedName.toLowerCase().startsWith(opts.prefix.toLowerCase()))
      && (!opts.text || `${e.reservedName}\n${e.description}`.toLowerCase().includes(opts.text.toLowerCase()))).slice(0, opts.limit)
  }
  if (isProviderAdmin(actor)) ownerIds = [actor.ownerId]
  return listEntities(db, {
    ownerIds, limit: opts.limit, ...(opts.kind ? { entityTypeIds: [opts.kind === 'formula' ? ENTITY_TYPES.formula.id : ENTITY_TYPES.variable.id] } : {}),
    ...(opts.text ? { text: opts.text } : {}), ...(opts.prefix ? { prefix: opts.prefix } : {}),
  })
}

export async function textSearch(deps: Deps, actor: Actor, q: { text?: string; adviceSetId?: number; kind?: Kind }) {
  return visibleEntries(deps.db, actor, { ...q, text: q.text?.trim().slice(0, 512), limit: SEARCH_LIMIT })
}

/** What the editor offers after `{{` or `[[`: names starting with the typed text, with the tag to insert. */
export async function typeahead(deps: Deps, actor: Actor, q: { prefix?: string; adviceSetId?: number; kind?: Kind }) {
  const rows = await visibleEntries(deps.db, actor, { ...q, prefix: q.prefix?.trim().slice(0, 100) ?? '', limit: TYPEAHEAD_LIMIT })
  return rows.map((e) => {
    const kind = kindOf(e)
    return { id: e.id, name: e.reservedName, kind, dataType: e.dataType, description: e.description, tag: kind === 'formula' ? `[[${e.reservedName}]]` : `{{${e.reservedName}}}` }
  })
}

export async function typeaheadClassic(deps: Deps, actor: Actor, q: { prefix?: string; adviceSetId?: number }) {
  return (await typeahead(deps, actor, q)).map((e) => e.tag)
}

/** GET entity parse: the engine's reading of an expression (or template), with its error and position if any. */
export function parseContent(content: string, mode: ParseMode | 'assignment' | 'template') {
  if (mode === 'template') {
    const tags = templateTags(content)
    return { ok: true, variables: tags.filter((t) => t.kind === 'variable').map((t) => t.name), formulas: tags.filter((t) => t.kind === 'formula').map((t) => t.name), bare: [] as string[] }
  }
  try {
    let refs
    if (mode === 'assignment') {
      const assignment = parseAssignment(content)
      refs = references(assignment.value)
      refs.variables = [...new Set([assignment.target, ...refs.variables])]
    } else refs = references(parseExpression(content, { mode }))
    return { ok: true, ...refs }
  } catch (error) {
    if (!(error instanceof EngineError)) throw error
    return { ok: false, error: { code: error.code, message: error.message, ...(error.span ? { position: error.span } : {}) } }
  }
}

/** parse/match: the names the content uses, matched against the dictionary the actor (or the set) sees. */
export async function parseAndMatch(deps: Deps, actor: Actor, content: string, mode: ParseMode | 'assignment' | 'template', adviceSetId?: number) {
  const parsed = parseContent(content, mode)
  if (!parsed.ok) return parsed
  const entries = await visibleEntries(deps.db, actor, { ...(adviceSetId !== undefined ? { adviceSetId } : {}), limit: 100_000 })
  const byName = new Map(entries.map((e) => [e.reservedName, e]))
  const names: Array<{ name: string; kind: Kind | 'bare' }> = [
    ...(parsed.variables ?? []).map((name) => ({ name, kind: 'variable' as const })),
    ...(parsed.formulas ?? []).map((name) => ({ name, kind: 'formula' as const })),
    ...(parsed.bare ?? []).map((name) => ({ name, kind: 'bare' as const })),
  ]
  const matched: Array<{ name: string; kind: string; entityId: number }> = []
  const unknown: Array<{ name: string; kind: string }> = []
  for (const ref of names) {
    const entry = byName.get(ref.name)
    if (entry && (ref.kind === 'bare' || kindOf(entry) === ref.kind)) matched.push({ ...ref, entityId: entry.id })
    else unknown.push(ref)
  }
  return { ok: true, matched, unknown }
}

/** A formula's expression with the formulas it uses written out in place, recursively (cycles left as tags). */
export async function expandFormula(deps: Deps, actor: Actor, id: number) {
  const entity = await readableEntity(deps.db, actor, id)
  if (kindOf(entity) !== 'formula' || !entity.expression) throw new ValidationError('id', 'Only formulas can be expanded.')
  // The formulas the entry's set sees (all owner-wide ones for an owner-wide entry): sets may hold formulas of one name.
  const seen = await listEntities(deps.db, {
    ownerIds: [...new Set([entity.ownerId, PROVIDER_OWNER_ID])], entityTypeIds: [ENTITY_TYPES.formula.id], ...(entity.adviceSetId !== null ? { adviceSetId: entity.adviceSetId } : {}),
  })
  const formulas = new Map(seen.filter((f) => entity.adviceSetId !== null || f.adviceSetId === null || f.id === entity.id).map((f) => [f.reservedName, f.expression ?? '']))
  const expand = (source: string, seen: Set<string>): string => {
    let expr: Expr
    try { expr = parseExpression(source) } catch { return source }
    const edits: Array<{ start: number; end: number; text: string }> = []
    const visit = (node: Expr): void => {
      if (node.type === 'ref' && node.kind === 'formula' && formulas.has(node.name) && !seen.has(node.name)) {
        edits.push({ ...node.span, text: `(${expand(formulas.get(node.name)!, new Set([...seen, node.name]))})` })
      } else if (node.type === 'unary') visit(node.operand)
      else if (node.type === 'binary') { visit(node.left); visit(node.right) }
      else if (node.type === 'array') node.items.forEach(visit)
      else if (node.type === 'call') node.args.forEach(visit)
      else if (node.type === 'method') { visit(node.target); node.args.forEach(visit) }
    }
    visit(expr)
    return splice(source, edits)
  }
  return { id: entity.id, name: entity.reservedName, expression: entity.expression, expanded: expand(entity.expression, new Set([entity.reservedName])) }
}

// Writing -------------------------------------------------------------------------------------------------------------

export async function createEntity(deps: Deps, actor: Actor, input: EntityInput): Promise<EntityRow> {
  if (!canCreate(actor)) throw new ForbiddenError('Viewers cannot add to the dictionary. Ask an admin of your team to make you an author.')
  if (input.reservedName === undefined) throw new ValidationError('reservedName', 'reservedName: a name is required.')
  const fields = await parseEntityInput(deps.db, actor, actor.ownerId, { entityTypeId: ENTITY_TYPES.variable.id, ...input })
  await assertNameFree(deps.db, actor.ownerId, fields.reservedName!, fields.adviceSetId ?? null)
  return deps.db.transaction(async (tx) => {
    const entity = await insertEntity(tx, {
      ownerId: actor.ownerId, adviceSetId: fields.adviceSetId ?? null, entityTypeId: fields.entityTypeId!, reservedName: fields.reservedName!,
      dataType: fields.dataType ?? null, validOptions: fields.validOptions ?? [], isClosedSet: fields.isClosedSet ?? false,
      displayFormat: fields.displayFormat ?? null, defaultValue: fields.defaultValue ?? null, expression: fields.expression ?? null,
      isConstant: fields.isConstant ?? false, personal: fields.personal ?? false, description: fields.description ?? '', createdBy: actor.userId,
    })
    await audit(tx, actor, { ownerId: entity.ownerId, action: 'create', entityType: ENTITY_DICTIONARY, entityId: entity.id, after: snapshot(entity) })
    return entity
  })
}

/**
 * Saves changes. A new name or a switch between variable and formula is the SPEC §4 reserved-name change: every
 * reference is rewritten in the same transaction, and the answer lists what was rewritten.
 */
export async function updateEntity(deps: Deps, actor: Actor, id: number, input: EntityInput) {
  const entity = await writableEntity(deps.db, actor, id)
  const fields = await parseEntityInput(deps.db, actor, entity.ownerId, input, entity)
  const changed = (Object.keys(fields) as Array<keyof EntityFields>).filter((k) => JSON.stringify(fields[k]) !== JSON.stringify(entity[k]))
  if (changed.length === 0) return { entity, rewritten: { nodes: [], entities: [] }, typeChanged: false }
  const scope = fields.adviceSetId !== undefined ? fields.adviceSetId : entity.adviceSetId
  if ((fields.reservedName !== undefined && fields.reservedName !== entity.reservedName) || scope !== entity.adviceSetId) {
    await assertNameFree(deps.db, entity.ownerId, fields.reservedName ?? entity.reservedName, scope, id)
  }
  const from: NameRef = { name: entity.reservedName, kind: kindOf(entity) }
  const to: NameRef = { name: fields.reservedName ?? entity.reservedName, kind: kindOf({ entityTypeId: fields.entityTypeId ?? entity.entityTypeId }) }
  return deps.db.transaction(async (tx) => {
    const updated = await updateEntityRow(tx, id, { ...fields, updatedBy: actor.userId })
    const rewritten = from.name !== to.name || from.kind !== to.kind ? await rewriteReferences(tx, actor, entity, from, to) : { nodes: [], entities: [] }
    await audit(tx, actor, { ownerId: entity.ownerId, action: 'update', entityType: ENTITY_DICTIONARY, entityId: id, before: snapshot(entity), after: snapshot(updated, { rewritten }) })
    return { entity: updated, rewritten, typeChanged: from.kind !== to.kind, ...(from.kind !== to.kind ? { entityType: ENTITY_TYPE_LIST.find((t) => t.id === updated.entityTypeId) } : {}) }
  })
}

/** {id}/alternate: switches a variable to a formula (with the given expression) or a formula to a variable. */
export async function alternateEntity(deps: Deps, actor: Actor, id: number, input: { expression?: unknown }) {
  const entity = await writableEntity(deps.db, actor, id)
  const toFormula = kindOf(entity) === 'variable'
  return updateEntity(deps, actor, id, toFormula
    ? { entityTypeId: ENTITY_TYPES.formula.id, expression: input.expression }
    : { entityTypeId: ENTITY_TYPES.variable.id, expression: null })
}

export async function deleteEntity(deps: Deps, actor: Actor, id: number): Promise<void> {
  const entity = await writableEntity(deps.db, actor, id)
  await assertNoDependents(deps.db, ENTITY_DICTIONARY, id, `${kindOf(entity) === 'formula' ? `[[${entity.reservedName}]]` : `{{${entity.reservedName}}}`}`)
  await deps.db.transaction(async (tx) => {
    const deleted = await updateEntityRow(tx, id, { deletedAt: new Date(), updatedBy: actor.userId })
    await audit(tx, actor, { ownerId: entity.ownerId, action: 'delete', entityType: ENTITY_DICTIONARY, entityId: id, before: snapshot(entity), after: snapshot(deleted) })
  })
}

/** A new entry with the same definition under another name, in the actor's own dictionary. */
export async function copyEntity(deps: Deps, actor: Actor, id: number, input: { reservedName?: unknown }) {
  const source = await readableEntity(deps.db, actor, id)
  const name = input.reservedName === undefined ? `${source.reservedName}_copy` : input.reservedName
  return createEntity(deps, actor, {
    reservedName: name, entityTypeId: source.entityTypeId, dataType: source.dataType, validOptions: source.validOptions, isClosedSet: source.isClosedSet,
    displayFormat: source.displayFormat, defaultValue: source.defaultValue, expression: source.expression, isConstant: source.isConstant,
    personal: source.personal, description: source.description, ...(source.ownerId === actor.ownerId && source.adviceSetId !== null ? { adviceSetId: source.adviceSetId } : {}),
  })
}


// Restoring from the activity log ------------------------------------------------------------------------------------

export type EntitySnapshot = ReturnType<typeof snapshot>

/**
 * Puts a dictionary entry back as a snapshot describes it. Its definition is checked again; a name or kind that
 * differs from today's is the SPEC §4 reserved-name change, rewriting every use in the same transaction. null (undoing
 * its creation) deletes it, refused with 221 listing the uses while anything uses it. Recorded as one `restore` row.
 */
export async function restoreEntitySnapshot(deps: Deps, actor: Actor, id: number, target: EntitySnapshot | null) {
  const entity = await readableEntity(deps.db, actor, id, { includeDeleted: true })
  assertCanChange(actor, entity.ownerId, 'dictionary entry')
  const deleteIt = target === null || target.deleted
  if (deleteIt && entity.deletedAt) throw new ValidationError('id', 'This dictionary entry is already deleted.')
  if (deleteIt) await assertNoDependents(deps.db, ENTITY_DICTIONARY, id, kindOf(entity) === 'formula' ? `[[${entity.reservedName}]]` : `{{${entity.reservedName}}}`)
  const fields = deleteIt ? {} : await parseEntityInput(deps.db, actor, entity.ownerId, {
    entityTypeId: target!.entityTypeId, reservedName: target!.reservedName, dataType: target!.dataType, validOptions: target!.validOptions,
    isClosedSet: target!.isClosedSet, displayFormat: target!.displayFormat, defaultValue: target!.defaultValue, expression: target!.expression,
    isConstant: target!.isConstant, description: target!.description, adviceSetId: target!.adviceSetId,
    // Snapshots from before the flag existed do not name it: restoring them leaves it as it is.
    ...(target!.personal !== undefined ? { personal: target!.personal } : {}),
  }, entity)
  const scope = fields.adviceSetId !== undefined ? fields.adviceSetId : entity.adviceSetId
  if (fields.reservedName !== undefined && (entity.deletedAt || fields.reservedName !== entity.reservedName || scope !== entity.adviceSetId)) {
    await assertNameFree(deps.db, entity.ownerId, fields.reservedName, scope, id)
  }
  const from: NameRef = { name: entity.reservedName, kind: kindOf(entity) }
  const to: NameRef = { name: fields.reservedName ?? entity.reservedName, kind: kindOf({ entityTypeId: fields.entityTypeId ?? entity.entityTypeId }) }
  return deps.db.transaction(async (tx) => {
    const restored = await updateEntityRow(tx, id, { ...fields, deletedAt: deleteIt ? new Date() : null, updatedBy: actor.userId })
    // A deleted entry had no uses (its delete required that), so only a live one has references to follow it.
    const rewritten = !entity.deletedAt && !deleteIt && (from.name !== to.name || from.kind !== to.kind)
      ? await rewriteReferences(tx, actor, entity, from, to) : { nodes: [], entities: [] }
    await audit(tx, actor, { ownerId: entity.ownerId, action: 'restore', entityType: ENTITY_DICTIONARY, entityId: id, before: snapshot(entity), after: snapshot(restored, { rewritten }) })
    return { entity: restored, rewritten }
  })
}
