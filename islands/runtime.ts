// The common chunk every page loads: React, the shared modules and the islands present on every page.
import { mountIslands } from './runtime/mount.ts'
import { notificationsIsland } from './notifications/index.ts'
import { timezonePromptIsland } from './timezone-prompt/index.ts'
import type { IslandRegistry } from './shared/define-island.ts'

const sharedIslands: IslandRegistry = {
  'notifications': notificationsIsland,
  'timezone-prompt': timezonePromptIsland,
}

export function mountPage(pageIslands: IslandRegistry): boolean {
  return mountIslands(document, { ...sharedIslands, ...pageIslands })
}
