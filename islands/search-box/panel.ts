// The search box's second stage, loaded on first interaction: runs the search through algoliasearch-helper
// (instantsearch.js's core) with our searchClient, shows the results panel and handles the keyboard
// (SPEC.md §2 "Global search box", §4 states, §9 constants).
import algoliasearchHelper from 'algoliasearch-helper'
import { notify } from '../shared/notify.ts'
import { advancedSearchUrl } from './advanced-search.ts'
import {
  BLUR_HIDE_MS, DEFAULT_INDEX_NAME, HIGHLIGHT_POST_TAG, HIGHLIGHT_PRE_TAG, HITS_PER_PAGE, SELECT_NODE_EVENT,
  VIEW_DEBOUNCE_MS, VIEW_EVENT,
} from './constants.ts'
import { parseSearchContext } from './context.ts'
import { debounce } from './debounce.ts'
import { SEARCH_FILTER_CHOICES, allHitsOfResults, parseSearchFilter, readSearchFilter, searchFilterLabel, widenLabel, writeSearchFilter } from './filter.ts'
import type { SearchFilter } from './filter.ts'
import { hitView, parseHit } from './hit.ts'
import type { SearchHit } from './hit.ts'
import type { SearchBoxParts } from './index.ts'
import { keyAction, nextActiveIndex, openTarget } from './keyboard.ts'
import type { OpenTarget } from './keyboard.ts'
import { setModal } from './modal.ts'
import { renderHit } from './render.ts'
import { createSearchClient, pageCsrfToken } from './search-client.ts'
import { ALREADY_VIEWING, chooseSelection, domRulePage } from './selection.ts'
import { trackStatus } from './status.ts'

export interface SearchViewDetail {
  query: string
  objectIDs: string[]
  searchFilter: SearchFilter
}

const PANEL_ID = 'search-box-panel'
const LIST_ID = 'search-box-results'

type HelperSearchClient = Parameters<typeof algoliasearchHelper>[0]
type SearchResults = algoliasearchHelper.SearchResults

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag)
  node.className = className
  if (text !== undefined) node.textContent = text
  return node
}

function button(className: string, label: string): HTMLButtonElement {
  const node = element('button', className, label)
  node.type = 'button'
  return node
}

function buildPanel(filter: SearchFilter) {
  const panel = element('div', 'search-panel')
  panel.id = PANEL_ID
  panel.hidden = true
  const head = element('div', 'search-panel__head')
  const filterLabel = element('label', 'search-panel__filter', 'Show ')
  const select = element('select', 'search-panel__filter-select')
  for (const choice of SEARCH_FILTER_CHOICES) {
    const option = new Option(choice.label, choice.value, false, choice.value === filter)
    select.append(option)
  }
  filterLabel.append(select)
  head.append(filterLabel)
  const list = element('ul', 'search-panel__results')
  list.id = LIST_ID
  list.setAttribute('role', 'listbox')
  list.setAttribute('aria-label', 'Search results')
  const empty = element('p', 'search-panel__empty', 'No results')
  empty.hidden = true
  // Nothing under a narrower filter while "All" finds something: says so, with the switch to "All".
  const widen = element('p', 'search-panel__empty search-panel__widen')
  widen.hidden = true
  const widenText = element('span', 'search-panel__widen-text')
  const widenButton = button('search-panel__widen-button', '')
  widen.append(widenText, ' ', widenButton)
  const failure = element('p', 'search-panel__empty', 'Search failed. Try again.')
  failure.hidden = true
  const footer = element('div', 'search-panel__footer')
  const advanced = element('a', 'search-panel__advanced', 'Advanced Search')
  advanced.href = advancedSearchUrl('')
  footer.append(advanced)
  panel.append(head, list, empty, widen, failure, footer)
  return { panel, select, list, empty, widen, widenText, widenButton, failure, advanced }
}

function openResult(uri: string, target: OpenTarget): void {
  if (target === 'self') window.location.assign(uri)
  else window.open(uri, '_blank', target === 'window' ? 'noopener,popup' : 'noopener')
}

