import t from 'tap'
import { advancedSearchUrl } from '../../../islands/search-box/advanced-search.ts'
import { parseSearchContext } from '../../../islands/search-box/context.ts'
import { searchBody } from '../../../islands/search-box/search-client.ts'
import { facetValueLabel } from '../../../islands/screener/labels.ts'
import {
  routeFromSearchParams, routeFromUiState, searchParamsFromRoute, uiStateFromRoute,
} from '../../../islands/screener/routing.ts'

t.test('Advanced Search: the screener with the text and the advice set type', async (t) => {
  t.equal(advancedSearchUrl('mortgage & more'), '/library/search?q=mortgage+%26+more&type=Advice+Set')
  t.equal(advancedSearchUrl('  '), '/library/search?type=Advice+Set', 'no text, only the refinement')
})

t.test('the Advanced Search URL lands on the state it describes', async (t) => {
  const route = routeFromSearchParams(new URL(advancedSearchUrl('pension'), 'http://x').searchParams)
  t.same(uiStateFromRoute(route), { query: 'pension', refinementList: { 'entityType.displayName': ['Advice Set'] } })
})

t.test('URL ↔ route ↔ instantsearch ui state round-trip', async (t) => {
  const url = 'q=tax&type=Advice+Set&owner=Acme&owner=Advice+Studio&tag=Needs+Work&public=true&starter=false&page=3'
  const route = routeFromSearchParams(new URLSearchParams(url))
  t.same(route, {
    query: 'tax',
    refinements: { entityType: ['Advice Set'], owner: ['Acme', 'Advice Studio'], tags: ['Needs Work'], isPublic: ['true'], isStarter: ['false'] },
    page: 3,
  })
  const ui = uiStateFromRoute(route)
  t.same(ui, {
    query: 'tax',
    refinementList: {
      'entityType.displayName': ['Advice Set'], 'ownerName': ['Acme', 'Advice Studio'], 'tags': ['Needs Work'],
      'adviceset.isPublic': ['true'], 'adviceset.isStarter': ['false'],
    },
    page: 3,
  })
  t.same(routeFromUiState(ui), route)
  t.equal(searchParamsFromRoute(route).toString(), url)
})

t.test('an empty or odd URL is the empty state; page 1 is not written', async (t) => {
  const empty = routeFromSearchParams(new URLSearchParams('page=abc&type='))
  t.same(empty, { query: '', refinements: {}, page: 1 })
  t.same(uiStateFromRoute(empty), {})
  t.equal(searchParamsFromRoute(routeFromUiState({ query: 'x', page: 1, refinementList: { tags: [] } })).toString(), 'q=x')
  t.same(routeFromUiState(undefined), { query: '', refinements: {}, page: 1 })
})

t.test('the search body caps the query at 512 and carries the filter on every request', async (t) => {
  const body = searchBody([{ indexName: 'advice_updatedAt', params: { query: 'x'.repeat(600), page: 0, searchFilter: 'all' } }], 'starters')
  t.equal((body.requests[0]?.params?.query as string).length, 512)
  t.equal(body.requests[0]?.params?.searchFilter, 'starters', 'the stored filter wins over whatever params said')
  t.equal(body.requests[0]?.params?.page, 0)
  t.same(searchBody([{ indexName: 'i' }], 'all'), { requests: [{ indexName: 'i', params: { searchFilter: 'all' } }] })
})

t.test('app context: owner, current advice set and rule ids as strings; garbage is an empty context', async (t) => {
  t.same(parseSearchContext('{"currentUser":{"ownerId":"acme"},"currentAdviceSet":{"id":3},"currentRule":{"id":"5"}}'),
    { currentOwnerId: 'acme', currentAdviceSetId: '3', currentRuleId: '5' })
  const empty = { currentOwnerId: null, currentAdviceSetId: null, currentRuleId: null }
  t.same(parseSearchContext('{"currentUser":null,"currentRule":null,"currentAdviceSet":null}'), empty)
  t.same(parseSearchContext('not json'), empty)
  t.same(parseSearchContext(null), empty)
})

t.test('flag facets read as words', async (t) => {
  t.equal(facetValueLabel('adviceset.isPublic', 'true'), 'Public')
  t.equal(facetValueLabel('adviceset.isStarter', 'false'), 'Not a starter')
  t.equal(facetValueLabel('ownerName', 'true'), 'true')
})
