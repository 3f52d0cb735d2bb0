import { parseTemplate, type TemplateTag } from '../template/index.ts'

/**
 * Markdown is parsed once per template with every tag replaced by a placeholder; values go in afterwards, so a
 * value can never be read as markdown or HTML. Placeholders are lowercase letters and digits: markdown, URL
 * normalisation and punycode all leave such text alone. The marker grows until the template cannot contain it.
 */
export interface PlaceholderSource {
  source: string
  /** The tag behind each placeholder, by placeholder number. */
  tags: TemplateTag[]
  /** Matches one placeholder; group 1 is its number. Global: reset lastIndex or use matchAll/replace. */
  pattern: RegExp
}

export function withPlaceholders(text: string): PlaceholderSource {
  const lower = text.toLowerCase()
  let marker = 'tagph'
  while (lower.includes(marker)) marker += 'x'
  const tags: TemplateTag[] = []
  const source = parseTemplate(text)
    .map((part) => {
      if (part.kind === 'text') return part.text
      tags.push({ kind: part.kind, name: part.name })
      return `${marker}${tags.length - 1}q`
    })
    .join('')
  return { source, tags, pattern: new RegExp(`${marker}(\\d+)q`, 'g') }
}

/** Splits text at placeholders: strings stay, each placeholder becomes its number. */
export function splitAtPlaceholders(text: string, pattern: RegExp): Array<string | number> {
  return splitWithOffsets(text, pattern).pieces
}

/** As splitAtPlaceholders, with the offset in `text` where each piece starts. */
export function splitWithOffsets(text: string, pattern: RegExp): { pieces: Array<string | number>; starts: number[] } {
  const pieces: Array<string | number> = []
  const starts: number[] = []
  let last = 0
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) {
      starts.push(last)
      pieces.push(text.slice(last, match.index))
    }
    starts.push(match.index)
    pieces.push(Number(match[1]))
    last = match.index + match[0].length
  }
  if (last < text.length) {
    starts.push(last)
    pieces.push(text.slice(last))
  }
  return { pieces, starts }
}
