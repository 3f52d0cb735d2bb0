import { wellFormed } from './escape.ts'

// Browsers skip control characters and spaces while reading a URL's scheme ("java\tscript:"), so we do too.
const IGNORED_IN_SCHEME = /[\u0000-\u0020\u007f-\u009f]/g
const SCHEME = /^([a-z][a-z0-9+.-]*):/i

export const LINK_SCHEMES: readonly string[] = ['http', 'https', 'mailto', 'tel']
export const IMAGE_SCHEMES: readonly string[] = ['http', 'https']

/** True for relative URLs and for absolute ones whose scheme is allowed. */
export function isSafeUrl(url: string, schemes: readonly string[]): boolean {
  const scheme = SCHEME.exec(url.replace(IGNORED_IN_SCHEME, ''))
  return scheme === null || schemes.includes(scheme[1]!.toLowerCase())
}

/**
 * A URL with tag values in it. A value that is the whole URL is used as written (it is meant to be a link);
 * a value inside a URL is percent-encoded so it stays one piece of data. `undefined` when the result is unsafe.
 */
export function fillUrl(pieces: ReadonlyArray<string | number>, values: ReadonlyArray<string>, schemes: readonly string[]): string | undefined {
  const single = pieces.length === 1 && typeof pieces[0] === 'number'
  const url = pieces
    .map((piece) => (typeof piece === 'string' ? piece : single ? values[piece]!.trim() : encodeURIComponent(wellFormed(values[piece]!))))
    .join('')
  return isSafeUrl(url, schemes) ? url : undefined
}
