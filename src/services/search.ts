// Search use cases: the library search with visibility decided here (SPEC §6), support's object deletion, and the
// full rebuild. One index and one indexer per app (per Deps), created on first use.
import { deleteIndexTasks, indexTaskIds } from '../db/queries/search.ts'
import { ENTITY_TYPES } from '../engine/entity-types.ts'
import { DOCUMENT_MAPPERS } from '../search/documents.ts'
import { fieldValue, hitMatchesFilter } from '../search/filter-match.ts'
import { createSearchIndex, indexNameFor } from '../search/index.ts'
import { algoliaResult, HITS_PER_PAGE, parseParams } from '../search/instantsearch.ts'
import { SEARCH_WAITS_FOR_INDEX_MS, SearchIndexer } from '../search/sync.ts'
import type { Filter, FilterField, SearchIndex, SearchResult } from '../search/types.ts'
import { audit } from './audit/audit.ts'
import { isProviderAdmin, PROVIDER_OWNER_ID, type Actor, type Deps } from './context.ts'
import { ForbiddenError, NotFoundError, ValidationError } from './errors.ts'
import { keywordMapSuggestion, type KeywordMapHit } from './library/keyword-search.ts'

export interface SearchRuntime {
  index: SearchIndex
  indexer: SearchIndexer
  indexName: string
}

const runtimes = new WeakMap<Deps, SearchRuntime>()

export function searchRuntime(deps: Deps): SearchRuntime {
  let runtime = runtimes.get(deps)
  if (!runtime) {
    const index = createSearchIndex(deps.config, deps.db)
    runtime = { index, indexer: new SearchIndexer(deps.db, index, { warn: (obj, msg) => console.warn(msg, obj) }), indexName: indexNameFor(deps.config) }
    runtimes.set(deps, runtime)
  }
  return runtime
}

/** SPEC §4: the search filter is the advice-set entity type id, "starters" or "all"; anything else means the default. */
export type SearchFilterChoice = 'adviceSets' | 'starters' | 'all'

export function searchFilterChoice(raw: unknown): SearchFilterChoice {
  if (raw === 'all') return 'all'
  if (raw === String(ENTITY_TYPES.adviceSet.id) || raw === ENTITY_TYPES.adviceSet.id) return 'adviceSets'
  return 'starters'
}

/**
 * SPEC §6. Provider users see only advice sets unless the filter is all; everyone else sees what the provider owns,
 * what they own, and public advice sets' results; starters also needs a starter set. Starter sets of other owners are
 * found like public ones: DESIGN offers them to every team to read and copy (canReadSet), and search shows what the
 * pages show. Their collaboration data (comments, requests, the set's own supplements) is not indexed; supplements are
 * each owner's own. Provider admins may read every set (DESIGN), so their results are not limited by owner; other
 * provider users are limited like everyone else.
 */
export function visibilityFilter(actor: Actor, choice: SearchFilterChoice): Filter {
  const clauses: Filter = []
  if (!isProviderAdmin(actor)) {
    clauses.push([
      { field: 'ownerId', value: PROVIDER_OWNER_ID },
      { field: 'ownerId', value: actor.ownerId },
      { field: 'adviceset.isPublic', value: true },
      { field: 'adviceset.isStarter', value: true },
    ])
  }
  const providerUser = actor.ownerId === PROVIDER_OWNER_ID
  if (choice === 'adviceSets' || (providerUser && choice !== 'all')) clauses.push([{ field: 'entityType.id', value: ENTITY_TYPES.adviceSet.id }])
  if (choice === 'starters') clauses.push([{ field: 'adviceset.isStarter', value: true }])
  return clauses
}

export interface MultiSearchRequest {
  indexName: string
  params?: Record<string, unknown>
}

/**
 * A keyword map's target goes first on the first page of a search (issue 14 part 6) when it passes the client's own
 * refinements like any hit: the search box sends none, the screener ("Advanced Search") always refines by type, and
 * both must show the target for the same text. The same target among the other hits is not shown twice; otherwise it
 * counts as one more hit, so the stats and pages agree with the list.
 */
function withSuggestion<T extends Omit<SearchResult, 'exhaustive'>>(result: T, suggestion: KeywordMapHit | null, facetFilters: Filter): T {
  if (!suggestion || !hitMatchesFilter(suggestion, facetFilters)) return result
  const others = result.hits.filter((hit) => hit.uri !== suggestion.uri)
  if (others.length < result.hits.length) return { ...result, hits: [suggestion, ...others] }
  return { ...result, hits: [suggestion, ...others], nbHits: result.nbHits + 1, nbPages: Math.max(result.nbPages, 1), facets: countedIn(result.facets, suggestion) }
}

/** Facet counts with one more hit: the screener's refinement list says "Advice Set 1" beside one result, not 0. */
function countedIn(facets: SearchResult['facets'], hit: KeywordMapHit): SearchResult['facets'] {
  const counted: SearchResult['facets'] = {}
  for (const [field, counts] of Object.entries(facets) as Array<[FilterField, Record<string, number>]>) {
    const value = fieldValue(hit, field)
    counted[field] = value === undefined || value === null ? counts : { ...counts, [String(value)]: (counts[String(value)] ?? 0) + 1 }
  }
  return counted
}

