// What a file is, told from its first bytes (never its name or the browser's word): file-type knows the binary
// formats; HTML and SVG, which it does not, are told by their markup. The format (SPEC §3) follows from the type.
import { fileTypeFromBuffer } from 'file-type'
import type { SupplementFormat } from '../../db/schema/index.ts'

export interface FileKind {
  contentType: string
  fileExt: string
  format: SupplementFormat
}

/** Raster images: shown inline and thumbnailed. SVG is an image too, but can carry scripts. */
const RASTER_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp', 'image/tiff'])
/** Plain-text formats a name may choose between once the bytes are known to be text. */
const TEXT_EXTENSIONS: Readonly<Record<string, string>> = {
  txt: 'text/plain', csv: 'text/csv', tsv: 'text/tab-separated-values', md: 'text/markdown', json: 'application/json',
}

export const HTML_TYPE = 'text/html'
export const SVG_TYPE = 'image/svg+xml'
export const LINK_TYPE = 'text/uri-list'

export function isRasterImage(contentType: string): boolean {
  return RASTER_TYPES.has(contentType)
}

/** Markup a browser would run scripts in when shown from our origin: never served that way. */
export function isActiveContent(contentType: string): boolean {
  return contentType === HTML_TYPE || contentType === SVG_TYPE || contentType === 'application/xhtml+xml' || contentType === 'application/xml'
}

/** Text is valid UTF-8 without NUL bytes (a cut-off last character is allowed: the head ends anywhere). */
function looksLikeText(head: Buffer): boolean {
  if (head.includes(0)) return false
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, Math.max(0, head.length - 3)))
    return true
  } catch {
    return false
  }
}

function markupKind(text: string): 'html' | 'svg' | null {
  const start = text.replace(/^\uFEFF/, '').replace(/^(\s|<\?xml[^>]*\?>|<!--[\s\S]*?-->)*/i, '').slice(0, 1024).toLowerCase()
  if (start.startsWith('<svg') || (start.startsWith('<!doctype svg'))) return 'svg'
  // Anything a browser would sniff as HTML: a doctype or any of the tags its sniffing algorithm looks for.
  if (/^<(!doctype html|html|head|body|script|iframe|h1|div|font|table|a|style|title|b|br|p)[\s>/]/.test(start)) return 'html'
  if (/<(html|script|body|iframe)[\s>/]/i.test(text)) return 'html'
  return null
}

function extensionOf(name: string): string {
  const match = /\.([a-z0-9]{1,10})$/i.exec(name)
  return match ? match[1]!.toLowerCase() : ''
}

export async function fileKindOf(head: Buffer, originalName: string): Promise<FileKind> {
  const found = await fileTypeFromBuffer(head)
  if (found && found.mime !== 'application/xml') {
    return { contentType: found.mime, fileExt: found.ext, format: isRasterImage(found.mime) ? 'image' : 'file' }
  }
  if (!looksLikeText(head)) return { contentType: 'application/octet-stream', fileExt: 'bin', format: 'file' }
  const markup = markupKind(head.toString('utf8'))
  if (markup === 'html') return { contentType: HTML_TYPE, fileExt: 'html', format: 'viz' }
  if (markup === 'svg') return { contentType: SVG_TYPE, fileExt: 'svg', format: 'image' }
  if (found) return { contentType: 'application/xml', fileExt: 'xml', format: 'file' }
  const ext = extensionOf(originalName)
  const textType = TEXT_EXTENSIONS[ext]
  return textType ? { contentType: textType, fileExt: ext, format: 'file' } : { contentType: 'text/plain', fileExt: 'txt', format: 'file' }
}
