// Advice scenarios: list, read, create, change, copy, delete and restore, each checked against the set's rights and
// audited in its own transaction. A scenario's status is its latest run's (runs.ts stores them).
import { keysetPageBy } from '../../db/queries/keyset-page.ts'
import type { Db } from '../../db/client.ts'
import {
  countScenarioList, countScenariosByStatus, findRun, findScenariosOfSet, insertScenario, insertScenarios, listRuns, listScenarios, updateScenario as updateScenarioRow,
  type ScenarioListRow, type ScenarioRow, type ScenarioStatusFilter,
} from '../../db/queries/scenarios.ts'
import { compileAdviceSet } from '../../engine/index.ts'
import { buildAdviceSetModel } from '../authoring/advice-set-model.ts'
import { assertNoDependents } from '../authoring/dependents.ts'
import { audit } from '../audit/audit.ts'
import { canReadSet, canWriteOwned, setVisibility } from '../accounts/visibility.ts'
import { setAllowed, type SetRef } from '../library/set-ref.ts'
import type { Actor, Deps } from '../context.ts'
import { NotFoundError, ValidationError } from '../errors.ts'
import {
  ENTITY_SCENARIO, readableScenario, readableSetOf, scenarioSnapshot, writableScenario, writableSetOf, type ScenarioSnapshot,
} from './access.ts'
import { parseScenarioChanges, type ScenarioInput } from './fields.ts'
import { FOCUS_COMPLETE, expectedFromRun, type ScenarioDifferences } from './outcome.ts'
import { runAnswers, sourceLabel } from './runs.ts'
import { scenarioUses } from './uses.ts'

export { ENTITY_SCENARIO }
export type { ScenarioInput }

/** A scenario's status: its latest run's, or notRun. */
export type ScenarioStatus = ScenarioStatusFilter
export const SCENARIO_STATUSES: readonly ScenarioStatus[] = ['pass', 'fail', 'error', 'notRun']
export const SCENARIO_INDEX_PAGE = 50
export const RECENT_SCENARIOS = 15

export interface ScenarioItem extends ScenarioRow {
  adviceSetName: string
  adviceSetOwnerId: string
  status: ScenarioStatus
  lastRun: {
    id: number; status: ScenarioStatus; ranAt: Date; versionId: number | null; source: string; userName: string | null
    differences: ScenarioDifferences | null; errorMessage: string | null
  } | null
  canWrite: boolean
}

function itemOf(actor: Actor, row: ScenarioListRow): ScenarioItem {
  const last = row.lastRun
  return {
    ...row.scenario,
    adviceSetName: row.set.name,
    adviceSetOwnerId: row.set.ownerId,
    status: last?.status ?? 'notRun',
    lastRun: last ? {
      id: last.id, status: last.status, ranAt: last.ranAt, versionId: last.versionId, source: sourceLabel(last.versionNumber), userName: last.userName,
      differences: last.differences, errorMessage: last.errorMessage,
    } : null,
    canWrite: canWriteOwned(actor, row.set.ownerId),
  }
}

function statusFilter(raw: unknown): ScenarioStatus | undefined {
  if (raw === undefined || raw === '' || raw === null) return undefined
  if (typeof raw === 'string' && (SCENARIO_STATUSES as readonly string[]).includes(raw)) return raw as ScenarioStatus
  throw new ValidationError('status', `status: must be one of ${SCENARIO_STATUSES.join(', ')}.`)
}

// Reading ----------------------------------------------------------------------------------------------------------------

/** A set's live scenarios by name with their status, optionally only one status. */
export async function listSetScenarios(deps: Deps, actor: Actor, adviceSetId: number, opts: { status?: unknown } = {}) {
  const set = await readableSetOf(deps.db, actor, adviceSetId)
  const rows = await listScenarios(deps.db, { adviceSetId: set.id, status: statusFilter(opts.status), limit: 10_000 })
  return rows.map((row) => itemOf(actor, row))
}

/**
 * advicescenario/index: scenarios across the sets the actor reads, by set and status, a page at a time: by number
 * (`page`), or after the last scenario shown (`afterId`, the answer's `next`), which costs the same however deep.
 */
