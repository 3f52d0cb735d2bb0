// The JSON text of an uploaded advice-set file (issue 28, "Hostile files"): UTF-8 (a BOM is allowed and dropped),
// at most 20 MB, nested at most MAX_JSON_DEPTH levels, without the keys `__proto__`, `constructor` and `prototype`
// anywhere, without a key twice in one object (parsers disagree on which one counts), and without text PostgreSQL
// cannot store (NUL, lone surrogates) or numbers beyond a double. One pass of an exact RFC 8259 scanner checks all of
// that and places every problem at its line and column (V8's own syntax errors give neither); only then does
// JSON.parse build the value, which is safe by then. secure-json-parse would only repeat the key check (and lets
// `constructor` through unless told), so it is not used here.
//
// locate() maps a JSON Pointer back to the line and column where its value starts, so the importer's validation
// errors can name both: "file /rules/3/nodes/0/type (line 120, column 15): …".
import { isUtf8 } from 'node:buffer'
import { MAX_JSON_DEPTH } from '../validate.ts'
import { isHighSurrogate, isLowSurrogate, lineColumnAt, PortableFileError, type PortablePlace } from './portable-error.ts'

/** Issue 28: an advice-set document, as a .json upload or as the set.json of a ZIP. */
export const MAX_JSON_BYTES = 20 * 1024 * 1024

/** Keys that could reach an object's prototype in code that copies or merges what was read. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype'])

/** A run of string characters that need no second look: no quote, backslash, control character or surrogate. */
const PLAIN = /[^"\\\u0000-\u001f\ud800-\udfff]*/y
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y
const HEX4 = /^[0-9a-fA-F]{4}$/
const SIMPLE_ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't'])

