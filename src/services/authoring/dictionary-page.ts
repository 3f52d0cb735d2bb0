// Read models of the dictionary pages and entity cards: the entries a user can read with their where-used lists,
// computed in one pass over the nodes and formulas in reach (instead of one scan per entry), limited to the advice
// sets the user may open. The counting follows entities.ts findUses (a test holds the two together).
import type { Db } from '../../db/client.ts'
import { findAdviceSet, findAdviceSetsByIds } from '../../db/queries/advice-sets.ts'
import { listEntities, type EntityRow } from '../../db/queries/entities.ts'
import { listOwnedNodes, type OwnedNode } from '../../db/queries/rule-nodes.ts'
import { findOwner } from '../../db/queries/users.ts'
import {
  DATA_TYPES, ENTITY_TYPES, EngineError, INPUT_TYPES, isDataType, parseAssignment, parseExpression, references, templateTags,
} from '../../engine/index.ts'
import { dictionaryFor } from './advice-set-model.ts'
import { PROVIDER_OWNER_ID, isProviderAdmin, type Actor, type Deps } from '../context.ts'
import { getEntity, kindOf } from './entities.ts'
import { NotFoundError } from '../errors.ts'
import { setChoices } from '../library/set-choices.ts'
import { canCreate, canReadSet, canWriteOwned, setVisibility } from '../accounts/visibility.ts'

export type Kind = 'variable' | 'formula'
export const DICTIONARY_PAGE_SIZE = 50
const SET_CHOICES_LIMIT = 1000

export interface DictionaryUse { type: 'rulenode' | 'entity'; id: number; label: string; href: string; fields: string[] }

export interface DictionaryEntry {
  id: number; name: string; kind: Kind; entityTypeId: number; typeDisplayName: string
  dataType: string | null; dataTypeLabel: string; options: string[]; isClosedSet: boolean; displayFormat: string | null
  defaultValue: unknown; expression: string | null; isConstant: boolean; personal: boolean; description: string
  adviceSetId: number | null; adviceSetName: string | null; ownerId: string; canWrite: boolean
  uses: DictionaryUse[]
}

export function isKind(value: unknown): value is Kind {
  return value === 'variable' || value === 'formula'
}

export function dataTypeLabel(dataType: string | null): string {
  return isDataType(dataType) ? INPUT_TYPES[dataType].label : ''
}

export const DATA_TYPE_CHOICES = DATA_TYPES.map((value) => ({ value, label: INPUT_TYPES[value].label }))

// Where-used ------------------------------------------------------------------------------------------------------------

/** `kind:name` keys of what a node refers to: `variable:X`, `formula:X`, or `bare:X` for names written without tags. */
function nodeReferenceKeys(node: OwnedNode): Set<string> {
  const keys = new Set<string>()
  const fromRefs = (refs: { variables: string[]; formulas: string[]; bare: string[] }) => {
    refs.variables.forEach((n) => keys.add(`variable:${n}`))
    refs.formulas.forEach((n) => keys.add(`formula:${n}`))
    refs.bare.forEach((n) => keys.add(`bare:${n}`))
  }
  const fromTemplate = (text: string) => templateTags(text).forEach((tag) => keys.add(`${tag.kind}:${tag.name}`))
  if (node.expression) {
    try {
      if (node.type === 'variableAssignment') {
        const assignment = parseAssignment(node.expression)
        keys.add(`variable:${assignment.target}`)
        fromRefs(references(assignment.value))
      } else fromRefs(references(parseExpression(node.expression, { mode: node.type === 'condition' ? 'condition' : 'value' })))
    } catch (error) {
      if (!(error instanceof EngineError)) throw error
      // As the rename does: an unparsable expression still refers to the entries it names in tags.
      fromTemplate(node.expression)
    }
  }
  for (const text of [node.headline, node.text, node.question]) if (text) fromTemplate(text)
  if (node.variable) keys.add(`${node.type === 'formula' ? 'formula' : 'variable'}:${node.variable}`)
  return keys
}

function expressionReferenceKeys(source: string): Set<string> {
  const keys = new Set<string>()
  try {
    const refs = references(parseExpression(source, { mode: 'value' }))
    refs.variables.forEach((n) => keys.add(`variable:${n}`))
    refs.formulas.forEach((n) => keys.add(`formula:${n}`))
    refs.bare.forEach((n) => keys.add(`bare:${n}`))
  } catch (error) {
    if (!(error instanceof EngineError)) throw error
    templateTags(source).forEach((tag) => keys.add(`${tag.kind}:${tag.name}`))
  }
  return keys
}

interface Reach { nodes: OwnedNode[]; formulas: EntityRow[]; entries: EntityRow[] }

/** Owners whose content the user may open: everyone for provider admins, otherwise the own owner and the provider. */
function ownersInReach(actor: Actor): string[] | undefined {
  return isProviderAdmin(actor) ? undefined : [...new Set([actor.ownerId, PROVIDER_OWNER_ID])]
}