export async function listScenarioIndex(deps: Deps, actor: Actor, opts: { adviceSetId?: number; status?: unknown; text?: string; page?: number; afterId?: number }) {
  if (opts.adviceSetId !== undefined) await readableSetOf(deps.db, actor, opts.adviceSetId)
  if (opts.afterId !== undefined && opts.page !== undefined) throw new ValidationError('after', 'after: give after or page, not both.')
  const page = Math.max(1, opts.page ?? 1)
  const filter = { visibility: setVisibility(actor), adviceSetId: opts.adviceSetId, status: statusFilter(opts.status), text: opts.text?.trim() || undefined }
  const [rows, total] = await Promise.all([
    listScenarios(deps.db, { ...filter, limit: SCENARIO_INDEX_PAGE + 1, ...(opts.afterId === undefined ? { offset: (page - 1) * SCENARIO_INDEX_PAGE } : { afterId: opts.afterId }) }),
    countScenarioList(deps.db, filter),
  ])
  const { shown, nextAfter } = keysetPageBy(rows, SCENARIO_INDEX_PAGE, (row) => row.scenario.id)
  return {
    items: shown.map((row) => itemOf(actor, row)), total, page: opts.afterId === undefined ? page : null, pageSize: SCENARIO_INDEX_PAGE,
    next: nextAfter === null ? null : String(nextAfter),
  }
}

/** advicescenario/recent: the scenarios the actor made, changed or ran most recently. */
export async function recentScenarios(deps: Deps, actor: Actor) {
  const rows = await listScenarios(deps.db, { visibility: setVisibility(actor), touchedBy: actor.userId, order: 'recent', limit: RECENT_SCENARIOS })
  return rows.map((row) => itemOf(actor, row))
}

export async function getScenario(deps: Deps, actor: Actor, id: number): Promise<ScenarioItem> {
  const { scenario, set } = await readableScenario(deps.db, actor, id)
  const rows = await listScenarios(deps.db, { adviceSetId: set.id, limit: 1, ids: [scenario.id] })
  if (!rows[0]) throw new NotFoundError('No advice scenario with this id')
  return itemOf(actor, rows[0])
}

/** A deleted scenario of the set, by id and name, for the list's "deleted: undo" note; null when it is not one. */
export async function deletedScenarioOf(deps: Deps, actor: Actor, adviceSetId: number, id: number): Promise<{ id: number; name: string } | null> {
  try {
    const { scenario } = await readableScenario(deps.db, actor, id, { includeDeleted: true })
    return scenario.deletedAt && scenario.adviceSetId === adviceSetId ? { id: scenario.id, name: scenario.name } : null
  } catch (error) {
    if (error instanceof NotFoundError) return null
    throw error
  }
}

/** How many scenarios a set has and how many fail (or cannot run): the set page's "Scenarios" entry. */
export async function scenarioCounts(deps: Deps, actor: Actor, adviceSet: SetRef) {
  const set = await setAllowed(deps.db, adviceSet, (s) => canReadSet(actor, s))
  const counts = await countScenariosByStatus(deps.db, set.id)
  return { ...counts, total: counts.pass + counts.fail + counts.error + counts.notRun, failing: counts.fail + counts.error }
}

/** A scenario's runs, newest first, with who ran them and against what. */
export async function scenarioRunHistory(deps: Deps, actor: Actor, id: number, limit = 50) {
  const { scenario } = await readableScenario(deps.db, actor, id)
  return (await listRuns(deps.db, scenario.id, limit)).map((run) => ({ ...run, source: sourceLabel(run.versionNumber) }))
}

export async function getScenarioRun(deps: Deps, actor: Actor, scenarioId: number, runId: number) {
  const { scenario } = await readableScenario(deps.db, actor, scenarioId)
  const run = await findRun(deps.db, runId)
  if (!run || run.scenarioId !== scenario.id) throw new NotFoundError('No run with this id for this advice scenario')
  return { ...run, source: sourceLabel(run.versionNumber) }
}