/** POST /api/search: each request answered in order, Algolia-shaped. Pending index work is applied first (waited for at most SEARCH_WAITS_FOR_INDEX_MS). */
export async function searchLibrary(deps: Deps, actor: Actor, requests: MultiSearchRequest[]) {
  const runtime = searchRuntime(deps)
  await runtime.indexer.flushWithin(SEARCH_WAITS_FOR_INDEX_MS)
  const suggestions = new Map<string, Promise<KeywordMapHit | null>>()
  const suggestionFor = (query: string) => {
    let found = suggestions.get(query)
    if (!found) suggestions.set(query, found = keywordMapSuggestion(deps, actor, query))
    return found
  }
  const results = []
  for (const request of requests) {
    if (request.indexName !== runtime.indexName) throw new ValidationError('indexName', `Unknown index "${request.indexName}"; the index is "${runtime.indexName}".`)
    const startedAt = performance.now()
    const parsed = parseParams(request.params ?? {})
    const result = await runtime.index.search({
      text: parsed.query,
      filter: [...visibilityFilter(actor, searchFilterChoice(parsed.searchFilter)), ...parsed.facetFilters],
      facets: parsed.facets,
      page: parsed.page,
      hitsPerPage: HITS_PER_PAGE,
      highlightPreTag: parsed.highlightPreTag,
      highlightPostTag: parsed.highlightPostTag,
    })
    const suggested = parsed.page === 0 && parsed.query.trim() !== '' ? await suggestionFor(parsed.query) : null
    const answered = withSuggestion(algoliaResult(result, parsed, runtime.indexName, startedAt), suggested, parsed.facetFilters)
    const choice = searchFilterChoice(parsed.searchFilter)
    const narrowed = choice !== 'all' || parsed.facetFilters.length > 0
    // Nothing under the default "Starters" (or a refinement) while "All" finds something: the client says so and
    // offers the switch (`allHits`, beside the Algolia-shaped fields).
    results.push(answered.nbHits === 0 && narrowed && parsed.query.trim() !== ''
      ? { ...answered, allHits: await countAll(runtime.index, actor, parsed.query) }
      : answered)
  }
  return { results }
}

/** How many results the text has under the filter "All" with no refinement: what the user can see at all. */
async function countAll(index: SearchRuntime['index'], actor: Actor, text: string): Promise<number> {
  const all = await index.search({ text, filter: visibilityFilter(actor, 'all'), facets: [], page: 0, hitsPerPage: 1, highlightPreTag: '', highlightPostTag: '' })
  return all.nbHits
}

/** Support (SPEC §6): a provider admin removes one object from the index, e.g. one left behind by an old bug. */
/** Removes one object from the search index; an ID the index does not hold is a NotFoundError (nothing is recorded). */
export async function deleteSearchObject(deps: Deps, actor: Actor, objectID: string): Promise<void> {
  if (!isProviderAdmin(actor)) throw new ForbiddenError('Only provider admins can delete search objects.')
  const removed = await searchRuntime(deps).index.delete([objectID])
  if (removed === 0) throw new NotFoundError(`Nothing in the search index has the object ID “${objectID}”; nothing was removed.`)
  await deps.db.transaction(async (tx) => {
    await audit(tx, actor, { ownerId: actor.ownerId, action: 'delete', entityType: 'search-object', entityId: objectID })
  })
}

/**
 * Indexes every live searchable entity again. The index's own (PostgreSQL) keeps answering meanwhile: every document is
 * written again over the old one, and those not written since the start (of what is gone) are removed at the end. At
 * full size a rebuild takes minutes, and emptying the index first left search empty or partial all that time.
 * Meilisearch's is emptied first. Outbox rows already committed when it starts are covered by what it reads
 * afterwards, so those (and only those) are dropped at the end. `onProgress` is awaited between batches; a job stops
 * it there by throwing (cancel).
 */
export async function reindexAll(deps: Deps, onProgress: (done: number, total: number) => void | Promise<void> = () => {}): Promise<number> {
  const { index } = searchRuntime(deps)
  const coveredTasks = await indexTaskIds(deps.db)
  const counts = await Promise.all(DOCUMENT_MAPPERS.map((m) => m.count(deps.db)))
  const total = counts.reduce((a, b) => a + b, 0)
  let done = 0
  await onProgress(done, total)
  const sweep = index.markForSweep ? await index.markForSweep() : null
  if (!sweep) await index.clear()
  for (const mapper of DOCUMENT_MAPPERS) {
    for await (const batch of mapper.batches(deps.db, 500)) {
      await index.upsert(batch)
      done += batch.length
      await onProgress(done, total)
    }
  }
  await sweep?.()
  await deleteIndexTasks(deps.db, coveredTasks)
  return done
}

/** The job kind that rebuilds the index (support's "Rebuild the search index", `npm run reindex`). */
export const REINDEX_JOB = 'search.reindex'

export function registerReindexJob(deps: Deps): void {
  deps.jobs.register<Record<string, never>>(REINDEX_JOB, async (_payload, { progress }) => {
    const documents = await reindexAll(deps, (done, total) =>
      progress(total === 0 ? 100 : (done / total) * 100, `${done.toLocaleString('en')} of ${total.toLocaleString('en')} documents`))
    return { documents }
  }, { attempts: 3 })
}

/** Support (provider admins): rebuilds the whole index as a job; its progress shows on the support page. */
export async function startReindex(deps: Deps, actor: Actor) {
  if (!isProviderAdmin(actor)) throw new ForbiddenError('Only provider admins can rebuild the search index.')
  return deps.db.transaction(async (tx) => {
    const job = await deps.jobs.enqueue(tx, { kind: REINDEX_JOB, ownerId: actor.ownerId, userId: actor.userId, subject: SUPPORT_JOB_SUBJECT, title: 'Rebuild the search index', payload: {} })
    await audit(tx, actor, { ownerId: actor.ownerId, action: 'create', entityType: 'job', entityId: job.id, after: { kind: REINDEX_JOB } })
    return job
  })
}

/** Jobs started from the support page. */
export const SUPPORT_JOB_SUBJECT = 'support'
