// Keyword maps (SPEC §7 keywordmap, DESIGN: admins manage keyword maps): a named list of phrases pointing at an advice
// set, and optionally at one of its scenarios, whose answers the target opens with. Owner-scoped: the owner's users
// read its maps, its admins (and provider admins) write them; soft delete, restore, and the activity log's restorer.
// A scenario a live map points at cannot be deleted (221, through scenarios/uses.ts).
//
// Decisions: a map may point at any advice set its owner's users can read (theirs, the provider's, public and starter
// sets), but only at scenarios of the owner's own sets, so no owner can keep another's scenario from being deleted.
// Following a map opens the set's page, or, with a scenario, the debugger of the set with the scenario's answers
// filled in and run (/adviceset/{id}/rule/debug?scenario={id}): the most useful place for a signed-in author.
import type { Db } from '../../db/client.ts'
import { keysetPage } from '../../db/queries/keyset-page.ts'
import { findAdviceSet } from '../../db/queries/advice-sets.ts'
import {
  findKeywordMap, insertKeywordMap, listKeywordMaps, updateKeywordMap, type KeywordMapListRow, type KeywordMapRow,
} from '../../db/queries/keyword-maps.ts'
import { findScenario, findScenarioNamesOfSets } from '../../db/queries/scenarios.ts'
import { audit } from '../audit/audit.ts'
import { canAdministerOwned, canReadSet } from '../accounts/visibility.ts'
import { isProviderAdmin, type Actor, type Deps } from '../context.ts'
import { ForbiddenError, NotFoundError, ValidationError } from '../errors.ts'
import { registerScenarioUse } from '../scenarios/uses.ts'
import { setChoices } from './set-choices.ts'
import { checkFields, requireText } from '../validate.ts'

export const ENTITY_KEYWORD_MAP = 'keywordmap'
export const MAX_PHRASES = 50
export const MAX_PHRASE_LENGTH = 200
const LIST_LIMIT = 1000

export interface KeywordMapInput {
  name?: unknown
  /** A list of phrases, or one text with a phrase per line. */
  phrases?: unknown
  adviceSetId?: unknown
  /** A scenario of the set; null or '' points at the set itself. */
  scenarioId?: unknown
}

/** A map as pages and the API show it: its fields, its owner, and its target with where following it leads. */
export interface KeywordMapView {
  id: number
  ownerId: string
  ownerName: string
  name: string
  phrases: string[]
  adviceSet: { id: number; name: string; nameAlt: string; ownerName: string; deleted: boolean }
  scenario: { id: number; name: string; deleted: boolean } | null
  /** Where following the map leads. */
  uri: string
  createdAt: Date
  updatedAt: Date
  deleted: boolean
  canWrite: boolean
}

export function keywordMapTarget(adviceSetId: number, scenarioId: number | null): string {
  return scenarioId === null ? `/adviceset/${adviceSetId}/show` : `/adviceset/${adviceSetId}/rule/debug?scenario=${scenarioId}`
}

function viewOf(actor: Actor, row: KeywordMapListRow): KeywordMapView {
  const { map, set, scenario } = row
  return {
    id: map.id, ownerId: map.ownerId, ownerName: row.ownerName, name: map.name, phrases: map.phrases,
    adviceSet: { id: set.id, name: set.name, nameAlt: set.nameAlt, ownerName: set.ownerName, deleted: set.deleted },
    scenario, uri: keywordMapTarget(set.id, scenario?.id ?? null),
    createdAt: map.createdAt, updatedAt: map.updatedAt, deleted: map.deletedAt !== null, canWrite: canAdministerOwned(actor, map.ownerId),
  }
}

/** What the activity log keeps of a map; restoring puts these fields back. */
function snapshot(row: KeywordMapRow) {
  return { id: row.id, name: row.name, phrases: row.phrases, adviceSetId: row.adviceSetId, scenarioId: row.scenarioId, deleted: row.deletedAt !== null }
}

export type KeywordMapSnapshot = ReturnType<typeof snapshot>

// Rights -------------------------------------------------------------------------------------------------------------

function canRead(actor: Actor, ownerId: string): boolean {
  return ownerId === actor.ownerId || isProviderAdmin(actor)
}

/** Whose maps the actor lists: its owner's; provider admins every owner's. */
function listedOwners(actor: Actor): string[] | undefined {
  return isProviderAdmin(actor) ? undefined : [actor.ownerId]
}

export function canManageKeywordMaps(actor: Actor): boolean {
  return canAdministerOwned(actor, actor.ownerId)
}

function assertManager(actor: Actor): void {
  if (!canManageKeywordMaps(actor)) throw new ForbiddenError('Only admins manage keyword maps: ask an admin of your team.')
}

