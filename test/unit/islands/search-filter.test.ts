import t from 'tap'
import {
  ADVICE_SET_FILTER, DEFAULT_SEARCH_FILTER, SEARCH_FILTER_KEY, allHitsOfResults, parseSearchFilter, readSearchFilter, searchFilterLabel, widenLabel, writeSearchFilter,
} from '../../../islands/search-box/filter.ts'
import { ENTITY_TYPES } from '../../../src/engine/entity-types.ts'

function memoryStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial))
  return { getItem: (key: string) => items.get(key) ?? null, setItem: (key: string, value: string) => { items.set(key, value) }, items }
}

const broken = {
  getItem: (): string | null => { throw new Error('storage disabled') },
  setItem: (): void => { throw new Error('storage disabled') },
}

t.test('values: the advice-set type id, starters, all; default starters', async (t) => {
  t.equal(SEARCH_FILTER_KEY, 'searchFilterEntityTypes')
  t.equal(ADVICE_SET_FILTER, String(ENTITY_TYPES.adviceSet.id))
  t.equal(DEFAULT_SEARCH_FILTER, 'starters')
  t.equal(parseSearchFilter('all'), 'all')
  t.equal(parseSearchFilter(ADVICE_SET_FILTER), ADVICE_SET_FILTER)
  t.equal(parseSearchFilter('starters'), 'starters')
  t.equal(parseSearchFilter('11'), 'starters', 'another type id is not a choice')
  t.equal(parseSearchFilter(null), 'starters')
})

t.test('stored under the search-filter key and read back', async (t) => {
  const storage = memoryStorage()
  t.equal(readSearchFilter(storage), 'starters')
  writeSearchFilter(storage, 'all')
  t.equal(storage.items.get('searchFilterEntityTypes'), 'all')
  t.equal(readSearchFilter(storage), 'all')
  t.equal(readSearchFilter(memoryStorage({ searchFilterEntityTypes: 'bogus' })), 'starters')
})

t.test('storage that throws falls back to the default and does not break writing', async (t) => {
  t.equal(readSearchFilter(broken), 'starters')
  t.doesNotThrow(() => writeSearchFilter(broken, 'all'))
})

t.test('allHitsOfResults reads the server’s allHits beside an empty result; the switch says how many', async (t) => {
  t.equal(allHitsOfResults({ _rawResults: [{ nbHits: 0, allHits: 3 }] }), 3)
  t.equal(allHitsOfResults({ _rawResults: [{ nbHits: 0 }] }), 0, 'not said: nothing to switch to')
  t.equal(allHitsOfResults({ _rawResults: [{ allHits: '3' }] }), 0)
  t.equal(allHitsOfResults(null), 0)
  t.equal(widenLabel(1), 'Show 1 result under All')
  t.equal(widenLabel(4), 'Show 4 results under All')
  t.equal(searchFilterLabel('starters'), 'Starters')
})
