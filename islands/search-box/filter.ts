// The search filter (SPEC.md §4): which results the search box asks for, kept in localStorage so it survives
// pages. Values: the advice-set entity type id (advice sets only), "starters" (starter advice sets), "all".
import { ENTITY_TYPES } from '../../src/engine/entity-types.ts'

export const SEARCH_FILTER_KEY = 'searchFilterEntityTypes'
export const ADVICE_SET_FILTER = String(ENTITY_TYPES.adviceSet.id)

export type SearchFilter = typeof ADVICE_SET_FILTER | 'starters' | 'all'

export const DEFAULT_SEARCH_FILTER: SearchFilter = 'starters'

export const SEARCH_FILTER_CHOICES: ReadonlyArray<{ value: SearchFilter, label: string }> = [
  { value: 'starters', label: 'Starters' },
  { value: ADVICE_SET_FILTER, label: ENTITY_TYPES.adviceSet.plural },
  { value: 'all', label: 'All' },
]

export function parseSearchFilter(raw: string | null | undefined): SearchFilter {
  return SEARCH_FILTER_CHOICES.find((choice) => choice.value === raw)?.value ?? DEFAULT_SEARCH_FILTER
}

type FilterStorage = Pick<Storage, 'getItem' | 'setItem'>

export function readSearchFilter(storage: FilterStorage): SearchFilter {
  try {
    return parseSearchFilter(storage.getItem(SEARCH_FILTER_KEY))
  } catch {
    // Storage can be switched off (private modes, policies): the default still works.
    return DEFAULT_SEARCH_FILTER
  }
}

export function writeSearchFilter(storage: FilterStorage, filter: SearchFilter): void {
  try {
    storage.setItem(SEARCH_FILTER_KEY, filter)
  } catch {
    // Not stored means the choice lasts for this page only, which is all the user can have then.
  }
}

/** The filter's label, as the panel's choice shows it. */
export function searchFilterLabel(filter: SearchFilter): string {
  return SEARCH_FILTER_CHOICES.find((choice) => choice.value === filter)?.label ?? filter
}

/** `allHitsOf` of the first response behind an algoliasearch-helper / instantsearch result object. */
export function allHitsOfResults(results: unknown): number {
  const raw = typeof results === 'object' && results !== null && '_rawResults' in results ? results._rawResults : undefined
  return Array.isArray(raw) ? allHitsOf(raw[0]) : 0
}

/**
 * How many results "All" would give, from a search response that found nothing under a narrower filter (the
 * server's `allHits`, src/services/search.ts); 0 when it does not say.
 */
export function allHitsOf(rawResult: unknown): number {
  const allHits = typeof rawResult === 'object' && rawResult !== null && 'allHits' in rawResult ? rawResult.allHits : undefined
  return typeof allHits === 'number' && Number.isSafeInteger(allHits) && allHits > 0 ? allHits : 0
}

/** The one-click switch's wording: "Show 3 results under All". */
export function widenLabel(allHits: number): string {
  return `Show ${allHits} result${allHits === 1 ? '' : 's'} under ${searchFilterLabel('all')}`
}
