// instantsearch.js speaks Algolia: multi-query requests in, Algolia-shaped results out. This turns one request's
// params into what the index understands (filters are only ever narrowed here — visibility is added by the service)
// and one index result back into an Algolia result.
import { ValidationError } from '../services/errors.ts'
import { MAX_QUERY_LENGTH } from './text.ts'
import { FILTER_FIELDS, isFilterField, type Filter, type FilterField, type SearchResult } from './types.ts'

/** SPEC §9. */
export const HITS_PER_PAGE = 15
export const DEFAULT_HIGHLIGHT_PRE_TAG = '<mark>'
export const DEFAULT_HIGHLIGHT_POST_TAG = '</mark>'
const MAX_TAG_LENGTH = 100
const MAX_PAGE = 1000

export interface RequestedSearch {
  query: string
  page: number
  facets: FilterField[]
  /** The client's own facetFilters: they can narrow, never widen, what visibility allows. */
  facetFilters: Filter
  highlightPreTag: string
  highlightPostTag: string
  searchFilter: unknown
}

export function parseParams(params: Record<string, unknown>): RequestedSearch {
  return {
    query: typeof params.query === 'string' ? params.query.slice(0, MAX_QUERY_LENGTH) : '',
    page: parsePage(params.page),
    facets: parseFacets(params.facets),
    facetFilters: parseFacetFilters(params.facetFilters),
    highlightPreTag: parseTag(params.highlightPreTag, DEFAULT_HIGHLIGHT_PRE_TAG),
    highlightPostTag: parseTag(params.highlightPostTag, DEFAULT_HIGHLIGHT_POST_TAG),
    searchFilter: params.searchFilter,
  }
}

function parsePage(raw: unknown): number {
  const page = typeof raw === 'string' ? Number(raw) : raw
  return typeof page === 'number' && Number.isInteger(page) && page >= 0 ? Math.min(page, MAX_PAGE) : 0
}

function parseTag(raw: unknown, fallback: string): string {
  return typeof raw === 'string' && raw.length <= MAX_TAG_LENGTH ? raw : fallback
}

function asList(raw: unknown): unknown[] {
  if (raw === undefined || raw === null) return []
  if (typeof raw === 'string') return raw.startsWith('[') ? asList(parseJson(raw)) : [raw]
  return Array.isArray(raw) ? raw : [raw]
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw)
  } catch {
    throw new ValidationError('facetFilters', 'facetFilters is not valid JSON.')
  }
}

function parseFacets(raw: unknown): FilterField[] {
  const names = asList(raw)
  if (names.includes('*')) return [...FILTER_FIELDS]
  return [...new Set(names.map((name) => {
    if (typeof name !== 'string' || !isFilterField(name)) throw new ValidationError('facets', `Unknown facet ${JSON.stringify(name)}; facets are ${FILTER_FIELDS.join(', ')}.`)
    return name
  }))]
}

function parseFacetFilters(raw: unknown): Filter {
  return asList(raw).map((group) => asList(group).map((item) => {
    if (typeof item !== 'string') throw new ValidationError('facetFilters', 'facetFilters holds "attribute:value" strings.')
    const colon = item.indexOf(':')
    const field = item.slice(0, colon)
    if (colon < 0 || !isFilterField(field)) throw new ValidationError('facetFilters', `Cannot filter on ${JSON.stringify(item)}; filters are ${FILTER_FIELDS.join(', ')}.`)
    return { field, value: item.slice(colon + 1) }
  }))
}

export function algoliaResult(result: SearchResult, request: RequestedSearch, indexName: string, startedAt: number) {
  const { exhaustive, ...rest } = result
  return {
    ...rest,
    processingTimeMS: Math.round(performance.now() - startedAt),
    query: request.query,
    params: new URLSearchParams({ query: request.query, page: String(request.page), hitsPerPage: String(HITS_PER_PAGE) }).toString(),
    index: indexName,
    exhaustiveNbHits: exhaustive,
    exhaustiveFacetsCount: exhaustive,
  }
}