async function readable(db: Db, actor: Actor, id: number, opts: { includeDeleted?: boolean } = {}): Promise<KeywordMapRow> {
  const row = await findKeywordMap(db, id, opts)
  if (!row || !canRead(actor, row.ownerId)) throw new NotFoundError('No keyword map with this id')
  return row
}

async function writable(db: Db, actor: Actor, id: number, opts: { includeDeleted?: boolean } = {}): Promise<KeywordMapRow> {
  const row = await readable(db, actor, id, opts)
  if (!canAdministerOwned(actor, row.ownerId)) throw new ForbiddenError('Only admins of its owner change this keyword map: ask an admin of your team.')
  return row
}

async function viewById(deps: Deps, actor: Actor, id: number): Promise<KeywordMapView> {
  const [row] = await listKeywordMaps(deps.db, { ids: [id], includeDeleted: true, limit: 1 })
  return viewOf(actor, row!)
}

// Checking input -----------------------------------------------------------------------------------------------------

/** Trimmed, inner spaces collapsed; the same phrase twice (any case) once. */
export function parsePhrases(raw: unknown): string[] {
  const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(/\r?\n/) : raw === undefined || raw === null ? [] : [raw]
  const phrases: string[] = []
  for (const item of list) {
    if (typeof item !== 'string') throw new ValidationError('phrases', 'Phrases: each phrase must be text.')
    const phrase = item.trim().replace(/\s+/g, ' ')
    if (phrase === '') continue
    if (phrase.length > MAX_PHRASE_LENGTH) throw new ValidationError('phrases', `Phrases: “${phrase.slice(0, 40)}…” is longer than ${MAX_PHRASE_LENGTH} characters.`)
    if (!phrases.some((p) => p.toLowerCase() === phrase.toLowerCase())) phrases.push(phrase)
  }
  if (phrases.length === 0) throw new ValidationError('phrases', 'Phrases: give at least one phrase.')
  if (phrases.length > MAX_PHRASES) throw new ValidationError('phrases', `Phrases: at most ${MAX_PHRASES} phrases.`)
  return phrases
}

const TARGET_LABELS = { adviceSetId: 'Advice set', scenarioId: 'Scenario' } as const

function idOf(field: keyof typeof TARGET_LABELS, raw: unknown): number | null {
  if (raw === undefined || raw === null || raw === '') return null
  const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : ''
  if (!/^\d{1,15}$/.test(text) || Number(text) < 1) throw new ValidationError(field, `${TARGET_LABELS[field]}: “${text.slice(0, 40)}” is not an id.`)
  return Number(text)
}

/** The target, checked: a set the owner's users read, and a scenario of one of the owner's own sets. */
async function checkedTarget(db: Db, actor: Actor, ownerId: string, input: KeywordMapInput) {
  const adviceSetId = idOf('adviceSetId', input.adviceSetId)
  if (adviceSetId === null) throw new ValidationError('adviceSetId', 'Advice set: choose the advice set the map leads to.')
  const set = await findAdviceSet(db, adviceSetId)
  if (!set || !canReadSet({ ...actor, ownerId }, set)) throw new ValidationError('adviceSetId', `Advice set: there is no advice set ${adviceSetId} this team can use.`)
  const scenarioId = idOf('scenarioId', input.scenarioId)
  if (scenarioId !== null) {
    const scenario = await findScenario(db, scenarioId)
    if (scenario && scenario.adviceSetId !== set.id && (await findAdviceSet(db, scenario.adviceSetId))?.ownerId === ownerId) {
      // The team's own scenario of another set (the form's list was not filtered): name both, say what to do.
      throw new ValidationError('scenarioId', `Scenario: “${scenario.name}” is a scenario of another advice set, not of “${set.name}”. Choose one of “${set.name}”’s scenarios, or none.`)
    }
    if (!scenario || scenario.adviceSetId !== set.id) throw new ValidationError('scenarioId', `Scenario: “${set.name}” has no scenario ${scenarioId}.`)
    if (set.ownerId !== ownerId) throw new ValidationError('scenarioId', 'Scenario: a keyword map can point only at scenarios of its own team’s advice sets.')
  }
  return { adviceSetId: set.id, scenarioId }
}

/** Every field checked: all that are wrong are told at once. */
async function checkedFields(db: Db, actor: Actor, ownerId: string, input: KeywordMapInput) {
  const { target, ...fields } = await checkFields({
    name: () => requireText('name', input.name, 'Name', 200),
    phrases: () => parsePhrases(input.phrases),
    target: () => checkedTarget(db, actor, ownerId, input),
  })
  return { ...fields, ...target }
}

// Reading ------------------------------------------------------------------------------------------------------------

