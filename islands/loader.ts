// Entry script of every page. It mounts the plain-DOM islands itself and imports the page's area chunk (which
// brings React) only when an island is left that needs it, then marks <main> so tests and scripts can wait on
// state. Kept free of React so pages without React islands load no React at all.
import { areaForPage } from './loader/pages.ts'
import type { Area } from './loader/pages.ts'
import { loadChunk } from './loader/chunks.ts'
import { reloadWhenRestoredFromHistory } from './loader/fresh-on-back.ts'
import type { AreaModule } from './areas/area.ts'
import { startEntitySync } from './entity-sync/index.ts'
import { mountJobsPanel } from './jobs-panel/index.ts'
import { mountNotifications } from './notifications/index.ts'
import { mountScenarioBySet } from './scenario-by-set/index.ts'
import { mountSearchBox } from './search-box/index.ts'
import { mountTimezonePrompt } from './timezone-prompt/index.ts'

// Areas whose pages have React islands so far.
const AREA_CHUNKS: Partial<Record<Area, () => Promise<AreaModule>>> = {
  admin: () => import('./areas/admin.ts'),
  advicescenario: () => import('./areas/advicescenario.ts'),
  entity: () => import('./areas/entity.ts'),
  externalapi: () => import('./areas/externalapi.ts'),
  publish: () => import('./areas/publish.ts'),
  media: () => import('./areas/media.ts'),
  rule: () => import('./areas/rule.ts'),
  ruleset: () => import('./areas/ruleset.ts'),
  user: () => import('./areas/user.ts'),
}

/**
 * Islands written without React, mounted by the loader itself so they work before (and without) the React
 * runtime. Notifications come first so the others can notify while mounting.
 */
const PLAIN_ISLANDS: Readonly<Record<string, (element: HTMLElement) => void>> = {
  'notifications': mountNotifications,
  'timezone-prompt': mountTimezonePrompt,
  'search-box': mountSearchBox,
  'jobs-panel': mountJobsPanel,
  'scenario-by-set': mountScenarioBySet,
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

/** Islands neither mounted nor failed yet: the ones only an area chunk can mount, if any can. */
function pendingIslands(): HTMLElement[] {
  return [...document.querySelectorAll<HTMLElement>('[data-island]:not([data-island-state])')]
}

/** Returns false when the area chunk failed to load or one of its islands failed to mount. */
async function mountAreaIslands(page: string, area: Area | undefined, pending: HTMLElement[]): Promise<boolean> {
  const load = area && AREA_CHUNKS[area]
  if (!load) {
    // Islands without code keep their server-rendered fallback.
    for (const element of pending) console.debug(`Unknown island: ${element.dataset.island ?? ''}`)
    return true
  }
  let module: AreaModule
  try {
    module = await loadChunk(area, load)
  } catch (error) {
    console.error(`Failed to load page module: ${page}`, error)
    return false
  }
  return module.mountPage(module.islands)
}

async function start(): Promise<void> {
  const main = document.querySelector<HTMLElement>('main[data-page]')
  let state = 'failed'
  try {
    const page = main?.dataset.page ?? ''
    const area = areaForPage(page)
    if (!area) console.warn(`Unknown page module: ${page}`)
    // Every page keeps the names it shows current when an entry is renamed, here or in another tab.
    startEntitySync()
    const plainMounted = mountPlainIslands()
    const pending = pendingIslands()
    const areaMounted = pending.length === 0 || await mountAreaIslands(page, area, pending)
    if (plainMounted && areaMounted) state = 'mounted'
  } catch (error) {
    console.error('Failed to load the island runtime', error)
  }
  main?.setAttribute('data-island-state', state)
}

reloadWhenRestoredFromHistory()
void start()
