// One search index behind one interface: PostgreSQL full-text (default) or Meilisearch (MEILI_URL).
import type { Db } from '../db/client.ts'
import type { Highlight } from './text.ts'

/** What is indexed for one object: the SPEC §3 search-hit fields, plus text that is searched but not returned. */
export interface SearchDocument {
  objectID: string
  entityType: { id: number; displayName: string }
  ownerId: string
  ownerName: string
  name: string
  name_alt: string
  uri: string
  nodeId: number | null
  rule: { id: number } | null
  /** The set the object belongs to; null for a dictionary entry kept for its owner as a whole. */
  adviceset: { id: number; name: string; name_alt: string; isPublic: boolean; isStarter: boolean } | null
  tags: string[]
  /** Descriptions, content, expressions: found by search, ranked after name and name_alt, never returned. */
  text: string
  updatedAt: Date
}

export type SearchHit = Omit<SearchDocument, 'text' | 'updatedAt'> & {
  _highlightResult: { name: Highlight; name_alt: Highlight }
}

/** Attributes that can be filtered on and counted as facets (Algolia dotted names). */
export const FILTER_FIELDS = [
  'entityType.id', 'entityType.displayName', 'ownerId', 'ownerName', 'tags', 'adviceset.id', 'adviceset.isPublic', 'adviceset.isStarter',
] as const
export type FilterField = (typeof FILTER_FIELDS)[number]

export function isFilterField(name: string): name is FilterField {
  return (FILTER_FIELDS as readonly string[]).includes(name)
}

export interface Condition {
  field: FilterField
  value: string | number | boolean
}

/** Every clause must hold; a clause holds when any of its conditions does (Algolia facetFilters). */
export type Filter = Condition[][]

export interface SearchQuery {
  text: string
  filter: Filter
  facets: FilterField[]
  /** 0-based. */
  page: number
  hitsPerPage: number
  highlightPreTag: string
  highlightPostTag: string
}

export interface SearchResult {
  hits: SearchHit[]
  nbHits: number
  page: number
  nbPages: number
  hitsPerPage: number
  facets: Partial<Record<FilterField, Record<string, number>>>
  /** False when nbHits and facet counts stop at MAX_HITS_REACHABLE matches rather than counting them all. */
  exhaustive: boolean
}

export interface SearchIndexStats {
  documents: number
  /** Whatever else the implementation can tell (e.g. lexicon size, pending tasks on the server). */
  details: Record<string, number | string | boolean>
}

export interface SearchIndex {
  readonly kind: 'postgres' | 'meilisearch'
  upsert(documents: SearchDocument[]): Promise<void>
  /** How many of the objects were in the index (and are gone now). */
  delete(objectIDs: string[]): Promise<number>
  search(query: SearchQuery): Promise<SearchResult>
  clear(): Promise<void>
  /**
   * For a rebuild that keeps answering searches: marks this moment, and gives what removes every document not written
   * since (how many it removed). An index without it is emptied before a rebuild.
   */
  markForSweep?(): Promise<() => Promise<number>>
  stats(): Promise<SearchIndexStats>
  /**
   * The same index writing through a transaction. Required of any index stored in the application's database: the
   * indexer writes inside its transaction, and on PGlite a write outside it would wait for it forever.
   */
  inTransaction?(tx: Db): SearchIndex
}

/** Deep pages cost much and help little (Algolia's paginationLimitedTo); counting stops here too. */
export const MAX_HITS_REACHABLE = 1000
