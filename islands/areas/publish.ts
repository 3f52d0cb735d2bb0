import { taskProgressIsland } from '../task-progress/index.ts'
import type { IslandRegistry } from '../shared/define-island.ts'

export { mountPage } from '../runtime.ts'

/** The publisher pages: the version page's review gate follows a large version's branch generation. */
export const islands: IslandRegistry = {
  'task-progress': taskProgressIsland,
}
