import { defineIsland } from '../shared/define-island.ts'
import { parseScenarioForkProps } from './props.ts'
import { ScenarioFork } from './scenario-fork.tsx'

export const scenarioForkIsland = defineIsland(ScenarioFork, parseScenarioForkProps)
