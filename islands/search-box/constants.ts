// Search constants from SPEC.md §9, shared by the search box and the screener.

export const HITS_PER_PAGE = 15
export const QUERY_MAX_LENGTH = 512
export const STALL_MS = 300
export const VIEW_DEBOUNCE_MS = 400
export const BLUR_HIDE_MS = 100
export const RESIZE_DEBOUNCE_MS = 20
/** Below this width the search opens as a detached modal (SPEC.md §2). */
export const DETACHED_MEDIA_QUERY = '(max-width: 680px)'

export const SEARCH_API = '/api/search'
/** Used when the page does not name the index; the server answers for its own index either way. */
export const DEFAULT_INDEX_NAME = 'advice_updatedAt'
export const SCREENER_PATH = '/library/search'
export const HIGHLIGHT_PRE_TAG = '<mark>'
export const HIGHLIGHT_POST_TAG = '</mark>'

/** Facet attributes of a search hit (the /api/search contract). */
export const FACETS = {
  entityType: 'entityType.displayName',
  owner: 'ownerName',
  tags: 'tags',
  isPublic: 'adviceset.isPublic',
  isStarter: 'adviceset.isStarter',
} as const

/** DOM event dispatched on `document` once results have been on screen for VIEW_DEBOUNCE_MS. */
export const VIEW_EVENT = 'search:view'
/** DOM event dispatched on a rule page's `[data-node-id]` element when a search result scrolls to it. */
export const SELECT_NODE_EVENT = 'search:select-node'
