// Words as search sees them: folded (lower case, accents removed) runs of letters and digits. Indexing, the query,
// the typo lexicon and highlighting all fold through here, so "Café" is found by "cafe" everywhere.

export const MAX_QUERY_LENGTH = 512
/** More words than this add nothing to a type-ahead query but cost; the rest are ignored. */
export const MAX_QUERY_WORDS = 10
/** Words this long get one typo (Algolia's minWordSizefor1Typo). */
export const MIN_WORD_LENGTH_FOR_TYPO = 4

const WORD = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu
const MARKS = /\p{M}/gu

export function fold(text: string): string {
  return text.normalize('NFD').replace(MARKS, '').toLowerCase()
}

export function words(text: string): string[] {
  return [...fold(text).matchAll(WORD)].map((m) => m[0])
}

/** The space-separated words a tsvector is built from. */
export function terms(text: string): string {
  return words(text).join(' ')
}

/**
 * The query's words. The last one is still being typed, so it matches as a prefix — unless the query ends with a
 * space; the others match whole words (as Algolia's prefixLast), which also keeps them cheap for the index.
 */
export function queryWords(query: string): Array<{ word: string; prefix: boolean }> {
  const capped = query.slice(0, MAX_QUERY_LENGTH)
  const list = [...new Set(words(capped))].slice(0, MAX_QUERY_WORDS)
  const typing = !/\s$/.test(capped)
  return list.map((word, i) => ({ word, prefix: typing && i === list.length - 1 }))
}

/** Optimal string alignment distance ≤ 1: one insertion, deletion, substitution or swap of neighbours. */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true
  if (Math.abs(a.length - b.length) > 1) return false
  let i = 0
  while (i < a.length && i < b.length && a[i] === b[i]) i++
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2)
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1)
}

/**
 * What of `term` a one-typo match of `word` covers: the whole term, or — while `word` is being typed — the term's
 * beginning of the same length or one longer (a letter left out). Null when it is no typo match (or a plain one).
 */
export function typoMatch(word: string, term: string, prefix: boolean): string | null {
  if (word.length < MIN_WORD_LENGTH_FOR_TYPO || term === word || (prefix && term.startsWith(word))) return null
  if (withinOneEdit(word, term)) return term
  if (!prefix) return null
  for (const length of [word.length, word.length + 1]) {
    if (length < term.length && withinOneEdit(word, term.slice(0, length))) return term.slice(0, length)
  }
  return null
}

/**
 * One query word, whether it is matched as a prefix, and what it reaches through one typo: whole terms, and for a
 * prefix word also beginnings of terms (matched as prefixes in turn).
 */
export interface QueryWord {
  word: string
  prefix: boolean
  typos: string[]
}

export interface Highlight {
  value: string
  matchLevel: 'none' | 'partial' | 'full'
  matchedWords: string[]
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!)
}

/**
 * HTML-escaped `text` with pre/post tags around what matched: the typed prefix of a word, or the whole word for a
 * typo match. matchedWords are the query words found; matchLevel "full" when all were.
 */
export function highlight(text: string, query: QueryWord[], pre: string, post: string): Highlight {
  const matched = new Set<string>()
  let value = ''
  let last = 0
  for (const m of text.matchAll(WORD)) {
    const original = m[0]
    const folded = fold(original)
    let length = 0
    for (const q of query) {
      const typo = q.typos.find((t) => q.prefix ? folded.startsWith(t) : folded === t)
      const hit = (q.prefix ? folded.startsWith(q.word) : folded === q.word) ? q.word.length : typo ? typo.length : 0
      if (hit > 0) matched.add(q.word)
      length = Math.max(length, hit)
    }
    if (length === 0) continue
    const cut = originalLength(original, length)
    value += escapeHtml(text.slice(last, m.index)) + pre + escapeHtml(original.slice(0, cut)) + post
    last = m.index + cut
  }
  value += escapeHtml(text.slice(last))
  const matchedWords = query.map((q) => q.word).filter((w) => matched.has(w))
  const matchLevel = matchedWords.length === 0 ? 'none' : matchedWords.length === query.length ? 'full' : 'partial'
  return { value, matchLevel, matchedWords }
}

/** How many characters of `original` fold to the first `foldedLength` folded characters. */
function originalLength(original: string, foldedLength: number): number {
  let folded = 0
  let i = 0
  for (const ch of original) {
    if (folded >= foldedLength && !/\p{M}/u.test(ch)) break
    folded += fold(ch).length
    i += ch.length
  }
  return i
}