/** list-uses: what uses the scenario, by kind (keyword maps, …); every kind is present. */
export async function listScenarioUses(deps: Deps, actor: Actor, id: number) {
  const { scenario } = await readableScenario(deps.db, actor, id)
  return scenarioUses(deps.db, scenario.id)
}

// Writing ----------------------------------------------------------------------------------------------------------------

async function draftCompiled(db: Db, adviceSetId: number) {
  return compileAdviceSet(await buildAdviceSetModel(db, adviceSetId))
}

/**
 * A new scenario in a set the actor writes. Without `expected`, the expected outcome is what the answers give on the
 * working draft now (its advice and focus; no variables), which is what "save this run" means.
 */
export async function createScenario(deps: Deps, actor: Actor, input: ScenarioInput & { adviceSetId: number }): Promise<ScenarioRow> {
  const set = await writableSetOf(deps.db, actor, input.adviceSetId)
  const compiled = await draftCompiled(deps.db, set.id)
  const changes = await parseScenarioChanges({ ...input, name: input.name ?? '' }, compiled)
  const inputs = changes.inputs ?? {}
  const runAsOf = changes.runAsOf ?? null
  const pinnedResponses = changes.pinnedResponses ?? {}
  const expected = changes.expected ?? expectedFromRun(await runAnswers(deps, set.ownerId, compiled, { inputs, runAsOf, pinnedResponses }, { now: new Date() }))
  return deps.db.transaction(async (tx) => {
    const scenario = await insertScenario(tx, {
      adviceSetId: set.id, name: changes.name!, description: changes.description ?? '', inputs, runAsOf, expected, pinnedResponses,
      createdBy: actor.userId,
    })
    await audit(tx, actor, { ownerId: set.ownerId, action: 'create', entityType: ENTITY_SCENARIO, entityId: scenario.id, after: scenarioSnapshot(scenario) })
    return scenario
  })
}

export async function updateScenario(deps: Deps, actor: Actor, id: number, input: ScenarioInput): Promise<ScenarioRow> {
  const { scenario, set } = await writableScenario(deps.db, actor, id)
  const changes = await parseScenarioChanges(input, await draftCompiled(deps.db, set.id))
  if (Object.keys(changes).length === 0) throw new ValidationError('name', 'Nothing to change: send name, description, inputs, runAsOf, expected or pinnedResponses.')
  return deps.db.transaction(async (tx) => {
    const updated = await updateScenarioRow(tx, scenario.id, { ...changes, updatedBy: actor.userId })
    await audit(tx, actor, { ownerId: set.ownerId, action: 'update', entityType: ENTITY_SCENARIO, entityId: id, before: scenarioSnapshot(scenario), after: scenarioSnapshot(updated) })
    return updated
  })
}

/** A new scenario from an existing one in the same set; `overrides` replaces any of its fields (default name "Copy of …"). */
export async function copyScenario(deps: Deps, actor: Actor, id: number, overrides: ScenarioInput = {}): Promise<ScenarioRow> {
  const { scenario, set } = await writableScenario(deps.db, actor, id)
  const changes = await parseScenarioChanges({ ...overrides, name: overrides.name === undefined || overrides.name === '' ? `Copy of ${scenario.name}`.slice(0, 200) : overrides.name }, await draftCompiled(deps.db, set.id))
  return deps.db.transaction(async (tx) => {
    const copy = await insertScenario(tx, {
      adviceSetId: set.id, name: changes.name!, description: changes.description ?? scenario.description, inputs: changes.inputs ?? scenario.inputs,
      runAsOf: changes.runAsOf !== undefined ? changes.runAsOf : scenario.runAsOf, expected: changes.expected ?? scenario.expected,
      pinnedResponses: changes.pinnedResponses ?? scenario.pinnedResponses, createdBy: actor.userId,
    })
    await audit(tx, actor, { ownerId: set.ownerId, action: 'create', entityType: ENTITY_SCENARIO, entityId: copy.id, after: { ...scenarioSnapshot(copy), copiedFrom: scenario.id } })
    return copy
  })
}

