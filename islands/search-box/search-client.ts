// The custom instantsearch `searchClient`: posts instantsearch's multi-query body to our own /api/search (with
// the session cookie and CSRF header) and adds the search filter (SPEC.md §4) as the `searchFilter` param.
// Visibility is decided by the server; nothing here can widen what comes back.
import { isRecord } from '../shared/guards.ts'
import { QUERY_MAX_LENGTH, SEARCH_API } from './constants.ts'
import type { SearchFilter } from './filter.ts'

export interface SearchRequest {
  indexName: string
  params?: Record<string, unknown>
}

export interface SearchResponse {
  results: Array<Record<string, unknown>>
}

export interface SearchClient {
  search(requests: readonly SearchRequest[]): Promise<SearchResponse>
}

export interface SearchClientOptions {
  searchFilter(): SearchFilter
  csrfToken(): string
  fetch?: typeof fetch
}

export class SearchRequestError extends Error {
  override readonly name = 'SearchRequestError'

  constructor(readonly status: number) {
    super(`Search failed (${status})`)
  }
}

/** The body sent for some requests: the query capped (SPEC.md §5) and the filter added. */
export function searchBody(requests: readonly SearchRequest[], searchFilter: SearchFilter): { requests: SearchRequest[] } {
  return {
    requests: requests.map((request) => {
      const params = { ...request.params }
      if (typeof params.query === 'string') params.query = params.query.slice(0, QUERY_MAX_LENGTH)
      return { indexName: request.indexName, params: { ...params, searchFilter } }
    }),
  }
}

export function createSearchClient(options: SearchClientOptions): SearchClient {
  const send = options.fetch ?? ((input, init) => fetch(input, init))
  return {
    async search(requests) {
      const response = await send(SEARCH_API, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'accept': 'application/json', 'content-type': 'application/json', 'x-csrf-token': options.csrfToken() },
        body: JSON.stringify(searchBody(requests, options.searchFilter())),
      })
      if (!response.ok) throw new SearchRequestError(response.status)
      const body: unknown = await response.json()
      if (!isRecord(body) || !Array.isArray(body.results)) throw new SearchRequestError(response.status)
      return { results: body.results.filter(isRecord) }
    },
  }
}

export function pageCsrfToken(): string {
  return document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? ''
}
