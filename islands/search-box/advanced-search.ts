// Links into the screener (/library/search). The screener's URL keeps its state in these plain parameters
// (see islands/screener/routing.ts), so the search box's "Advanced Search" link and the no-JS form share them.
import { ENTITY_TYPES } from '../../src/engine/entity-types.ts'
import { SCREENER_PATH } from './constants.ts'

export const SCREENER_PARAMS = {
  query: 'q',
  entityType: 'type',
  owner: 'owner',
  tags: 'tag',
  isPublic: 'public',
  isStarter: 'starter',
  page: 'page',
} as const

/** "Advanced Search": the screener with the text and a refinement limited to the advice set type. */
export function advancedSearchUrl(query: string): string {
  const params = new URLSearchParams()
  if (query.trim() !== '') params.set(SCREENER_PARAMS.query, query)
  params.set(SCREENER_PARAMS.entityType, ENTITY_TYPES.adviceSet.displayName)
  return `${SCREENER_PATH}?${params.toString()}`
}
