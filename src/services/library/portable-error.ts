// The one error of an uploaded advice-set file (issue 28): a 400 at the form field `file` whose message names the
// problem and where it is. API clients get the place as separate facts too: `error.pointer` (RFC 6901, into the JSON
// document), `error.line` and `error.column` (1-based, in the JSON text) and `error.entry` (the ZIP entry at fault),
// each only when known, beside `error.field` and `error.fields` (http/plugins/errors.ts spreads `details` into the
// error object).
import { ValidationError } from '../errors.ts'

/** Where in an uploaded file a problem is. Columns count characters (code points), not bytes or UTF-16 units. */
export interface PortablePlace {
  /** The ZIP entry at fault, as named in the archive; `set.json` for problems in the document of a ZIP. */
  entry?: string
  pointer?: string
  line?: number
  column?: number
}

/**
 * "file: /rules/3/nodes/0/type (line 120, column 15): must be text.", "file: line 4, column 7: expected …" for a
 * syntax error, "file: set.json, line 4, column 7: …" inside a ZIP, and "file: the ZIP entry "../x" …" (a problem
 * with an entry names it itself).
 */
function messageOf(problem: string, place: PortablePlace): string {
  const at = place.line === undefined ? '' : `line ${place.line}, column ${place.column ?? 1}`
  let where = place.pointer ? (at ? `${place.pointer} (${at})` : place.pointer) : at
  if (where && place.entry !== undefined) where = place.pointer ? `${place.entry} ${where}` : `${place.entry}, ${where}`
  return where ? `file: ${where}: ${problem}` : `file: ${problem}`
}

export class PortableFileError extends ValidationError {
  constructor(readonly problem: string, readonly place: PortablePlace = {}) {
    super('file', messageOf(problem, place))
    this.details = { ...this.details, ...place }
  }
}

/** 1-based line and column of the character at `offset` in `text`: CR LF, LF and a lone CR each end a line. */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  let line = 1
  let lineStart = 0
  const end = Math.min(offset, text.length)
  const cr = text.indexOf('\r')
  if (cr < 0 || cr >= end) {
    // Only LF before the offset (the canonical form): let indexOf find them.
    for (let lf = text.indexOf('\n'); lf >= 0 && lf < end; lf = text.indexOf('\n', lf + 1)) {
      line++
      lineStart = lf + 1
    }
  } else {
    for (let i = 0; i < end; i++) {
      const c = text.charCodeAt(i)
      if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
        line++
        lineStart = i + 1
      }
    }
  }
  let column = 1
  for (let i = lineStart; i < end; i++) {
    const c = text.charCodeAt(i)
    // The second half of a surrogate pair is the same character as the first.
    if (!(isLowSurrogate(c) && i > lineStart && isHighSurrogate(text.charCodeAt(i - 1)))) column++
  }
  return { line, column }
}

export function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff
}

export function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff
}
