// Tells the framing page how tall the interview is, on every change, so static/embed.js can size the iframe to it.
// Messages go only to the origins the server allowed to frame this page; the browser drops them anywhere else.

export const RESIZE_MESSAGE = 'advicestudio:resize'

export function reportFrameHeight(parentOrigins: readonly string[]): void {
  if (window.parent === window) return
  const targets = parentOrigins.length > 0 ? parentOrigins : [location.origin]
  let last = -1
  const post = () => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height)
    if (height === last) return
    last = height
    for (const origin of targets) window.parent.postMessage({ type: RESIZE_MESSAGE, height }, origin)
  }
  new ResizeObserver(post).observe(document.documentElement)
  post()
}
