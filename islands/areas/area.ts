import type { IslandRegistry } from '../shared/define-island.ts'

/**
 * What an area chunk (SPEC.md §2 "Areas loaded on demand") exports: the page islands of its pages, and the
 * runtime's mountPage. Re-exporting the runtime from every area makes esbuild put React and all shared code
 * into one chunk that every page shares, instead of splitting it by which areas happen to use what.
 */
export interface AreaModule {
  islands: IslandRegistry
  mountPage(pageIslands: IslandRegistry): boolean
}
