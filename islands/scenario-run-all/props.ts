// The scenario-run-all island's props, rendered by the scenario list (src/http/pages/advice-scenario.ts).
import { InvalidPropsError } from '../shared/invalid-props.ts'
import { isRecord } from '../shared/guards.ts'

export interface RunSourceOption { value: string; label: string }

export interface ScenarioRunAllProps {
  adviceSetId: number
  /** The set's scenario pages, `/adviceset/{id}/advicescenario`. */
  base: string
  sources: RunSourceOption[]
  /** Scenarios in the set: nothing to run when 0. */
  total: number
  failingOnly: boolean
}

function parseSource(raw: unknown): RunSourceOption {
  if (!isRecord(raw) || typeof raw.value !== 'string' || typeof raw.label !== 'string') throw new InvalidPropsError('every source needs a value and a label')
  return { value: raw.value, label: raw.label }
}

export function parseScenarioRunAllProps(raw: unknown): ScenarioRunAllProps {
  if (!isRecord(raw) || typeof raw.adviceSetId !== 'number' || typeof raw.base !== 'string' || !Array.isArray(raw.sources) || raw.sources.length === 0) {
    throw new InvalidPropsError('scenario-run-all needs an advice set id, base path and sources')
  }
  return {
    adviceSetId: raw.adviceSetId, base: raw.base, sources: raw.sources.map(parseSource),
    total: typeof raw.total === 'number' ? raw.total : 0, failingOnly: raw.failingOnly === true,
  }
}
