import type { Token } from 'markdown-it'
import type { TemplateTag } from '../template/index.ts'
import { markdown } from './markdown.ts'
import { splitAtPlaceholders, splitWithOffsets, withPlaceholders } from './placeholders.ts'
import type { TagValues } from './resolved.ts'
import { fillUrl, isSafeUrl, LINK_SCHEMES } from './urls.ts'

export type RangeKind = 'variable' | 'formula' | 'bold' | 'italic' | 'link'

export interface AttributedString {
  /** Plain text: markdown markup removed, values in place. */
  text: string
  /** Offsets and lengths in UTF-16 code units (JavaScript string indexes), sorted by start, enclosing ranges first. */
  ranges: Array<{ start: number; length: number; kind: RangeKind; name?: string; href?: string }>
}

/** A place in the compiled text: an offset into one of its pieces (always 0 for a placeholder piece). */
interface Boundary {
  piece: number
  offset: number
}

/** A markdown range over the compiled text, which still has placeholders where values go. */
interface MarkupRange {
  start: Boundary
  end: Boundary
  kind: 'bold' | 'italic' | 'link'
  href?: Array<string | number>
}

/**
 * Text and attributed string share one compile: markdown parsed once with placeholders, walked into plain text
 * plus the bold / italic / link ranges; values are spliced in per render and range ends re-anchored to them.
 */
export interface PlainTemplate {
  tags: TemplateTag[]
  pieces: Array<string | number>
  ranges: MarkupRange[]
}

export function compilePlain(text: string): PlainTemplate {
  const { source, tags, pattern } = withPlaceholders(text)
  const writer = new PlainWriter()
  writer.blocks(markdown.parse(source, {}))
  const { pieces, starts } = splitWithOffsets(writer.text, pattern)
  // Range ends found while writing are offsets into the text with placeholders; re-anchor them to pieces.
  // An end at a placeholder's start stays before its value; anything past a piece's end moves to the next piece.
  const boundary = (at: number): Boundary => {
    let piece = starts.length
    while (piece > 0 && starts[piece - 1]! > at) piece--
    if (piece === 0) return { piece: 0, offset: 0 }
    const inside = pieces[piece - 1]!
    if (typeof inside === 'number') return { piece: at === starts[piece - 1] ? piece - 1 : piece, offset: 0 }
    const offset = at - starts[piece - 1]!
    return offset >= inside.length ? { piece, offset: 0 } : { piece: piece - 1, offset }
  }
  const ranges = writer.ranges.map((range): MarkupRange => ({
    start: boundary(range.start),
    end: boundary(range.end),
    kind: range.kind,
    ...(range.hrefText === undefined ? {} : { href: splitAtPlaceholders(range.hrefText, pattern) }),
  }))
  return { tags, pieces, ranges }
}

interface WrittenRange {
  start: number
  end: number
  kind: 'bold' | 'italic' | 'link'
  hrefText?: string
}

/** Among ranges over the same text, markup encloses values. */
const KIND_ORDER: Record<RangeKind, number> = { link: 0, bold: 1, italic: 2, variable: 3, formula: 4 }

const RANGE_OPENERS: Record<string, 'bold' | 'italic' | 'link'> = { strong_open: 'bold', em_open: 'italic', link_open: 'link' }
const RANGE_CLOSERS = new Set(['strong_close', 'em_close', 'link_close'])

/** Walks markdown-it tokens into plain text: blocks separated by blank lines, list items on their own lines. */
class PlainWriter {
  text = ''
  ranges: WrittenRange[] = []
  private owedBreaks = 0
  private readonly open: WrittenRange[] = []
  private readonly lists: Array<{ ordered: boolean }> = []
  private firstCell = true

  blocks(tokens: Token[]): void {
    for (const token of tokens) this.block(token)
  }

