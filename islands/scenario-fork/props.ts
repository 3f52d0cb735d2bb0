// The scenario-fork island's props, rendered by the tree builder (src/http/pages/scenario-tree.ts): the set, and the
// fork panel the page was rendered with (null until a scenario is being forked), as /api/advicescenario/{id}/fork
// answers it.
import type { ForkPanel } from '../../src/services/scenarios/tree.ts'
import { InvalidPropsError } from '../shared/invalid-props.ts'
import { isRecord } from '../shared/guards.ts'

export type { ForkPanel }

export interface ScenarioForkProps {
  adviceSetId: number
  /** The set's scenario pages, `/adviceset/{id}/advicescenario`. */
  base: string
  fork: ForkPanel | null
  /** Refusals the page was rendered with, by field. */
  errors: Record<string, string>
}

/** A fork panel from the server: checked for the parts the island reads before anything else. */
export function parseForkPanel(raw: unknown): ForkPanel {
  if (!isRecord(raw) || !isRecord(raw.scenario) || typeof raw.scenario.id !== 'number' || !Array.isArray(raw.steps) || !isRecord(raw.step) ||
    !isRecord(raw.field) || typeof raw.value !== 'string' || typeof raw.name !== 'string') {
    throw new InvalidPropsError('a fork panel needs its scenario, steps, step, field, value and name')
  }
  return raw as unknown as ForkPanel
}

export function parseScenarioForkProps(raw: unknown): ScenarioForkProps {
  if (!isRecord(raw) || typeof raw.adviceSetId !== 'number' || typeof raw.base !== 'string') {
    throw new InvalidPropsError('scenario-fork needs an advice set id and base path')
  }
  const errors = isRecord(raw.errors) ? Object.fromEntries(Object.entries(raw.errors).filter((e): e is [string, string] => typeof e[1] === 'string')) : {}
  return { adviceSetId: raw.adviceSetId, base: raw.base, fork: raw.fork === null || raw.fork === undefined ? null : parseForkPanel(raw.fork), errors }
}
