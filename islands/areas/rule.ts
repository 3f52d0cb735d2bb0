import { inlineEditorIsland } from '../inline-editor/index.ts'
import { ruleDebugIsland } from '../rule-debug/index.ts'
import { ruleStatsIsland } from '../rule-stats/index.ts'
import { ruleTreeIsland } from '../rule-tree/index.ts'
import type { IslandRegistry } from '../shared/define-island.ts'

export { mountPage } from '../runtime.ts'

export const islands: IslandRegistry = {
  'inline-editor': inlineEditorIsland,
  'rule-debug': ruleDebugIsland,
  'rule-stats': ruleStatsIsland,
  'rule-tree': ruleTreeIsland,
}
