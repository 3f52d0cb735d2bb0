// Page name (the `data-page` marker, DESIGN.md page-name table) → the area chunk that holds its islands.

export const AREAS = [
  'admin', 'dashboard', 'advicescenario', 'publish', 'rule', 'ruleset',
  'media', 'entity', 'externalapi', 'auth', 'user',
] as const

export type Area = (typeof AREAS)[number]

const PAGE_AREAS: Readonly<Record<string, Area>> = {
  'index': 'dashboard',
  'sign-in': 'auth',
  'sign-up': 'auth',
  'password-reset': 'auth',
  'user-page': 'user',
  'admin-export': 'admin',
  'support': 'admin',
  'keyword-map': 'admin',
  'tag': 'admin',
  'api-keys': 'admin',
  'api-keys-usage': 'admin',
  'rule-set-index': 'ruleset',
  'screener': 'ruleset',
  'bulk-editor': 'ruleset',
  'explore': 'ruleset',
  'rule-set-show': 'ruleset',
  'rule-set-form': 'ruleset',
  'import': 'ruleset',
  'rule-set-activity': 'ruleset',
  'rule-set-embed': 'ruleset',
  'rule-set-delete': 'ruleset',
  'rule-set-publish-index': 'publish',
  'publish-assign': 'publish',
  'publish-version-show': 'publish',
  'rule-new': 'rule',
  'rule-show': 'rule',
  'rule-debug': 'rule',
  'rule-delete': 'rule',
  'advice-scenario-index': 'advicescenario',
  'generate-branches': 'advicescenario',
  'tree-builder': 'advicescenario',
  'generate-summary': 'advicescenario',
  'media-index': 'media',
  'entity-page': 'entity',
  'external-api-form': 'externalapi',
}

function isArea(name: string): name is Area {
  return (AREAS as readonly string[]).includes(name)
}

/**
 * Pages the SPEC leaves unnamed use `area-action` names (DESIGN.md), e.g. `admin-users-new`,
 * so their first segment names the area.
 */
export function areaForPage(page: string): Area | undefined {
  if (Object.hasOwn(PAGE_AREAS, page)) return PAGE_AREAS[page]
  const prefix = page.split('-', 1)[0] ?? ''
  return isArea(prefix) ? prefix : undefined
}
