// The React side of the islands, loaded only by pages with a React island: every area chunk re-exports
// mountPage, so esbuild puts React and this code into one chunk the areas share.
import { mountIslands } from './runtime/mount.ts'
import type { IslandRegistry } from './shared/define-island.ts'

export function mountPage(pageIslands: IslandRegistry): boolean {
  return mountIslands(document, pageIslands)
}
