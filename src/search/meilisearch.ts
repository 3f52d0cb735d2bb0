// Meilisearch behind the same interface (chosen when MEILI_URL is set). Documents are the hit fields plus `text` and
// a numeric `updatedAt`; ranking puts name before name_alt before text (searchableAttributes order), then newest.
import { Meilisearch, type Index } from 'meilisearch'
import { escapeHtml, fold, queryWords, withinOneEdit, type Highlight } from './text.ts'
import {
  FILTER_FIELDS, MAX_HITS_REACHABLE, type Condition, type Filter, type SearchDocument, type SearchHit, type SearchIndex,
  type SearchIndexStats, type SearchQuery, type SearchResult,
} from './types.ts'

type MeiliDocument = Omit<SearchDocument, 'updatedAt'> & { updatedAt: number }

// Meilisearch marks matches with these; the text is then escaped and they become the caller's tags.
const PRE = '\u0002'
const POST = '\u0003'
const MARKED = /\u0002([^\u0003]*)\u0003/g

function quote(value: string | number | boolean): string {
  if (typeof value !== 'string') return String(value)
  return `"${value.replace(/["\\]/g, (c) => `\\${c}`)}"`
}

function conditionExpression(c: Condition): string {
  const value = c.field === 'adviceset.isPublic' || c.field === 'adviceset.isStarter' ? c.value === true || c.value === 'true'
    : c.field === 'entityType.id' || c.field === 'adviceset.id' ? (Number.isSafeInteger(Number(c.value)) ? Number(c.value) : -1)
    : String(c.value)
  return `${c.field} = ${quote(value)}`
}

export function filterExpression(filter: Filter): string | undefined {
  if (filter.length === 0) return undefined
  return filter.map((clause) => clause.length === 0 ? 'objectID NOT EXISTS' : `(${clause.map(conditionExpression).join(' OR ')})`).join(' AND ')
}

function toHighlight(marked: string, query: string[], pre: string, post: string): Highlight {
  const found = [...marked.matchAll(MARKED)].map((m) => fold(m[1]!))
  const matchedWords = query.filter((w) => found.some((f) => f.startsWith(w) || w.startsWith(f) || withinOneEdit(w, f)))
  const value = escapeHtml(marked).replace(MARKED, (_, inner: string) => `${pre}${inner}${post}`)
  return { value, matchLevel: matchedWords.length === 0 ? 'none' : matchedWords.length === query.length ? 'full' : 'partial', matchedWords }
}

export class MeiliSearchIndex implements SearchIndex {
  readonly kind = 'meilisearch'
  private readonly client: Meilisearch
  private readonly index: Index<MeiliDocument>
  private ready: Promise<void> | null = null

  constructor(opts: { host: string; apiKey?: string; indexName: string }) {
    this.client = new Meilisearch({ host: opts.host, apiKey: opts.apiKey })
    this.index = this.client.index<MeiliDocument>(opts.indexName)
  }

  /** Index settings once per process; createIndex on an existing index fails harmlessly inside its task. */
  private configured(): Promise<void> {
    this.ready ??= (async () => {
      await this.client.createIndex(this.index.uid, { primaryKey: 'objectID' }).waitTask()
      await this.index.updateSettings({
        searchableAttributes: ['name', 'name_alt', 'text'],
        filterableAttributes: [...FILTER_FIELDS],
        sortableAttributes: ['updatedAt'],
        rankingRules: ['words', 'typo', 'proximity', 'attribute', 'sort', 'exactness'],
        typoTolerance: { minWordSizeForTypos: { oneTypo: 4, twoTypos: 100 } },
        pagination: { maxTotalHits: MAX_HITS_REACHABLE },
      }).waitTask()
    })().catch((error: unknown) => { this.ready = null; throw error })
    return this.ready
  }

  async upsert(documents: SearchDocument[]): Promise<void> {
    if (documents.length === 0) return
    await this.configured()
    await this.index.addDocuments(documents.map((d) => ({ ...d, updatedAt: d.updatedAt.getTime() }))).waitTask()
  }

  async delete(objectIDs: string[]): Promise<number> {
    if (objectIDs.length === 0) return 0
    await this.configured()
    const task = await this.index.deleteDocuments(objectIDs).waitTask()
    return task.details?.deletedDocuments ?? 0
  }

  async clear(): Promise<void> {
    await this.configured()
    await this.index.deleteAllDocuments().waitTask()
  }

  async stats(): Promise<SearchIndexStats> {
    await this.configured()
    const stats = await this.index.getStats()
    return { documents: stats.numberOfDocuments, details: { isIndexing: stats.isIndexing } }
  }

  async search(q: SearchQuery): Promise<SearchResult> {
    await this.configured()
    const response = await this.index.search(q.text, {
      filter: filterExpression(q.filter),
      facets: q.facets,
      page: q.page + 1,
      hitsPerPage: q.hitsPerPage,
      sort: ['updatedAt:desc'],
      attributesToHighlight: ['name', 'name_alt'],
      highlightPreTag: PRE,
      highlightPostTag: POST,
    })
    const words = queryWords(q.text).map((w) => w.word)
    const hits: SearchHit[] = response.hits.map((hit) => ({
      objectID: hit.objectID, entityType: hit.entityType, ownerId: hit.ownerId, ownerName: hit.ownerName, name: hit.name,
      name_alt: hit.name_alt, uri: hit.uri, nodeId: hit.nodeId, rule: hit.rule, adviceset: hit.adviceset, tags: hit.tags,
      _highlightResult: {
        name: toHighlight(hit._formatted?.name ?? hit.name, words, q.highlightPreTag, q.highlightPostTag),
        name_alt: toHighlight(hit._formatted?.name_alt ?? hit.name_alt, words, q.highlightPreTag, q.highlightPostTag),
      },
    }))
    return {
      hits,
      nbHits: response.totalHits,
      page: q.page,
      nbPages: response.totalPages,
      hitsPerPage: q.hitsPerPage,
      facets: Object.fromEntries(q.facets.map((f) => [f, response.facetDistribution?.[f] ?? {}])),
      exhaustive: true,
    }
  }
}
