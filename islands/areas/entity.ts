import { dictionaryDialogIsland } from '../dictionary-dialog/index.ts'
import { dictionaryEditorIsland } from '../dictionary-editor/index.ts'
import type { IslandRegistry } from '../shared/define-island.ts'

export { mountPage } from '../runtime.ts'

export const islands: IslandRegistry = {
  'dictionary-dialog': dictionaryDialogIsland,
  'dictionary-editor': dictionaryEditorIsland,
}
