const HTML_SPECIALS = /[&<>"']/g
const HTML_ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** Escapes text for HTML content and for double- or single-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(HTML_SPECIALS, (ch) => HTML_ENTITY[ch]!)
}

const SANITIZED_ENTITIES = /&(amp|lt|gt|quot|#39);/g
const ENTITY_TEXT: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" }

/** Undoes the only escapes sanitize-html writes into attribute values, to see a URL as the browser will. */
export function unescapeAttribute(text: string): string {
  return text.replace(SANITIZED_ENTITIES, (_, name: string) => ENTITY_TEXT[name]!)
}

const MARKDOWN_SPECIALS = /[!-/:-@[-`{-~]/g
const LINE_BREAKS_AND_RUNS = /\s+/g

/**
 * A value made inert for markdown: CommonMark lets every ASCII punctuation character be backslash-escaped, so
 * escaping all of them means no value can open emphasis, a link, a heading, a list, HTML or an entity. Line
 * breaks become spaces, because a value cannot know where its line starts (a leading "    " would be code).
 */
export function escapeMarkdown(text: string): string {
  return text.replace(LINE_BREAKS_AND_RUNS, ' ').trim().replace(MARKDOWN_SPECIALS, '\\$&')
}