/** index: the maps the actor may see (its owner's; provider admins every owner's), optionally only those matching `text`. */
export async function listKeywordMapsFor(deps: Deps, actor: Actor, opts: { text?: string; adviceSetId?: number } = {}): Promise<KeywordMapView[]> {
  const rows = await listKeywordMaps(deps.db, { ownerIds: listedOwners(actor), text: opts.text?.trim() || undefined, adviceSetId: opts.adviceSetId, limit: LIST_LIMIT })
  return rows.map((row) => viewOf(actor, row))
}

/** Maps the admin page shows at a time. */
export const KEYWORD_MAP_PAGE_SIZE = 100

/** A page of the maps by name for the admin page, after the map `afterId`; `nextAfter` when more follow. */
export async function keywordMapPage(deps: Deps, actor: Actor, opts: { text?: string; afterId?: number }): Promise<{ maps: KeywordMapView[]; nextAfter: number | null }> {
  const rows = await listKeywordMaps(deps.db, { ownerIds: listedOwners(actor), text: opts.text?.trim() || undefined, afterId: opts.afterId, limit: KEYWORD_MAP_PAGE_SIZE + 1 })
  const page = keysetPage(rows.map((row) => viewOf(actor, row)), KEYWORD_MAP_PAGE_SIZE)
  return { maps: page.shown, nextAfter: page.nextAfter }
}

export async function getKeywordMap(deps: Deps, actor: Actor, id: number, opts: { includeDeleted?: boolean } = {}): Promise<KeywordMapView> {
  const row = await readable(deps.db, actor, id, opts)
  return viewById(deps, actor, row.id)
}

/** adviceset/{ruleSetId}: the maps the actor sees that lead to a set it reads. */
export async function keywordMapsOfSet(deps: Deps, actor: Actor, adviceSetId: number): Promise<KeywordMapView[]> {
  const set = await findAdviceSet(deps.db, adviceSetId)
  if (!set || !canReadSet(actor, set)) throw new NotFoundError('No advice set with this id')
  return listKeywordMapsFor(deps, actor, { adviceSetId: set.id })
}

/** scenario/{adviceScenarioId}: the maps the actor sees that lead to a scenario it reads. */
export async function keywordMapsOfScenario(deps: Deps, actor: Actor, scenarioId: number): Promise<KeywordMapView[]> {
  const scenario = await findScenario(deps.db, scenarioId)
  const set = scenario ? await findAdviceSet(deps.db, scenario.adviceSetId) : undefined
  if (!scenario || !set || !canReadSet(actor, set)) throw new NotFoundError('No advice scenario with this id')
  const rows = await listKeywordMaps(deps.db, { ownerIds: listedOwners(actor), scenarioId: scenario.id, limit: LIST_LIMIT })
  return rows.map((row) => viewOf(actor, row))
}

/**
 * The choices of the map form: the sets the team may point at (listed by name or narrowed by `find`, always with the
 * set chosen: setChoices), and the live scenarios of its own sets among them.
 */
export async function keywordMapChoices(deps: Deps, actor: Actor, p: { chosen: number[]; find?: string }) {
  assertManager(actor)
  const { sets: rows, finder } = await setChoices(deps, actor, p)
  const own = rows.filter((s) => s.ownerId === actor.ownerId)
  const scenariosBySet = new Map<number, Array<{ id: number; name: string }>>()
  for (const sc of await findScenarioNamesOfSets(deps.db, own.map((s) => s.id))) {
    const list = scenariosBySet.get(sc.adviceSetId) ?? []
    if (list.length === 0) scenariosBySet.set(sc.adviceSetId, list)
    list.push({ id: sc.id, name: sc.name })
  }
  return {
    adviceSets: rows.map((s) => ({ id: s.id, name: s.name, ownerName: s.ownerName, own: s.ownerId === actor.ownerId })),
    scenarios: own.map((s) => ({ adviceSetId: s.id, adviceSetName: s.name, scenarios: scenariosBySet.get(s.id) ?? [] })),
    setFinder: finder,
  }
}

// Writing ------------------------------------------------------------------------------------------------------------

export async function createKeywordMap(deps: Deps, actor: Actor, input: KeywordMapInput): Promise<KeywordMapView> {
  assertManager(actor)
  const fields = await checkedFields(deps.db, actor, actor.ownerId, input)
  const row = await deps.db.transaction(async (tx) => {
    const row = await insertKeywordMap(tx, { ...fields, ownerId: actor.ownerId, createdBy: actor.userId })
    await audit(tx, actor, { ownerId: row.ownerId, action: 'create', entityType: ENTITY_KEYWORD_MAP, entityId: row.id, after: snapshot(row) })
    return row
  })
  return viewById(deps, actor, row.id)
}