async function loadReach(db: Db, actor: Actor): Promise<Reach> {
  const ownerIds = ownersInReach(actor)
  const [nodes, entries] = await Promise.all([
    listOwnedNodes(db, ownerIds ? { ownerIds } : {}),
    listEntities(db, ownerIds ? { ownerIds } : {}),
  ])
  return { nodes, entries, formulas: entries.filter((e) => e.entityTypeId === ENTITY_TYPES.formula.id) }
}

type UsesOf = (entry: EntityRow) => DictionaryUse[]

/**
 * Indexes every node and formula once by the names it refers to. An entry is used where its `kind:name` or its bare
 * name appears, within its scope: its owner's sets (only its own set when it has one); for a provider entry every
 * owner's, except owners whose own entry of that name shadows it.
 */
function usesIndex(reach: Reach): UsesOf {
  const byKey = new Map<string, Array<{ use: DictionaryUse; ownerId: string; adviceSetId: number | null; entityId?: number }>>()
  const add = (keys: Set<string>, item: { use: DictionaryUse; ownerId: string; adviceSetId: number | null; entityId?: number }) => {
    for (const key of keys) byKey.set(key, [...(byKey.get(key) ?? []), item])
  }
  for (const node of reach.nodes) {
    add(nodeReferenceKeys(node), {
      ownerId: node.ownerId, adviceSetId: node.adviceSetId,
      use: { type: 'rulenode', id: node.id, label: `${node.adviceSetName} › ${node.ruleName}`, href: `/adviceset/${node.adviceSetId}/rule/${node.ruleId}/part/${node.id}`, fields: [] },
    })
  }
  for (const formula of reach.formulas) {
    if (!formula.expression) continue
    add(expressionReferenceKeys(formula.expression), {
      ownerId: formula.ownerId, adviceSetId: null, entityId: formula.id,
      use: { type: 'entity', id: formula.id, label: `[[${formula.reservedName}]]`, href: `/card/formula/${formula.id}`, fields: ['expression'] },
    })
  }
  const namedBy = new Map<string, Set<string>>()
  for (const e of reach.entries) {
    const name = e.reservedName.toLowerCase()
    namedBy.set(name, (namedBy.get(name) ?? new Set()).add(e.ownerId))
  }
  return (entry) => {
    const shadowing = entry.ownerId === PROVIDER_OWNER_ID ? namedBy.get(entry.reservedName.toLowerCase()) ?? new Set<string>() : undefined
    const inScope = (item: { ownerId: string; adviceSetId: number | null; entityId?: number }) => {
      if (item.entityId === entry.id) return false
      if (shadowing ? item.ownerId !== PROVIDER_OWNER_ID && shadowing.has(item.ownerId) : item.ownerId !== entry.ownerId) return false
      return item.entityId !== undefined || entry.adviceSetId === null || item.adviceSetId === entry.adviceSetId
    }
    const seen = new Set<string>()
    const uses: DictionaryUse[] = []
    for (const key of [`${kindOf(entry)}:${entry.reservedName}`, `bare:${entry.reservedName}`]) {
      for (const item of byKey.get(key) ?? []) {
        const id = `${item.use.type}:${item.use.id}`
        if (seen.has(id) || !inScope(item)) continue
        seen.add(id)
        uses.push(item.use)
      }
    }
    return uses.sort((a, b) => (a.type === b.type ? a.id - b.id : a.type === 'rulenode' ? -1 : 1))
  }
}

// Entries ---------------------------------------------------------------------------------------------------------------

function entryOf(actor: Actor, row: EntityRow, setNames: Map<number, string>, uses: DictionaryUse[]): DictionaryEntry {
  const kind = kindOf(row)
  return {
    id: row.id, name: row.reservedName, kind, entityTypeId: row.entityTypeId, typeDisplayName: ENTITY_TYPES[kind].displayName,
    dataType: row.dataType, dataTypeLabel: dataTypeLabel(row.dataType), options: row.validOptions, isClosedSet: row.isClosedSet,
    displayFormat: row.displayFormat, defaultValue: row.defaultValue, expression: row.expression, isConstant: row.isConstant, personal: row.personal,
    description: row.description, adviceSetId: row.adviceSetId, adviceSetName: row.adviceSetId === null ? null : setNames.get(row.adviceSetId) ?? null,
    ownerId: row.ownerId, canWrite: canWriteOwned(actor, row.ownerId), uses,
  }
}

/**
 * The names of the sets the entries are limited to, those the user may read. Read by id: the first sets by name, as
 * the form offers them, left an entry limited to any later set without its set's name (past 1,000 in a big team).
 */
async function setNamesOf(db: Db, actor: Actor, entries: readonly EntityRow[]): Promise<Map<number, string>> {
  const ids = [...new Set(entries.flatMap((e) => (e.adviceSetId === null ? [] : [e.adviceSetId])))]
  const rows = await findAdviceSetsByIds(db, ids, setVisibility(actor))
  return new Map(rows.map((s) => [s.id, s.name]))
}

