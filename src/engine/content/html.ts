import type { TemplateTag } from '../template/index.ts'
import { BoundedMemo } from '../format/bounded-memo.ts'
import { escapeHtml, unescapeAttribute } from './escape.ts'
import { markdown } from './markdown.ts'
import { splitAtPlaceholders, withPlaceholders } from './placeholders.ts'
import { HtmlChip } from './resolved.ts'
import type { ResolvedTag, TagValues } from './resolved.ts'
import { sanitizeRendered } from './sanitize.ts'
import { fillUrl, IMAGE_SCHEMES, isSafeUrl, LINK_SCHEMES } from './urls.ts'

/**
 * HTML is built in two stages so that the costly part runs once per template: markdown is rendered and sanitized
 * with placeholders standing for the tags (compileHtml), and each render only splices escaped values into the
 * sanitized result (fillHtml). Values therefore never pass through markdown or the sanitizer, and need not:
 * every value is escaped for the exact place it lands in (text, attribute, or URL checked for its scheme).
 */
type HtmlSegment =
  | string
  /**
   * A value in running text, the common case, kept as a bare number so a render reads nothing more for it: a chip
   * for tag occurrence `n >> 1`, linked back to its question when `n & 1` (it does not already sit inside a link).
   */
  | number
  /** A value inside code: plain escaped text. */
  | { slot: 'text'; tag: number }
  /** A whole ` href="…"` / ` src="…"` with values in it, dropped when the filled URL is unsafe. */
  | { slot: 'url'; attribute: string; pieces: Array<string | number>; schemes: readonly string[] }
  /** A whole ` alt="…"` / ` title="…"` with values in it; in any other attribute (a fence's language class) a
   * value keeps only letters, digits, - and _. */
  | { slot: 'attribute'; attribute: string; pieces: Array<string | number>; wordsOnly: boolean }

export interface HtmlTemplate {
  tags: TemplateTag[]
  segments: HtmlSegment[]
  /** Each tag occurrence's chip markup (shared by every template naming the same tag). */
  chips: ChipMarkup[]
}

interface ChipMarkup {
  /** The chip's opening tag, naming the tag as written. */
  open: string
  /** The whole chip for when the tag has no value. */
  missing: string
}

// sanitize-html writes well-formed markup: every attribute double-quoted, and "<", ">" and '"' escaped inside text
// and attribute values, so a literal "<" always opens a tag and a literal '"' always closes a value.
const HTML_TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)([^>]*)>/g
const ATTRIBUTE = /\s([a-zA-Z][a-zA-Z0-9-]*)="([^"]*)"/g
const URL_ATTRIBUTES = new Set(['href', 'src'])
const TEXT_ATTRIBUTES = new Set(['alt', 'title'])
const NOT_A_WORD_CHARACTER = /[^\p{L}\p{Nd}_-]/gu

export function compileHtml(text: string, links: boolean): HtmlTemplate {
  const { source, tags, pattern } = withPlaceholders(text)
  const html = sanitizeRendered(markdown.render(source), links)
  const segments: HtmlSegment[] = []
  let anchorDepth = 0
  let codeDepth = 0

  const pushText = (part: string): void => {
    for (const piece of splitAtPlaceholders(part, pattern)) {
      if (typeof piece === 'string') segments.push(piece)
      else if (codeDepth > 0) segments.push({ slot: 'text', tag: piece })
      else segments.push(piece * 2 + (anchorDepth === 0 ? 1 : 0))
    }
  }

  const pushTag = (name: string, attributes: string): void => {
    segments.push(`<${name}`)
    for (const [, attribute, value] of attributes.matchAll(ATTRIBUTE)) {
      const pieces = splitAtPlaceholders(value!, pattern)
      if (pieces.every((piece) => typeof piece === 'string')) segments.push(` ${attribute}="${value}"`)
      else if (URL_ATTRIBUTES.has(attribute!)) {
        const schemes = name === 'img' ? IMAGE_SCHEMES : LINK_SCHEMES
        const decoded = pieces.map((piece) => (typeof piece === 'string' ? unescapeAttribute(piece) : piece))
        segments.push({ slot: 'url', attribute: attribute!, pieces: decoded, schemes })
      } else segments.push({ slot: 'attribute', attribute: attribute!, pieces, wordsOnly: !TEXT_ATTRIBUTES.has(attribute!) })
    }
    segments.push(attributes.trimEnd().endsWith('/') ? ' />' : '>')
  }

  let last = 0
  for (const match of html.matchAll(HTML_TAG)) {
    const [whole, closing, tagName, attributes] = match
    pushText(html.slice(last, match.index))
    const name = tagName!.toLowerCase()
    const step = closing === '' ? 1 : -1
    if (name === 'a') anchorDepth += step
    if (name === 'code') codeDepth += step
    if (closing === '' && attributes!.search(pattern) >= 0) pushTag(name, attributes!)
    else segments.push(whole)
    last = match.index + whole.length
  }
  pushText(html.slice(last))
  return { tags, segments: mergeStrings(segments), chips: tags.map(chipMarkup) }
}