/**
 * With a copy of a whole advice set: its live scenarios, pointing at the copied nodes (`nodeIds`: new id by old; nodes
 * that were not copied, such as rules of other sets, keep their id). Part of the set copy's transaction and of its
 * audit row (`copied.scenarios`); their runs stay with the originals. Returns how many were copied.
 */
export async function copyScenariosOfSet(tx: Db, actor: Actor, fromSetId: number, toSetId: number, nodeIds: ReadonlyMap<number, number>): Promise<number> {
  const moved = (id: string) => String(nodeIds.get(Number(id)) ?? id)
  const scenarios = await findScenariosOfSet(tx, fromSetId)
  await insertScenarios(tx, scenarios.map((s) => ({
    adviceSetId: toSetId, name: s.name, description: s.description, inputs: s.inputs, runAsOf: s.runAsOf, pinnedResponses: s.pinnedResponses, createdBy: actor.userId,
    expected: { ...s.expected, advice: s.expected.advice.map(moved), focus: s.expected.focus === FOCUS_COMPLETE ? FOCUS_COMPLETE : moved(s.expected.focus) },
  })))
  return scenarios.length
}

/** Marks the scenario deleted (its runs stay); refused with 221 while something uses it. */
export async function deleteScenario(deps: Deps, actor: Actor, id: number): Promise<void> {
  const { scenario, set } = await writableScenario(deps.db, actor, id)
  await assertNoDependents(deps.db, ENTITY_SCENARIO, scenario.id, `The advice scenario “${scenario.name}”`)
  await deps.db.transaction(async (tx) => {
    const deleted = await updateScenarioRow(tx, scenario.id, { deletedAt: new Date(), updatedBy: actor.userId })
    await audit(tx, actor, { ownerId: set.ownerId, action: 'delete', entityType: ENTITY_SCENARIO, entityId: id, before: scenarioSnapshot(scenario), after: scenarioSnapshot(deleted) })
  })
}

export async function restoreScenario(deps: Deps, actor: Actor, id: number): Promise<ScenarioRow> {
  const { scenario, set } = await writableScenario(deps.db, actor, id, { includeDeleted: true })
  if (!scenario.deletedAt) throw new ValidationError('id', 'This advice scenario is not deleted.')
  return deps.db.transaction(async (tx) => {
    const restored = await updateScenarioRow(tx, scenario.id, { deletedAt: null, updatedBy: actor.userId })
    await audit(tx, actor, { ownerId: set.ownerId, action: 'restore', entityType: ENTITY_SCENARIO, entityId: id, before: scenarioSnapshot(scenario), after: scenarioSnapshot(restored) })
    return restored
  })
}

/**
 * Restoring from the activity log: puts the scenario back as a snapshot describes it (its fields, deleted or not),
 * as it was, without checking it against today's set (its next run says how it fares); null (undoing its creation)
 * deletes it, refused with 221 while something uses it. One `restore` row.
 */
export async function restoreScenarioSnapshot(deps: Deps, actor: Actor, id: number, target: ScenarioSnapshot | null): Promise<ScenarioRow> {
  const { scenario, set } = await writableScenario(deps.db, actor, id, { includeDeleted: true })
  const deleteIt = target === null || target.deleted
  if (deleteIt && scenario.deletedAt) throw new ValidationError('id', 'This advice scenario is already deleted.')
  if (deleteIt) await assertNoDependents(deps.db, ENTITY_SCENARIO, scenario.id, `The advice scenario “${scenario.name}”`)
  const fields = deleteIt ? {} : {
    name: target!.name, description: target!.description, inputs: target!.inputs, runAsOf: target!.runAsOf, expected: target!.expected,
    // Snapshots from before pinned responses existed have none.
    pinnedResponses: target!.pinnedResponses ?? {},
  }
  return deps.db.transaction(async (tx) => {
    const restored = await updateScenarioRow(tx, scenario.id, { ...fields, deletedAt: deleteIt ? new Date() : null, updatedBy: actor.userId })
    await audit(tx, actor, { ownerId: set.ownerId, action: 'restore', entityType: ENTITY_SCENARIO, entityId: id, before: scenarioSnapshot(scenario), after: scenarioSnapshot(restored) })
    return restored
  })
}
