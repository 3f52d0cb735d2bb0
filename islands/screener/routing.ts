// The screener's state in the URL (issue 6 point 6): plain, readable parameters — q, type, owner, tag, public,
// starter (repeatable) and page (1-based) — so links like the search box's "Advanced Search" and the no-JS
// form (?q=) land on the same state.
import { SCREENER_PARAMS } from '../search-box/advanced-search.ts'
import { FACETS } from '../search-box/constants.ts'

export type RefinementKey = 'entityType' | 'owner' | 'tags' | 'isPublic' | 'isStarter'

export const REFINEMENT_KEYS: readonly RefinementKey[] = ['entityType', 'owner', 'tags', 'isPublic', 'isStarter']

export interface ScreenerRoute {
  query: string
  refinements: Partial<Record<RefinementKey, string[]>>
  /** 1-based, as people read it. */
  page: number
}

export interface IndexUiState {
  query?: string
  refinementList?: Record<string, string[]>
  /** instantsearch's page, also 1-based in uiState. */
  page?: number
}

export function routeFromSearchParams(params: URLSearchParams): ScreenerRoute {
  const refinements: ScreenerRoute['refinements'] = {}
  for (const key of REFINEMENT_KEYS) {
    const values = params.getAll(SCREENER_PARAMS[key]).filter((value) => value !== '')
    if (values.length > 0) refinements[key] = values
  }
  const page = Number.parseInt(params.get(SCREENER_PARAMS.page) ?? '', 10)
  return { query: params.get(SCREENER_PARAMS.query) ?? '', refinements, page: Number.isFinite(page) && page > 1 ? page : 1 }
}

export function searchParamsFromRoute(route: ScreenerRoute): URLSearchParams {
  const params = new URLSearchParams()
  if (route.query !== '') params.set(SCREENER_PARAMS.query, route.query)
  for (const key of REFINEMENT_KEYS) {
    for (const value of route.refinements[key] ?? []) params.append(SCREENER_PARAMS[key], value)
  }
  if (route.page > 1) params.set(SCREENER_PARAMS.page, String(route.page))
  return params
}

export function routeFromUiState(state: IndexUiState | undefined): ScreenerRoute {
  const refinements: ScreenerRoute['refinements'] = {}
  for (const key of REFINEMENT_KEYS) {
    const values = state?.refinementList?.[FACETS[key]]
    if (values && values.length > 0) refinements[key] = [...values]
  }
  return { query: state?.query ?? '', refinements, page: state?.page && state.page > 1 ? state.page : 1 }
}

export function uiStateFromRoute(route: ScreenerRoute): IndexUiState {
  const refinementList: Record<string, string[]> = {}
  for (const key of REFINEMENT_KEYS) {
    const values = route.refinements[key]
    if (values && values.length > 0) refinementList[FACETS[key]] = [...values]
  }
  const state: IndexUiState = {}
  if (route.query !== '') state.query = route.query
  if (Object.keys(refinementList).length > 0) state.refinementList = refinementList
  if (route.page > 1) state.page = route.page
  return state
}
