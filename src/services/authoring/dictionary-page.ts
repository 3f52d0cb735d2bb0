// Read models of the dictionary pages and entity cards: the entries a user can read with where they are used, limited
// to the advice sets the user may open. Uses in nodes are found by the names kept beside each node (node-references.ts):
// counted per set for all entries at once, and listed for the entries shown, so a team with millions of nodes is not
// read whole. The counting follows entities.ts findUses (a test holds the two together).
import type { Db } from '../../db/client.ts'
import { findAdviceSet, findAdviceSetsByIds } from '../../db/queries/advice-sets.ts'
import { listEntities, type EntityRow } from '../../db/queries/entities.ts'
import type { ReferenceScope } from '../../db/queries/node-references.ts'
import { findOwner } from '../../db/queries/users.ts'
import { DATA_TYPES, ENTITY_TYPES, INPUT_TYPES, isDataType } from '../../engine/index.ts'
import { countReferences, eachReferringNode, expressionReferenceKeys, type ReferenceTarget } from './node-references.ts'
import { dictionaryFor } from './advice-set-model.ts'
import { PROVIDER_OWNER_ID, isProviderAdmin, type Actor, type Deps } from '../context.ts'
import { findUses, getEntity, kindOf } from './entities.ts'
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
  /** How many places use the entry; `uses` lists the first of them (USES_LISTED, USES_ON_CARD), or none. */
  useCount: number
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

/** Uses listed with each entry of the full list, and on an entry's card; the count beside them is always whole. */
export const USES_LISTED = 20
export const USES_ON_CARD = 200

/** The keys an entry's uses are found by: its kind and name, and its name written bare (either kind). */
function keysOf(entry: EntityRow): [string, string] {
  return [`${kindOf(entry)}:${entry.reservedName}`, `bare:${entry.reservedName}`]
}

/**
 * Where a reader looks for uses: the nodes of the own owner's sets and the provider's (every owner's for provider
 * admins), the formulas of those owners with what they refer to, and for a provider entry the owners whose own entry of
 * that name shadows it (their references are to theirs).
 */
interface Reach { ownerIds: string[] | undefined; formulas: Array<{ row: EntityRow; keys: Set<string> }>; shadowingOf(entry: EntityRow): Set<string> | undefined }

/** Owners whose content the user may open: everyone for provider admins, otherwise the own owner and the provider. */
function ownersInReach(actor: Actor): string[] | undefined {
  return isProviderAdmin(actor) ? undefined : [...new Set([actor.ownerId, PROVIDER_OWNER_ID])]
}

async function loadReach(db: Db, actor: Actor): Promise<Reach> {
  const ownerIds = ownersInReach(actor)
  const entries = await listEntities(db, ownerIds ? { ownerIds } : {})
  const namedBy = new Map<string, Set<string>>()
  for (const e of entries) {
    const name = e.reservedName.toLowerCase()
    namedBy.set(name, (namedBy.get(name) ?? new Set()).add(e.ownerId))
  }
  return {
    ownerIds,
    formulas: entries.filter((e) => e.entityTypeId === ENTITY_TYPES.formula.id && e.expression).map((row) => ({ row, keys: expressionReferenceKeys(row.expression!) })),
    shadowingOf: (entry) => (entry.ownerId === PROVIDER_OWNER_ID ? namedBy.get(entry.reservedName.toLowerCase()) ?? new Set<string>() : undefined),
  }
}

/** Whether a use by this owner (and in this set, for a node) is one of the entry's: within its scope, not shadowed. */
function usedWithin(reach: Reach, entry: EntityRow, ownerId: string, adviceSetId: number | null): boolean {
  const shadowing = reach.shadowingOf(entry)
  if (shadowing ? ownerId !== PROVIDER_OWNER_ID && shadowing.has(ownerId) : ownerId !== entry.ownerId) return false
  return adviceSetId === null || entry.adviceSetId === null || adviceSetId === entry.adviceSetId
}

