import { apiDefinitionIsland } from '../api-definition/index.ts'
import type { IslandRegistry } from '../shared/define-island.ts'

export { mountPage } from '../runtime.ts'

export const islands: IslandRegistry = {
  'api-definition': apiDefinitionIsland,
}