/** Changes the fields sent; the others stay. */
export async function updateKeywordMapFor(deps: Deps, actor: Actor, id: number, input: KeywordMapInput): Promise<KeywordMapView> {
  const before = await writable(deps.db, actor, id)
  const checked = await checkFields({
    name: () => (input.name !== undefined ? { name: requireText('name', input.name, 'Name', 200) } : {}),
    phrases: () => (input.phrases !== undefined ? { phrases: parsePhrases(input.phrases) } : {}),
    target: () => input.adviceSetId !== undefined || input.scenarioId !== undefined
      ? checkedTarget(deps.db, actor, before.ownerId, { adviceSetId: input.adviceSetId ?? before.adviceSetId, scenarioId: input.scenarioId === undefined ? before.scenarioId : input.scenarioId })
      : {},
  })
  const changes = { ...checked.name, ...checked.phrases, ...checked.target }
  if (Object.keys(changes).length === 0) throw new ValidationError('name', 'Nothing to change: send name, phrases, adviceSetId or scenarioId.')
  await deps.db.transaction(async (tx) => {
    const after = await updateKeywordMap(tx, id, { ...changes, updatedBy: actor.userId })
    await audit(tx, actor, { ownerId: before.ownerId, action: 'update', entityType: ENTITY_KEYWORD_MAP, entityId: id, before: snapshot(before), after: snapshot(after) })
  })
  return viewById(deps, actor, id)
}

export async function deleteKeywordMap(deps: Deps, actor: Actor, id: number): Promise<void> {
  const row = await writable(deps.db, actor, id)
  await deps.db.transaction(async (tx) => {
    const deleted = await updateKeywordMap(tx, id, { deletedAt: new Date(), updatedBy: actor.userId })
    await audit(tx, actor, { ownerId: row.ownerId, action: 'delete', entityType: ENTITY_KEYWORD_MAP, entityId: id, before: snapshot(row), after: snapshot(deleted) })
  })
}

/** A map comes back only with a target that is there: its set live, its scenario (if any) live. */
async function assertTargetLive(db: Db, target: { adviceSetId: number; scenarioId: number | null }): Promise<void> {
  const set = await findAdviceSet(db, target.adviceSetId)
  if (!set) throw new ValidationError('adviceSetId', 'Its advice set is deleted: recover the advice set first.')
  if (target.scenarioId !== null && !(await findScenario(db, target.scenarioId))) {
    throw new ValidationError('scenarioId', 'Its scenario is deleted: restore the scenario first.')
  }
}

export async function restoreKeywordMap(deps: Deps, actor: Actor, id: number): Promise<KeywordMapView> {
  const row = await writable(deps.db, actor, id, { includeDeleted: true })
  if (row.deletedAt === null) throw new ValidationError('id', 'This keyword map is not deleted.')
  await assertTargetLive(deps.db, row)
  await deps.db.transaction(async (tx) => {
    const restored = await updateKeywordMap(tx, id, { deletedAt: null, updatedBy: actor.userId })
    await audit(tx, actor, { ownerId: row.ownerId, action: 'restore', entityType: ENTITY_KEYWORD_MAP, entityId: id, before: snapshot(row), after: snapshot(restored) })
  })
  return viewById(deps, actor, id)
}

/** The activity log's restore: the map as a snapshot describes it (null: undoing its creation deletes it). One `restore` row. */
export async function restoreKeywordMapSnapshot(deps: Deps, actor: Actor, id: number, target: KeywordMapSnapshot | null): Promise<void> {
  const row = await writable(deps.db, actor, id, { includeDeleted: true })
  const deleteIt = target === null || target.deleted
  if (deleteIt && row.deletedAt !== null) throw new ValidationError('id', 'This keyword map is already deleted.')
  const fields = deleteIt ? {} : { name: target!.name, phrases: target!.phrases, adviceSetId: target!.adviceSetId, scenarioId: target!.scenarioId }
  if (!deleteIt) await assertTargetLive(deps.db, { adviceSetId: target!.adviceSetId, scenarioId: target!.scenarioId })
  await deps.db.transaction(async (tx) => {
    const restored = await updateKeywordMap(tx, id, { ...fields, deletedAt: deleteIt ? new Date() : null, updatedBy: actor.userId })
    await audit(tx, actor, { ownerId: row.ownerId, action: 'restore', entityType: ENTITY_KEYWORD_MAP, entityId: id, before: snapshot(row), after: snapshot(restored) })
  })
}

// A live map keeps its scenario from being deleted.
registerScenarioUse(ENTITY_KEYWORD_MAP, async (db, scenarioId) =>
  (await listKeywordMaps(db, { scenarioId, limit: LIST_LIMIT })).map((row) => ({ id: row.map.id, name: row.map.name, uri: `/admin/keywordMap/${row.map.id}` })))
