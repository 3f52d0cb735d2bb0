// The search box's first stage, part of loader.js and free of React and instantsearch: it takes over the
// server-rendered form in the header, gives it the active style while the input has focus, makes `/` focus it,
// flags narrow screens for the detached modal, and on the first interaction (focus, `/`, pointer over, touch)
// loads the panel (panel.ts: algoliasearch-helper, results, keyboard), which then runs the search.
import { DETACHED_MEDIA_QUERY, RESIZE_DEBOUNCE_MS } from './constants.ts'
import { debounce } from './debounce.ts'
import { isSlashShortcut, isTypingTarget } from './keyboard.ts'
import { setModal } from './modal.ts'

export interface SearchBoxParts {
  root: HTMLElement
  form: HTMLFormElement
  input: HTMLInputElement
}

function findParts(root: HTMLElement): SearchBoxParts {
  const form = root.querySelector<HTMLFormElement>('form.search-box')
  const input = form?.querySelector<HTMLInputElement>('input[name="q"]')
  if (!form || !input) throw new Error('search-box needs its server-rendered form with an input named q')
  return { root, form, input }
}

function watchDetached(form: HTMLFormElement): void {
  const media = window.matchMedia(DETACHED_MEDIA_QUERY)
  const check = () => { form.dataset.detached = String(media.matches) }
  check()
  // SPEC.md §9: re-checked on resize, debounced.
  window.addEventListener('resize', debounce(check, RESIZE_DEBOUNCE_MS))
}

function loadPanelOnce(parts: SearchBoxParts): () => void {
  let started = false
  return () => {
    if (started) return
    started = true
    parts.form.dataset.panel = 'loading'
    import('./panel.ts')
      .then((panel) => panel.startPanel(parts))
      .catch((error: unknown) => {
        // The plain form still submits to the screener, so the box keeps working without the panel.
        parts.form.dataset.panel = 'failed'
        setModal(parts.form, false)
        console.error('Failed to load the search panel', error)
      })
  }
}

export function mountSearchBox(root: HTMLElement): void {
  const parts = findParts(root)
  const { form, input } = parts
  const load = loadPanelOnce(parts)

  input.addEventListener('focus', () => {
    form.classList.add('search-box--active')
    setModal(form, true)
    load()
  })
  input.addEventListener('blur', () => form.classList.remove('search-box--active'))
  root.addEventListener('pointerover', load, { once: true })
  root.addEventListener('touchstart', load, { once: true, passive: true })
  document.addEventListener('keydown', (event) => {
    if (event.defaultPrevented || !isSlashShortcut(event) || document.activeElement === input) return
    if (isTypingTarget(event.target instanceof HTMLElement ? event.target : null)) return
    event.preventDefault()
    input.focus()
  })
  if (document.activeElement === input) {
    form.classList.add('search-box--active')
    load()
  }
  watchDetached(form)
  root.dataset.islandState = 'mounted'
}
