import { defineIsland } from '../shared/define-island.ts'
import { parseScenarioRunAllProps } from './props.ts'
import { ScenarioRunAll } from './run-all.tsx'

export const scenarioRunAllIsland = defineIsland(ScenarioRunAll, parseScenarioRunAllProps)
