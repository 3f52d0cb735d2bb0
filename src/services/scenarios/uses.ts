// What uses a scenario (SPEC §7 advicescenario {id}/list-uses), and so keeps it from being deleted (221). Each kind
// of user registers itself here under its type name; list-uses answers every registered kind, empty or not, so a
// client sees what could use a scenario. Keyword maps (which point at a scenario to prefill its answers) are the
// first kind; their module calls registerScenarioUse('keywordmap', …).
import type { Db } from '../../db/client.ts'
import { findDependents, registerDependentCheck } from '../authoring/dependents.ts'
import type { Dependent } from '../errors.ts'
import { ENTITY_SCENARIO } from './access.ts'

export type ScenarioUseCheck = (db: Db, scenarioId: number) => Promise<Array<Omit<Dependent, 'type'>>>

/** The kinds of things that can use a scenario, in the order list-uses shows them. */
const useTypes: string[] = ['keywordmap']

/** Adds a kind of user of scenarios; what `check` finds blocks a delete and is listed under `type`. */
export function registerScenarioUse(type: string, check: ScenarioUseCheck): void {
  if (!useTypes.includes(type)) useTypes.push(type)
  registerDependentCheck(ENTITY_SCENARIO, async (db, id) => (await check(db, id)).map((use) => ({ ...use, type })))
}

/** Everything that uses the scenario, by kind; every kind is present (an empty list when nothing of it does). */
export async function scenarioUses(db: Db, scenarioId: number): Promise<Record<string, Dependent[]>> {
  const uses: Record<string, Dependent[]> = Object.fromEntries(useTypes.map((type) => [type, []]))
  for (const dependent of await findDependents(db, ENTITY_SCENARIO, scenarioId)) (uses[dependent.type] ??= []).push(dependent)
  return uses
}
