import type { Token } from 'markdown-it'
import type { TemplatePart } from '../template/index.ts'
import { escapeMarkdown, escapeMarkdownCode, escapeMarkdownUrl, wellFormed } from './escape.ts'
import { markdown } from './markdown.ts'
import { withPlaceholders } from './placeholders.ts'
import type { TagValues } from './resolved.ts'

/** Where a tag sits in the markdown source: running text, code, a whole link/image destination or part of one. */
export type MarkdownContext = 'text' | 'code' | 'url' | 'urlPart'

/** Each tag occurrence's context, found by parsing the markdown once with placeholders. */
export function markdownContexts(text: string): MarkdownContext[] {
  const { source, tags, pattern } = withPlaceholders(text)
  const contexts: MarkdownContext[] = tags.map(() => 'text')
  const mark = (found: string, context: MarkdownContext): void => {
    for (const match of found.matchAll(pattern)) {
      contexts[Number(match[1])] = context === 'url' && match[0] !== found ? 'urlPart' : context
    }
  }
  const visit = (tokens: Token[]): void => {
    for (const token of tokens) {
      if (token.type === 'code_inline' || token.type === 'code_block') mark(token.content, 'code')
      if (token.type === 'fence') mark(`${token.info}\n${token.content}`, 'code')
      if (token.type === 'link_open') mark(String(token.attrGet('href') ?? ''), 'url')
      if (token.type === 'image') mark(String(token.attrGet('src') ?? ''), 'url')
      if (token.children !== null) visit(token.children)
    }
  }
  visit(markdown.parse(source, {}))
  return contexts
}

const ESCAPE_FOR: Record<MarkdownContext, (value: string) => string> = {
  text: escapeMarkdown,
  code: escapeMarkdownCode,
  url: escapeMarkdownUrl,
  urlPart: (value) => encodeURIComponent(wellFormed(value)),
}

/**
 * The markdown content type: the author's markdown as written, each tag replaced by its value escaped for where it
 * sits, so it reads as text and cannot add markup. A missing tag leaves nothing (it is reported in `missing`).
 */
export function fillMarkdown(parts: readonly TemplatePart[], contexts: readonly MarkdownContext[], values: TagValues): string {
  let tag = 0
  return parts
    .map((part) => {
      if (part.kind === 'text') return part.text
      const index = tag++
      return ESCAPE_FOR[contexts[index] ?? 'text'](values[index]?.formatted ?? '')
    })
    .join('')
}

/** The raw content type: values substituted as they are, and a missing tag kept exactly as written. */
export function fillRaw(parts: readonly TemplatePart[], values: TagValues): string {
  let tag = 0
  return parts
    .map((part) => {
      if (part.kind === 'text') return part.text
      const resolved = values[tag++]
      return resolved === undefined ? part.raw : resolved.formatted
    })
    .join('')
}
