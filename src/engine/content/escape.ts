const HTML_SPECIALS = /[&<>"']/g
const HAS_HTML_SPECIAL = /[&<>"']/
const HTML_ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** Escapes text for HTML content and for double- or single-quoted attribute values. */
export function escapeHtml(text: string): string {
  // Most values (numbers, names) have nothing to escape: a test is far cheaper than a replace with a callback.
  return HAS_HTML_SPECIAL.test(text) ? text.replace(HTML_SPECIALS, (ch) => HTML_ENTITY[ch]!) : text
}

const SANITIZED_ENTITIES = /&(amp|lt|gt|quot|#39);/g
const ENTITY_TEXT: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" }

/** Undoes the only escapes sanitize-html writes into attribute values, to see a URL as the browser will. */
export function unescapeAttribute(text: string): string {
  return text.replace(SANITIZED_ENTITIES, (_, name: string) => ENTITY_TEXT[name]!)
}

const LINE_BREAKS_AND_RUNS = /\s+/g
// Characters that open or close inline markdown anywhere: escapes, code, emphasis, links, HTML, entities, tables,
// strikethrough. Others only matter at the start of a line, where a value may land.
const INLINE_SPECIALS = /[\\`*_[\]<>&|~]/g
const LINE_START_SPECIAL = /^([#+\-=]|\d+(?=[.)]))/
const CODE_FENCE_CHARACTERS = /[`~]/g
const URL_BREAKERS = /[()]/g

/**
 * A value made inert for markdown text: CommonMark lets ASCII punctuation be backslash-escaped, so the characters
 * that could start markup are. Line breaks become spaces, because a value cannot know where its line starts
 * (a leading "    " would be code, "# " a heading).
 */
export function escapeMarkdown(text: string): string {
  const flat = text.replace(LINE_BREAKS_AND_RUNS, ' ').trim().replace(INLINE_SPECIALS, '\\$&')
  return flat.replace(LINE_START_SPECIAL, (start) => (/^\d/.test(start) ? `${start}\\` : `\\${start}`))
}

/** A value inside a code span or block, where backslashes show as typed: only what could end the code goes. */
export function escapeMarkdownCode(text: string): string {
  return text.replace(LINE_BREAKS_AND_RUNS, ' ').replace(CODE_FENCE_CHARACTERS, "'")
}

/** A value inside a link or image destination: percent-encoded, so spaces and brackets cannot end it. */
export function escapeMarkdownUrl(text: string): string {
  return encodeURI(wellFormed(text.trim())).replace(URL_BREAKERS, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`)
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/** Replaces unpaired surrogates, which make encodeURI and encodeURIComponent throw. */
export function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD')
}
