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
