import { scenarioForkIsland } from '../scenario-fork/index.ts'
import { scenarioRunAllIsland } from '../scenario-run-all/index.ts'
import { taskProgressIsland } from '../task-progress/index.ts'
import type { IslandRegistry } from '../shared/define-island.ts'

export { mountPage } from '../runtime.ts'

export const islands: IslandRegistry = {
  'scenario-fork': scenarioForkIsland,
  'scenario-run-all': scenarioRunAllIsland,
  'task-progress': taskProgressIsland,
}
