// Content rendering lives in its own entry point: it pulls in markdown-it and sanitize-html (htmlparser2, postcss).
// Browser code that only needs to parse templates imports ../template/index.ts and stays small.
import { parseTemplate, type TagKind, type TemplatePart, type TemplateTag } from '../template/index.ts'
import { compileHtml, fillHtml, type HtmlTemplate } from './html.ts'
import { BoundedMemo } from '../format/bounded-memo.ts'
import { compilePlain, fillAttributed, fillText, type AttributedString, type PlainTemplate } from './plain.ts'
import type { ResolvedTag, TagValues } from './resolved.ts'
import { fillMarkdown, fillRaw, markdownContexts, type MarkdownContext } from './source.ts'
import { markdown } from './markdown.ts'
import { sanitizeRendered } from './sanitize.ts'

export type { AttributedString } from './plain.ts'
export { fillHtml, type HtmlTemplate } from './html.ts'
export type { ResolvedTag, TagValues } from './resolved.ts'

/** SPEC §3 response content types (vendor JSON variants application/vnd.advicestudio.json+<type>). */
export type ContentType = 'text' | 'html' | 'htmlnolinks' | 'attrstring' | 'markdown' | 'raw'

export const CONTENT_TYPES: readonly ContentType[] = ['text', 'html', 'htmlnolinks', 'attrstring', 'markdown', 'raw']

export interface RenderOptions {
  /** Where a chip links to: the question (Input Request node) that set the value. Without it, no backlinks. */
  questionHref?: (questionNodeId: string) => string
}

export interface RenderedContent {
  body: string | AttributedString
  /** Tags the resolver knew nothing about, each once, in order of first appearance. */
  missing: TemplateTag[]
}

const MEMO_LIMIT = 2000

/**
 * A text's parsed template and, compiled on first use, its form for each content type. The texts of a compiled
 * advice set keep theirs on their nodes (prepareText), so they are compiled once per set however many it holds;
 * other texts go through a bounded memo (renderContent).
 */
export interface PreparedText {
  readonly text: string
  parts: TemplatePart[]
  /** The tags in order of occurrence, and for each the occurrence that first named the same tag (-1: this one). */
  tags: TemplateTag[]
  firstOf: number[]
  /** A text without tags renders the same every time; its string renders are kept here. */
  fixed: Partial<Record<ContentType, string>> | null
  html?: HtmlTemplate
  htmlNoLinks?: HtmlTemplate
  plain?: PlainTemplate
  markdown?: MarkdownContext[]
}

// Texts that are not part of a compiled set (a custom headline, a markdown preview): one entry per text, so a render
// looks the text up once whatever the content type.
const prepared = new BoundedMemo<PreparedText>(MEMO_LIMIT)
const NONE_MISSING: TemplateTag[] = Object.freeze([]) as unknown as TemplateTag[]
const NO_VALUES: TagValues = Object.freeze([])

/** Parses a text for rendering; its compiled forms are added to it on first use of each content type. */
export function prepareText(text: string): PreparedText {
  const parts = parseTemplate(text)
  const tags: TemplateTag[] = []
  for (const part of parts) if (part.kind !== 'text') tags.push({ kind: part.kind, name: part.name })
  const firstOf = tags.map((tag, i) => {
    const first = tags.findIndex((other) => other.kind === tag.kind && other.name === tag.name)
    return first === i ? -1 : first
  })
  return { text, parts, tags, firstOf, fixed: tags.length === 0 ? {} : null }
}

/**
 * Renders advice text, a headline or a question in one content type. Markdown is rendered by markdown-it with
 * HTML off and sanitized; values are escaped for where they land and can never add markup. Missing tags are
 * reported, and shown: html as a `var-missing` chip with the tag's name, raw as the tag itself, the others as
 * nothing. Compiled templates are memoised (bounded), so repeated renders of the same text only splice values.
 */
export function renderContent(
  text: string,
  type: ContentType,
  resolve: (kind: TagKind, name: string) => ResolvedTag | undefined,
  opts?: RenderOptions,
): RenderedContent {
  return renderPrepared(prepared.get(text, () => prepareText(text)), type, resolve, opts)
}

/** renderContent once the text is prepared: its tags resolved by name, each distinct one once. */
function renderPrepared(
  entry: PreparedText,
  type: ContentType,
  resolve: (kind: TagKind, name: string) => ResolvedTag | undefined,
  opts?: RenderOptions,
): RenderedContent {
  if (entry.fixed !== null) return { body: renderValues(entry, type, NO_VALUES, opts), missing: NONE_MISSING }
  const { values, missing } = resolveTags(entry, resolve)
  return { body: renderValues(entry, type, values, opts), missing }
}

/**
 * A prepared text with its tags already resolved by the caller: `values` holds one entry per tag occurrence
 * (entry.tags), `undefined` for a missing one. A caller that binds tags to its own slots (the engine's compiled
 * sets) resolves them without name lookups and reports the missing ones itself.
 */
export function renderValues(entry: PreparedText, type: ContentType, values: TagValues, opts: RenderOptions | undefined): string | AttributedString {
  // An attributed string is an object a caller could change, so only string renders are shared.
  if (entry.fixed !== null && type !== 'attrstring') return (entry.fixed[type] ??= fill(entry, type, NO_VALUES, opts) as string)
  return fill(entry, type, values, opts)
}

function fill(entry: PreparedText, type: ContentType, values: TagValues, opts: RenderOptions | undefined): string | AttributedString {
  const text = entry.text
  switch (type) {
    case 'html':
      return fillHtml(htmlTemplate(entry), values, true, opts?.questionHref)
    case 'htmlnolinks':
      return fillHtml((entry.htmlNoLinks ??= compileHtml(text, false)), values, false, undefined)
    case 'text':
      return fillText((entry.plain ??= compilePlain(text)), values)
    case 'attrstring':
      return fillAttributed((entry.plain ??= compilePlain(text)), values, opts?.questionHref)
    case 'markdown':
      return fillMarkdown(entry.parts, (entry.markdown ??= markdownContexts(text)), values)
    case 'raw':
      return fillRaw(entry.parts, values)
  }
}

/** The html content type's compiled template of a prepared text (compiled on first use), for fillHtml. */
export function htmlTemplate(entry: PreparedText): HtmlTemplate {
  return (entry.html ??= compileHtml(entry.text, true))
}

/** Resolves each distinct tag once; the values are listed per tag occurrence, the order every compiled form uses. */
function resolveTags(
  entry: PreparedText,
  resolve: (kind: TagKind, name: string) => ResolvedTag | undefined,
): { values: Array<ResolvedTag | undefined>; missing: TemplateTag[] } {
  const { tags, firstOf } = entry
  const values = new Array<ResolvedTag | undefined>(tags.length)
  let missing = NONE_MISSING
  for (let i = 0; i < tags.length; i++) {
    const first = firstOf[i]!
    if (first >= 0) {
      values[i] = values[first]
      continue
    }
    const tag = tags[i]!
    const resolved = resolve(tag.kind, tag.name)
    if (resolved === undefined) (missing === NONE_MISSING ? (missing = []) : missing).push(tag)
    values[i] = resolved
  }
  return { values, missing }
}

/**
 * A whole markdown document (a generated summary, not an author's template) as safe HTML: the same renderer and
 * allow-list as advice content, without links; `{{Name}}` and `[[Name]]` stay text.
 */
export function renderMarkdownDocument(source: string): string {
  return sanitizeRendered(markdown.render(source), false)
}
