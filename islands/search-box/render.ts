// DOM for the panel's results: text nodes and <mark> elements only, never server text parsed as HTML.
import type { HighlightPart, HitView } from './hit.ts'

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag)
  node.className = className
  if (text !== undefined) node.textContent = text
  return node
}

export function highlightedText(parts: readonly HighlightPart[]): DocumentFragment {
  const fragment = document.createDocumentFragment()
  for (const part of parts) fragment.append(part.marked ? element('mark', 'search-hit__match', part.text) : part.text)
  return fragment
}

export function renderHit(view: HitView, id: string): HTMLLIElement {
  const item = element('li', 'search-hit')
  item.id = id
  item.setAttribute('role', 'option')
  item.setAttribute('aria-selected', 'false')
  item.dataset.uri = view.uri
  const icon = element('span', `search-hit__icon ${view.iconClass}`)
  icon.setAttribute('aria-hidden', 'true')
  icon.title = view.typeName
  const body = element('span', 'search-hit__body')
  const title = element('span', 'search-hit__title')
  title.append(highlightedText(view.title))
  if (view.badge) {
    item.classList.add('search-hit--suggested')
    title.append(' ', element('span', 'search-hit__badge', view.badge))
  }
  body.append(title)
  const details = [view.detail, view.parent, view.byline].filter((text): text is string => text !== null)
  if (details.length > 0) {
    const meta = element('span', 'search-hit__meta')
    for (const text of details) meta.append(element('span', 'search-hit__detail', text))
    body.append(meta)
  }
  // Screen readers hear the type's name before the title; the icon is decoration.
  item.append(icon, element('span', 'visually-hidden', `${view.typeName}: `), body)
  return item
}
