// The screener's instantsearch.js widgets (issue 6 point 6), loaded by the screener island: search box,
// refinement lists (entity type, owner, tags, public, starter), hits, pagination and stats, with the state in
// the URL. Results come from /api/search through the same searchClient as the search box, with filter "all":
// the refinement lists narrow from there, and the server decides visibility.
import instantsearch from 'instantsearch.js/es/index.js'
import { history } from 'instantsearch.js/es/lib/routers/index.js'
import { configure, hits, pagination, refinementList, searchBox, stats } from 'instantsearch.js/es/widgets/index.js'
import { parseSearchContext } from '../search-box/context.ts'
import { FACETS, HIGHLIGHT_POST_TAG, HIGHLIGHT_PRE_TAG, QUERY_MAX_LENGTH } from '../search-box/constants.ts'
import { hitView, parseHit } from '../search-box/hit.ts'
import { createSearchClient, pageCsrfToken } from '../search-box/search-client.ts'
import { facetValueLabel, withoutFiltersLabel } from './labels.ts'
import { allHitsOfResults } from '../search-box/filter.ts'
import { routeFromSearchParams, routeFromUiState, searchParamsFromRoute, uiStateFromRoute } from './routing.ts'
import type { IndexUiState, ScreenerRoute } from './routing.ts'

// instantsearch.js's declaration files use extension-less relative imports, which NodeNext resolution cannot
// follow, so its exports arrive untyped: the callbacks below state the shapes they rely on.
type UiState = Record<string, IndexUiState>
type Html = (strings: TemplateStringsArray, ...values: unknown[]) => unknown
interface FacetItem { label: string, highlighted?: string }

export interface ScreenerOptions {
  indexName: string
}

function container(root: HTMLElement, name: string): HTMLElement {
  const found = root.querySelector<HTMLElement>(`[data-widget="${name}"]`)
  if (!found) throw new Error(`The screener has no container for ${name}`)
  return found
}

function facetList(root: HTMLElement, key: keyof typeof FACETS, showMore = false) {
  const attribute = FACETS[key]
  return refinementList({
    container: container(root, key),
    attribute,
    limit: 10,
    showMore,
    showMoreLimit: 50,
    sortBy: ['isRefined', 'count:desc', 'name:asc'],
    // The item template shows `highlighted` (facet search is off here, so it is the plain value).
    transformItems: (items: FacetItem[]) => items.map((item) => {
      const label = facetValueLabel(attribute, item.label)
      return { ...item, label, highlighted: label }
    }),
  })
}

/** Starts the widgets inside `root`; returns a function that stops them. */
export function startScreener(root: HTMLElement, options: ScreenerOptions): () => void {
  const context = parseSearchContext(document.getElementById('app-context')?.textContent)
  const searchClient = createSearchClient({ searchFilter: () => 'all', csrfToken: pageCsrfToken })
  const indexName = options.indexName

  const search = instantsearch({
    indexName,
    searchClient,
    future: { preserveSharedStateOnUnmount: true },
    routing: {
      router: history<ScreenerRoute>({
        cleanUrlOnDispose: false,
        parseURL: ({ location }: { location: Location }) => routeFromSearchParams(new URLSearchParams(location.search)),
        createURL: ({ routeState, location }: { routeState: ScreenerRoute, location: Location }) => {
          const query = searchParamsFromRoute(routeState).toString()
          return `${location.pathname}${query ? `?${query}` : ''}`
        },
      }),
      stateMapping: {
        stateToRoute: (uiState: UiState) => routeFromUiState(uiState[indexName]),
        routeToState: (route: ScreenerRoute): UiState => ({ [indexName]: uiStateFromRoute(route) }),
      },
    },
  })

  /** Keeps the text, drops every refinement (and the page). */
  function clearRefinements(): void {
    search.setUiState((state: UiState) => ({ [indexName]: { query: state[indexName]?.query ?? '' } }))
  }

  search.addWidgets([
    // The server escapes highlighted values and inserts these tags; instantsearch must not escape them again.
    configure({ highlightPreTag: HIGHLIGHT_PRE_TAG, highlightPostTag: HIGHLIGHT_POST_TAG }),
    searchBox({
      container: container(root, 'search'),
      placeholder: 'Search Advice Library',
      autofocus: true,
      showLoadingIndicator: true,
      queryHook: (query: string, run: (query: string) => void) => run(query.slice(0, QUERY_MAX_LENGTH)),
      templates: { submit: () => 'Submit', reset: () => 'Clear' },
    }),
    facetList(root, 'entityType'),
    facetList(root, 'owner', true),
    facetList(root, 'tags', true),
    facetList(root, 'isPublic'),
    facetList(root, 'isStarter'),
    stats({ container: container(root, 'stats') }),
    hits({
      container: container(root, 'hits'),
      escapeHTML: false,
      templates: {
        // Refinements that leave nothing while the text alone finds something: said, with a one-click way out.
        empty: (results: unknown, { html }: { html: Html }) => {
          const allHits = allHitsOfResults(results)
          if (allHits === 0) return 'No results'
          return html`<p class="screener-widen">No results with these filters.
            <button type="button" class="screener-widen__button" onClick=${clearRefinements}>${withoutFiltersLabel(allHits)}</button></p>`
        },
        item: (raw: unknown, { html }: { html: Html }) => {
          const hit = parseHit(raw)
          if (!hit) return ''
          const view = hitView(hit, { currentOwnerId: context.currentOwnerId, currentAdviceSetId: null })
          const title = view.title.map((part) => (part.marked ? html`<mark class="search-hit__match">${part.text}</mark>` : part.text))
          return html`<a class=${view.badge ? 'screener-hit search-hit--suggested' : 'screener-hit'} href=${view.uri}>
            <span class=${`search-hit__icon ${view.iconClass}`} aria-hidden="true" title=${view.typeName}></span>
            <span class="visually-hidden">${view.typeName}: </span>
            <span class="search-hit__body">
              <span class="search-hit__title">${title}${view.badge ? html` <span class="search-hit__badge">${view.badge}</span>` : ''}</span>
              <span class="search-hit__meta">
                ${view.detail ? html`<span class="search-hit__detail">${view.detail}</span>` : ''}
                ${view.parent ? html`<span class="search-hit__detail">${view.parent}</span>` : ''}
                ${view.byline ? html`<span class="search-hit__detail">${view.byline}</span>` : ''}
              </span>
            </span>
          </a>`
        },
      },
    }),
    pagination({ container: container(root, 'pagination'), padding: 2 }),
  ])
  search.on('render', () => {
    if (search.status === 'idle') root.dataset.searchState = 'ready'
  })
  search.on('error', () => {
    root.dataset.searchState = 'failed'
  })
  search.start()
  return () => search.dispose()
}