/** usedWithin for nodes, as the database reads them: the entry's own sets, or for a provider entry all but the shadowing. */
function nodeScopeOf(reach: Reach, entry: EntityRow): ReferenceScope | null {
  const shadowing = reach.shadowingOf(entry)
  const ownerIds = shadowing ? reach.ownerIds : (reach.ownerIds ?? [entry.ownerId]).filter((o) => o === entry.ownerId)
  if (ownerIds?.length === 0) return null
  return {
    ...(ownerIds ? { ownerIds } : {}),
    ...(shadowing ? { exceptOwnerIds: [...shadowing].filter((o) => o !== PROVIDER_OWNER_ID) } : {}),
    ...(entry.adviceSetId !== null ? { adviceSetId: entry.adviceSetId } : {}),
  }
}

function formulaUses(reach: Reach, entry: EntityRow): DictionaryUse[] {
  const keys = keysOf(entry)
  return reach.formulas
    .filter((f) => f.row.id !== entry.id && usedWithin(reach, entry, f.row.ownerId, null) && keys.some((k) => f.keys.has(k)))
    .sort((a, b) => a.row.id - b.row.id)
    .map((f) => ({ type: 'entity' as const, id: f.row.id, label: `[[${f.row.reservedName}]]`, href: `/card/formula/${f.row.id}`, fields: ['expression'] }))
}

/**
 * How many places use each entry: nodes counted at once for all of them (kept per owner, or in the one set an entry is
 * limited to), then each entry's own within its scope.
 */
async function useCounts(db: Db, reach: Reach, entries: readonly EntityRow[]): Promise<Map<number, number>> {
  const targetOf = new Map<string, number>()
  const targets: ReferenceTarget[] = []
  const targetId = (entry: EntityRow) => `${keysOf(entry).join('\u0000')}\u0000${entry.adviceSetId ?? ''}`
  for (const entry of entries) {
    if (!targetOf.has(targetId(entry))) targetOf.set(targetId(entry), targets.push({ keys: keysOf(entry), adviceSetId: entry.adviceSetId }) - 1)
  }
  const counts = await countReferences(db, targets, reach.ownerIds ? { ownerIds: reach.ownerIds } : {})
  const byTarget = new Map<number, typeof counts>()
  for (const c of counts) {
    const list = byTarget.get(c.target)
    if (list) list.push(c)
    else byTarget.set(c.target, [c])
  }
  return new Map(entries.map((entry) => {
    const nodes = (byTarget.get(targetOf.get(targetId(entry))!) ?? [])
      .filter((c) => usedWithin(reach, entry, c.ownerId, c.adviceSetId)).reduce((sum, c) => sum + c.uses, 0)
    return [entry.id, nodes + formulaUses(reach, entry).length]
  }))
}

/** The first `limit` uses of an entry: nodes in id order, then formulas. */
async function firstUses(db: Db, reach: Reach, entry: EntityRow, limit: number): Promise<DictionaryUse[]> {
  const uses: DictionaryUse[] = []
  const scope = nodeScopeOf(reach, entry)
  if (scope && limit > 0) {
    await eachReferringNode(db, keysOf(entry), scope, (node) => {
      uses.push({ type: 'rulenode', id: node.id, label: `${node.adviceSetName} › ${node.ruleName}`, href: `/adviceset/${node.adviceSetId}/rule/${node.ruleId}/part/${node.id}`, fields: [] })
      return uses.length < limit
    }, { expected: limit })
  }
  return [...uses, ...formulaUses(reach, entry)].slice(0, limit)
}

// Entries ---------------------------------------------------------------------------------------------------------------

