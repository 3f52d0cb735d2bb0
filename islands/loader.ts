// Entry script of every page: reads the page marker, loads the page's area chunk (which carries the common
// runtime) or, for pages without page islands, the runtime alone, mounts the islands and marks <main> so tests
// and scripts can wait on state. Kept free of React so it stays tiny.
import { areaForPage } from './loader/pages.ts'
import type { Area } from './loader/pages.ts'
import { loadChunk } from './loader/chunks.ts'
import type { AreaModule } from './areas/area.ts'

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

async function start(): Promise<void> {
  const main = document.querySelector<HTMLElement>('main[data-page]')
  let state = 'failed'
  try {
    const { module, complete } = await loadPageModule(main?.dataset.page ?? '')
    if (module.mountPage(module.islands) && complete) state = 'mounted'
  } catch (error) {
    console.error('Failed to load the island runtime', error)
  }
  main?.setAttribute('data-island-state', state)
}

void start()