  private block(token: Token): void {
    switch (token.type) {
      case 'inline':
        this.inline(token.children ?? [])
        break
      case 'paragraph_close':
        this.breakAtLeast(token.hidden ? 1 : 2)
        break
      case 'heading_close':
      case 'blockquote_close':
      case 'table_close':
      case 'hr':
        this.breakAtLeast(2)
        break
      case 'bullet_list_open':
      case 'ordered_list_open':
        this.lists.push({ ordered: token.type === 'ordered_list_open' })
        this.breakAtLeast(1)
        break
      case 'bullet_list_close':
      case 'ordered_list_close':
        this.lists.pop()
        this.breakAtLeast(this.lists.length === 0 ? 2 : 1)
        break
      case 'list_item_open': {
        this.breakAtLeast(1)
        const indent = '  '.repeat(this.lists.length - 1)
        const ordered = this.lists[this.lists.length - 1]?.ordered === true
        this.write(`${indent}${ordered ? `${token.info}${token.markup}` : '-'} `)
        break
      }
      case 'list_item_close':
      case 'tr_close':
        this.breakAtLeast(1)
        break
      case 'tr_open':
        this.firstCell = true
        break
      case 'th_open':
      case 'td_open':
        if (!this.firstCell) this.write('\t')
        this.firstCell = false
        break
      case 'fence':
      case 'code_block':
        this.write(token.content.replace(/\n$/, ''))
        this.breakAtLeast(2)
        break
    }
  }

  private inline(tokens: Token[]): void {
    for (const token of tokens) {
      const opens = RANGE_OPENERS[token.type]
      if (opens !== undefined) {
        this.flush()
        const href = opens === 'link' ? token.attrGet('href') : null
        this.open.push({ start: this.text.length, end: this.text.length, kind: opens, ...(href === null ? {} : { hrefText: String(href) }) })
      } else if (RANGE_CLOSERS.has(token.type)) {
        const range = this.open.pop()
        if (range !== undefined && this.text.length > range.start) this.ranges.push({ ...range, end: this.text.length })
      } else if (token.type === 'softbreak' || token.type === 'hardbreak') {
        this.write('\n')
      } else if (token.type === 'image') {
        this.inline(token.children ?? [])
      } else if (token.type === 'text' || token.type === 'code_inline') {
        this.write(token.content)
      }
    }
  }

  private breakAtLeast(lines: number): void {
    this.owedBreaks = Math.max(this.owedBreaks, lines)
  }

  /** Line breaks owed by the previous block are written only once more text follows, so none trail at the end. */
  private flush(): void {
    if (this.text !== '' && this.owedBreaks > 0) this.text += '\n'.repeat(this.owedBreaks)
    this.owedBreaks = 0
  }

  private write(text: string): void {
    if (text === '') return
    this.flush()
    this.text += text
  }
}

export function fillText(template: PlainTemplate, values: TagValues): string {
  const pieces = template.pieces
  if (pieces.length === 1 && typeof pieces[0] === 'string') return pieces[0]
  let text = ''
  for (const piece of pieces) text += typeof piece === 'string' ? piece : values[piece]?.formatted ?? ''
  return text
}

export function fillAttributed(
  template: PlainTemplate,
  values: TagValues,
  questionHref: ((questionNodeId: string) => string) | undefined,
): AttributedString {
  const formatted = values.map((resolved) => resolved?.formatted ?? '')
  const ranges: AttributedString['ranges'] = []
  const pieceStarts: number[] = []
  let text = ''
  for (const piece of template.pieces) {
    pieceStarts.push(text.length)
    if (typeof piece === 'string') {
      text += piece
      continue
    }
    const value = formatted[piece]!
    const resolved = values[piece]
    if (value !== '' && resolved !== undefined) {
      const tag = template.tags[piece]!
      const href = backlink(resolved.questionNodeId, questionHref)
      ranges.push({ start: text.length, length: value.length, kind: tag.kind, name: tag.name, ...(href === undefined ? {} : { href }) })
    }
    text += value
  }
  pieceStarts.push(text.length)
  const at = (boundary: Boundary): number => pieceStarts[boundary.piece]! + boundary.offset
  for (const range of template.ranges) {
    const start = at(range.start)
    const length = at(range.end) - start
    if (length <= 0) continue
    if (range.kind !== 'link') ranges.push({ start, length, kind: range.kind })
    else {
      const href = fillUrl(range.href ?? [], formatted, LINK_SCHEMES)
      if (href !== undefined) ranges.push({ start, length, kind: 'link', href })
    }
  }
  ranges.sort((a, b) => a.start - b.start || b.length - a.length || KIND_ORDER[a.kind] - KIND_ORDER[b.kind])
  return { text, ranges }
}

function backlink(questionNodeId: string | undefined, questionHref: ((id: string) => string) | undefined): string | undefined {
  if (questionNodeId === undefined || questionHref === undefined) return undefined
  const href = questionHref(questionNodeId)
  return isSafeUrl(href, LINK_SCHEMES) ? href : undefined
}
