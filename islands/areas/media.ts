import { copyLinkIsland } from '../copy-link/index.ts'
import { fileUploaderIsland } from '../file-uploader/index.ts'
import type { IslandRegistry } from '../shared/define-island.ts'

export { mountPage } from '../runtime.ts'

export const islands: IslandRegistry = {
  'copy-link': copyLinkIsland,
  'file-uploader': fileUploaderIsland,
}
