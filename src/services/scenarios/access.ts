// Who may do what with advice scenarios: they belong to their advice set, so readers of the set read them and writers
// of the set write (and run) them. A set the actor cannot read, or a deleted one, is a 404; a viewer's write a 403.
import type { Db } from '../../db/client.ts'
import { findAdviceSet, type AdviceSetRow } from '../../db/queries/advice-sets.ts'
import { findScenario, type ScenarioRow } from '../../db/queries/scenarios.ts'
import type { Actor } from '../context.ts'
import { NotFoundError } from '../errors.ts'
import { assertWritable, canReadSet } from '../accounts/visibility.ts'

/** The audit log's (and dependents registry's) name for scenarios. */
export const ENTITY_SCENARIO = 'advicescenario'

export async function readableSetOf(db: Db, actor: Actor, adviceSetId: number): Promise<AdviceSetRow> {
  const set = await findAdviceSet(db, adviceSetId)
  if (!set || !canReadSet(actor, set)) throw new NotFoundError('No advice set with this id')
  return set
}

export async function writableSetOf(db: Db, actor: Actor, adviceSetId: number): Promise<AdviceSetRow> {
  const set = await readableSetOf(db, actor, adviceSetId)
  assertWritable(actor, set, 'advice set')
  return set
}

export interface ScenarioWithSet { scenario: ScenarioRow; set: AdviceSetRow }

export async function readableScenario(db: Db, actor: Actor, id: number, opts: { includeDeleted?: boolean } = {}): Promise<ScenarioWithSet> {
  const scenario = await findScenario(db, id, opts)
  const set = scenario ? await findAdviceSet(db, scenario.adviceSetId) : undefined
  if (!scenario || !set || !canReadSet(actor, set)) throw new NotFoundError('No advice scenario with this id')
  return { scenario, set }
}

export async function writableScenario(db: Db, actor: Actor, id: number, opts: { includeDeleted?: boolean } = {}): Promise<ScenarioWithSet> {
  const found = await readableScenario(db, actor, id, opts)
  assertWritable(actor, found.set, 'advice scenario')
  return found
}

/** What the activity log keeps of a scenario; restoring puts these fields back. */
export function scenarioSnapshot(s: ScenarioRow) {
  return {
    id: s.id, name: s.name, adviceSetId: s.adviceSetId, parentId: s.adviceSetId, description: s.description,
    inputs: s.inputs, runAsOf: s.runAsOf, expected: s.expected, pinnedResponses: s.pinnedResponses, deleted: s.deletedAt !== null,
  }
}

export type ScenarioSnapshot = ReturnType<typeof scenarioSnapshot>
