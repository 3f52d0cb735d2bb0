// Entry script of every page: reads the page marker, loads the page's area chunk (which carries the common
// runtime) or, for pages without page islands, the runtime alone, mounts the islands and marks <main> so tests
// and scripts can wait on state. Kept free of React so it stays tiny.
import { areaForPage } from './loader/pages.ts'
import type { Area } from './loader/pages.ts'
import { loadChunk } from './loader/chunks.ts'
import type { AreaModule } from './areas/area.ts'
import { mountSearchBox } from './search-box/index.ts'

// Areas whose pages have islands so far; pages of the other areas only get the shared islands.
const AREA_CHUNKS: Partial<Record<Area, () => Promise<AreaModule>>> = {
  ruleset: () => import('./areas/ruleset.ts'),
  user: () => import('./areas/user.ts'),
}

async function loadRuntime(): Promise<AreaModule> {
  const runtime = await loadChunk('runtime', () => import('./runtime.ts'))
  return { islands: {}, mountPage: runtime.mountPage }
}

async function loadPageModule(page: string): Promise<{ module: AreaModule, complete: boolean }> {
  const area = areaForPage(page)
  if (!area) console.warn(`Unknown page module: ${page}`)
  const load = area && AREA_CHUNKS[area]
  if (!load) return { module: await loadRuntime(), complete: true }
  try {
    return { module: await loadChunk(area, load), complete: true }
  } catch (error) {
    console.error(`Failed to load page module: ${page}`, error)
    // Notifications and the other shared islands still work without the page's own islands.
    return { module: await loadRuntime(), complete: false }
  }
}

/**
 * Islands written without React, mounted by the loader itself so they work before (and without) the React
 * runtime: the search box must stay light on every page (it loads its panel on first interaction).
 */
const PLAIN_ISLANDS: Readonly<Record<string, (element: HTMLElement) => void>> = {
  'search-box': mountSearchBox,
}

function mountPlainIslands(): boolean {
  let allMounted = true
  for (const [name, mount] of Object.entries(PLAIN_ISLANDS)) {
    for (const element of document.querySelectorAll<HTMLElement>(`[data-island="${name}"]`)) {
      try {
        mount(element)
      } catch (error) {
        console.error(`Island ${name} failed to mount`, error)
        element.dataset.islandState = 'failed'
        allMounted = false
      }
    }
  }
  return allMounted
}

async function start(): Promise<void> {
  const main = document.querySelector<HTMLElement>('main[data-page]')
  let state = 'failed'
  try {
    const plainMounted = mountPlainIslands()
    const { module, complete } = await loadPageModule(main?.dataset.page ?? '')
    if (module.mountPage(module.islands) && complete && plainMounted) state = 'mounted'
  } catch (error) {
    console.error('Failed to load the island runtime', error)
  }
  main?.setAttribute('data-island-state', state)
}

void start()
