// Small element builders: text always goes in as text; only server html (sanitized by the engine) goes in as html.

export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  children: Array<Node | string> = [],
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value)
  node.append(...children)
  return node
}

export function htmlBlock(className: string, html: string, attributes: Record<string, string> = {}): HTMLDivElement {
  const node = element('div', { class: className, ...attributes })
  node.innerHTML = html
  return node
}

/** What a screen reader would read of server html, for labels and announcements. */
export function plainText(html: string): string {
  // A template's content is inert: nothing in it loads or runs.
  const scratch = document.createElement('template')
  scratch.innerHTML = html
  return (scratch.content.textContent ?? '').trim()
}
