// The screener page's island: the layout of the widget containers. instantsearch.js itself (about 90 KB gzip)
// is imported when the island mounts, so the ruleset area chunk that every library page loads stays small.
import { useEffect, useRef } from 'react'
import type { ScreenerProps } from './props.ts'

const FACET_SECTIONS = [
  { widget: 'entityType', heading: 'Type' },
  { widget: 'owner', heading: 'Owner' },
  { widget: 'tags', heading: 'Tags' },
  { widget: 'isPublic', heading: 'Public' },
  { widget: 'isStarter', heading: 'Starter' },
] as const

export function Screener({ indexName }: ScreenerProps) {
  const root = useRef<HTMLDivElement>(null)

  useEffect(() => {
    let stop: (() => void) | undefined
    let unmounted = false
    const element = root.current
    if (!element) return undefined
    element.dataset.searchState = 'loading'
    import('./start.ts')
      .then(({ startScreener }) => { if (!unmounted) stop = startScreener(element, { indexName }) })
      .catch((error: unknown) => {
        element.dataset.searchState = 'failed'
        console.error('Failed to load the screener', error)
      })
    return () => { unmounted = true; stop?.() }
  }, [indexName])

  // React renders these containers once and never again; instantsearch owns what is inside them.
  return (
    <div className="screener" ref={root}>
      <div className="screener__search" data-widget="search" />
      <div className="screener__layout">
        <aside className="screener__facets" aria-label="Refine">
          {FACET_SECTIONS.map((section) => (
            <section className="screener__facet" key={section.widget}>
              <h2 className="screener__facet-heading">{section.heading}</h2>
              <div data-widget={section.widget} />
            </section>
          ))}
        </aside>
        <section className="screener__results" aria-label="Results">
          <div className="screener__stats" data-widget="stats" role="status" />
          <div data-widget="hits" />
          <nav aria-label="Pages" data-widget="pagination" />
        </section>
      </div>
    </div>
  )
}
