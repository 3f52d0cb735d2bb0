import { fileUploaderIsland } from '../file-uploader/index.ts'
import { inlineEditorIsland } from '../inline-editor/index.ts'
import { screenerIsland } from '../screener/index.ts'
import { setImportIsland } from '../set-import/index.ts'
import { tagPickerIsland } from '../tag-picker/index.ts'
import type { IslandRegistry } from '../shared/define-island.ts'

export { mountPage } from '../runtime.ts'

export const islands: IslandRegistry = {
  'file-uploader': fileUploaderIsland,
  'inline-editor': inlineEditorIsland,
  'screener': screenerIsland,
  'set-import': setImportIsland,
  'tag-picker': tagPickerIsland,
}