/**
 * Each run of adjacent strings becomes one flat string: joined, not added up, as `+` would leave a tree of string
 * pieces that every render then references and every serialisation of a response walks.
 */
function mergeStrings(segments: HtmlSegment[]): HtmlSegment[] {
  const merged: HtmlSegment[] = []
  let run: string[] = []
  const endRun = (): void => {
    if (run.length > 0) merged.push(run.join(''))
    run = []
  }
  for (const segment of segments) {
    if (typeof segment === 'string') run.push(segment)
    else {
      endRun()
      merged.push(segment)
    }
  }
  endRun()
  return merged
}

type QuestionHref = (questionNodeId: string) => string

/**
 * Splices values into a compiled template. `backlinks` links each chip to the question that set it (html; off for
 * htmlnolinks) through `questionHref`.
 */
export function fillHtml(template: HtmlTemplate, values: TagValues, backlinks: boolean, questionHref: QuestionHref | undefined): string {
  let html = ''
  const segments = template.segments
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!
    if (typeof segment === 'string') {
      html += segment
      continue
    }
    if (typeof segment === 'number') {
      const tag = segment >> 1
      const resolved = values[tag]
      const markup = template.chips[tag]!
      if (resolved === undefined) {
        html += markup.missing
        continue
      }
      // A run resolves each variable once and shows it in many texts, so its chip is kept on the resolved tag.
      let made = resolved.htmlChip
      if (made === undefined || made.open !== markup.open) made = resolved.htmlChip = new HtmlChip(markup.open, `${markup.open}${escapeHtml(resolved.formatted)}</span>`)
      html += (segment & 1) === 1 && backlinks ? (made.linked ??= linkedChip(made.plain, resolved, questionHref)) : made.plain
      continue
    }
    switch (segment.slot) {
      case 'text':
        html += escapeHtml(formattedOf(values, segment.tag))
        break
      case 'url': {
        const url = fillUrl(segment.pieces, values.map((resolved) => resolved?.formatted ?? ''), segment.schemes)
        if (url !== undefined) html += ` ${segment.attribute}="${escapeHtml(url)}"`
        break
      }
      case 'attribute': {
        const fill = (tag: number): string => {
          const text = formattedOf(values, tag)
          return segment.wordsOnly ? text.replace(NOT_A_WORD_CHARACTER, '') : escapeHtml(text)
        }
        const value = segment.pieces.map((piece) => (typeof piece === 'string' ? piece : fill(piece))).join('')
        html += ` ${segment.attribute}="${value}"`
        break
      }
    }
  }
  return html
}

function formattedOf(values: TagValues, tag: number): string {
  return values[tag]?.formatted ?? ''
}

// One markup per tag name across templates: a run keeps each variable's chip (ResolvedTag.htmlChip) for the chip's
// opening tag, and templates that share the very same string find it by identity instead of comparing text.
const chipMarkups = new BoundedMemo<ChipMarkup>(2000)

/**
 * A chip's fixed markup, made once per tag name: its opening tag naming the variable, and the whole chip for when
 * the tag has no value. A missing tag shows its name in a `var-missing` chip, so an author previewing the advice sees
 * which tag had no value instead of a silent gap; pages style it as a dashed outline.
 */
function chipMarkup(tag: TemplateTag): ChipMarkup {
  return chipMarkups.get(`${tag.kind}\u0000${tag.name}`, () => {
    const identity = `data-kind="${tag.kind}" data-var="${escapeHtml(tag.name)}"`
    return { open: `<span class="var-chip" ${identity}>`, missing: `<span class="var-chip var-missing" ${identity}>${escapeHtml(tag.name)}</span>` }
  })
}

/** The chip linked back to the question that set the value, when there is one and its link is safe. */
function linkedChip(span: string, resolved: ResolvedTag, questionHref: QuestionHref | undefined): string {
  if (resolved.questionNodeId === undefined || questionHref === undefined) return span
  const href = questionHref(resolved.questionNodeId)
  return isSafeUrl(href, LINK_SCHEMES) ? `<a class="var-link" href="${escapeHtml(href)}">${span}</a>` : span
}
