// MERGE POINT (issue 14 part 1): gen-branches/{id} starts from an advice scenario's answers. Advice scenarios are
// built on another branch (issue-14); until it is merged, no scenario exists, so this answers "not found". At the
// merge, wire this one function to the scenarios service: read scenario `scenarioId` of set `adviceSetId` with the
// actor's rights (404 when it is not there or not readable) and return its name, answers and "run as of" date.
import type { Actor, Deps } from '../context.ts'
import { NotFoundError } from '../errors.ts'

export interface ScenarioStart {
  name: string
  /** Raw answers by variable name, as the scenario stores them. */
  inputs: Record<string, unknown>
  /** YYYY-MM-DD, or null for "now". */
  runAsOf: string | null
}

export async function scenarioStartingAnswers(_deps: Deps, _actor: Actor, _adviceSetId: number, _scenarioId: number): Promise<ScenarioStart> {
  throw new NotFoundError('No advice scenario with this id')
}
