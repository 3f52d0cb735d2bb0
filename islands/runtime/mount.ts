// Mounts every `[data-island]` element whose code is known, replacing its server-rendered fallback.
import { createRoot } from 'react-dom/client'
import { flushSync } from 'react-dom'
import type { IslandDefinition, IslandRegistry } from '../shared/define-island.ts'
import { readIslandProps } from '../shared/read-props.ts'

function mountIsland(element: HTMLElement, name: string, island: IslandDefinition): void {
  const content = island.render(readIslandProps(element, name))
  const root = createRoot(element)
  // Rendering synchronously means `data-island-state="mounted"` is only set once the island's DOM is in place.
  flushSync(() => root.render(content))
  element.dataset.islandState = 'mounted'
}

/** Returns false when an island with known code failed to mount; islands without code keep their fallback. */
export function mountIslands(root: ParentNode, registry: IslandRegistry): boolean {
  let allMounted = true
  for (const element of root.querySelectorAll<HTMLElement>('[data-island]')) {
    const name = element.dataset.island ?? ''
    // Plain-DOM islands (the loader's own) are already mounted or failed; React must not take them over.
    if (element.dataset.islandState) continue
    const island = Object.hasOwn(registry, name) ? registry[name] : undefined
    if (!island) {
      console.debug(`Unknown island: ${name}`)
      continue
    }
    try {
      mountIsland(element, name, island)
    } catch (error) {
      console.error(`Island ${name} failed to mount`, error)
      element.dataset.islandState = 'failed'
      allMounted = false
    }
  }
  return allMounted
}