/** "/rules/3/name" from its segments (RFC 6901: `~` as `~0`, `/` as `~1`). */
export function pointerOf(segments: ReadonlyArray<string | number>): string {
  return segments.map((s) => `/${String(s).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('')
}

/** The segments of a JSON Pointer, or null when it is not one ("" is the whole document). */
export function segmentsOf(pointer: string): string[] | null {
  if (pointer === '') return []
  if (!pointer.startsWith('/')) return null
  const segments = pointer.slice(1).split('/')
  if (segments.some((s) => /~(?![01])/.test(s))) return null
  return segments.map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'))
}

/** Offset of the first byte that is not valid UTF-8 (overlong forms and encoded surrogates included), or -1. */
function firstBadUtf8Byte(bytes: Uint8Array): number {
  const at = (k: number): number => bytes[k] ?? -1
  for (let i = 0; i < bytes.length;) {
    const c = at(i)
    if (c < 0x80) {
      i++
      continue
    }
    const more = c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : 0
    if (more === 0) return i
    for (let k = 1; k <= more; k++) if ((at(i + k) & 0xc0) !== 0x80) return i
    const next = at(i + 1)
    if ((c === 0xe0 && next < 0xa0) || (c === 0xed && next > 0x9f) || (c === 0xf0 && next < 0x90) || (c === 0xf4 && next > 0x8f)) return i
    i += more + 1
  }
  return -1
}

/** The text of a JSON upload: at most MAX_JSON_BYTES, valid UTF-8, without its BOM. */
export function decodeJsonText(bytes: Uint8Array, entry?: string): string {
  const at: PortablePlace = entry === undefined ? {} : { entry }
  if (bytes.length > MAX_JSON_BYTES) {
    throw new PortableFileError(`the JSON document is larger than ${MAX_JSON_BYTES / (1024 * 1024)} MB.`, at)
  }
  // isUtf8 (simdutf) and toString are about ten times faster than a fatal TextDecoder on 20 MB.
  if (!isUtf8(bytes)) {
    const bad = Math.max(0, firstBadUtf8Byte(bytes))
    const { line, column } = lineColumnAt(Buffer.from(bytes.subarray(0, bad)).toString('utf8'), Infinity)
    throw new PortableFileError('the JSON document is not valid UTF-8 text; save it as UTF-8.', { ...at, line, column })
  }
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
}

/** How a character is shown in a message: itself in quotes when printable, else its code point. */
function shown(text: string, at: number): string {
  if (at >= text.length) return 'the end of the text'
  const code = text.codePointAt(at) as number
  return code > 0x20 && code !== 0x7f && !(code >= 0xd800 && code <= 0xdfff) ? `'${String.fromCodePoint(code)}'` : `U+${code.toString(16).toUpperCase().padStart(4, '0')}`
}

/** One pass over JSON text, refusing at the first problem with its place; see the file's header. */
class Scanner {
  private i = 0
  /** The keys and indexes down to the value being read, for the pointer of a problem. */
  private readonly path: Array<string | number> = []

  constructor(private readonly text: string, private readonly entry: string | undefined) {}

  scan(): void {
    this.skipSpace()
    this.value(1)
    this.skipSpace()
    if (this.i < this.text.length) this.fail(`the document goes on after its end (found ${shown(this.text, this.i)}).`)
  }

  /** A syntax error at `at`: a line and column, no pointer. */
  private fail(problem: string, at = this.i): never {
    const place: PortablePlace = { ...lineColumnAt(this.text, at) }
    throw new PortableFileError(problem, this.entry === undefined ? place : { entry: this.entry, ...place })
  }

  /** A well-formed document that is refused: at the value's pointer too. */
  private refuse(problem: string, at: number): never {
    const place: PortablePlace = { pointer: pointerOf(this.path), ...lineColumnAt(this.text, at) }
    throw new PortableFileError(problem, this.entry === undefined ? place : { entry: this.entry, ...place })
  }

  private skipSpace(): void {
    const text = this.text
    let i = this.i
    for (let c = text.charCodeAt(i); c === 32 || c === 10 || c === 13 || c === 9; c = text.charCodeAt(++i));
    this.i = i
  }

  private value(depth: number): void {
    const text = this.text
    const c = text.charCodeAt(this.i)
    if (c === 123 /* { */ || c === 91 /* [ */) {
      if (depth > MAX_JSON_DEPTH) this.refuse(`the document is nested more than ${MAX_JSON_DEPTH} levels deep.`, this.i)
      if (c === 123) this.object(depth)
      else this.array(depth)
    } else if (c === 34 /* " */) {
      this.string(false)
    } else if (c === 45 /* - */ || (c >= 48 && c <= 57)) {
      this.number()
    } else if (text.startsWith('true', this.i) || text.startsWith('null', this.i)) {
      this.i += 4
    } else if (text.startsWith('false', this.i)) {
      this.i += 5
    } else {
      this.fail(`expected a value, found ${shown(text, this.i)}.`)
    }
  }

  private object(depth: number): void {
    const text = this.text
    this.i++
    this.skipSpace()
    if (text.charCodeAt(this.i) === 125 /* } */) {
      this.i++
      return
    }
    const keys = new Set<string>()
    for (;;) {
      if (text.charCodeAt(this.i) !== 34) {
        this.fail(text.charCodeAt(this.i) === 125 ? "a comma before '}' (JSON allows no trailing comma)." : `expected a key in double quotes, found ${shown(text, this.i)}.`)
      }
      const keyAt = this.i
      const key = this.string(true)
      this.path.push(key)
      if (FORBIDDEN_KEYS.has(key)) this.refuse(`the key "${key}" is not allowed.`, keyAt)
      if (keys.has(key)) this.refuse(`the key ${JSON.stringify(key)} appears twice in one object.`, keyAt)
      keys.add(key)
      this.skipSpace()
      if (text.charCodeAt(this.i) !== 58 /* : */) this.fail(`expected ':' after the key, found ${shown(text, this.i)}.`)
      this.i++
      this.skipSpace()
      this.value(depth + 1)
      this.path.pop()
      this.skipSpace()
      const c = text.charCodeAt(this.i)
      this.i++
      if (c === 125) return
      if (c !== 44 /* , */) this.fail(`expected ',' or '}' after a member, found ${shown(text, this.i - 1)}.`, this.i - 1)
      this.skipSpace()
    }
  }

  private array(depth: number): void {
    const text = this.text
    this.i++
    this.skipSpace()
    if (text.charCodeAt(this.i) === 93 /* ] */) {
      this.i++
      return
    }
    for (let index = 0; ; index++) {
      if (text.charCodeAt(this.i) === 93) this.fail("a comma before ']' (JSON allows no trailing comma).")
      this.path.push(index)
      this.value(depth + 1)
      this.path.pop()
      this.skipSpace()
      const c = text.charCodeAt(this.i)
      this.i++
      if (c === 93) return
      if (c !== 44) this.fail(`expected ',' or ']' after an item, found ${shown(text, this.i - 1)}.`, this.i - 1)
      this.skipSpace()
    }
  }

  /** Reads a string at the quote under `i`; its value when `decode` (keys), else ''. */
  private string(decode: boolean): string {
    const text = this.text
    const start = this.i
    let j = start + 1
    let escaped = false
    for (;;) {
      PLAIN.lastIndex = j
      PLAIN.test(text)
      j = PLAIN.lastIndex
      if (j >= text.length) this.fail('a string starts here and is never closed.', start)
      const c = text.charCodeAt(j)
      if (c === 34) break
      if (c === 92 /* \ */) {
        escaped = true
        j = this.escape(j)
      } else if (c < 0x20) {
        this.fail(`a string holds the control character ${shown(text, j)}; write it as an escape such as \\n or \\t.`, j)
      } else if (isHighSurrogate(c) && isLowSurrogate(text.charCodeAt(j + 1))) {
        j += 2
      } else {
        this.refuse('a string holds a lone UTF-16 surrogate, which is not a character.', j)
      }
    }
    this.i = j + 1
    if (!decode) return ''
    return escaped ? (JSON.parse(text.slice(start, j + 1)) as string) : text.slice(start + 1, j)
  }

  /** Checks the escape at `j` (a backslash) and returns the offset after it. */
  private escape(j: number): number {
    const text = this.text
    const letter = text.charAt(j + 1)
    if (SIMPLE_ESCAPES.has(letter)) return j + 2
    if (letter !== 'u') this.fail(`\\${letter} is not a JSON escape (use \\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX).`, j)
    const code = this.hex4(j)
    if (code === 0) this.refuse('a string holds the NUL character (\\u0000), which cannot be stored.', j)
    if (isLowSurrogate(code)) this.refuse('a string holds a lone UTF-16 surrogate, which is not a character.', j)
    if (!isHighSurrogate(code)) return j + 6
    if (text.startsWith('\\u', j + 6) && isLowSurrogate(this.hex4(j + 6))) return j + 12
    return this.refuse('a string holds a lone UTF-16 surrogate, which is not a character.', j)
  }

  private hex4(j: number): number {
    const digits = this.text.slice(j + 2, j + 6)
    if (!HEX4.test(digits)) this.fail('\\u must be followed by four hexadecimal digits.', j)
    return parseInt(digits, 16)
  }

  private number(): void {
    NUMBER.lastIndex = this.i
    if (!NUMBER.test(this.text)) this.fail(`expected a number, found ${shown(this.text, this.i)}.`)
    const literal = this.text.slice(this.i, NUMBER.lastIndex)
    if (!Number.isFinite(Number(literal))) this.refuse(`the number ${literal.length > 40 ? `${literal.slice(0, 40)}…` : literal} is too large.`, this.i)
    this.i = NUMBER.lastIndex
  }
}

/**
 * The value of JSON text, refused with a PortableFileError at the first problem (see the file's header). `entry`
 * names the ZIP entry the text came from, for the message.
 */
export function parsePortableJson(text: string, entry?: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  new Scanner(body, entry).scan()
  return JSON.parse(body)
}

/** From the scanner's exact rules, less the checks: where the string starting at `i` ends (after its quote), or -1. */
function stringEnd(text: string, i: number): number {
  for (let from = i + 1; ;) {
    const quote = text.indexOf('"', from)
    if (quote < 0) return -1
    let backslashes = 0
    while (text.charCodeAt(quote - 1 - backslashes) === 92) backslashes++
    if (backslashes % 2 === 0) return quote + 1
    from = quote + 1
  }
}

const SCALAR = /-?[0-9][0-9.eE+-]*|true|false|null/y
/** What lies between the characters that matter to valueEnd: quotes and brackets. */
const STRUCTURE_GAP = /[^"{}[\]]*/y

/** Where the value starting at `i` ends, or -1. Counts brackets outside strings: the text was read by the scanner. */
function valueEnd(text: string, i: number): number {
  const c = text.charCodeAt(i)
  if (c === 34) return stringEnd(text, i)
  if (c === 123 || c === 91) {
    let depth = 0
    for (let j = i; j < text.length; j++) {
      STRUCTURE_GAP.lastIndex = j
      STRUCTURE_GAP.test(text)
      j = STRUCTURE_GAP.lastIndex
      const d = text.charCodeAt(j)
      if (d === 34) {
        j = stringEnd(text, j) - 1
        if (j < 0) return -1
      } else if (d === 123 || d === 91) {
        depth++
      } else if ((d === 125 || d === 93) && --depth === 0) {
        return j + 1
      }
    }
    return -1
  }
  SCALAR.lastIndex = i
  return SCALAR.test(text) ? SCALAR.lastIndex : -1
}

function spaceEnd(text: string, i: number): number {
  for (let c = text.charCodeAt(i); c === 32 || c === 10 || c === 13 || c === 9; c = text.charCodeAt(++i));
  return i
}

const ARRAY_INDEX = /^(?:0|[1-9][0-9]*)$/

/**
 * Where the value at `pointer` lies in JSON text read by parsePortableJson: its first character and the offset just
 * after its last, or null when the pointer names nothing there. One pass that stops at the value: each character is
 * read at most once (the first member of an object with the key is the one, since the reader refuses a key twice).
 */
export function locateOffset(text: string, pointer: string): { start: number; end: number } | null {
  const segments = segmentsOf(pointer)
  if (segments === null) return null
  let i = spaceEnd(text, text.charCodeAt(0) === 0xfeff ? 1 : 0)
  for (const segment of segments) {
    const open = text.charCodeAt(i)
    if (open !== 123 && open !== 91) return null
    if (open === 91 && !ARRAY_INDEX.test(segment)) return null
    const index = open === 91 ? Number(segment) : -1
    i = spaceEnd(text, i + 1)
    if (text.charCodeAt(i) === (open === 123 ? 125 : 93)) return null
    for (let n = 0; ; n++) {
      if (open === 123) {
        if (text.charCodeAt(i) !== 34) return null
        const keyEnd = stringEnd(text, i)
        if (keyEnd < 0) return null
        const raw = text.slice(i + 1, keyEnd - 1)
        const key = raw.includes('\\') ? (JSON.parse(text.slice(i, keyEnd)) as string) : raw
        i = spaceEnd(text, keyEnd)
        if (text.charCodeAt(i) !== 58) return null
        i = spaceEnd(text, i + 1)
        if (key === segment) break
      } else if (n === index) {
        break
      }
      const end = valueEnd(text, i)
      if (end < 0) return null
      i = spaceEnd(text, end)
      if (text.charCodeAt(i) !== 44) return null
      i = spaceEnd(text, i + 1)
    }
  }
  const end = valueEnd(text, i)
  return end < 0 ? null : { start: i, end }
}

/** The 1-based line and column where the value at `pointer` starts in JSON text, or null when there is none. */
export function locate(text: string, pointer: string): { line: number; column: number } | null {
  const found = locateOffset(text, pointer)
  return found === null ? null : lineColumnAt(text, found.start)
}

/**
 * The importer's error for the value at `pointer` of the document read from `text`: placed at its line and column,
 * or at those of its nearest ancestor when it is not there (a required member that is missing).
 */
export function errorAt(text: string, pointer: string, problem: string, entry?: string): PortableFileError {
  const segments = segmentsOf(pointer) ?? []
  for (let n = segments.length; n >= 0; n--) {
    const at = locate(text, pointerOf(segments.slice(0, n)))
    if (at) return new PortableFileError(problem, { ...(entry === undefined ? {} : { entry }), pointer, ...at })
  }
  return new PortableFileError(problem, { ...(entry === undefined ? {} : { entry }), pointer })
}