function entryOf(actor: Actor, row: EntityRow, setNames: Map<number, string>, useCount: number, uses: DictionaryUse[]): DictionaryEntry {
  const kind = kindOf(row)
  return {
    id: row.id, name: row.reservedName, kind, entityTypeId: row.entityTypeId, typeDisplayName: ENTITY_TYPES[kind].displayName,
    dataType: row.dataType, dataTypeLabel: dataTypeLabel(row.dataType), options: row.validOptions, isClosedSet: row.isClosedSet,
    displayFormat: row.displayFormat, defaultValue: row.defaultValue, expression: row.expression, isConstant: row.isConstant, personal: row.personal,
    description: row.description, adviceSetId: row.adviceSetId, adviceSetName: row.adviceSetId === null ? null : setNames.get(row.adviceSetId) ?? null,
    ownerId: row.ownerId, canWrite: canWriteOwned(actor, row.ownerId), useCount, uses,
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
 * as its rules do), filtered by kind and by text in the name or description, with how many places use each.
 */
async function readDictionary(deps: Deps, actor: Actor, filters: DictionaryFilters) {
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
  const counts = await useCounts(db, reach, rows)
  return { reach, rows: new Map(rows.map((row) => [row.id, row])), entries: rows.map((row) => entryOf(actor, row, setNames, counts.get(row.id) ?? 0, [])) }
}

/** The dictionary with each entry's count of uses (the uses themselves are on the full list and the card). */
export async function listDictionary(deps: Deps, actor: Actor, filters: DictionaryFilters): Promise<DictionaryEntry[]> {
  return (await readDictionary(deps, actor, filters)).entries
}

export type DictionarySort = 'name' | 'kind' | 'type' | 'set' | 'uses'
export const DICTIONARY_SORTS: readonly DictionarySort[] = ['name', 'kind', 'type', 'set', 'uses']

/** The full list: sorted (ties by name) and cut into pages of DICTIONARY_PAGE_SIZE. */
export async function pageOfDictionary(deps: Deps, actor: Actor, filters: DictionaryFilters & { sort?: DictionarySort; desc?: boolean; page?: number }) {
  const { entries, rows, reach } = await readDictionary(deps, actor, filters)
  const key = (e: DictionaryEntry): string | number => {
    switch (filters.sort ?? 'name') {
      case 'kind': return e.kind
      case 'type': return e.dataTypeLabel.toLowerCase()
      case 'set': return (e.adviceSetName ?? '').toLowerCase()
      case 'uses': return e.useCount
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
  const shown = await Promise.all(sorted.slice((page - 1) * DICTIONARY_PAGE_SIZE, page * DICTIONARY_PAGE_SIZE)
    .map(async (e) => ({ ...e, uses: await firstUses(deps.db, reach, rows.get(e.id)!, USES_LISTED) })))
  return { entries: shown, total: sorted.length, page, pageCount }
}

/** One entry as its card shows it, with the uses in advice sets the user may open. */
export async function dictionaryCard(deps: Deps, actor: Actor, id: number): Promise<DictionaryEntry & { ownerName: string }> {
  const entity = await getEntity(deps, actor, id)
  const [reach, setNames, owner] = await Promise.all([loadReach(deps.db, actor), setNamesOf(deps.db, actor, [entity]), findOwner(deps.db, entity.ownerId)])
  const [counts, uses] = await Promise.all([useCounts(deps.db, reach, [entity]), firstUses(deps.db, reach, entity, USES_ON_CARD)])
  return { ...entryOf(actor, entity, setNames, counts.get(entity.id) ?? 0, uses), ownerName: owner?.name ?? entity.ownerId }
}

/**
 * Whether the entry is used, and how often (`GET /api/entity/:id/used`). Where every use in the entry's scope is one the
 * reader may open (the own team's entries; any entry for provider admins) the kept counts say it, as on the card.
 * Otherwise (a provider entry, used in other teams' sets of which the reader sees the shared ones; an entry of another
 * team's public set) the uses are listed and filtered as the uses API lists them. Listing them all took 18.8 s and
 * 1.2 GB of heap for a variable 500,000 nodes of a big team use.
 */
export async function entryUsage(deps: Deps, actor: Actor, id: number): Promise<{ used: boolean; count: number }> {
  const entity = await getEntity(deps, actor, id)
  const counted = isProviderAdmin(actor) || (entity.ownerId === actor.ownerId && entity.ownerId !== PROVIDER_OWNER_ID)
  const count = counted
    ? (await useCounts(deps.db, await loadReach(deps.db, actor), [entity])).get(entity.id) ?? 0
    : (await findUses(deps.db, entity, { reader: actor })).length
  return { used: count > 0, count }
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
