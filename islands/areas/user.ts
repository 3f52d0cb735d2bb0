import { copySecretIsland } from '../copy-secret/index.ts'
import { inlineEditorIsland } from '../inline-editor/index.ts'
import type { IslandRegistry } from '../shared/define-island.ts'

export { mountPage } from '../runtime.ts'

export const islands: IslandRegistry = {
  'copy-secret': copySecretIsland,
  'inline-editor': inlineEditorIsland,
}
