import type { TemplatePart } from '../template/index.ts'
import { escapeMarkdown } from './escape.ts'
import type { TagValues } from './resolved.ts'

/**
 * The markdown content type: the author's markdown as written, each tag replaced by its value escaped so it
 * reads as text wherever it lands. A missing tag leaves nothing (it is reported in `missing`).
 */
export function fillMarkdown(parts: readonly TemplatePart[], values: TagValues): string {
  let tag = 0
  return parts.map((part) => (part.kind === 'text' ? part.text : escapeMarkdown(values[tag++]?.formatted ?? ''))).join('')
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
