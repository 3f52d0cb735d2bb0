// The pages and JSON lists the big tenant's admin opens (issue 29 part 3): bench:scale times them, and the query-plan
// test explains every statement they send.
/**
 * Where the tenant's own things are: its first set (published, with half the records), its 200-node rule and that rule's
 * first top-level node, a key, the
 * variable its conditions use (Age); and
 * the library's deep page, one that every tenant compared has: PGlite's smaller tenant has 21 pages, and its page 50
 * showed no set at all, so the comparison was of a page of 24 cards against an empty one.
 */
export interface ScaleIds { setId: number; ruleId: number; nodeId: number; keyId: number; deepPage: number; variableId: number }

/** The deepest library page compared: the 50th, or the last full one of the smallest tenant if it has fewer. */
export function deepLibraryPage(fewestLiveSets: number, pageSize: number): number {
  return Math.max(1, Math.min(50, Math.floor(fewestLiveSets / pageSize)))
}

export interface ScalePage { name: string; method: 'GET' | 'POST'; url: (ids: ScaleIds) => string; body?: unknown; json?: boolean }

const typeAhead = (query: string) => ({ requests: [{ indexName: 'advice_updatedAt', params: { query, searchFilter: 'all' } }] })
const screener = (query: string) => ({ requests: [{ indexName: 'advice_updatedAt', params: { query, searchFilter: 'all', facets: ['entityType.displayName', 'ownerName', 'tags', 'adviceset.isPublic', 'adviceset.isStarter'] } }] })

export const SCALE_PAGES: ScalePage[] = [
  { name: 'library', method: 'GET', url: () => '/library' },
  { name: 'library, by name', method: 'GET', url: () => '/library?sort=name' },
  { name: 'library, a deep page', method: 'GET', url: (t) => `/library?page=${t.deepPage}` },
  { name: 'library, a word', method: 'GET', url: () => '/library?q=pension' },
  { name: 'library classic', method: 'GET', url: () => '/library/classic' },
  { name: 'library bulk editor', method: 'GET', url: () => '/library/bulkeditor' },
  { name: 'library search page', method: 'GET', url: () => '/library/search?q=pension' },
  { name: 'explore', method: 'GET', url: () => '/explore' },
  { name: 'screener search', method: 'POST', url: () => '/api/search', body: screener('mortgage advice'), json: true },
  { name: 'type-ahead', method: 'POST', url: () => '/api/search', body: typeAhead('pens'), json: true },
  { name: 'activity', method: 'GET', url: () => '/activity' },
  { name: 'activity JSON', method: 'GET', url: () => '/api/activity/index', json: true },
  { name: 'set page', method: 'GET', url: (t) => `/adviceset/${t.setId}/show` },
  { name: 'set activity', method: 'GET', url: (t) => `/adviceset/${t.setId}/activity` },
  { name: '200-node rule page', method: 'GET', url: (t) => `/adviceset/${t.setId}/rule/${t.ruleId}/show` },
  { name: 'scenario index', method: 'GET', url: (t) => `/adviceset/${t.setId}/advicescenario/index` },
  { name: 'every set\'s scenarios JSON', method: 'GET', url: () => '/api/advicescenario/index', json: true },
  { name: 'recent scenarios JSON', method: 'GET', url: () => '/api/advicescenario/recent', json: true },
  { name: 'deleted parts of the 200-node rule JSON', method: 'GET', url: (t) => `/api/activity/roots/deleted?ruleId=${t.ruleId}`, json: true },
  { name: 'deleted parts under a node of the 200-node rule JSON', method: 'GET', url: (t) => `/api/activity/${t.nodeId}/deleted`, json: true },
  { name: 'deleted rules of the set JSON', method: 'GET', url: (t) => `/api/activity/rules/deleted?adviceSetId=${t.setId}`, json: true },
  { name: 'decisions list', method: 'GET', url: (t) => `/adviceset/${t.setId}/decisions` },
  { name: 'decisions JSON', method: 'GET', url: (t) => `/api/adviceset/${t.setId}/decisions`, json: true },
  { name: 'team (users)', method: 'GET', url: () => '/user/team' },
  { name: 'API keys', method: 'GET', url: () => '/admin/apikey' },
  { name: 'what a key is served JSON', method: 'GET', url: (t) => `/api/adviceset/publish-config/${t.keyId}`, json: true },
  { name: 'API key usage', method: 'GET', url: (t) => `/admin/apikey/${t.keyId}/usage` },
  { name: 'tags', method: 'GET', url: () => '/admin/tag' },
  { name: 'keyword maps', method: 'GET', url: () => '/admin/keywordMap' },
  { name: 'dictionary', method: 'GET', url: () => '/admin/dictionary' },
  { name: 'dictionary, by uses', method: 'GET', url: () => '/admin/dictionary/list?sort=uses&dir=desc' },
  { name: 'a variable\'s card', method: 'GET', url: (t) => `/card/variable/${t.variableId}` },
  { name: 'a variable\'s uses JSON', method: 'GET', url: (t) => `/api/entity/${t.variableId}/list-uses`, json: true },
  { name: 'jobs JSON', method: 'GET', url: () => '/api/job', json: true },
  { name: 'export', method: 'GET', url: () => '/admin/export' },
]
