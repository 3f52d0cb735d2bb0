// gen-branches/{id} starts from an advice scenario's answers: the scenario read with the actor's rights (404 when it is
// not there, not readable, or of another set).
import type { Actor, Deps } from '../context.ts'
import { NotFoundError } from '../errors.ts'
import { getScenario } from './scenarios.ts'

export interface ScenarioStart {
  name: string
  /** Raw answers by variable name, as the scenario stores them. */
  inputs: Record<string, unknown>
  /** YYYY-MM-DD, or null for "now". */
  runAsOf: string | null
}

export async function scenarioStartingAnswers(deps: Deps, actor: Actor, adviceSetId: number, scenarioId: number): Promise<ScenarioStart> {
  const scenario = await getScenario(deps, actor, scenarioId)
  if (scenario.adviceSetId !== adviceSetId) throw new NotFoundError('No advice scenario with this id')
  return { name: scenario.name, inputs: scenario.inputs, runAsOf: scenario.runAsOf }
}