export function startPanel({ root, form, input }: SearchBoxParts): void {
  const context = parseSearchContext(document.getElementById('app-context')?.textContent)
  let filter = readSearchFilter(localStorage)
  const ui = buildPanel(filter)
  const clear = button('search-box__clear', 'Clear')
  const cancel = button('search-box__cancel', 'Cancel')
  const spinner = element('span', 'search-box__spinner')
  spinner.setAttribute('aria-hidden', 'true')
  input.after(spinner, clear)
  form.append(cancel, ui.panel)
  input.setAttribute('role', 'combobox')
  input.setAttribute('aria-autocomplete', 'list')
  input.setAttribute('aria-controls', LIST_ID)
  input.setAttribute('aria-expanded', 'false')
  input.autocomplete = 'off'

  let hits: SearchHit[] = []
  let activeIndex = -1
  let open = false
  /** Escape closed the panel; it stays closed until the text changes or an arrow key asks for it. */
  let dismissed = false
  let hideTimer: ReturnType<typeof setTimeout> | undefined

  const status = trackStatus((next) => { form.dataset.status = next })
  form.dataset.status = status.status
  const client = createSearchClient({ searchFilter: () => filter, csrfToken: pageCsrfToken })
  const trackedClient = {
    async search(requests: Parameters<typeof client.search>[0]) {
      const token = status.started()
      try {
        return await client.search(requests)
      } finally {
        status.settled(token)
      }
    },
  }
  const indexName = root.dataset.indexName || DEFAULT_INDEX_NAME
  const helper = algoliasearchHelper(trackedClient as unknown as HelperSearchClient, indexName, {
    hitsPerPage: HITS_PER_PAGE,
    highlightPreTag: HIGHLIGHT_PRE_TAG,
    highlightPostTag: HIGHLIGHT_POST_TAG,
  })

  const reportView = debounce((detail: SearchViewDetail) => {
    document.dispatchEvent(new CustomEvent<SearchViewDetail>(VIEW_EVENT, { detail }))
  }, VIEW_DEBOUNCE_MS)

  const query = () => input.value
  const focusInside = () => form.contains(document.activeElement)

  function setOpen(next: boolean): void {
    open = next
    ui.panel.hidden = !next
    form.dataset.open = String(next)
    input.setAttribute('aria-expanded', String(next))
    if (!next) {
      setActive(-1)
      reportView.cancel()
    }
  }

  function setActive(index: number): void {
    activeIndex = index
    const items = ui.list.children
    for (let i = 0; i < items.length; i++) items[i]!.setAttribute('aria-selected', String(i === index))
    const active = index >= 0 ? items[index] : undefined
    if (active) {
      input.setAttribute('aria-activedescendant', active.id)
      active.scrollIntoView({ block: 'nearest' })
    } else {
      input.removeAttribute('aria-activedescendant')
    }
  }

  function showResults(results: SearchResults): void {
    if (query().trim() === '') return
    hits = results.hits.map(parseHit).filter((hit): hit is SearchHit => hit !== undefined)
    ui.list.replaceChildren(...hits.map((hit, i) => renderHit(hitView(hit, context), `${LIST_ID}-${i}`)))
    const allHits = hits.length === 0 && filter !== 'all' ? allHitsOfResults(results) : 0
    ui.empty.hidden = hits.length > 0 || allHits > 0
    ui.widen.hidden = allHits === 0
    ui.widenText.textContent = `No results under “${searchFilterLabel(filter)}”.`
    ui.widenButton.textContent = widenLabel(allHits)
    ui.failure.hidden = true
    ui.advanced.href = advancedSearchUrl(query())
    setActive(-1)
    if (focusInside() && !dismissed) {
      setOpen(true)
      reportView({ query: query(), objectIDs: hits.map((hit) => hit.objectID), searchFilter: filter })
    }
  }

  function showFailure(): void {
    hits = []
    ui.list.replaceChildren()
    ui.empty.hidden = true
    ui.widen.hidden = true
    ui.failure.hidden = false
    if (focusInside() && !dismissed) setOpen(true)
  }

  helper.on('result', ({ results }) => showResults(results))
  helper.on('error', () => showFailure())

  function search(): void {
    clear.hidden = query() === ''
    if (query().trim() === '') {
      hits = []
      ui.list.replaceChildren()
      setOpen(false)
      return
    }
    helper.setQuery(query()).setPage(0).search()
  }

  function select(index: number, target: OpenTarget): void {
    const hit = hits[index]
    if (!hit) return
    const selection = chooseSelection(hit, target, domRulePage(document, context.currentRuleId))
    if (selection.kind === 'open') {
      if (target === 'self') setOpen(false)
      openResult(selection.uri, selection.target)
      return
    }
    setOpen(false)
    if (selection.kind === 'already-viewing') {
      notify({ type: 'info', text: ALREADY_VIEWING })
      return
    }
    const node = document.querySelector(`[data-node-id="${CSS.escape(selection.nodeId)}"]`)
    node?.scrollIntoView({ block: 'center' })
    node?.dispatchEvent(new CustomEvent(SELECT_NODE_EVENT, { bubbles: true, detail: { nodeId: selection.nodeId } }))
  }

  function clearText(): void {
    input.value = ''
    dismissed = false
    search()
  }

  input.addEventListener('input', () => {
    dismissed = false
    search()
  })

  input.addEventListener('keydown', (event) => {
    const action = keyAction(event, { open, query: query(), activeIndex, resultCount: hits.length })
    if (!action) {
      if (event.key === 'Enter') event.preventDefault()
      // With nothing left to close or clear, Escape leaves the detached modal.
      if (event.key === 'Escape' && form.dataset.modal === 'true') {
        setModal(form, false)
        input.blur()
      }
      return
    }
    switch (action.kind) {
      case 'close':
        if (event.key === 'Escape') { event.preventDefault(); dismissed = true }
        setOpen(false)
        return
      case 'clear':
        event.preventDefault()
        clearText()
        return
      case 'move':
        event.preventDefault()
        if (!open) {
          dismissed = false
          if (hits.length > 0 || !ui.empty.hidden || !ui.widen.hidden) setOpen(true)
          else search()
          return
        }
        setActive(nextActiveIndex(activeIndex, action.by, hits.length))
        return
      case 'select':
        event.preventDefault()
        select(activeIndex, action.target)
        return
      case 'submit':
        // The form goes to the screener with the text (the same place as without JavaScript).
        return
    }
  })

  input.addEventListener('focus', () => clearTimeout(hideTimer))

  // SPEC.md §9: hidden a moment after focus leaves, so a click inside the panel still lands.
  form.addEventListener('focusout', () => {
    clearTimeout(hideTimer)
    hideTimer = setTimeout(() => {
      if (focusInside()) return
      setOpen(false)
      setModal(form, false)
    }, BLUR_HIDE_MS)
  })
  form.addEventListener('focusin', () => clearTimeout(hideTimer))

  form.addEventListener('submit', (event) => {
    if (query().trim() === '') event.preventDefault()
  })

  // Keep the focus in the input while the pointer chooses a result.
  ui.list.addEventListener('mousedown', (event) => event.preventDefault())
  ui.list.addEventListener('pointermove', (event) => {
    const item = event.target instanceof Element ? event.target.closest('[role="option"]') : null
    const index = item ? Array.prototype.indexOf.call(ui.list.children, item) : -1
    if (index >= 0 && index !== activeIndex) setActive(index)
  })
  ui.list.addEventListener('click', (event) => {
    const item = event.target instanceof Element ? event.target.closest('[role="option"]') : null
    const index = item ? Array.prototype.indexOf.call(ui.list.children, item) : -1
    if (index >= 0) select(index, openTarget(event))
  })

  function chooseFilter(next: SearchFilter): void {
    filter = next
    ui.select.value = next
    writeSearchFilter(localStorage, filter)
    input.focus()
    if (query().trim() !== '') search()
  }

  ui.select.addEventListener('change', () => chooseFilter(parseSearchFilter(ui.select.value)))
  ui.widenButton.addEventListener('click', () => chooseFilter('all'))

  clear.addEventListener('click', () => {
    clearText()
    input.focus()
  })
  cancel.addEventListener('click', () => {
    setOpen(false)
    setModal(form, false)
    input.blur()
  })

  clear.hidden = query() === ''
  form.dataset.panel = 'ready'
  // The user may have typed, or left, while this stage was loading.
  setModal(form, document.activeElement === input)
  if (document.activeElement === input && query().trim() !== '') search()
}
