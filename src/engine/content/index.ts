// Content rendering lives in its own entry point: it pulls in markdown-it and sanitize-html (htmlparser2, postcss).
// Browser code that only needs to parse templates imports ../template/index.ts and stays small.
import { parseTemplate, type TagKind, type TemplatePart, type TemplateTag } from '../template/index.ts'
import { compileHtml, fillHtml, type HtmlTemplate } from './html.ts'
import { BoundedMemo } from '../format/bounded-memo.ts'
import { compilePlain, fillAttributed, fillText, type AttributedString, type PlainTemplate } from './plain.ts'
import type { ResolvedTag } from './resolved.ts'
import { fillMarkdown, fillRaw, markdownContexts, type MarkdownContext } from './source.ts'

export type { AttributedString } from './plain.ts'
export type { ResolvedTag } from './resolved.ts'

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
const templates = new BoundedMemo<TemplatePart[]>(MEMO_LIMIT)
const htmlTemplates = new BoundedMemo<HtmlTemplate>(MEMO_LIMIT)
const htmlNoLinkTemplates = new BoundedMemo<HtmlTemplate>(MEMO_LIMIT)
const plainTemplates = new BoundedMemo<PlainTemplate>(MEMO_LIMIT)
const markdownTemplates = new BoundedMemo<MarkdownContext[]>(MEMO_LIMIT)

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
): { body: string | AttributedString; missing: TemplateTag[] } {
  const parts = templates.get(text, () => parseTemplate(text))
  const { values, missing } = resolveTags(parts, resolve)
  switch (type) {
    case 'html':
      return { body: fillHtml(htmlTemplates.get(text, () => compileHtml(text, true)), values, { backlinks: true, ...opts }), missing }
    case 'htmlnolinks':
      return { body: fillHtml(htmlNoLinkTemplates.get(text, () => compileHtml(text, false)), values, { backlinks: false }), missing }
    case 'text':
      return { body: fillText(plainTemplates.get(text, () => compilePlain(text)), values), missing }
    case 'attrstring':
      return { body: fillAttributed(plainTemplates.get(text, () => compilePlain(text)), values, opts?.questionHref), missing }
    case 'markdown':
      return { body: fillMarkdown(parts, markdownTemplates.get(text, () => markdownContexts(text)), values), missing }
    case 'raw':
      return { body: fillRaw(parts, values), missing }
  }
}

/** Resolves each distinct tag once; the values are listed per tag occurrence, the order every compiled form uses. */
function resolveTags(
  parts: readonly TemplatePart[],
  resolve: (kind: TagKind, name: string) => ResolvedTag | undefined,
): { values: Array<ResolvedTag | undefined>; missing: TemplateTag[] } {
  // A template holds a handful of tags, so earlier occurrences are searched in place: no key strings, no map.
  const values: Array<ResolvedTag | undefined> = []
  const tagParts: TemplatePart[] = []
  const missing: TemplateTag[] = []
  for (const part of parts) {
    if (part.kind === 'text') continue
    let earlier = -1
    for (let i = 0; i < tagParts.length; i++) {
      const seen = tagParts[i]!
      if (seen.kind === part.kind && (seen as { name: string }).name === part.name) { earlier = i; break }
    }
    let resolved: ResolvedTag | undefined
    if (earlier >= 0) {
      resolved = values[earlier]
    } else {
      resolved = resolve(part.kind, part.name)
      if (resolved === undefined) missing.push({ kind: part.kind, name: part.name })
    }
    tagParts.push(part)
    values.push(resolved)
  }
  return { values, missing }
}