export interface DictionaryFilters { kind?: Kind; adviceSetId?: number; text?: string }

/**
 * The dictionary a user reads: the own owner's entries and the provider's (for a set filter: what that set sees,
 * as its rules do), filtered by kind and by text in the name or description.
 */
export async function listDictionary(deps: Deps, actor: Actor, filters: DictionaryFilters): Promise<DictionaryEntry[]> {
  const db = deps.db
  let rows: EntityRow[]
  if (filters.adviceSetId !== undefined) {
    const set = await findAdviceSet(db, filters.adviceSetId)
    if (!set || !canReadSet(actor, set)) throw new NotFoundError('No advice set with this id')
    rows = await dictionaryFor(db, set, actor)
  } else {
    rows = await listEntities(db, { ownerIds: [...new Set([actor.ownerId, PROVIDER_OWNER_ID])] })
  }
  const text = filters.text?.trim().toLowerCase()
  rows = rows.filter((e) => (!filters.kind || kindOf(e) === filters.kind)
    && (!text || e.reservedName.toLowerCase().includes(text) || e.description.toLowerCase().includes(text)))
  const [reach, setNames] = await Promise.all([loadReach(db, actor), setNamesOf(db, actor, rows)])
  const usesOf = usesIndex(reach)
  return rows.map((row) => entryOf(actor, row, setNames, usesOf(row)))
}

export type DictionarySort = 'name' | 'kind' | 'type' | 'set' | 'uses'
export const DICTIONARY_SORTS: readonly DictionarySort[] = ['name', 'kind', 'type', 'set', 'uses']

/** The full list: sorted (ties by name) and cut into pages of DICTIONARY_PAGE_SIZE. */
export async function pageOfDictionary(deps: Deps, actor: Actor, filters: DictionaryFilters & { sort?: DictionarySort; desc?: boolean; page?: number }) {
  const entries = await listDictionary(deps, actor, filters)
  const key = (e: DictionaryEntry): string | number => {
    switch (filters.sort ?? 'name') {
      case 'kind': return e.kind
      case 'type': return e.dataTypeLabel.toLowerCase()
      case 'set': return (e.adviceSetName ?? '').toLowerCase()
      case 'uses': return e.uses.length
      default: return e.name.toLowerCase()
    }
  }
  const byName = (a: DictionaryEntry, b: DictionaryEntry) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || a.id - b.id
  const sorted = [...entries].sort((a, b) => {
    const ka = key(a)
    const kb = key(b)
    const order = typeof ka === 'number' && typeof kb === 'number' ? ka - kb : String(ka).localeCompare(String(kb))
    return (filters.desc ? -order : order) || byName(a, b)
  })
  const pageCount = Math.max(1, Math.ceil(sorted.length / DICTIONARY_PAGE_SIZE))
  const page = Math.min(Math.max(1, filters.page ?? 1), pageCount)
  return { entries: sorted.slice((page - 1) * DICTIONARY_PAGE_SIZE, page * DICTIONARY_PAGE_SIZE), total: sorted.length, page, pageCount }
}

/** One entry as its card shows it, with the uses in advice sets the user may open. */
export async function dictionaryCard(deps: Deps, actor: Actor, id: number): Promise<DictionaryEntry & { ownerName: string }> {
  const entity = await getEntity(deps, actor, id)
  const [reach, setNames, owner] = await Promise.all([loadReach(deps.db, actor), setNamesOf(deps.db, actor, [entity]), findOwner(deps.db, entity.ownerId)])
  if (!reach.entries.some((e) => e.id === entity.id)) reach.entries.push(entity)
  return { ...entryOf(actor, entity, setNames, usesIndex(reach)(entity)), ownerName: owner?.name ?? entity.ownerId }
}

/**
 * The sets the filter offers, and those an entry of `ownerId` (default: the user's own) may be limited to: the first
 * SET_CHOICES_LIMIT by name, and always the chosen set (`chosenSetId`: the one an entry is limited to, or the one the
 * list is filtered by), which the form would otherwise not offer, and a save then change (setChoices).
 */
export async function dictionaryChoices(deps: Deps, actor: Actor, ownerId = actor.ownerId, chosenSetId: number | null = null) {
  const { sets: rows } = await setChoices(deps, actor, { chosen: chosenSetId === null ? [] : [chosenSetId], limit: SET_CHOICES_LIMIT })
  const readable = rows.filter((s) => s.ownerId === actor.ownerId || s.ownerId === PROVIDER_OWNER_ID)
  return {
    filterSets: readable.map((s) => ({ id: s.id, name: s.name })),
    ownSets: rows.filter((s) => s.ownerId === ownerId).map((s) => ({ id: s.id, name: s.name })),
    canCreate: canCreate(actor),
  }
}
